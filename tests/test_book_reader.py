"""The book for a reader who does not program: the scenario playground, code collapsed, no
refused example, views instead of dicts and NaN, progress kept, file:// and print.

The Python side (the playground's `answer`, the build's checks, the lesson views) is tested
directly; the pages are opened in headless Chromium (Debian's, see tests/_browser.py) from a
local server or from file://, every request to another host blocked and recorded, and every
console error collected.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote, urlparse

import pytest
from _browser import SHOTS
from docutils import nodes
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_lessons import lessons as L
from loo_lessons.explain import explain_json
from loo_lessons.explain.playground import MAX_CHARS, answer
from loo_lessons.scenario import loads
from loo_lessons.views.advice import advise
from loo_lessons.widgets.static import component_html

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import loo_book  # noqa: E402  (book/_ext is Sphinx's extension folder, not a package)

KING = L.scenario_text("lead-king-when-ace-turned")  # R24: the king led when the ace is turned


# --- the playground's Python side ----------------------------------------------------------


def test_answer_explains_a_typed_scenario_with_its_rule_and_quote() -> None:
    typed = """
title: My own case
players: 4
dealer: 0
turn_up: AS
declarations: {1: play, 2: play, 3: play, 0: pass}
hands:
  1: [KS, 4C, 10D]
