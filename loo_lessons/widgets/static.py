"""Static export: the same front-end components with no kernel, offline, from file://.

`component_html(name, state)` is a self-contained HTML fragment: the component's module
inlined in a `<script type="module">`, its state embedded as JSON, and a tiny stand-in for
the widget model (get / set / save_changes / on) over that JSON. Nothing is fetched from
anywhere: no CDN, no web font, no image. `quiz_page(questions, title)` is a whole page with
the quiz component over a precomputed bank; it grades in the browser.

Pure Python: no Jupyter import (the book build and the CLI can use it).
"""

from __future__ import annotations

import copy
import hashlib
import html
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from loo_lessons.widgets.bundle import COMPONENTS, script
from loo_lessons.widgets.kinds import REGISTRY

#: Every component's state traits and their starting values (the live widgets use the same),
#: from the one list of widgets (`registry`).
DEFAULT_STATE: dict[str, dict[str, Any]] = {
    name: copy.deepcopy(dict(next(e.state for e in REGISTRY.values() if e.js == name))) for name in COMPONENTS
}

#: What a fragment says where JavaScript is off, when not "This exercise needs JavaScript."
NOSCRIPT: dict[str, str] = {"present": "This presenter needs JavaScript."}

#: The stand-in for the widget model: the only four calls the components make; and the
#: decoding of a state the page carries encoded (`encode_state`).
MODEL_STANDIN = """\
function looState(text) {
  return JSON.parse(String(text).replace(/[A-Za-z0-9]/g, (c) => {
    const x = c.charCodeAt(0), b = x < 58 ? 48 : x < 91 ? 65 : 97, n = x < 58 ? 10 : 26;
    return String.fromCharCode(((x - b + n / 2) % n) + b);
  }));
}
function looModel(given) {
  // static_page: no kernel answers here (the quiz then deals only the codes the page holds)
  const state = { ...given, static_page: true };
  const handlers = {};
  return {
    get(key) { return state[key]; },
    set(key, value) {
      const old = state[key];
      state[key] = value;
      if (old !== value) for (const f of handlers["change:" + key] || []) f(this, value);
    },
    save_changes() {},
    on(events, f) {
      for (const e of String(events).split(/\\s+/)) (handlers[e] = handlers[e] || []).push(f);
    },
    off(events, f) {
      for (const e of String(events).split(/\\s+/)) handlers[e] = (handlers[e] || []).filter((g) => g !== f);
    },
    send() {},
    snapshot() { return JSON.parse(JSON.stringify(state)); },
  };
}
"""

#: A page that can reach no other host: everything it needs is inline.
CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"
)

PAGE_STYLE = """\
:root { color-scheme: light dark; }
body { margin: 0; background: #ffffff; color: #1a1a1a;
  font-family: system-ui, "DejaVu Sans", "Liberation Sans", Arial, sans-serif; }
@media (prefers-color-scheme: dark) { body { background: #15171c; color: #eceef2; } }
main { max-width: 1120px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.6em; margin: .3em 0 .6em; }
.loo-noscript { padding: 1em; border: 2px solid #b9bfc8; border-radius: 8px; }
@media print { .loo-class-intro { display: none; } main { max-width: none; padding: 0; } }
"""


class HasToJson(Protocol):
    """A quiz question that says itself as JSON (`Question.to_json`), as a static quiz page
    takes it."""

    def to_json(self) -> dict[str, Any]:
        """The question as the quiz's question schema."""
        ...


