// @ts-check
// The book keeps itself for offline reading: this registers the service worker the build
// writes at the site's root (loo-sw.js, scope: the whole book), which caches the runtime, the
// engine and every page of this build on the first visit. From file:// (no service worker
// there) nothing happens: the pages' static answers work as they are.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  const me = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  if (!me || !me.src) return;
  const root = new URL("../", me.src.split("?")[0]).href; // this file is ROOT/_static/loo-offline.js
  function register() {
    navigator.serviceWorker.register(root + "loo-sw.js", { scope: root }).catch(function () {
      // not kept offline (e.g. a private window): the book works online as before
    });
  }
  // The first visit's copy of the book is fetched once the page is up and its widgets are
  // live (or the engine failed, or 30 s passed), so it never slows the first live answers.
  addEventListener("load", function () {
    const engine = window.looEngine;
    const starting = engine && engine.state !== "idle" && engine.ready && typeof engine.ready.then === "function";
    if (!starting || navigator.serviceWorker.controller) return register();
    let done = false;
    const go = function () { if (!done) { done = true; register(); } };
    const settled = function () {
      if (!document.querySelector('[data-loo-live]:not([data-loo-engine]), [data-loo-engine="waiting"]')) go();
      else if (!done) setTimeout(settled, 250);
    };
    engine.ready.then(settled, go);
    setTimeout(go, 30000);
  });
})();
