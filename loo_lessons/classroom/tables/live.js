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

  // "Reconnecting…" above the live part while the service is away (restarting, the network)
  const said = document.createElement("p");
  said.className = "loo-live-status";
  said.setAttribute("role", "status");
  live.before(said);
  /** @param {string} text */
  function say(text) {
    if (said.textContent !== text) said.textContent = text;
  }

  async function follow() {
    let tries = 0;
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
        if (r.status >= 500 || r.status === 429) {
          // the service is restarting (the hub's proxy answers 503), or busy: wait and ask again
          throw new Error(String(r.status));
        }
        if (!r.ok || !type.startsWith("application/json")) {
          // logged out: the whole page again (the hub's login)
          window.location.reload();
          return;
        }
        /** @type {{news: number, html: string}} */
        const got = await r.json();
        tries = 0;
        say("");
        if (got.news !== news) {
          news = got.news;
          if (live) live.innerHTML = got.html; // the service's own escaped HTML
        }
      } catch (e) {
        // the network or the service is away: say so, and try again shortly (1, 2, 4… 10 s)
        say("Reconnecting… (the class tables service is not answering; this page carries on by itself)");
        await pause(Math.min(1000 * 2 ** tries, 10000));
        tries += 1;
      }
    }
  }
  follow();
})();
