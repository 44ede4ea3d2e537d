"""The lessons as a learner reads them in the built book (issue 15, "Lessons").

- The sources page shows each seed text whole, its transcriber's marks rendered (no raw
  `{87}`, `[27]`, `_i.e._` or `--`), and says which seed is cut off in the source.
- `L.explain` says the books' words for declarations ("throw up", not "pass").
- Lesson 12's play tables, once the page's engine is live, stand where the prose says (the
  moves made by `choose`, `undo`), and no page shows a path of the machine that built it.
- Rule ids shown in widgets link to the sources page's anchors.
- axe-core finds no violation on any page: tests/test_live_book.py, beside the other checks
  of every page (one walk through the book, tests/_tour.py).

The book is the one the session builds (conftest.built_book, in a temporary folder).
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from book_pages import sources_md
from test_live_book import open_live

from loo_lessons import lessons as L
from loo_lessons.engine.sources import SEED_FILES, seed_text
from loo_lessons.explain import explain_text
from loo_lessons.widgets.static import decode_state

if TYPE_CHECKING:
    pass

ROOT = Path(__file__).resolve().parent.parent


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _words(text: str) -> list[str]:
    """The words of a text, its transcriber's marks and punctuation left out."""
    plain = re.sub(r"\{\d+\}|\[\d+\]|\[p\.\s*\d+\]|_|--|\u2014|\u2026", " ", text)
    return re.findall(r"[A-Za-z0-9']+", plain)


# --- without a browser ---------------------------------------------------------------------------


def test_the_sources_page_shows_every_seed_whole_and_clean() -> None:
    page = sources_md()
    sections = re.split(r"^## ", page, flags=re.M)
    for seed in SEED_FILES:
        section = next(s for s in sections if s.startswith(f"[{seed}]"))
        shown = _text(section.split("\n", 1)[1])
        # no raw mark of the seed files: page marks, footnote marks, italics, double dashes
        assert not re.search(r"\{\d+\}|\[\d+\]|--|(?<![\w])_\w|\w_(?![\w])", shown), (
            seed,
            re.findall(r".{30}(?:\{\d+\}|\[\d+\]|--|_).{30}", shown)[:3],
        )
        # every word of the seed, in order: nothing cut, nothing added between (the marks
        # shown for its pages, footnotes and rule ids left out)
        body = re.sub(
            r'<(sup|span) class="(?:seed-note|seed-page|rule-ids|seed-cut)"[^>]*>.*?</\1>',
            " ",
            section.split("\n", 1)[1],
        )
        want = _words(seed_text(seed))
        got = _words(_text(body))
        start = got.index(want[0])
        assert got[start : start + len(want)] == want, seed
    cut = next(s for s in sections if s.startswith("[003]"))
    assert "cut off at both ends" in cut and "\u2026" in cut  # and the page says so
    assert "_i.e._" not in page.split("## Every rule")[1]


@pytest.mark.parametrize(
    "name", ["declare-declined-miss-goes-round", "deal-three-cards-each-miss-and-turn-up"]
)
def test_explain_says_the_books_words_for_declarations(name: str) -> None:
    text = explain_text(L.scenario(name))
    legal = next(line for line in text.splitlines() if line.startswith("Legal:"))
    said = legal.split("(")[0]
    assert "stand" in said and "throw up" in said and "take miss" in said
    assert "pass" not in said and "take_miss" not in said
    # the file's words are still given, for a scenario file's author
    assert "in a scenario file: pass, play, take_miss" in legal
    assert "play_miss_for_pool:" not in text and "play the miss for the pool:" in text


# --- the built book --------------------------------------------------------------------------------


def _pages(site: Path) -> list[Path]:
    return [
        p
        for p in sorted(site.rglob("*.html"))
        if "_static" not in p.parts and "_sources" not in p.parts
        and p.name not in ("genindex.html", "search.html")
    ]


def test_no_page_shows_a_path_of_the_build_machine(built_book: Path) -> None:
    build_dir = str(built_book.parents[1])
    for page in _pages(built_book):
        text = page.read_text(encoding="utf-8")
        assert "/tmp/" not in text and build_dir not in text and str(ROOT) not in text, page.name