"""
    a = answer(typed)
    assert a["ok"] and a["error"] is None
    assert a["json"] is not None and a["json"]["legal"] == ["KS"]
    assert a["json"]["illegal"]["4C"]["rule_id"] == "R24"
    assert "R24" in a["text"] and "he is bound to lead the latter" in a["text"]
    # the page's view: the rule id and the book's words as a quotation naming the book
    assert '<blockquote class="loo-quote" data-rule="R24">' in a["html"]
    assert "Hoyle&#x27;s Games Modernized" in a["html"]
    assert "he is bound to lead the latter." in a["html"]


def test_answer_is_the_cli_for_every_shipped_scenario() -> None:
    for name in L.scenario_names():
        text = L.scenario_text(name)
        a = answer(text)
        assert a["ok"], (name, a["error"])
        sc = loads(text)
        assert a["json"] == json.loads(json.dumps(explain_json(sc)))
        for rid in re.findall(r"\bR\d\d\b", a["text"]):
            assert rid in a["html"], (name, rid)


def test_answer_reads_json_too() -> None:
    data = {
        "players": 4,
        "dealer": 0,
        "turn_up": "AS",
        "declarations": {"1": "play", "2": "play", "3": "play", "0": "pass"},
        "hands": {"1": ["KS", "4C", "10D"]},
    }
    a = answer(json.dumps(data))
    assert a["ok"] and a["json"] is not None and a["json"]["legal"] == ["KS"]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("players: 1", "players"),
        ("rules: {preset: hoffmann, two_trumps_lead: lowest}\nplayers: 5", "rules.two_trumps_lead"),
        ("players: 5\nturn_up: QS\nhands:\n  2: [QS, QS, 9D]", "hands"),
        ("!!python/object/apply:os.system ['true']", "file"),
        ("players: [", "file"),
        ("", "file"),
        ("- a list", "file"),
    ],
)
def test_answer_refuses_with_one_line_naming_the_field(text: str, field: str) -> None:
    a = answer(text)
    assert not a["ok"] and a["json"] is None and a["text"] == ""
    err = a["error"]
    assert err is not None and "\n" not in err
    assert err.startswith(f"error: {field}"), err
    assert 'class="loo-refused"' in a["html"]


def test_answer_refuses_a_book_length_text() -> None:
    a = answer("players: 5\n" + "#" * MAX_CHARS)
    assert not a["ok"] and a["error"] is not None and a["error"].startswith("error: file:")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_answer_never_raises_and_escapes_what_it_shows(text: str) -> None:
    a = answer(text)
    assert a["ok"] or (a["error"] or "").startswith("error: ")
    # whatever was typed, nothing of it becomes markup in the page
    for tag in re.findall(r"<([a-z0-9]+)", a["html"]):
        assert tag in {"div", "h3", "p", "blockquote", "strong", "br", "q", "small"}, tag


def test_answer_escapes_markup_in_a_title() -> None:
    a = answer(KING.replace("title: ", "title: <script>alert(1)</script> ", 1))
    assert a["ok"]
    assert "<script>" not in a["html"] and "&lt;script&gt;" in a["html"]


# --- the lessons' views --------------------------------------------------------------------


def _rows(html: str) -> dict[str, str]:
    out = {}
    for row in re.findall(r"<tr><th scope='row'>(.*?)</tr>", html):
        label, _, rest = row.partition("</th>")
        out[label] = re.sub(r"<[^>]+>", " ", rest)
    return out


def _dealer_pays(row: str) -> tuple[int, str]:
    """What the dealer (seat 0) pays in a row, and the rule, read from the settlement's own
    loo line (explain.settlement: 'Seat 0 (the dealer) played and took no trick: looed,
    pays N counters (...). (Rnn)')."""
    m = re.search(
        r"Seat 0 \(the dealer\) played and took no trick: looed, pays (\d+) counters?.*?"
        r"\((R\d\d)\)",
        row,
    )
    assert m, row
    return int(m.group(1)), m.group(2)


def test_compare_keeps_the_scenarios_own_options_lesson_14() -> None:
    """Lesson 14: one position, three ways of paying (limited, capped, unlimited)."""
    rows = _rows(L.compare("unlimited-capped-maximum", loo_amount="pool")._repr_html_())
    assert not any("refused" in r for r in rows.values()), rows
    assert _dealer_pays(rows["hoffmann"]) == (3, "R39")  # limited loo
    assert _dealer_pays(rows["hoffmann with loo amount: pool capped"]) == (6, "R49")  # the cap
    assert _dealer_pays(rows["hoffmann with loo amount: pool"]) == (15, "R46")  # the pool


def test_compare_keeps_the_scenarios_own_options_lesson_9() -> None:
    rows = _rows(L.compare("unlimited-capped-maximum", loo_amount="pool_capped")._repr_html_())
    assert list(rows) == ["hoffmann", "peel", "hoffmann with loo amount: pool capped"]
    assert _dealer_pays(rows["hoffmann with loo amount: pool capped"]) == (6, "R49")
    rows = _rows(L.compare("unlimited-loo-equals-the-pool", loo_amount="pool")._repr_html_())
    assert _dealer_pays(rows["hoffmann"]) == (3, "R39")
    assert _dealer_pays(rows["hoffmann with loo amount: pool"]) == (9, "R46")


def test_compare_changes_start_from_the_scenarios_preset() -> None:
    # the scenario says `rules: peel`: the changed row is Peel with the change
    rows = _rows(
        L.compare("lead-miss-holder-elder-hand-leads", first_leader="miss_holder")._repr_html_()
    )
    assert "peel with first leader: miss holder" in rows


def test_explain_is_a_view_with_a_playground_link() -> None:
    html = L.explain("lead-king-when-ace-turned")._repr_html_()
    assert "<pre" not in html
    assert '<blockquote class="loo-quote" data-rule="R24">' in html
    assert 'href="../book/playground.html#example=lead-king-when-ace-turned"' in html
    # hidden outside the book (JupyterLab has no playground page)
    assert 'class="loo-playground-link" style="display:none"' in html
    typed = L.compare(L.scenario(KING, rules="peel"))._repr_html_()
    frag = re.search(r'playground\.html#scenario=([^"]+)"', typed)
    assert frag is not None
    from urllib.parse import unquote

    assert loads(unquote(frag.group(1))).options == L.scenario(KING, rules="peel").options


def test_verdict_of_a_rule_is_shown_as_the_rule_not_a_dict() -> None:
    law = L.verdict("follow-must-trump-peel")["illegal"]["8H"]
    assert law["rule_id"] == "R36"  # still the contract's mapping to code
    html = law._repr_html_()
    assert "R36" in html and "he must play a trump if he has one" in html
    assert "{" not in html and "'rule'" not in html
    assert json.loads(json.dumps(L.verdict("follow-must-trump-peel")))["illegal"]["8H"] == law


def test_expected_counters_show_no_nan() -> None:
    df = L.expected_counters(tables=(3, 5), hands=400, seed=1)
    assert df.isna().to_numpy().any()  # some declarations are never chosen at some seats
    html = df._repr_html_()
    assert "NaN" not in html and "nan" not in html.lower().replace("span", "")
    assert "—" in html


# --- the build's own checks ----------------------------------------------------------------


def _cell(html: str, tags: tuple[str, ...] = (), index: int = 3) -> nodes.container:
    cell = nodes.container(
        nb_element="cell_code", cell_index=index, classes=["cell", *(f"tag_{t}" for t in tags)]
    )
    source = nodes.container(nb_element="cell_code_source")
    source += nodes.literal_block("", 'L.check("""players: 1""")')
    out = nodes.container(nb_element="cell_code_output")
    out += nodes.raw("", html, format="html")
    cell += source
    cell += out
    return cell


class _Log:
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warning(self, msg: str, **kwargs: Any) -> None:
        self.warnings.append(msg)


@pytest.fixture
def log(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Log]:
    fake = _Log()
    monkeypatch.setattr(loo_book, "logger", fake)
    yield fake


APP = SimpleNamespace(env=SimpleNamespace(docname="notebooks/09-x"))


def test_build_fails_on_a_refused_example(log: _Log) -> None:
    refused = (
        L.compare("unlimited-capped-maximum")._repr_html_().replace("loo-moment", "loo-refused", 1)
    )
    doc = nodes.document(None, None)
    doc += _cell(refused)
    doc += _cell(L.check("players: 1")._repr_html_(), index=5)
    doc += _cell(L.check("players: 1")._repr_html_(), tags=("expect-refusal",), index=7)
    doc += _cell(L.explain("lead-king-when-ace-turned")._repr_html_(), index=9)
    # a component's code names the class without showing a refusal
    script = (
        '<div class="loo-static"></div><script type="module">p.className = "loo-refused";</script>'
    )
    doc += _cell(script, index=11)
    # a component whose state holds a refusal it will show
    state = component_html("pool", {"data": {"refused": "rules.x: no"}})
    doc += _cell(state, index=13)
    loo_book._refusals(APP, doc)  # type: ignore[arg-type]
    assert len(log.warnings) == 3, log.warnings
    assert "cell 3" in log.warnings[0] and "cell 5" in log.warnings[1]
    assert "cell 13" in log.warnings[2]
    assert all("expect-refusal" in w for w in log.warnings)


def test_build_fails_on_an_expect_refusal_tag_that_shows_none(log: _Log) -> None:
    doc = nodes.document(None, None)
    doc += _cell(L.explain("lead-king-when-ace-turned")._repr_html_(), tags=("expect-refusal",))
    loo_book._refusals(APP, doc)  # type: ignore[arg-type]
    assert len(log.warnings) == 1 and "nothing is refused" in log.warnings[0]


def test_code_cells_collapse_in_the_book_only() -> None:
    path = ROOT / "notebooks" / "05-leading.ipynb"
    before = path.read_text(encoding="utf-8")
    source = [before]
    app = SimpleNamespace(env=SimpleNamespace(doc2path=lambda d: path))
    loo_book._collapse_code(app, "notebooks/05-leading", source)  # type: ignore[arg-type]
    nb = json.loads(source[0])
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code and all("hide-input" in c["metadata"]["tags"] for c in code)
    # a cell whose text the lesson is about stays open
    eleven = ROOT / "notebooks" / "11-scenario-files.ipynb"
    source = [eleven.read_text(encoding="utf-8")]
    app11 = SimpleNamespace(env=SimpleNamespace(doc2path=lambda d: eleven))
    loo_book._collapse_code(app11, "notebooks/11-scenario-files", source)  # type: ignore[arg-type]
    cells = [c for c in json.loads(source[0])["cells"] if c["cell_type"] == "code"]
    shown = [c for c in cells if "show-input" in c["metadata"]["tags"]]
    assert shown and all("hide-input" not in c["metadata"]["tags"] for c in shown)
    assert all("hide-input" in c["metadata"]["tags"] for c in cells if c not in shown)
    assert all(
        "hide-input" not in c.get("metadata", {}).get("tags", [])
        for c in nb["cells"]
        if c["cell_type"] != "code"
    )
    assert path.read_text(encoding="utf-8") == before  # the notebook itself is unchanged
    assert "hide-input" not in before


def test_make_serve_book_serves_the_built_book_on_localhost() -> None:
    out = subprocess.run(
        ["make", "-n", "serve-book"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "http.server" in out and "--bind 127.0.0.1" in out and "book/_build/html" in out


# --- the built pages -----------------------------------------------------------------------


def test_built_lessons_hide_code_and_show_no_refusal_dict_or_nan(built_book: Path) -> None:
    for page in sorted((built_book / "notebooks").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        inputs = text.count('<div class="cell_input')
        kept_open = len(re.findall(r'<div class="cell [^"]*tag_show-input', text))
        assert inputs and inputs == text.count("hide above-input") + kept_open, page.name
        assert kept_open == 0 or "11-scenario" in page.name, page.name
        if "11-scenario" not in page.name:  # lesson 11 shows refusals on purpose (tagged)
            shown = loo_book.SCRIPT_RE.sub("", text)  # the components' code names the class
            assert not re.search(r"""class=["'][^"']*\bloo-(check-)?refused""", shown), page.name
        assert "NaN" not in text, page.name
        assert not re.search(r"\{&#39;|\{'rule", text), page.name
    playground = (built_book / "book" / "playground.html").read_text(encoding="utf-8")
    blob = re.search(r'id="loo-playground-examples">(.*?)</script>', playground, re.S)
    assert blob is not None
    examples = json.loads(blob.group(1))["examples"]
    assert [e["name"] for e in examples] == L.scenario_names()
    assert all(e["answer"]["ok"] for e in examples)


class Seen:
    """What the pages of one browser context asked for and complained about."""

    def __init__(self) -> None:
        self.external: list[str] = []
        self.errors: list[str] = []


def _context(browser: Any, host: str | None, seen: Seen, **kw: Any) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, **kw)

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(("data:", "blob:")) or (
            urlparse(url).netloc == host if host else url.startswith("file://")
        ):
            r.continue_()
        else:
            seen.external.append(url)
            r.abort()

    ctx.route("**/*", route)
    return ctx


def _page(ctx: Any, seen: Seen) -> Any:
    page = ctx.new_page()
    page.on("console", lambda m: seen.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.errors.append(f"page error: {e}"))
    return page


def _clean(seen: Seen) -> None:
    assert seen.external == [], seen.external
    assert seen.errors == [], seen.errors


@contextmanager
def reading(browser: Any, server: str | None, init: str = "") -> Iterator[Any]:
    """A page in a fresh browser context (`server`'s host, or file:// when None; `init` runs
    before every page's own scripts). On leaving: nothing was asked of another host and no
    console error was written."""
    seen = Seen()
    ctx = _context(browser, urlparse(server).netloc if server else None, seen)
    if init:
        ctx.add_init_script(init)
    try:
        yield _page(ctx, seen)
    finally:
        ctx.close()
    _clean(seen)


STUB_ENGINE = """
window.looEngine = {
  calls: [],
  started: 0,
  start() { this.started += 1; return this.ready; },
  ready: Promise.resolve(),
  run(name, args) {
    this.calls.push([name, args.text]);
    const known = (window.__answers || {})[args.text];
    return Promise.resolve(known || {refused: "error: stub: no answer for this text"});
  },
};
"""


def test_playground_answers_a_typed_scenario_through_the_engine(server: str, browser: Any) -> None:
    """The page hands the typed text to the in-page engine (`looEngine.run("explain",
    {text})`, js/engine.js's interface) and shows what it answers. Here the engine is a
    stand-in that returns what `playground.answer` (the Python the real engine runs)
    answered for the same text."""
    typed = KING.replace("10D", "9D").replace("title: ", "title: typed — ", 1)
    with reading(
        browser, server, STUB_ENGINE + f"window.__answers = {json.dumps({typed: answer(typed)})};"
    ) as page:
        page.goto(f"{server}/book/playground.html")
        page.fill("#loo-pg-text", typed)
        page.click("#loo-pg-explain")
        out = page.locator('#loo-pg-answer[data-how="engine"]')
        out.wait_for()
        assert out.get_attribute("data-ok") == "true"
        assert "R24" in out.inner_text() and "9D" in out.inner_text()
        assert page.evaluate("window.looEngine.calls.at(-1)") == ["explain", typed]
        assert page.evaluate("window.looEngine.started") == 1
        assert '"rule_id": "R24"' in page.locator("#loo-pg-json").text_content()
        # a bad scenario: the engine's one-line refusal, shown as a refusal
        bad = "players: 1"
        page.evaluate(f"window.__answers[{json.dumps(bad)}] = {json.dumps(answer(bad))}")
        page.fill("#loo-pg-text", bad)
        page.keyboard.press("Control+Enter")
        page.locator('#loo-pg-answer[data-ok="false"]').wait_for()
        assert (
            page.locator("#loo-pg-answer .loo-refused").inner_text().startswith("error: players:")
        )
        # the engine's other shape for a refusal ({refused}) is shown the same way
        page.fill("#loo-pg-text", "players: 2\nhands: {0: [AH]}")
        page.click("#loo-pg-explain")
        page.wait_for_function(
            "() => document.querySelector('#loo-pg-answer .loo-refused')?.textContent.includes('stub')"
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "playground_refused.png"), full_page=True)


def test_playground_without_engine_answers_shipped_examples(server: str, browser: Any) -> None:
    """With no usable engine in the page (none shipped, or none that answers), the shipped
    examples are answered as they were at build time."""
    # an engine that cannot answer
    with reading(browser, server, "window.looEngine = {};") as page:
        page.goto(f"{server}/book/playground.html")
        page.select_option("#loo-pg-example", "lead-king-when-ace-turned")
        out = page.locator('#loo-pg-answer[data-how="static"]')
        out.wait_for()
        assert "R24" in out.inner_text() and "he is bound to lead the latter" in out.inner_text()
        assert page.input_value("#loo-pg-text") == KING
        assert json.loads(page.locator("#loo-pg-json").text_content())["legal"] == ["KS"]
        # edited text with no engine: said plainly, no stale answer left showing
        page.fill("#loo-pg-text", KING.replace("10D", "9D"))
        page.click("#loo-pg-explain")
        page.locator('.loo-playground[data-answered="none"]').wait_for()
        assert "R24" not in page.locator("#loo-pg-answer").inner_text()
        assert "not available" in page.locator("#loo-pg-answer").inner_text()


def test_open_in_the_playground_from_a_lesson(server: str, browser: Any) -> None:
    with reading(browser, server) as page:
        page.goto(f"{server}/notebooks/05-leading.html")
        link = page.locator("a.loo-playground-link").first
        # (the lesson's comparisons sit in a fold, one click away: open it as a reader would)
        fold = link.locator("xpath=ancestor::details[1]")
        if fold.count():
            fold.locator("summary").first.click()
        assert link.is_visible()
        link.click()
        page.wait_for_url("**/book/playground.html#*")
        out = page.locator("#loo-pg-answer[data-how]")
        out.wait_for()
        assert out.get_attribute("data-ok") == "true"
        assert re.search(r"\bR\d\d\b", out.inner_text())
        # a scenario passed as text in the fragment fills the editor
        page.goto(f"{server}/book/playground.html#scenario={quote(KING, safe='')}")
        page.wait_for_function("t => document.getElementById('loo-pg-text').value === t", arg=KING)
        assert page.input_value("#loo-pg-example") == "lead-king-when-ace-turned"
        # answered at once from the build, or a moment later by the visit's engine (running
        # already: the lesson started it)
        page.locator("#loo-pg-answer", has_text="R24").wait_for()


def test_code_is_hidden_with_a_working_toggle(server: str, browser: Any) -> None:
    with reading(browser, server) as page:
        page.goto(f"{server}/notebooks/08-pool-and-loos.html")
        cell = page.locator("div.cell", has=page.locator("details.above-input")).nth(1)
        code = cell.locator(".cell_input")
        assert not code.is_visible()
        assert cell.locator(".cell_output").is_visible()  # the view is shown
        toggle = cell.locator("details.above-input > summary")
        assert "Show code" in toggle.inner_text()
        toggle.click()
        assert code.is_visible() and "L." in code.inner_text()
        toggle.click()
        assert not code.is_visible()


def _quiz(page: Any) -> tuple[Any, dict[str, Any]]:
    info = page.evaluate(
        """() => (window.looLessons || []).filter(c => c.name === 'quiz').map(c => ({
             id: c.el.getAttribute('data-loo-id'),
             q: c.model.get('questions')[0]}))"""
    )[-1]
    return page.locator(f'div[data-loo-id="{info["id"]}"]'), info["q"]


def _answer_right(root: Any, q: dict[str, Any]) -> None:
    for key in q["answer"] if q["multi"] else q["answer"][:1]:
        root.locator(f'.loo-choices [data-key="{key}"]').click()
    if q["multi"]:
        root.locator('button[data-action="check"]').click()


def test_progress_survives_reload_and_resets(server: str, browser: Any) -> None:
    with reading(browser, server) as page:
        lesson = f"{server}/notebooks/05-leading.html"
        page.goto(lesson)
        root, q = _quiz(page)
        _answer_right(root, q)
        # graded by Python: in the page's engine once it is live, so the score comes a moment later
        root.locator('.loo-score[data-score="1"]').wait_for(timeout=30_000)
        page.wait_for_function(
            "() => Object.keys((looProgress.all()['notebooks/05-leading'] || {}).answers || {}).length"
        )
        # where the reader stopped: the section heading he scrolled to the top of the window
        # (with the wheel: the page's own moves and a scroll restored on reload do not count)
        section, dy = page.evaluate(
            """() => { const s = document.querySelectorAll('main section[id] > h2')[2];
                       return [s.parentElement.id, s.getBoundingClientRect().top - 20]; }"""
        )
        page.mouse.move(600, 400)
        page.mouse.wheel(0, dy)
        page.wait_for_function(
            "id => (looProgress.all()['notebooks/05-leading'].stopped || {}).anchor === id",
            arg=section,
        )
        before = page.evaluate("looProgress.all()['notebooks/05-leading'].stopped")
        page.evaluate("window.scrollTo(0, 0)")  # a scroll the reader did not make
        page.wait_for_timeout(600)
        assert page.evaluate("looProgress.all()['notebooks/05-leading'].stopped") == before
        page.reload()
        root, _ = _quiz(page)
        assert root.locator(".loo-score").get_attribute("data-score") == "1"  # kept
        assert "Right" in root.locator(".loo-feedback").inner_text()

        page.goto(f"{server}/book/progress.html")
        row = page.locator('tr[data-lesson="notebooks/05-leading"]')
        assert row.locator("td[data-right]").get_attribute("data-right") == "1"
        assert "Leading" in row.inner_text()
        assert row.locator(f'a[href$="05-leading.html#{section}"]').count() == 1
        # a task played four times: the page keeps the best attempt (more stars, then more
        # decisions well made, never more counters) and the last, names the task by its title
        # (never its id), and shows the lesson's stars as its best task's
        def attempt(result: int, earned: int, well: int = 1) -> dict[str, Any]:
            return {"result": result, "baseline": 1, "star_count": earned, "decided_well": well, "coach_summary": f"try {result}"}

        tries = [attempt(1, 2), attempt(4, 1), attempt(3, 2, 0), attempt(-2, 1)]
        page.evaluate(
            """ts => ts.forEach(t => looProgress.task('notebooks/05-leading', 'leading-deal-26', t,
                                                      'Deal 26: lead to win'))""",
            tries,
        )
        kept = page.evaluate("looProgress.all()['notebooks/05-leading'].tasks['leading-deal-26']")
        assert kept["best"]["result"] == 1 and kept["last"]["result"] == -2  # two stars beat +4
        cell = row.locator("td[data-tasks]").inner_text()
        assert "Deal 26: lead to win: last ★☆☆ -2" in cell and "best ★★☆ +1" in cell
        assert "leading-deal-26" not in row.inner_text()
        assert row.locator("td[data-stars]").get_attribute("data-stars") == "2"
        assert row.locator("td[data-stars]").inner_text() == "★★☆"
        ours = "Object.keys(localStorage).filter(k => k.startsWith('loo-progress:'))"
        assert page.evaluate(ours) == ["loo-progress:notebooks/05-leading"]
        page.click("#loo-progress-reset")
        assert row.count() == 0
        assert "forgotten" in page.locator("#loo-progress-status").inner_text()
        assert page.evaluate(ours) == []

        page.goto(lesson)
        root, _ = _quiz(page)
        assert root.locator(".loo-score").get_attribute("data-score") == "0"


def test_from_file_the_quiz_grades_and_live_controls_say_serve(
    built_book: Path, browser: Any
) -> None:
    with reading(browser, None) as page:
        page.goto((built_book / "notebooks" / "05-leading.html").as_uri())
        root, q = _quiz(page)
        _answer_right(root, q)
        assert "Right" in root.locator(".loo-feedback").inner_text()
        assert root.locator(".loo-score").get_attribute("data-score") == "1"
        # a live-only control says, in one line, that the book needs a web server
        page.goto((built_book / "notebooks" / "10-penalties.html").as_uri())
        # (the book's note, or the engine's own status line on a live widget: js/engine.js)
        notes = page.locator("p.loo-serve-note, p.loo-engine-status[data-state='file']")
        notes.first.wait_for()
        line = notes.first.inner_text()
        assert "make serve-book" in line and "\n" not in line.strip()
        page.goto((built_book / "book" / "playground.html").as_uri())
        assert "make serve-book" in page.locator("p.loo-serve-note").first.inner_text()
        page.locator('#loo-pg-answer[data-how="static"]').wait_for()  # a shipped example answers


def test_print_keeps_cards_and_drops_buttons_and_navigation(server: str, browser: Any) -> None:
    with reading(browser, server) as page:
        page.goto(f"{server}/notebooks/09-singles-musts-unlimited.html")
        page.emulate_media(media="print")
        visible = page.evaluate(
            """() => {
              const shown = (sel) => Array.from(document.querySelectorAll(sel))
                .filter(e => e.offsetParent !== null || getComputedStyle(e).position === 'fixed').length;
              return {cards: shown('svg.loo-card-svg'), choices: shown('.loo-choices button'),
                      controls: shown('.loo-controls button'), nav: shown('.bd-sidebar-primary'),
                      toggles: shown('details.above-input > summary'), tables: shown('table.loo-compare')};
            }"""
        )
        assert visible["cards"] > 0 and visible["choices"] > 0 and visible["tables"] > 0, visible
        assert visible["controls"] == 0 and visible["nav"] == 0 and visible["toggles"] == 0, visible
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.pdf(path=str(SHOTS / "lesson09_print.pdf"))


def _ships_engine() -> bool:
    from loo_lessons.widgets import bundle

    return "engine" in bundle.HELPERS


def test_playground_answers_a_typed_scenario_with_the_real_engine(
    server: str, browser: Any
) -> None:
    """With the package's in-page engine (js/engine.js and the vendored Pyodide), a typed
    scenario is answered by the real Python in the page, with its rule id; a package without
    it says so on the page and still answers the shipped examples."""
    with reading(browser, server) as page:
        page.goto(f"{server}/book/playground.html")
        typed = KING.replace("10D", "9D").replace("title: ", "title: typed — ", 1)
        page.fill("#loo-pg-text", typed)
        page.click("#loo-pg-explain")
        if _ships_engine():
            out = page.locator('#loo-pg-answer[data-how="engine"]')
            out.wait_for(timeout=30_000)
            assert out.get_attribute("data-ok") == "true"
            text = out.inner_text()
            assert "R24" in text and "9D" in text and "typed" in text
            assert json.loads(page.locator("#loo-pg-json").text_content())["legal"] == ["KS"]
            page.fill("#loo-pg-text", "players: 1")
            page.click("#loo-pg-explain")
            page.locator('#loo-pg-answer[data-ok="false"]').wait_for(timeout=10_000)
            assert page.locator("#loo-pg-answer").inner_text().startswith("error: players:")
            # "Ask the coach": the page's engine gives the advice Python gives for the same text
            free = L.scenario_text("lead-free-without-trumps")
            page.fill("#loo-pg-text", free)
            page.click("#loo-pg-coach")
            coach = page.locator('#loo-pg-coach-answer[data-how="engine"]')
            coach.wait_for(timeout=30_000)
            assert coach.get_attribute("data-ok") == "true"
            want = advise(free)["json"]
            assert want is not None
            rows = coach.locator("tr[data-move]")
            assert [rows.nth(i).get_attribute("data-move") for i in range(rows.count())] == [
                m["action"] for m in want["moves"]
            ]
            assert want["why"] in coach.inner_text() and "Strategy, not law" in coach.inner_text()
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "playground_coach.png"), full_page=True)
            # editing the text forgets the advice; a position the coach cannot weigh: one line
            page.fill("#loo-pg-text", "players: 4\ndealer: 0\nturn_up: 7H\n")
            assert page.locator("#loo-pg-coach-answer tr").count() == 0
            page.click("#loo-pg-coach")
            page.locator('#loo-pg-coach-answer[data-ok="false"]').wait_for(timeout=10_000)
            assert page.locator("#loo-pg-coach-answer").inner_text().startswith("error: hands:")
        else:
            page.locator('.loo-playground[data-answered="none"]').wait_for()
            assert "not available" in page.locator("#loo-pg-answer").inner_text()