def json_for_html(value: Any) -> str:
    """JSON safe inside a <script> element (no `</script>`, no `<!--`)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


#: The type of a component's embedded state: its JSON, its letters and digits turned
#: (`encode_state`).
STATE_TYPE = "application/x-loo-state"

_STATE_RE = re.compile(rf'<script type="{re.escape(STATE_TYPE)}" class="loo-state">([^<]*)</script>')

_PLAIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#: Each letter 13 on, each digit 5 on: its own inverse, and the same length (a page's weight
#: stays what it was; base64 made lesson 13 a third heavier).
_TURN = str.maketrans(_PLAIN, "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm5678901234")


def encode_state(value: Any) -> str:
    """A component's state as the page carries it: its JSON (safe in a <script>), each letter
    and digit turned (13 letters, 5 digits on). A pick's answer, its verdicts, a quiz's answers
    and the lesson's words after Check travel in the state, so the page must not hold them as
    text a reader (or a search of the page) finds before he acts (issue 34); the component
    turns them back (`looState`)."""
    return json_for_html(value).translate(_TURN)


def decode_state(blob: str) -> Any:
    """What `encode_state` encoded (the tests and the book's build read a page's state so)."""
    return json.loads(blob.translate(_TURN))


def embedded_states(page_html: str) -> list[Any]:
    """Every component state embedded in `page_html`, decoded, in page order."""
    return [decode_state(m.group(1)) for m in _STATE_RE.finditer(page_html)]


_LIVE_RE = re.compile(r'data-loo-live="([^"]*)"')


def decoded_html(page_html: str) -> str:
    """`page_html` with every encoded state and live spec written out as JSON again, as the
    component reads them (for the tests and for reading a page by hand, never for a page)."""

    def state(m: re.Match[str]) -> str:
        return f'<script type="application/json" class="loo-state">{json_for_html(decode_state(m.group(1)))}</script>'

    def live(m: re.Match[str]) -> str:
        spec = decode_state(html.unescape(m.group(1)))
        return f'data-loo-live="{html.escape(json_for_html(spec), quote=True)}"'

    return _LIVE_RE.sub(live, _STATE_RE.sub(state, page_html))


def full_state(name: str, state: Mapping[str, Any]) -> dict[str, Any]:
    """The component's state with defaults filled in; unknown keys are refused."""
    if name not in DEFAULT_STATE:
        raise ValueError(f"unknown component {name!r} (known: {', '.join(COMPONENTS)})")
    defaults = DEFAULT_STATE[name]
    unknown = sorted(set(state) - set(defaults))
    if unknown:
        raise ValueError(
            f"{name}: unknown state keys {unknown} (known: {', '.join(sorted(defaults))})"
        )
    out = json.loads(json.dumps(defaults))
    out.update(json.loads(json.dumps(dict(state))))
    return dict(out)


def live_spec_html(kind: str, component: str, args: Mapping[str, Any]) -> str:
    """The attributes that let the book's engine (js/engine.js) run this widget live: which
    controller (`widgets.registry`), drawn by which component, made from what."""
    spec = encode_state({"kind": kind, "component": component, "args": dict(args)})
    return f' data-loo-live="{html.escape(spec, quote=True)}"'


#: A classic script (it runs while the page is still being read, before any module script):
#: the first live widget starts the engine's worker at once; engine.js takes it over, with
#: any message it sent in the meantime. The worker is the visit's SharedWorker (named after
#: the build, `extendedLifetime`: it outlives the page, so a later page finds Python running);
#: a dedicated Worker where the browser has no SharedWorker. As engine.js's `looConnect`.
_EARLY_START = """\
(function () {
  if (window.looEngineWorker || window.looEngine || location.protocol === "file:") return;
  var url = WORKER_URL;
  if (!url) return;
  try {
    var meta = document.querySelector('meta[name="loo-build"]');
    var c = null;
    if (typeof SharedWorker === "function") {
      try {
        var sw = new SharedWorker(url, { name: "loo-engine " + (meta ? meta.getAttribute("content") : "dev"),
                                         extendedLifetime: true });
        c = { port: sw.port, owner: sw, shared: true };
      } catch (e) {}
    }
    if (!c) { var w = new Worker(url); c = { port: w, owner: w, shared: false }; }
    var early = [];
    c.early = early;
    c.t0 = performance.now();
    c.failed = null;
    c.port.onmessage = function (e) { early.push(e); };
    c.owner.onerror = function (e) { e.preventDefault(); c.failed = e.message || "the worker failed"; };
    window.looEngineWorker = c;
  } catch (e) {}
})();
"""

EARLY_START = _EARLY_START.replace(
    "WORKER_URL",
    """(function () {
    var n = document.querySelector('link[href*="_static/"], script[src*="_static/"]');
    var u = n ? n.href || n.src : "";
    var i = u.indexOf("/_static/");
    if (window.LOO_ENGINE_BASE || document.querySelector('meta[name="loo-engine"]') || i < 0) return "";
    return u.slice(0, i) + "/_static/loo-engine/worker.js";
  })()""",
)