def _walkthrough() -> list[Any]:
    """Play tables made from Python as a learner may make them in JupyterLab (`choose`, `undo`,
    a saved game loaded again): lesson 12 shows only the first, its own table (issue 34: its walk
    through the learner's own deal went)."""
    return [
        L.play(39),
        L.play(39).choose("play"),
        L.play(39, moves=["play"]).choose("JH"),
        L.play(39, moves=["play", "JH"]).undo(),
        L.play(39, moves=["play"]).choose("4H"),
        L.play(39, moves=["play", "4H"]),
        L.play(39, moves=["play", "4H"]).choose("JH"),
        L.play(39, moves=["play", "4H", "JH"]).choose("7S"),
    ]


def test_a_play_tables_live_spec_makes_the_table_shown(tmp_path: Path) -> None:
    """What the book's engine is given to make each of lesson 12's tables again (the live
    spec in the page) makes the very table the page shows: the moves made by `choose` and
    `undo` included, and a saved game loaded again too."""

    from loo_lessons.widgets.controllers.play import PlayController

    saved = L.play(39, moves=["play", "4H"]).save(tmp_path / "hand.json")
    for table in [*_walkthrough(), saved.load(), saved.load().choose("JH")]:
        found = re.search(r"data-loo-live='([^']*)'|data-loo-live=\"([^\"]*)\"", table.book_html())
        assert found is not None, "no live spec: the book would show this table static"
        spec = decode_state(unescape(found.group(1) or found.group(2)))
        again = PlayController(**spec["args"])
        keep = ("log", "choices", "hand", "over", "my_turn")
        assert {k: again.data.get(k) for k in keep} == {k: table.data.get(k) for k in keep}


def test_lesson_12s_live_table_waits_at_the_learners_first_decision(
    browser: Any, server: str
) -> None:
    """Lesson 12 has one table of deal 39, the learner's own, at her first decision: no copy of
    it played on by the lesson's cells (issue 34)."""
    expected = [
        f"{len(t.data['log'])}|{','.join(c['key'] for c in t.data['choices'] or [])}"
        for t in _walkthrough()[:1]
    ]
    page, w = open_live(browser, f"{server}/notebooks/12-play-a-hand.html", server)
    try:
        shown = page.evaluate(
            """() => window.looLive.filter(x => x.kind === 'play')
                .sort((a, b) => a.el.compareDocumentPosition(b.el) & 4 ? -1 : 1)
                .map(x => {
                    const d = x.model.get('data');
                    return `${d.log.length}|${(d.choices || []).map(c => c.key).join(',')}`;
                })"""
        )
        assert shown == expected
        # the hand the prose plays from: `game.choose("JH")`, the J♥ is his
        hand = page.evaluate(
            "() => window.looLive.find(x => x.kind === 'play').model.get('data')"
        )
        assert "JH" in str(hand)
        w.check()
    finally:
        page.context.close()


def test_rule_ids_in_widgets_link_to_the_sources(browser: Any, server: str) -> None:
    page, w = open_live(browser, f"{server}/notebooks/06-following.html", server)
    try:
        links = page.locator(".loo a.loo-rule, .loo a.loo-rule-ref")
        assert links.count() > 0
        spans = page.locator(".loo span.loo-rule").all_inner_texts()
        assert [s for s in spans if re.fullmatch(r"R\d\d", s.strip())] == []
        for href, text in page.evaluate(
            "() => [...document.querySelectorAll('.loo a.loo-rule')].map(a => [a.href, a.textContent])"
        ):
            assert href.endswith(f"book/generated/sources.html#rule-{text.lower()}"), href
        first = links.first
        rid = first.inner_text().strip()
        first.click()
        page.wait_for_url(re.compile(r"sources\.html#rule-r\d\d$"))
        assert page.locator(f"#rule-{rid.lower()}").count() == 1
        w.check()
    finally:
        page.context.close()


def test_no_explanation_breaks_a_paragraph_mid_sentence() -> None:
    """The terminal's wrapping (a settlement line carried over to an indented next line) is
    not a paragraph in the lessons' explanation: every shipped scenario's explanation keeps
    each sentence in one paragraph, and loses no word."""
    from loo_lessons.explain.playground import explanation_html
    from loo_lessons.lessons import scenario_names

    seen = 0
    for name in scenario_names():
        text = explain_text(L.scenario(name))
        html = explanation_html(text)
        paras = [_text(p) for p in re.findall(r"<p class=\"loo-explain-line[^\"]*\">(.*?)</p>", html)]
        broken = [p for p in paras if p[:1].islower() and p.endswith((".", ")."))]
        assert broken == [], (name, broken)
        assert _words(_text(html)) == _words(text.replace("=", " ")), name
        seen += "        " in text
    assert seen > 0  # some explanation was wrapped for the terminal