PICKS = """() => (window.looLessons || []).filter(c => c.name === 'pick').map(c => ({
  id: c.el.getAttribute('data-loo-id'), q: c.model.get('data').question}))"""


def _a_pick(page: Any, server: str, multi: bool) -> tuple[str, dict[str, Any]]:
    """The first lesson (in order) with a pick question of one answer / of several."""
    for n in range(1, 15):
        rel = next((ROOT / "notebooks").glob(f"{n:02d}-*.ipynb")).stem
        page.goto(f"{server}/notebooks/{rel}.html")
        found = [p for p in page.evaluate(PICKS) if bool(p["q"].get("multi")) is multi]
        if found:
            return f"notebooks/{rel}", found[0]
    raise AssertionError(f"no pick question with multi={multi} in any lesson")


def test_a_pick_answer_is_kept_and_counted(server: str, browser: Any) -> None:
    with reading(browser, server) as page:
        answers = "key => (looProgress.all()[key] || {}).answers || {}"
        # one answer: a click selects, Check grades (here a wrong one), and the verdict is kept
        lesson, one = _a_pick(page, server, multi=False)
        root = page.locator(f'div[data-loo-id="{one["id"]}"]')
        wrong = sorted({c["key"] for c in one["q"]["choices"]} - set(one["q"]["answer"]))[0]
        root.locator(f'.loo-choices [data-key="{wrong}"]').click()
        assert root.locator(".loo-answer").count() == 0  # nothing given away by the click
        root.locator('button[data-action="check"]').click()
        shown = root.locator(".loo-answer").inner_text()
        page.wait_for_function(f"([key, id]) => ({answers})(key)[id]", arg=[lesson, one["id"]])
        got = page.evaluate(answers, lesson)
        assert got[one["id"]]["kind"] == "pick" and got[one["id"]]["correct"] is False
        page.reload()
        root = page.locator(f'div[data-loo-id="{one["id"]}"]')
        assert root.locator(".loo-answer").inner_text() == shown
        # several answers: "Show the answer" counts it as not answered right
        lesson, many = _a_pick(page, server, multi=True)
        assert many["id"] not in page.evaluate(answers, lesson)
        page.locator(f'div[data-loo-id="{many["id"]}"] button[data-action="show"]').click()
        page.wait_for_function(f"([key, id]) => ({answers})(key)[id]", arg=[lesson, many["id"]])
        got = page.evaluate(answers, lesson)
        assert got[many["id"]]["correct"] is False and got[many["id"]]["revealed"] is True


