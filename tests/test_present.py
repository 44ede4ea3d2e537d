"""The presenter (loo_lessons.widgets.present): a seeded deal for a whole class.

Checked without a browser: the buttons' Python mirror keeps the step and the faces in
range whatever is pressed (Hypothesis), each step is explained with its rule id and the
book's words, the deal is the one `lessons.stepper(seed)` shows, and the static export
carries the seed, the rules and the cards. In Chromium (Debian's, never `playwright
install`): every card is at least 140 px wide, the seed is shown big, the arrow keys and
F drive it exactly as `present_reduce` says, nothing is fetched, no console error.
Screenshots go to /tmp/shots/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from _browser import SHOTS, open_page
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page

from loo_lessons import lessons as L
from loo_lessons.engine.errors import LooError
from loo_lessons.widgets import bundle, static
from loo_lessons.widgets.controllers.present import FACES, present_reduce
from loo_lessons.widgets.controllers.steps import seeded_hand
from loo_lessons.widgets.present import CARD_WIDTH_PX, Presenter, present_html

# --- the Python side ------------------------------------------------------------------------------


def test_presenter_shows_the_deal_of_the_stepper() -> None:
    p = Presenter(42)
    assert (p.seed, p.players, p.rules, p.faces, p.step) == (42, 5, "hoffmann", "up", 0)
    assert p.steps == L.stepper(42).steps  # the same seeded deal, played by the same bots
    assert p.steps[0]["kind"] == "deal" and p.steps[-1]["kind"] == "settle"
    assert p.data["call"] == 'L.present(42, players=5, rules="hoffmann")'
    assert "Hoffmann" in p.data["book"]
    # a different seed or rules deals a different game; the same seed deals the same one
    assert Presenter(43).steps != p.steps
    assert Presenter(42).steps == p.steps
    assert Presenter(42, players=4, rules="peel").data["book"].startswith("W. H. Peel")


def test_every_move_is_explained_with_its_rule_and_the_books_words() -> None:
    p = Presenter(7, players=6)
    for step in p.steps[1:]:
        if step["kind"] in ("declare", "play"):
            assert step["laws"], step["title"]
            law = step["laws"][0]
            assert re.fullmatch(r"R\d\d", law["rule_id"])
            assert law["quote"] and law["book"] and law["source"]


def test_a_leader_with_the_ace_of_trumps_leads_it_and_the_presenter_says_r23() -> None:
    # R23: "If he holds the ace of trumps he is bound to lead it". Find seeded deals where a
    # leader holds the ace of trumps and check what was led and the rule the step gives.
    seen = 0
    for seed in range(400):
        trumps = seeded_hand(seed, 5, "hoffmann").trumps
        assert trumps is not None  # a deal with a miss always turns up a trump
        steps = Presenter(seed).steps
        leads = [s for s in steps if s["kind"] == "play" and " leads " in s["title"]]
        for s in leads:
            seat = int(s["title"].split()[1])
            led = s["title"].rsplit(" ", 1)[1]
            before = steps[steps.index(s) - 1]["view"]["seats"][seat]["cards"] or []
            if f"A{trumps.value}" in before:
                assert led == f"A{trumps.symbol}", (seed, s["title"])
                assert s["laws"][0]["rule_id"] == "R23"
                seen += 1
        if seen >= 3:
            break
    assert seen >= 3


def test_buttons_next_back_toggle() -> None:
    p = Presenter(42)
    n = len(p.steps)
    p.back()
    assert p.step == 0
    p.next()
    p.next()
    assert p.step == 2 and p.current is p.steps[2]
    p.back()
    assert p.step == 1
    p.last()
    p.next()
    assert p.step == n - 1
    p.first()
    assert p.step == 0
    p.goto(n + 10)
    assert p.step == n - 1
    p.goto(-3)
    assert p.step == 0
    assert not p.hidden
    p.toggle_faces()
    assert p.faces == "hidden" and p.hidden
    p.toggle_faces()
    assert p.faces == "up"
    p.show_faces(False)
    assert p.faces == "hidden"
    p.show_faces(True)
    assert p.faces == "up"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(LooError, match="faces"):
        Presenter(1, faces="sideways")
    with pytest.raises(LooError, match="unknown rules"):
        Presenter(1, rules="hoyle")
    with pytest.raises(LooError, match="seed"):
        Presenter(-1)
    assert Presenter(1, faces="hidden").faces == "hidden"


OPS = st.sampled_from(["next", "back", "toggle", "first", "last", "goto"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2000),
    players=st.integers(2, 8),
    ops=st.lists(st.tuples(OPS, st.integers(-5, 40)), max_size=60),
)
def test_random_presses_never_leave_the_deal(
    seed: int, players: int, ops: list[tuple[str, int]]
) -> None:
    p = Presenter(seed, players=players)
    n = len(p.steps)
    step, hidden = 0, False  # a plain model of the buttons
    for op, target in ops:
        if op == "next":
            p.next()
            step = min(step + 1, n - 1)
        elif op == "back":
            p.back()
            step = max(step - 1, 0)
        elif op == "toggle":
            p.toggle_faces()
            hidden = not hidden
        elif op == "first":
            p.first()
            step = 0
        elif op == "last":
            p.last()
            step = n - 1
        else:
            p.goto(target)
            step = min(max(target, 0), n - 1)
        assert 0 <= p.step < n
        assert p.faces in FACES
        assert (p.step, p.hidden) == (step, hidden)
        assert p.current["title"]


@given(
    count=st.integers(0, 30),
    start=st.one_of(st.integers(-10, 50), st.none(), st.text(max_size=3), st.booleans()),
    faces=st.one_of(st.sampled_from(["up", "hidden"]), st.text(max_size=6), st.none()),
    ev=st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["next", "prev", "first", "last", "goto", "toggle", "faces", "x"]
            ),
            "step": st.one_of(st.integers(-10, 50), st.none(), st.text(max_size=2)),
            "faces": st.one_of(st.sampled_from(["up", "hidden"]), st.text(max_size=4)),
        }
    ),
)
def test_present_reduce_keeps_any_state_in_range(
    count: int, start: Any, faces: Any, ev: dict[str, Any]
) -> None:
    out = present_reduce(count, {"step": start, "faces": faces}, ev)
    assert set(out) == {"step", "faces"}
    assert 0 <= out["step"] <= max(0, count - 1)
    assert out["faces"] in FACES


# --- the static export ----------------------------------------------------------------------------


def embedded_state(fragment: str) -> dict[str, Any]:
    from loo_lessons.widgets.static import embedded_states

    found = embedded_states(fragment)
    assert found
    out: dict[str, Any] = found[0]
    return out


def test_static_export_carries_the_seed_rules_and_big_cards() -> None:
    p = Presenter(42)
    p.next()
    frag = p.static_html()
    assert 'data-loo-component="present"' in frag
    state = embedded_state(frag)
    assert state["step"] == 1 and state["faces"] == "up"
    assert state["data"]["seed"] == 42 and state["data"]["rules"] == "hoffmann"
    assert state["data"]["call"] == 'L.present(42, players=5, rules="hoffmann")'
    # every seat's three cards are in the deal step, for the JS to draw
    seats = state["data"]["steps"][0]["view"]["seats"]
    assert [len(s["cards"]) for s in seats] == [3] * 5
    # the cards are drawn big: the width is set in the module and is at least 140 px
    assert CARD_WIDTH_PX >= 140
    assert f"const PRESENT_CARD_WIDTH = {CARD_WIDTH_PX};" in frag
    assert "width: ${PRESENT_CARD_WIDTH}px" in frag
    # offline and safe: nothing is fetched, the state cannot close the script
    assert not re.search(r"\b(src|href)=", frag)
    assert frag.count("<script") == 2
    # the notebook shows the live widget and, for the book, this fragment marked for the
    # book's engine (which runs the same controller in the page once it has loaded)
    bundle_ = p._repr_mimebundle_()
    assert bundle_ is not None and bundle_[0]["text/html"] == p.book_html()
    assert "data-loo-live=" in p.book_html() and embedded_state(p.book_html()) == state
    assert p.static()._repr_html_() == frag


def test_static_export_refuses_unknown_state() -> None:
    with pytest.raises(ValueError, match="unknown state keys"):
        present_html({"stepp": 1})


def test_the_module_uses_only_the_model_calls_and_bundles_alone() -> None:
    code = bundle.esm("present")
    # dispatch: only where the model has it (the book's engine model; see test_widgets)
    assert set(re.findall(r"\bmodel\.(\w+)", code)) <= {"get", "set", "save_changes", "on", "dispatch"}
    assert len(re.findall(r"^export default", code, re.M)) == 1
    assert not re.search(r"^\s*import\b", code, re.M)
    urls = set(re.findall(r"https?://[^\s\"'`)]+", code))
    assert urls <= {"http://www.w3.org/2000/svg"}


# --- in Chromium --------------------------------------------------------------------------------


def open_presenter(
    browser: Browser, tmp_path: Path, p: Presenter, scheme: str = "light", width: int = 1280
) -> tuple[Page, list[str], list[str]]:
    path = tmp_path / f"present-{scheme}.html"
    path.write_text(static.page("Presenter", p.static_html()), encoding="utf-8")
    page, w = open_page(browser, path, scheme, width=width, ready=".loo-present")
    return page, w.external, w.errors


def on_screen(page: Page) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(
        "() => { const m = window.looLessons[0].model; return {step: m.get('step'), faces: m.get('faces')}; }"
    )
    return out


def card_widths(page: Page) -> list[float]:
    widths: list[float] = page.eval_on_selector_all(
        ".loo-card", "es => es.map(e => e.getBoundingClientRect().width)"
    )
    return widths


def test_in_chromium_big_cards_seed_keys_and_toggle(browser: Browser, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    p = Presenter(42)
    n = len(p.steps)
    page, external, errors = open_presenter(browser, tmp_path, p)

    # the seed and the rules, big enough to read from the back of a room
    seed = page.locator(".loo-seed")
    assert seed.inner_text() == "Seed 42"
    size = float(seed.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 40
    assert "Hoffmann's rules" in page.locator(".loo-banner").inner_text()
    assert 'L.present(42, players=5, rules="hoffmann")' in page.locator(".loo-call").inner_text()

    # the deal: 15 cards in hand + turn-up + miss, every one at least 140 px wide, face up
    widths = card_widths(page)
    assert len(widths) == 5 * 3 + 1 + 3
    assert min(widths) >= 140
    assert page.get_by_role("img", name="queen of clubs").first.is_visible()  # the turn-up
    assert page.locator(".loo-stepno").inner_text() == f"Step 1 of {n}"
    assert "R03" in page.locator(".loo-law").first.inner_text()
    page.screenshot(path=str(SHOTS / "present_deal_light.png"), full_page=True)

    # the arrow keys step, as present_reduce says; the rule of the step is shown with its id
    page.locator(".loo-present").focus()
    expected: dict[str, Any] = {"step": 0, "faces": "up"}
    for key, ev in [("ArrowRight", "next")] * 7 + [("ArrowLeft", "prev")]:
        page.keyboard.press(key)
        expected = present_reduce(n, expected, {"type": ev})
    assert on_screen(page) == expected == {"step": 6, "faces": "up"}
    assert page.locator(".loo-step-title").inner_text() == p.steps[6]["title"]
    rule_id = p.steps[6]["laws"][0]["rule_id"]
    assert rule_id in page.locator(".loo-law").first.inner_text()

    # F hides every hand: the cards in hand turn face down, the cards on the table do not
    page.keyboard.press("f")
    assert on_screen(page)["faces"] == "hidden"
    hidden_in_hand = page.locator('.loo-seat .loo-card[aria-label="face-down card"]').count()
    in_hand = sum(len(s["cards"] or []) for s in p.steps[6]["view"]["seats"])
    assert hidden_in_hand == in_hand > 0
    assert page.locator(".loo-seat .loo-card:not([aria-label='face-down card'])").count() == 0
    assert min(card_widths(page)) >= 140
    page.screenshot(path=str(SHOTS / "present_hidden_light.png"), full_page=True)

    # the button does what F does, and Back / Forward stay inside the deal
    page.locator('button[data-action="toggle"]').click()
    assert on_screen(page)["faces"] == "up"
    forward = page.locator('button[data-action="next"]')
    for _ in range(n - 1 - on_screen(page)["step"]):
        forward.click()
    assert on_screen(page)["step"] == n - 1
    assert forward.get_attribute("aria-disabled") == "true"
    forward.click(force=True)  # pressed at the last step anyway: it stays there
    page.keyboard.press("ArrowRight")
    assert on_screen(page)["step"] == n - 1
    assert "Next pool" in page.locator(".loo-step-text").inner_text()
    page.keyboard.press("Home")
    assert on_screen(page)["step"] == 0
    assert external == [] and errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_in_chromium_random_keys_match_python(
    browser: Browser, tmp_path: Path, scheme: str
) -> None:
    import random

    p = Presenter(2024, players=6, faces="hidden")
    n = len(p.steps)
    page, external, errors = open_presenter(browser, tmp_path, p, scheme, width=1500)
    page.locator(".loo-present").focus()
    rng = random.Random(scheme)
    keys = {
        "ArrowRight": "next",
        "ArrowLeft": "prev",
        "PageDown": "next",
        "PageUp": "prev",
        "Home": "first",
        "End": "last",
        "f": "toggle",
    }
    expected: dict[str, Any] = {"step": 0, "faces": "hidden"}
    for _ in range(40):
        key = rng.choice(sorted(keys))
        page.keyboard.press(key)
        expected = present_reduce(n, expected, {"type": keys[key]})
    assert on_screen(page) == expected
    assert min(card_widths(page)) >= 140
    assert page.locator(".loo-stepno").inner_text() == f"Step {expected['step'] + 1} of {n}"
    page.screenshot(path=str(SHOTS / f"present_random_{scheme}.png"), full_page=True)
    assert external == [] and errors == []
