"""Sphinx extension for the Loo Lessons book.

- Reads the pages that must never drift from the engine (sources, variants, disagreements,
  the command line, the API) from book/generated/, which `python -m tools.book_pages` writes
  before the build (scripts/build-book.sh): a plain step, not a Sphinx hook, so any builder
  (Jupyter Book 2 too) reads them.
- Links every rule id ("R24") in the text to the exact words it comes from on the sources
  page, and every ambiguity/variant id (A1, V5) to the variants page.
- Collapses every notebook code cell in the book (the `hide-input` tag, added as the
  notebook is read; the notebooks themselves are unchanged): readers who do not program
  see the views, a "Show code" toggle keeps the calls for the curious. A cell tagged
  `show-input` (a scenario file the lesson is about) stays open.
- Fails the build when a lesson's example is refused by the engine, unless the cell is
  tagged `expect-refusal` (a refusal is what it shows).
- The `{loo-playground}` and `{loo-progress}` directives: the scenario playground (with the
  shipped examples and their answers embedded) and the reader's progress page; and
  `{loo-pass-and-play}`, the pass-and-play table (an evening passed round one device); and
  `{loo-practice}`, the Practice page's widget (practice by rule, the record in this browser).
"""

from __future__ import annotations

import json
import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

RULE_RE = re.compile(r"\b(R(?:0[1-9]|[1-5][0-9]|6[0-3]))\b")
SOURCES_DOC = "book/generated/sources"

SKIP = (nodes.literal_block, nodes.literal, nodes.reference, nodes.title, nodes.raw,
        nodes.FixedTextElement, nodes.target)


class RuleLinks(SphinxPostTransform):
    default_priority = 900
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        builder = self.app.builder
        docname = self.env.docname
        try:
            base = builder.get_relative_uri(docname, SOURCES_DOC)
        except Exception:
            return
        for text in list(self.document.findall(nodes.Text)):
            parent = text.parent
            if parent is None or _inside(parent, SKIP):
                continue
            source = str(text)
            if not RULE_RE.search(source):
                continue
            new: list[nodes.Node] = []
            last = 0
            for m in RULE_RE.finditer(source):
                if m.start() > last:
                    new.append(nodes.Text(source[last : m.start()]))
                rid = m.group(1)
                ref = nodes.reference("", rid, refuri=f"{base}#rule-{rid.lower()}",
                                      classes=["rule-ref"])
                ref["reftitle"] = f"{rid}: the words of the book"
                new.append(ref)
                last = m.end()
            if last < len(source):
                new.append(nodes.Text(source[last:]))
            parent.replace(text, new)


def _inside(node: nodes.Node, kinds: tuple[type, ...]) -> bool:
    while node is not None:
        if isinstance(node, kinds):
            return True
        node = node.parent
    return False


def _strip_thebe(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: Any) -> None:
    """Jupyter Book always loads sphinx-thebe (a live-kernel launcher reaching unpkg.com); this
    offline book has no use for it, and it declares its config twice (a console error)."""

    def keep(item: Any) -> bool:
        body = str(getattr(item, "attributes", {}).get("body", ""))
        return "thebe" not in str(getattr(item, "filename", item) or "") and "THEBE" not in body

    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [x for x in context[key] if keep(x)]


def _start_engine_early(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                        doctree: Any) -> None:
    """A page with a live widget starts the engine's worker from its <head>, before the
    page is read (issue 11: the first live answer within 3 s); other pages never load it."""
    from loo_lessons.widgets.static import engine_head

    if "data-loo-live=" in str(context.get("body", "")):
        url = context["pathto"]("_static/loo-engine/worker.js", 1)
        context["metatags"] = str(context.get("metatags", "")) + engine_head(url)


#: The tag of a cell whose text is what the lesson shows (lesson 11's scenario files): kept open.
SHOW_INPUT = "show-input"


def _collapse_code(app: Sphinx, docname: str, source: list[str]) -> None:
    """Add `hide-input` to every code cell of a notebook as Sphinx reads it (the file on disk
    is untouched): the book shows the views, with a toggle for the code. A cell tagged
    `show-input` stays open."""
    if not str(app.env.doc2path(docname)).endswith(".ipynb"):
        return
    nb = json.loads(source[0])
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            tags = cell.setdefault("metadata", {}).setdefault("tags", [])
            if not {"hide-input", "remove-input", SHOW_INPUT} & set(tags):
                tags.append("hide-input")
    source[0] = json.dumps(nb, ensure_ascii=False)