def test_coming_back_a_wrong_pick_tried_again_continue_and_the_lessons_unfinished(server: str, browser: Any) -> None:
    """Coming back (issue 35): a wrong pick can be tried again, the wrong answer still in the
    record by rule; the lesson opened again offers to continue where she stopped (the widget
    she used last); the progress page lists the lessons not yet finished."""
    with reading(browser, server) as page:
        lesson, one = _a_pick(page, server, multi=False)
        root = page.locator(f'div[data-loo-id="{one["id"]}"]')
        wrong = sorted({c["key"] for c in one["q"]["choices"]} - set(one["q"]["answer"]))[0]
        root.locator(f'.loo-choices [data-key="{wrong}"]').click()
        root.locator('button[data-action="check"]').click()
        again = root.locator('button[data-action="reset"]')
        assert again.inner_text() == "Try again"
        page.wait_for_function("() => (looProgress.kept() || {answers: []}).answers.length === 1")
        again.click()
        assert root.locator(".loo-answer").count() == 0  # the pick asked afresh, nothing showing
        root.locator(f'.loo-choices [data-key="{one["q"]["answer"][0]}"]').click()
        root.locator('button[data-action="check"]').click()
        assert again.inner_text() == "Start again"  # right now: nothing to try again
        page.wait_for_function("() => looProgress.kept().answers.length === 2")
        kept = page.evaluate("looProgress.kept().answers")
        assert [a["correct"] for a in kept] == [False, True]
        assert kept[0]["id"] == kept[1]["id"] == f"{lesson}#{one['id']}" and kept[0]["rules"] == one["q"]["rule_ids"]
        assert kept[0]["where"] == {"page": lesson, "back": one["q"]["id"] if one["q"].get("id") not in (None, "pick") else one["id"]}
        section = root.evaluate("el => el.closest('section[id]').id")

        page.goto(f"{server}/{lesson}.html")  # the lesson opened again
        go = page.locator(".loo-continue a")
        assert go.inner_text().startswith("Continue where you stopped: ")
        assert go.get_attribute("href") == f"#{section}"
        assert page.evaluate("looProgress.kept().answers.length") == 2  # nothing lost or doubled

        # a pool form checked with its boxes blank: wrong, against the rules its settlement applies
        page.goto(f"{server}/notebooks/08-pool-and-loos.html")
        form = page.evaluate(
            """() => (window.looLessons || []).filter(c => c.name === 'pool').map(c => ({
                 id: c.el.getAttribute('data-loo-id'), rules: c.model.get('data').rule_ids}))[0]"""
        )
        page.locator(f'div[data-loo-id="{form["id"]}"] button[data-action="check"]').click()
        page.wait_for_function("() => looProgress.kept().answers.length === 3")
        pool = page.evaluate("looProgress.kept().answers[2]")
        assert pool["kind"] == "pool" and pool["correct"] is False and pool["rules"] == form["rules"] and pool["rules"]

        page.goto(f"{server}/book/progress.html")
        todo = page.locator(".loo-progress-unfinished")
        todo.wait_for()
        # the last lesson: never opened here (_a_pick opened the lessons up to hers)
        last = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))[-1].stem
        assert last != lesson.split("/")[1]
        assert "not opened yet" in todo.locator(f'li[data-lesson="notebooks/{last}"]').inner_text()
        mine = todo.locator(f'li[data-lesson="{lesson}"]')
        asked = page.evaluate(f"looProgress.all()['{lesson}'].asked")
        if asked > 1:  # her lesson holds more to answer: not finished, a link to where she stopped
            assert f"1 of {asked} answered" in mine.inner_text()
            assert mine.locator("a").get_attribute("href").endswith(f"{lesson}.html#{section}")