def engine_head(worker_url: str) -> str:
    """For the <head> of a book page with a live widget: the engine's worker started before
    the rest of the page is read (the first widget's EARLY_START then finds it running)."""
    url = json.dumps(worker_url)
    if "</" in url:
        raise ValueError("the worker's URL cannot hold '</'")
    return f"<script>\n{_EARLY_START.replace('WORKER_URL', url)}</script>\n"


def engine_script() -> str:
    """The book's engine client as an inline module script (js/engine.js): it installs
    `window.looEngine` and makes every `[data-loo-live]` widget on the page live. A page
    with no such widget (the playground) starts it itself: `looEngine.start()`, then
    `await looEngine.ready` and `await looEngine.run("explain", {text})`."""
    code = script("engine")
    if "</script" in code.lower() or "<!--" in code:
        raise ValueError("engine.js contains '</script' or '<!--': it cannot be inlined")
    return f"<script>\n{EARLY_START}</script>\n" f'<script type="module">\n{code}\n</script>\n'


def live_html(kind: str, component: str, args: Mapping[str, Any], fallback: str) -> str:
    """A widget the book's engine makes live: `fallback` (static HTML) shows at once and
    stays where the engine cannot run; once it has loaded, controller `kind` made from
    `args` replaces it, drawn by `component`."""
    uid = hashlib.sha256(f"{kind}\0{json_for_html(dict(args))}".encode()).hexdigest()[:12]
    return (
        f'<div class="loo-live-widget" data-loo-live-id="{uid}"{live_spec_html(kind, component, args)}>'
        f'<div class="loo-live-body">{fallback}</div></div>\n'
        + component_module(component)
        + engine_script()
    )


def component_module(name: str) -> str:
    """Component `name`'s code as one module script, the same text wherever it is used: it
    registers the component (`window.looComponents[name]`, for the book's engine) and draws
    every `div.loo-static[data-loo-component=name]` of the page not drawn yet, each over the
    state embedded in it. Repeated on a page, the later copies find nothing left to draw;
    the book's build turns every copy into one shared file (scripts/light_pages.py)."""
    code = script(name)
    if "</script" in code.lower() or "<!--" in code:
        raise ValueError(f"{name}.js contains '</script' or '<!--': it cannot be inlined")
    sel = f'div.loo-static[data-loo-component="{name}"]:not([data-loo-mounted])'
    return (
        '<script type="module">\n'
        f"{MODEL_STANDIN}"
        f"{code}\n"
        "window.looComponents = window.looComponents || {};\n"
        f'window.looComponents["{name}"] = __component;\n'
        f"for (const el of document.querySelectorAll('{sel}')) {{\n"
        '  const blob = el.querySelector(":scope > script.loo-state");\n'
        "  if (!blob) continue;\n"
        '  el.setAttribute("data-loo-mounted", "");\n'
        "  const model = looModel(looState(blob.textContent));\n"
        "  window.looLessons = window.looLessons || [];\n"
        f'  window.looLessons.push({{ name: "{name}", el, model }});\n'
        "  __component.render({ model, el });\n"
        "}\n"
        "</script>\n"
    )


def component_html(
    name: str, state: Mapping[str, Any], *, live: Mapping[str, Any] | None = None
) -> str:
    """A self-contained HTML fragment showing component `name` with this model state.

    `state` maps the component's traits (see DEFAULT_STATE) to values, e.g.
    `component_html("table", {"data": {"view": table_view(hand)}})`. Several fragments may
    share a page, the same one twice included. `live` ({"kind", "args"}): the book's engine
    takes this component over once it has loaded (`backends.browser.create`).
    """
    st = full_state(name, state)
    blob = encode_state(st)
    uid = hashlib.sha256(f"{name}\0{blob}".encode()).hexdigest()[:12]
    noscript = NOSCRIPT.get(name, "This exercise needs JavaScript.")
    spec = live_spec_html(str(live["kind"]), name, live.get("args") or {}) if live else ""
    return (
        f'<div class="loo-static" data-loo-component="{name}" data-loo-id="{uid}"{spec}>'
        f'<script type="{STATE_TYPE}" class="loo-state">{blob}</script>'
        f'<noscript><p class="loo-noscript">{noscript}</p></noscript>'
        "</div>\n" + component_module(name) + (engine_script() if live else "")
    )