#: What a refusal looks like in an executed output: an element the facade's views mark as
#: refused, or the CLI's error line. Scripts (the components' code, their JSON state) are
#: left out first: they name these classes without showing a refusal.
REFUSAL_RE = re.compile(
    r"""class=["'][^"']*\bloo-(?:check-)?refused\b|<b>Refused:</b>|^error: """, re.M
)
SCRIPT_RE = re.compile(r"<script\b.*?</script\s*>", re.S | re.I)
def _state_refused(text: str) -> bool:
    """Does a component's embedded state (encoded, widgets/static.py) hold a refusal it will
    show (`data.refused`)?"""
    from loo_lessons.widgets.static import embedded_states

    for state in embedded_states(text):
        data = state.get("data") if isinstance(state, dict) else None
        if isinstance(data, dict) and data.get("refused"):
            return True
    return False

EXPECT_REFUSAL = "expect-refusal"


def _refusals(app: Sphinx, doctree: nodes.document) -> None:
    """A lesson's example that the engine refuses breaks the lesson: warn (an error under
    -W) with the notebook and the cell, unless the cell says a refusal is what it shows."""
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") != "cell_code":
            continue
        tagged = f"tag_{EXPECT_REFUSAL}" in cell.get("classes", [])
        shown = [
            n.astext()
            for n in cell.findall(lambda n: isinstance(n, (nodes.raw, nodes.literal_block)))
            if not _inside_input(n)
        ]
        refused = any(
            REFUSAL_RE.search(SCRIPT_RE.sub("", t)) or _state_refused(t) for t in shown
        )
        where = f"{app.env.docname} cell {cell.get('cell_index')}"
        if refused and not tagged:
            logger.warning(
                f"{where}: the example is refused by the engine; fix it, or tag the cell "
                f"`{EXPECT_REFUSAL}` if a refusal is what it shows",
                location=cell,
            )
        elif tagged and not refused:
            logger.warning(f"{where}: tagged `{EXPECT_REFUSAL}` but nothing is refused",
                           location=cell)


def _inside_input(node: nodes.Node) -> bool:
    while node is not None:
        if isinstance(node, nodes.container) and node.get("nb_element") == "cell_code_source":
            return True
        node = node.parent
    return False


class PlaygroundDirective(SphinxDirective):
    """The scenario playground: an editor, the list of shipped examples (their text and the
    engine's answer embedded at build time, so they answer with no engine and from file://)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from loo_lessons import lessons as L
        from loo_lessons.explain.playground import answer

        examples = []
        for name in L.scenario_names():
            text = L.scenario_text(name)
            a = answer(text)
            title = (a["json"] or {}).get("title") or ""
            examples.append({"name": name, "title": title, "text": text, "answer": a})
        blob = _json_for_html({"examples": examples})
        page = PLAYGROUND_HTML.replace("@EXAMPLES@", blob) + _engine_script()
        return [nodes.raw("", page, format="html")]


class PassAndPlayDirective(SphinxDirective):
    """The pass-and-play table (issue 27): an evening of Loo on one device, live once the page's
    engine has loaded (its set-up form starts the evening the readers choose)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from loo_lessons.widgets.controllers.pass_play import PassPlayController

        table = PassPlayController(27, 5, "hoffmann", people=(0, 1, 2))
        return [nodes.raw("", table.book_html(), format="html")]


class ProgressDirective(SphinxDirective):
    """The reader's progress page: filled in the browser from localStorage; its table by rule,
    and loading a progress file, are the page's engine's (started only when there is a record
    to read, or a file to load)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        return [nodes.raw("", PROGRESS_HTML + _engine_script(), format="html")]


class PracticeDirective(SphinxDirective):
    """The Practice page (issue 35): the practice widget, live once the page's engine has
    loaded; the page hands it the record this browser keeps and the rules of a class link
    (`#practice=R24,R32`), and keeps what it records (book/_static/loo-book.js)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from loo_lessons.widgets.static import component_html

        waiting = {"data": {"live": False, "title": "Practice"}}
        spec = {"kind": "practice", "args": {"keep": "page", "size": 10}}
        return [nodes.raw("", component_html("practice", waiting, live=spec), format="html")]