# --- the prose says what is shown -----------------------------------------------------------------


def _lesson(name: str) -> str:
    import json

    nb = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_no_lesson_sends_the_book_reader_to_jupyterlab_for_a_control() -> None:
    """The book's controls are live: no "In JupyterLab, New questions…" or "In JupyterLab,
    switch it…" left from before."""
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        prose = " ".join(_lesson(nb.name).split())
        assert not re.search(r"In JupyterLab, (\*\*New questions|switch|change|click)", prose), nb.name


def test_lesson_12_never_plays_the_learners_own_deal_for_her() -> None:
    """Lesson 12's cells make deal 39's table once, at her first decision: no cell chooses,
    undoes or replays a move of it (issue 34: its Python walk-through showed her deal played)."""
    nb = json.loads((ROOT / "notebooks" / "12-play-a-hand.ipynb").read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert not re.search(r"\.(choose|undo|hint|save|load)\(|moves=", code), code
    assert code.count("L.play(39)") == 1


def test_lesson_2_follows_the_spades_as_they_are_dealt() -> None:
    """The prose names where the spades go; the explanation under it shows those hands."""
    prose = " ".join(_lesson("02-pack-stake-deal.ipynb").split())
    text = explain_text(L.scenario("deal-three-cards-each-miss-and-turn-up"))
    assert "seat 1 holds A♠ 10♠ 6♠, the miss J♠ 7♠ 3♠" in prose
    assert "seat 1 (the elder hand): AS 10S 6S" in text and "miss: JS 7S 3S" in text
    assert "the miss is face down" not in prose  # the list beside it does not show the miss


def test_an_explorers_title_says_when_its_position_was_changed(browser: Any, server: str) -> None:
    """Lesson 4's declarations explorer: make the lone stander take the miss and the title
    no longer names the lone stander's position; put it back and it does again."""
    page, w = open_live(browser, f"{server}/notebooks/04-dealer-special-cases.html", server)
    try:
        box = page.locator('.loo-static[data-loo-component="explore"]').filter(
            has=page.locator('select[data-key="explore-seat-2"]')
        ).first
        title = box.locator("h3.loo-explore-title")
        original = title.inner_text()
        assert title.get_attribute("data-changed") == "false"
        box.locator('select[data-key="explore-seat-2"]').select_option(label="take miss")
        box.locator('h3.loo-explore-title[data-changed="true"]').wait_for()
        assert title.inner_text() == f"Changed from \u201c{original}\u201d"
        box.locator('select[data-key="explore-seat-2"]').select_option(label="stand")
        box.locator('h3.loo-explore-title[data-changed="false"]').wait_for()
        assert title.inner_text() == original
        w.check()
    finally:
        page.context.close()


def test_lesson_1_and_the_glossary_loo_whoever_played_the_miss_holder_too() -> None:
    """The engine loos a miss-holder who took no trick (R39); the lesson and the glossary say so,
    not "a player who stood" alone."""
    settled = explain_text(
        L.scenario(
            "players: 4\ndealer: 0\nstake: 3\npool: 9\n"
            "declarations: {1: play, 2: take_miss, 3: pass, 0: play}\ntricks_won: {1: 2, 0: 1}\n"
        )
    )
    assert re.search(r"seat 2\b[^\n]*looed", settled, re.I), settled
    glossary = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    loo = glossary.split("## Loo\n", 1)[1].split("\n## ", 1)[0]
    for text in (" ".join(_lesson("01-welcome.ipynb").split()), " ".join(loo.split())):
        assert "took the miss" in text and "stood and took no trick" not in text


def test_lesson_11_sends_the_reader_to_the_playground_and_titles_each_case_as_it_is() -> None:
    """A box to try one's own scenario (the playground, linked; the explorer), and the two-in
    position is not titled "Three in"."""
    import ast
    import json

    nb = json.loads((ROOT / "notebooks" / "11-scenario-files.ipynb").read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "](../book/playground.md)" in _lesson("11-scenario-files.ipynb")
    assert "L.explore(" in code
    tree = ast.parse(code)
    text = next(
        ast.literal_eval(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id == "text"
    )
    seen = 0
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "scenario":
            kw = {k.arg: ast.literal_eval(k.value) for k in n.keywords if k.arg}
            sc = L.scenario(text, **kw)
            v = L.verdict(sc)
            words = {2: "Two in", 3: "Three in"}[len(v["players_in"])]
            assert str(v["title"]).startswith(words), (v["title"], v["players_in"])
            seen += 1
    assert seen >= 2
