// @ts-check
// The scenario playground page (book/playground.md): text in, the engine's answer out.
// JavaScript decides nothing here: every answer is `loo_lessons.explain.playground.answer`
// (Python), either computed at build time for the shipped examples (embedded in the page as
// JSON), or computed now by the real engine running in the page.
//
// The in-page engine (window.looEngine, js/engine.js, inlined into this page by the
// {loo-playground} directive when the package has it): `looEngine.start()` loads it,
// `looEngine.ready` resolves when it is up (rejects from file:// or on failure), and
// `looEngine.run("explain", {text})` answers. Also accepted: `looEngine.explain(text)`.
// The answer is {ok, text, html, json, error} (playground.answer); the older shape
// {text, json} | {refused} | {error} is shown too (its text in a <pre>). Without an engine
// (from file://, or while it loads) a shipped example, unchanged, is still answered; other
// text says what is needed.
//
// Address: playground.html#example=NAME opens a shipped example; #scenario=TEXT (URL-encoded)
// opens that text, as the lessons' "Open in the playground" links do.
(function () {
  "use strict";

  /** A shipped example: its name, title, text and the answer the build gave.
   * @typedef {{name: string, title?: string, text: string, answer: Answer}} Example */
  /** What `playground.answer` (Python) gives: ok, the text, its HTML, its JSON, or one line.
   * @typedef {{ok: boolean, text: string, html: string, json: unknown, error: string | null}} Answer */

  /** The page's element `id` (the directive writes them all with the box). */
  const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

  function start() {
    const found = /** @type {HTMLElement | null} */ (document.querySelector(".loo-playground"));
    if (!found) return;
    const box = found; // never null in the functions below
    const data = JSON.parse(byId("loo-playground-examples").textContent || "{}");
    /** @type {Example[]} */
    const examples = data.examples || [];
    const byName = new Map(examples.map((e) => [e.name, e]));
    const byText = new Map(examples.map((e) => [e.text, e]));
    const select = /** @type {HTMLSelectElement} */ (document.getElementById("loo-pg-example"));
    const area = /** @type {HTMLTextAreaElement} */ (document.getElementById("loo-pg-text"));
    const go = byId("loo-pg-explain");
    const status = byId("loo-pg-status");
    const out = byId("loo-pg-answer");
    const json = byId("loo-pg-json");
    const fromFile = window.location.protocol === "file:";
    let engineState = "none"; // none | loading | ready | failed

    for (const e of examples) {
      const o = document.createElement("option");
      o.value = e.name;
      o.textContent = e.title ? `${e.title} (${e.name})` : e.name;
      select.append(o);
    }

    function engine() {
      const e = window.looEngine;
      return e && (typeof e.explain === "function" || typeof e.run === "function") ? e : null;
    }

    /** @param {unknown} t @returns {string} */
    function escape(t) {
      /** @type {Record<string, string>} */
      const entity = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
      return String(t).replace(/[&<>"']/g, (c) => entity[c]);
    }

    /** Either shape the engine answers in, as an Answer.
     * @param {unknown} answer @returns {Answer} */
    function normal(answer) {
      const r = /** @type {{ ok?: unknown, refused?: string, error?: string, text: string, json?: unknown, html?: string } | null | undefined} */ (answer);
      if (r && typeof r.ok === "boolean") return /** @type {Answer} */ (r);
      const line = r && (r.refused || (r.error && "error: " + r.error));
      if (line || !r || !r.json) {
        const msg = line || "error: the engine gave no answer";
        return { ok: false, text: "", json: null, error: msg, html: `<p class="loo-refused" role="alert">${escape(msg)}</p>` };
      }
      return { ok: true, text: r.text, json: r.json, error: null, html: r.html || `<pre class="loo-explain">${escape(r.text || "")}</pre>` };
    }

    /** The worker's one-line refusal, as the page says it.
     * @param {unknown} err @returns {string} */
    function refusedLine(err) {
      const why = String((err instanceof Error && err.message) || err || "").split("\n")[0].slice(0, 300);
      return `Refused: ${why || "the engine did not take this text"}`;
    }

    /** @param {string} text */
    function say(text) {
      status.textContent = text;
      status.setAttribute("data-engine", engineState);
    }

    /** @param {Answer} ans @param {string} how */
    function show(ans, how) {
      out.innerHTML = ans.html || ""; // built by Python, every piece of the input escaped there
      out.setAttribute("data-ok", ans.ok ? "true" : "false");
      out.setAttribute("data-how", how);
      json.textContent = ans.ok ? JSON.stringify(ans.json, null, 2) : ans.error || "";
      box.setAttribute("data-answered", how);
    }

    function needEngine() {
      out.replaceChildren();
      out.removeAttribute("data-ok");
      const p = document.createElement("p");
      p.className = "loo-pg-need";
      if (fromFile) {
        p.append("Your own scenarios are answered by the live engine, and the book must be opened through a web server for it: run ");
        const c = document.createElement("code");
        c.textContent = "make serve-book";
        p.append(c, " and open http://127.0.0.1:8000/.");
      } else if (engineState === "loading") {
        p.textContent = "The engine is loading; your scenario is answered as soon as it is ready.";
      } else {
        p.textContent = "The live engine is not available in this page, so only the shipped examples, unchanged, are answered.";
      }
      out.append(p);
      json.textContent = "";
      box.setAttribute("data-answered", "none");
    }

    let asked = 0;
    async function explain() {
      const text = area.value;
      const mine = ++asked;
      const known = byText.get(text);
      const e = engine();
      const staticAnswer = () => {
        if (known) show(known.answer, "static");
        say("Answered when the book was built (a shipped example, unchanged).");
      };
      if (known && engineState !== "ready") return staticAnswer(); // at once, engine or not
      if (e && !fromFile && engineState !== "failed") {
        say(engineState === "ready" ? "Asking the engine…" : "Waiting for the engine to load…");
        if (engineState !== "ready") {
          needEngine();
          box.setAttribute("data-answered", "waiting");
        }
        try {
          const ans = normal(typeof e.explain === "function" ? await e.explain(text) : await e.run("explain", { text }));
          if (mine !== asked) return;
          show(ans, "engine");
          engineState = "ready";
          say(ans.ok ? "Answered by the engine." : "Refused by the engine.");
          return;
        } catch (err) {
          if (mine !== asked) return;
          // The worker refuses a text it will not pass to Python (too long, nested too deeply)
          // and stays up: a refusal is an answer, not a dead engine (issue 25).
          if (e.state === "ready") {
            show(normal({ refused: refusedLine(err) }), "engine");
            engineState = "ready";
            say("Refused by the engine.");
            return;
          }
          engineState = "failed";
        }
      }
      if (known) return staticAnswer();
      needEngine();
      say(fromFile ? "Opened from a file: no live engine." : "No live engine.");
    }

    // "Ask the coach": the coach's advice for the seat to act (views.advice.advise, run by the
    // live engine; there is no build-time answer for it).
    const coachBtn = byId("loo-pg-coach");
    const coachOut = byId("loo-pg-coach-answer");
    let coached = 0;
    /** @param {string} htmlText @param {string} how @param {boolean | null} ok */
    function coachSays(htmlText, how, ok) {
      coachOut.innerHTML = htmlText; // built by Python (or here from fixed words), input escaped
      coachOut.setAttribute("data-how", how);
      if (ok === null) coachOut.removeAttribute("data-ok");
      else coachOut.setAttribute("data-ok", ok ? "true" : "false");
    }
    async function askCoach() {
      const text = area.value;
      const mine = ++coached;
      const e = engine();
      if (!e || fromFile || engineState === "failed" || typeof e.run !== "function") {
        coachSays(`<p class="loo-pg-need">${fromFile
          ? "The coach needs the live engine, and the book must be opened through a web server for it: run <code>make serve-book</code>."
          : "The coach needs the live engine, which is not available in this page."}</p>`, "none", null);
        return;
      }
      coachSays(`<p class="loo-pg-need">${engineState === "ready"
        ? "The coach is playing the moves out…"
        : "Waiting for the engine to load; the coach answers as soon as it is ready."}</p>`, "waiting", null);
      try {
        const ans = normal(await e.run("coach", { text }));
        if (mine !== coached) return;
        coachSays(ans.html || "", "engine", ans.ok);
      } catch (err) {
        if (mine !== coached) return;
        const line = e.state === "ready" ? escape(refusedLine(err)) : "The engine could not answer.";
        coachSays(`<p class="loo-refused" role="alert">${line}</p>`, "engine", false);
      }
    }
    coachBtn.addEventListener("click", askCoach);
    const coachForgets = () => {
      coached++; // an answer still coming is for the old text
      coachOut.replaceChildren();
      coachOut.removeAttribute("data-how");
      coachOut.removeAttribute("data-ok");
    };
    area.addEventListener("input", coachForgets);

    /** @param {string} text @param {boolean} explainNow */
    function load(text, explainNow) {
      area.value = text;
      coachForgets();
      const known = byText.get(text);
      select.value = known ? known.name : "";
      if (explainNow) explain();
    }

    select.addEventListener("change", () => {
      const e = byName.get(select.value);
      if (e) {
        load(e.text, true);
        history.replaceState(null, "", "#example=" + encodeURIComponent(e.name));
      }
    });
    go.addEventListener("click", explain);
    area.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault();
        explain();
      }
    });

    // the engine: start it, and answer what waited for it
    const ready = () => {
      engineState = "ready";
      if (box.getAttribute("data-answered") !== "waiting") {
        say("Engine ready: type or change a scenario and press Explain (Ctrl+Enter).");
      }
    };
    document.addEventListener("loo-engine-ready", ready);
    document.addEventListener("loo-engine-failed", () => {
      engineState = "failed";
      say("The engine could not start here: only the shipped examples are answered.");
    });
    const e = engine();
    if (fromFile) {
      say("Opened from a file: the shipped examples are answered; your own need a web server (make serve-book).");
    } else if (e) {
      engineState = "loading";
      say("Loading the engine…");
      try {
        if (typeof e.start === "function") e.start();
        if (e.ready && typeof e.ready.then === "function") e.ready.then(ready, () => {
          engineState = "failed";
          say("The engine could not start here: only the shipped examples are answered.");
          if (box.getAttribute("data-answered") === "none") explain(); // say it in the answer too
        });
        else if (engine()) ready();
      } catch (err) {
        engineState = "failed";
      }
    } else {
      say("No live engine in this page: the shipped examples are answered as they were when the book was built.");
    }

    // what to show first: the address's example or scenario, else the first example
    const fromAddress = (/** @type {boolean} */ first) => {
      const params = new URLSearchParams(window.location.hash.slice(1));
      const scenario = params.get("scenario");
      const example = byName.get(params.get("example") || "");
      if (scenario !== null) {
        load(scenario, true);
      } else if (example) {
        load(example.text, true);
      } else if (first && examples.length) {
        load(examples[0].text, true);
      }
    };
    fromAddress(true);
    window.addEventListener("hashchange", () => fromAddress(false));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