def _engine_script() -> str:
    """The in-page engine's client (widgets/js/engine.js), when the package ships it: the
    playground has no widget to bring it in."""
    from loo_lessons.widgets import bundle

    if "engine" not in getattr(bundle, "HELPERS", ()):
        return ""
    code = bundle.script("engine")
    if "</script" in code.lower() or "<!--" in code:
        raise ValueError("engine.js cannot be inlined")
    return f'<script type="module">\n{code}\n</script>\n'


def _json_for_html(value: Any) -> str:
    from loo_lessons.widgets.static import json_for_html

    return json_for_html(value)


PLAYGROUND_HTML = """\
<div class="loo-playground" data-loo-playground="">
<script type="application/json" id="loo-playground-examples">@EXAMPLES@</script>
<p class="loo-playground-pick"><label for="loo-pg-example">Start from a shipped example:</label>
<select id="loo-pg-example"><option value="">(your own scenario)</option></select></p>
<p><label for="loo-pg-text">The scenario (YAML or JSON):</label></p>
<textarea id="loo-pg-text" rows="16" spellcheck="false" autocomplete="off"
 aria-describedby="loo-pg-status"></textarea>
<p class="loo-controls"><button type="button" class="loo-btn loo-btn-primary"
 id="loo-pg-explain">Explain</button>
<button type="button" class="loo-btn" id="loo-pg-coach"
 aria-describedby="loo-pg-coach-what">Ask the coach</button>
<span id="loo-pg-status" class="loo-pg-status" role="status" aria-live="polite"></span></p>
<div id="loo-pg-answer" class="loo-pg-answer" aria-live="polite"></div>
<p id="loo-pg-coach-what" class="loo-muted">Ask the coach: what each legal move of the seat to
act is worth, estimated by playing it out over deals of the cards that seat cannot see
(strategy, not law; needs the live engine).</p>
<div id="loo-pg-coach-answer" class="loo-pg-answer" aria-live="polite"></div>
<details class="loo-pg-json-box"><summary>The JSON (<code>loo-lessons explain FILE --json</code>)</summary>
<pre id="loo-pg-json" class="loo-pg-json"></pre></details>
</div>
"""

PROGRESS_HTML = """\
<div class="loo-progress-page">
<div id="loo-progress-table"><p>Your progress is kept in this browser only. Answer a
question in a lesson and it shows here.</p></div>
<p class="loo-controls"><button type="button" class="loo-btn" id="loo-progress-reset">Reset my
progress</button> <span id="loo-progress-status" role="status" aria-live="polite"></span></p>
<h2 id="by-rule">Rule by rule</h2>
<p>How sure you are of each rule you have met (the chance you would get it right now), when it
is next due, and your mistakes, each with the way back to it.</p>
<div id="loo-progress-rules"><p>This table is worked out by the engine in this page.</p></div>
<h2 id="your-progress-file">Your progress file</h2>
<p>Take your progress to JupyterLab or to another browser, and back: nothing is lost or
counted twice.</p>
<p class="loo-controls"><button type="button" class="loo-btn" id="loo-progress-download">Download
my progress</button> <label for="loo-progress-load">Load a progress file:</label>
<input type="file" id="loo-progress-load" accept=".json,application/json">
<span id="loo-progress-file-status" role="status" aria-live="polite"></span></p>
</div>
"""


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", _collapse_code)
    app.connect("doctree-read", _refusals)
    app.add_post_transform(RuleLinks)
    app.connect("html-page-context", _strip_thebe)
    app.connect("html-page-context", _start_engine_early)
    app.add_directive("loo-playground", PlaygroundDirective)
    app.add_directive("loo-progress", ProgressDirective)
    app.add_directive("loo-pass-and-play", PassAndPlayDirective)
    app.add_directive("loo-practice", PracticeDirective)
    app.add_css_file("loo-book.css")
    app.add_js_file("loo-book.js")
    app.add_js_file("loo-playground.js")
    app.add_js_file("loo-offline.js")  # the service worker: the book offline after one visit
    return {"parallel_read_safe": True, "parallel_write_safe": True}