class Html:
    """A piece of HTML that notebooks and the book both show."""

    def __init__(self, body: str) -> None:
        self.body = body

    def _repr_html_(self) -> str:
        return self.body

    def __repr__(self) -> str:
        return "Html(...)"


class Static:
    """A component that notebooks and the book show as static HTML (`_repr_html_`): no
    widget manager, no kernel needed to click it. `PickCard(...).static()` makes one."""

    def __init__(self, name: str, state: Mapping[str, Any]) -> None:
        self.name = name
        self.state = full_state(name, state)

    def __repr__(self) -> str:
        return f"Static({self.name!r})"

    def _repr_html_(self) -> str:
        return component_html(self.name, self.state)


def _question_json(q: HasToJson | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(q, Mapping):
        return dict(q)
    return q.to_json()


def page(title: str, body: str, *, lang: str = "en") -> str:
    """A whole offline HTML page around `body` (which may hold component fragments)."""
    t = html.escape(title)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{t}</title>\n<style>\n{PAGE_STYLE}</style>\n</head>\n<body>\n<main>\n"
        f"<h1>{t}</h1>\n{body}</main>\n</body>\n</html>\n"
    )


def bank_key(code: str) -> str:
    """The bank a class code deals from: "lead-10-42" -> "lead-42" (its first ten questions)."""
    from loo_lessons.quiz.class_code import parse

    c = parse(code)
    return f"{c.topic}-{c.seed}"


def quiz_fragment(
    questions: Iterable[HasToJson | Mapping[str, Any]],
    *,
    class_code: str | None = None,
    banks: Mapping[str, Iterable[HasToJson | Mapping[str, Any]]] | None = None,
    print_key: bool = False,
    title: str | None = None,
) -> str:
    """The quiz component over this bank, graded in the browser.

    With a `class_code` ("lead-10-42") the page also offers the class-code box, the pupil's
    name and the results export; `banks` ({"lead-42": questions, …}, pre-generated) are the
    other codes it can deal (by default only its own). Printed, the page is a handout: every
    question with a tick box before each choice, a question never split from its choices;
    `print_key` adds the answer key on pages of its own after them (the teacher's copy);
    without it (the default) the printout is the pupils' sheet, with no answers."""
    bank = [_question_json(q) for q in questions]
    data: dict[str, Any] = {"live": False, "print_key": print_key}
    if title:
        data["title"] = title
    if class_code is not None:
        bank_key(class_code)  # refuses a bad code here, not in the browser
        # the page's own questions are its code's bank; `banks` are the other codes it deals
        data["class_code"] = class_code
        data["banks"] = {k: [_question_json(q) for q in b] for k, b in (banks or {}).items()}
    return component_html(
        "quiz", {"questions": bank, "responses": [None] * len(bank), "data": data}
    )


def quiz_page(
    questions: Iterable[HasToJson | Mapping[str, Any]],
    title: str = "Loo quiz",
    *,
    class_code: str | None = None,
    banks: Mapping[str, Iterable[HasToJson | Mapping[str, Any]]] | None = None,
    print_key: bool = False,
) -> str:
    """A self-contained page: the quiz component over this bank of questions (Question
    objects or their `to_json()` mappings), graded in the browser (see `quiz_fragment`)."""
    intro = ""
    if class_code is not None:
        intro = (
            f'<p class="loo-class-intro">Class code <strong>{html.escape(class_code)}</strong>. '
            "Every page opened with this code deals the same questions: type another code "
            "(topic-count-seed, e.g. lead-10-42) or open the page at "
            f"<code>#class={html.escape(class_code)}</code>. Write your name, answer, then "
            "send your results (CSV file or result code) to your teacher.</p>\n"
        )
    return page(
        title,
        intro + quiz_fragment(questions, class_code=class_code, banks=banks, print_key=print_key),
    )
