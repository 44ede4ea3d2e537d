// @ts-check
// The teacher's live pages of the class tables service (pages.py): ask the service for the
// page's live part again once any table has changed (a long-poll, `?after=` the room's news
// the page shows), and put it in place. It decides nothing: the service's referee does, and
// the service draws the HTML. Without this script the page reloads itself (<noscript>).
(function () {
  const live = document.getElementById("live");
  if (!live) return;
  const xsrfMeta = document.querySelector('meta[name="loo-xsrf"]');
  const xsrf = xsrfMeta ? xsrfMeta.getAttribute("content") || "" : "";
  let news = Number(live.dataset.news || "0");

  /** @param {number} ms */
  function pause(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  async function follow() {
    for (;;) {
      const url = new URL(window.location.href);
      url.searchParams.set("after", String(news));
      url.searchParams.delete("opened");
      try {
        const r = await fetch(url.toString(), {
          headers: { "X-XSRFToken": xsrf, Accept: "application/json" },
          credentials: "same-origin",
          cache: "no-store",
        });
        const type = r.headers.get("Content-Type") || "";
        if (!r.ok || !type.startsWith("application/json")) {
          // logged out, or the service restarted: the whole page again
          window.location.reload();
          return;
        }
        /** @type {{news: number, html: string}} */
        const got = await r.json();
        if (got.news !== news) {
          news = got.news;
          if (live) live.innerHTML = got.html; // the service's own escaped HTML
        }
      } catch (e) {
        await pause(2000); // the network or the service is away: try again shortly
      }
    }
  }
  follow();
})();
