"""The static components in a real browser (Debian's Chromium driven by Playwright).

Pages are written with loo_lessons.widgets.static and opened from file:// with every other
request blocked and recorded. Checked: the cards render with their spoken labels and are
big enough to project, a wrong click shows the verdict with its rule id and the book's
words, a right click raises the score, keyboard activation works, no request leaves the
page, no console error, readable contrast in light and dark mode, and random click
sequences leave the browser's state exactly where the Python mirror (widgets/controllers/)
says. Screenshots go to /tmp/shots/.

Chromium: `apt-get install -y chromium` (scripts/install-browser.sh); never `playwright
install`.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from _browser import SHOTS, Watch, open_page
from playwright.sync_api import Browser, Page

import loo_lessons
from loo_lessons import quiz
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.pick import pick_question
from loo_lessons.scenario import load_file
from loo_lessons.widgets import static
from loo_lessons.widgets.controllers.pick import pick_reduce
from loo_lessons.widgets.controllers.pool import pool_reduce, pool_results
from loo_lessons.widgets.controllers.quiz import quiz_reduce, quiz_score
from loo_lessons.widgets.controllers.steps import step_reduce
from loo_lessons.widgets.live import PickCard, PoolCalculator, QuizRunner, Stepper, TableView

SCENARIOS = Path(loo_lessons.__file__).parent / "scenarios"


def scenario(name: str) -> Any:
    return load_file(SCENARIOS / f"{name}.yaml")


def known_bank() -> list[dict[str, Any]]:
    """Questions whose answers the books state plainly (see tests/test_widgets.py)."""
    return [
        pick_question(scenario("lead-ace-of-trumps"), qid="ace", topic="lead"),  # R23
        pick_question(scenario("trump-after-trick-lead-a-trump"), qid="tat", topic="trick"),
        pick_question(scenario("lead-two-declared-sequence"), qid="seq", topic="lead"),  # R27
        pick_question(scenario("dealer-lone-stander"), qid="lone", topic="dealer"),  # R18
    ]


def full_bank() -> list[dict[str, Any]]:
    """The known questions, then generated ones of every kind."""
    generated = [q.to_json() for t in quiz.TOPICS for q in quiz.generate(t, 1, 11)]
    return known_bank() + generated


def offline(w: Watch) -> None:
    assert w.external == []
    assert all(u.startswith(("file://", "data:")) for u in w.requests), w.requests
    assert w.errors == []


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def score(page: Page) -> tuple[int, int]:
    s = page.locator(".loo-score").first
    return int(s.get_attribute("data-score") or -1), int(s.get_attribute("data-answered") or -1)


def luminance(rgb: str) -> float:
    r, g, b = (int(x) / 255 for x in re.findall(r"\d+", rgb)[:3])

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def colours(page: Page, selector: str) -> tuple[str, str]:
    fg, bg = page.eval_on_selector(
        selector, "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    )
    return str(fg), str(bg)


# --- the quiz page ------------------------------------------------------------------------------


def test_quiz_page_offline_cards_grading_and_keyboard(browser: Browser, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    bank = [Question.from_json(q) for q in full_bank()]
    path = write(tmp_path, "quiz.html", static.quiz_page(bank, "Three-card Loo quiz"))
    page, w = open_page(browser, path)

    # the cards are drawn, labelled for screen readers, and large
    ace = page.get_by_role("button", name="ace of hearts")
    assert ace.is_visible()
    assert (ace.bounding_box() or {"width": 0})["width"] >= 100
    assert page.locator("svg.loo-card-svg").count() >= 3 + 1  # the choices and the turn-up
    assert page.get_by_role("img", name="7 of hearts").first.is_visible()  # the turn-up
    assert score(page) == (0, 0)

    # a wrong click: the verdict names the rule and quotes the book (R23: lead the ace)
    page.locator('.loo-choices [data-key="4H"]').click()
    verdict = page.locator('.loo-verdict[data-verdict="4H"]')
    assert "R23" in verdict.inner_text()
    assert "he is bound to lead it" in verdict.locator("blockquote").inner_text()
    assert "Not right" in page.locator(".loo-feedback").inner_text()
    assert "R23" in page.locator('[aria-live="polite"]').inner_text()
    assert score(page) == (0, 1)
    page.screenshot(path=str(SHOTS / "quiz_wrong_light.png"), full_page=True)

    # a right click raises the score (R30: trump after trick, the 6S)
    page.locator('button[data-action="next"]').click()
    page.locator('.loo-choices [data-key="6S"]').click()
    assert score(page) == (1, 2)
    assert "Right" in page.locator(".loo-feedback").inner_text()

    # keyboard: Space and Enter select the two trumps in sequence (R27), then Check
    page.locator('button[data-action="next"]').click()
    page.get_by_role("button", name="queen of hearts").focus()
    page.keyboard.press("Space")
    page.get_by_role("button", name="jack of hearts").focus()
    page.keyboard.press("Enter")
    assert page.get_by_role("button", name="jack of hearts").get_attribute("aria-pressed") == "true"
    page.locator('button[data-action="check"]').focus()
    page.keyboard.press("Enter")
    assert score(page) == (2, 3)
    page.screenshot(path=str(SHOTS / "quiz_light.png"), full_page=True)

    # light mode contrast: body text and a verdict
    fg, bg = colours(page, ".loo")
    assert contrast(fg, bg) >= 7
    page.emulate_media(color_scheme="dark")
    fg, bg = colours(page, ".loo")
    assert luminance(bg) < 0.05 and contrast(fg, bg) >= 7
    page.locator('.loo-choices [data-key="9C"]').click()  # answered: shows why 9C was wrong
    head_fg, _ = colours(page, '.loo-verdict[data-verdict="9C"] .loo-verdict-head')
    _, box_bg = colours(page, '.loo-verdict[data-verdict="9C"]')
    assert contrast(head_fg, box_bg) >= 4.5
    page.screenshot(path=str(SHOTS / "quiz_dark.png"), full_page=True)

    # every generated question shows its choices and grades a click
    for i in range(3, len(bank)):
        page.locator('button[data-action="next"]').click()
        page.locator(".loo-choices [data-key]").first.click()
        if page.locator('button[data-action="check"]').count():
            page.locator('button[data-action="check"]').click()
        assert score(page)[1] == i + 1
    page.locator('button[data-action="next"]').click()
    assert "Finished" in page.locator(".loo-body").inner_text()
    assert page.locator("table.loo-grid tr[data-topic]").count() == len(quiz.TOPICS)
    page.screenshot(path=str(SHOTS / "quiz_summary_dark.png"), full_page=True)
    offline(w)


# --- the browser and Python agree -----------------------------------------------------------------


def quiz_state(page: Page, i: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(
        """i => { const m = window.looLessons[i].model;
           return {index: m.get('index'), responses: m.get('responses'),
                   selected: m.get('selected'), inspect: m.get('inspect')}; }""",
        i,
    )
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_quiz_clicks_match_python(browser: Browser, tmp_path: Path, seed: int) -> None:
    bank = known_bank()
    page, w = open_page(browser, write(tmp_path, "q.html", static.quiz_page(bank, "q")))
    rng = random.Random(seed)
    keys = sorted({c["key"] for q in bank for c in q["choices"]})
    expected: dict[str, Any] = {
        "index": 0,
        "responses": [None] * 4,
        "selected": [],
        "inspect": None,
    }
    done = 0
    for _ in range(45):
        if rng.random() < 0.55:
            key = rng.choice(keys)
            target = page.locator(f'.loo-choices [data-key="{key}"]')
            ev: dict[str, Any] = {"type": "choice", "key": key}
        else:
            action = rng.choice(["check", "show", "next", "prev", "restart"])
            target = page.locator(f'button[data-action="{action}"]')
            ev = {"type": action}
        if not target.count():
            continue  # not on screen: the learner cannot press it
        target.first.click()
        expected = quiz_reduce(bank, expected, ev)
        done += 1
    assert done > 10
    assert quiz_state(page) == expected
    right, answered = score(page)
    s = quiz_score(bank, expected["responses"])
    assert (right, answered) == (s["right"], s["answered"]) and right <= answered
    offline(w)


def test_random_component_clicks_match_python(browser: Browser, tmp_path: Path) -> None:
    pick = PickCard(scenario("follow-under-trump-peel"), title="Pick")
    pool = PoolCalculator(scenario("settle-odd-pool-peel-early-tricks"), title="Pool")
    step = Stepper(scenario("settle-hoffmann-worked-example-played-out"), title="Stepper")
    body = pick.static_html() + pool.static_html() + step.static_html()
    page, w = open_page(browser, write(tmp_path, "c.html", static.page("Components", body)))
    comps = page.locator(".loo-static")
    assert comps.count() == 3
    rng = random.Random(7)
    q = pick.question
    pick_st: dict[str, Any] = {"picked": [], "current": None, "revealed": False}
    pool_st: dict[str, Any] = {"entries": {}, "checked": False, "revealed": False}
    step_st: dict[str, Any] = {"step": 0}
    fields = pool.data["fields"]
    for _ in range(40):
        which = rng.randrange(3)
        if which == 0:
            if rng.random() < 0.7:
                key = rng.choice(pick.choices)
                comps.nth(0).locator(f'.loo-choices [data-key="{key}"]').click()
                pick_st = pick_reduce(q, pick_st, {"type": "choice", "key": key})
            else:
                action = rng.choice(["show", "reset"])
                b = comps.nth(0).locator(f'button[data-action="{action}"]')
                if b.count():
                    b.click()
                    pick_st = pick_reduce(q, pick_st, {"type": action})
        elif which == 1:
            if rng.random() < 0.6:
                f = rng.choice(fields)["id"]
                text = rng.choice(["", "0", "3", "4", "12", "x", " 7 "])
                box = comps.nth(1).locator(f'input[data-field="{f}"]')
                box.fill(text)
                box.press("Tab")  # the change event fires when the box loses focus
                value = int(text) if text.strip().isdigit() else None
                pool_st = pool_reduce(
                    fields, pool_st, {"type": "enter", "id": f, "value": value}
                )
            else:
                action = rng.choice(["check", "show", "reset"])
                if action == "show":  # one button: "Show the working", then "Hide the working"
                    action = "hide" if pool_st["revealed"] else "show"
                comps.nth(1).locator(f'button[data-action="{action}"]').click()
                pool_st = pool_reduce(fields, pool_st, {"type": action})
        else:
            action = rng.choice(["next", "prev", "first", "last", "next", "next"])
            # force: at either end a button is aria-disabled, yet a click must do nothing wrong
            comps.nth(2).locator(f'button[data-action="{action}"]').click(force=True)
            step_st = step_reduce(len(step.steps), step_st, {"type": action})
    got = page.evaluate(
        """() => window.looLessons.map(c => {
             const m = c.model;
             return {picked: m.get('picked'), current: m.get('current'), revealed: m.get('revealed'),
                     entries: m.get('entries'), checked: m.get('checked'), step: m.get('step')};
           })"""
    )
    assert {k: got[0][k] for k in pick_st} == pick_st
    assert {k: got[1][k] for k in pool_st} == pool_st
    assert got[2]["step"] == step_st["step"]
    results = pool_results(pool.data, pool_st["entries"])
    if pool_st["checked"]:
        summary = comps.nth(1).locator("[data-summary]").inner_text()
        assert str(results["right"]) in summary
    # the keyboard drives the stepper too
    comps.nth(2).locator('button[data-action="first"]').click(force=True)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("window.looLessons[2].model.get('step')") == 2
    offline(w)


# --- Python clicks show in the static export; every component renders ---------------------------


def test_python_state_is_what_the_page_shows(browser: Browser, tmp_path: Path) -> None:
    pick = PickCard(scenario("trump-after-trick-lead-a-trump"))
    pick.click("QD")  # selects
    pick.check()  # grades
    pick.click("QD")  # and shows its verdict
    runner = QuizRunner(questions=known_bank())
    runner.click("AH")
    runner.next()
    body = pick.static_html() + runner.static_html()
    page, w = open_page(browser, write(tmp_path, "s.html", static.page("State", body)))
    comps = page.locator(".loo-static")
    verdict = comps.nth(0).locator('.loo-verdict[data-verdict="QD"]')
    assert "R30" in verdict.inner_text() and "not allowed" in verdict.inner_text()
    assert comps.nth(0).get_by_role("button", name=re.compile("6 of spades")).is_visible()
    s = comps.nth(1).locator(".loo-score")
    assert s.get_attribute("data-score") == "1" and "Question 2 of 4" in s.inner_text()
    offline(w)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_component_renders(browser: Browser, tmp_path: Path, scheme: str) -> None:
    table = TableView(scenario("follow-over-trump"), title="Table")
    pool = PoolCalculator(scenario("settle-hoffmann-worked-example-played-out"), title="Pool")
    step = Stepper(scenario("dealer-plays-miss-for-pool"), title="Stepper")
    cards = static.component_html(
        "cards", {"data": {"cards": ["AH", "10S", "QC", "2D", "JD", "KS", None], "title": "Cards"}}
    )
    body = table.static_html() + cards + cards + pool.static_html() + step.static_html()
    page, w = open_page(browser, write(tmp_path, "all.html", static.page("All", body)), scheme)
    assert page.locator(".loo").count() == 5  # the same fragment twice mounts twice
    assert page.get_by_role("img", name="ten of spades").count() == 2
    assert page.get_by_role("img", name="face-down card").count() >= 2
    seat3 = page.locator('.loo-seat[data-seat="3"]')
    assert "to act" in (seat3.get_attribute("aria-label") or "")
    page.locator('button[data-action="last"]').click()
    assert "The settlement" in page.locator(".loo-static").nth(4).inner_text()
    page.locator('input[data-field="receives.1"]').fill("6")
    page.locator('input[data-field="receives.1"]').press("Enter")
    page.locator('button[data-action="check"]').click()
    assert page.locator('[data-mark="receives.1"]').inner_text().startswith("\u2713")
    assert page.locator('[data-mark="next_pool"]').inner_text().startswith("\u2717")
    # "Show the working" shows it; the same button, pressed again, hides it (issue 23)
    pool_view = page.locator(".loo-static").nth(3)
    toggle = pool_view.locator('button[data-focus="show"]')
    toggle.click()
    assert "R40" in pool_view.locator(".loo-working").inner_text()
    assert toggle.inner_text() == "Hide the working" and toggle.get_attribute("aria-expanded") == "true"
    toggle.click()
    assert pool_view.locator(".loo-working").count() == 0
    assert toggle.inner_text() == "Show the working" and toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert pool_view.locator(".loo-working").is_visible()
    page.screenshot(path=str(SHOTS / f"components_{scheme}.png"), full_page=True)
    offline(w)


def test_an_explicit_theme_wins_over_the_system_setting(browser: Browser, tmp_path: Path) -> None:
    """The book's theme switch (html[data-theme]) and JupyterLab's light theme on a dark
    system (body[data-jp-theme-light] with its --jp-* colours) both stay readable."""
    path = write(tmp_path, "t.html", static.quiz_page(known_bank(), "Themes"))
    page, w = open_page(browser, path, "light")
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    fg, bg = colours(page, ".loo")
    assert luminance(bg) < 0.05 and contrast(fg, bg) >= 7
    page.locator('.loo-choices [data-key="4H"]').click()
    head = '.loo-verdict[data-verdict="4H"] .loo-verdict-head'
    assert (
        contrast(colours(page, head)[0], colours(page, '.loo-verdict[data-verdict="4H"]')[1]) >= 4.5
    )

    page.emulate_media(color_scheme="dark")
    page.evaluate(
        """() => { delete document.documentElement.dataset.theme;
           const b = document.body; b.dataset.jpThemeLight = 'true';
           b.style.setProperty('--jp-layout-color0', '#ffffff');
           b.style.setProperty('--jp-layout-color1', '#f5f5f5');
           b.style.setProperty('--jp-content-font-color1', 'rgba(0, 0, 0, 0.87)');
           b.style.setProperty('--jp-content-font-color2', 'rgba(0, 0, 0, 0.54)');
           b.style.setProperty('--jp-border-color1', '#bdbdbd'); }"""
    )
    fg, bg = colours(page, ".loo")
    assert luminance(bg) > 0.9
    assert (
        contrast(colours(page, head)[0], colours(page, '.loo-verdict[data-verdict="4H"]')[1]) >= 4.5
    )
    offline(w)


def test_a_picks_after_words_come_only_once_it_is_checked(browser: Browser, tmp_path: Path) -> None:
    """`after=`: the lesson's words on the answer are nowhere in what the page shows (nor in
    what it would print) until the learner has checked; then they are, as text, styled."""
    words = "Your lead had to be the **ace** (R23): it was *your* only trump."
    pick = PickCard(scenario("lead-ace-of-trumps"), title="Lead", after=words)
    page, w = open_page(browser, write(tmp_path, "a.html", static.page("After", pick.static_html())))
    root = page.locator(".loo-static").first
    assert "only trump" not in page.locator("body").inner_text()
    page.emulate_media(media="print")
    assert "only trump" not in page.locator("body").inner_text()
    page.emulate_media(media="screen")
    root.locator(f'.loo-choices [data-key="{pick.answer[0]}"]').click()
    assert "only trump" not in page.locator("body").inner_text()  # selected, not yet checked
    root.locator('button[data-action="check"]').click()
    after = root.locator(".loo-after")
    after.wait_for()
    assert after.inner_text() == "Your lead had to be the ace (R23): it was your only trump."
    assert after.locator("strong").inner_text() == "ace" and after.locator("em").inner_text() == "your"
    root.locator('button[data-action="reset"]').click()
    assert root.locator(".loo-after").count() == 0
    offline(w)
