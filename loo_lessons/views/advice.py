"""The playground's "Ask the coach": the coach's estimates (`sim.coach`, strategy, not law)
for the seat to act in a scenario typed in the page, as `loo-lessons coach FILE` gives them,
with fewer deals of the unseen cards (the page is slow) and seeded, so the same text gets the
same advice. Like the playground's explanation (`explain.playground.answer`) it never raises
for bad input: a refusal is the one line the command prints.
"""

from __future__ import annotations

import html
from typing import Any

from loo_lessons.engine.errors import LooError
from loo_lessons.explain.playground import MAX_CHARS, Answer, refused
from loo_lessons.scenario import loads
from loo_lessons.sim.coach import PAGE_ROLLOUTS, coach
from loo_lessons.sim.game import DOING, decision_kind

#: Deals of the unseen cards per legal move when the playground asks the coach (as the play
#: table's "Ask the coach"; `loo-lessons coach` takes 1,000 by default).
COACH_ROLLOUTS = PAGE_ROLLOUTS


def advise(text: str, rollouts: int = COACH_ROLLOUTS, seed: int = 0) -> Answer:
    """The coach's advice for the seat to act in a scenario given as YAML or JSON text: `text`
    as `loo-lessons coach FILE --rollouts N --seed S` prints it, `json` as its `--json`, `html`
    a table of the moves, best first; a scenario the coach cannot weigh (nobody to act, the
    seat's cards not given, a penalty) is refused in one line, like a bad one."""
    if len(text) > MAX_CHARS:
        return refused(f"file: the scenario is {len(text)} characters long (at most {MAX_CHARS})")
    try:
        hand = loads(text).hand
        advice = coach(hand, rollouts=rollouts, seed=seed)
    except LooError as e:
        return refused(str(e))
    j = advice.as_json()
    doing = DOING[decision_kind(hand)]
    return {
        "ok": True,
        "text": advice.text(),
        "html": advice_html(j, doing),
        "json": j,
        "error": None,
    }



def advice_html(advice: dict[str, Any], doing: str) -> str:
    """The coach's answer (`Advice.as_json()`) for a seat `doing` (declaring, leading,
    following) as HTML: why, the moves ranked with their
    estimates and 95 % intervals, how many deals, and the note that this is strategy, not law."""

    def span(e: dict[str, float], fmt: str) -> str:
        return f"{e['mean']:{fmt}} [{e['low']:{fmt}}, {e['high']:{fmt}}]"

    BEST = ' class="loo-coach-best"'
    rows = "".join(
        f'<tr data-move="{html.escape(m["action"])}"{BEST if i == 0 else ""}>'
        f'<td>{i + 1}</td><th scope="row">{html.escape(m["label"])}</th>'
        f"<td>{span(m['counters'], '+.2f')}</td><td>{span(m['looed'], '.0%')}</td>"
        f"<td>{span(m['trick'], '.0%')}</td></tr>"
        for i, m in enumerate(advice["moves"])
    )
    head = "".join(
        f'<th scope="col">{h}</th>'
        for h in ("Rank", "Move", "Counters (95 % interval)", "Looed", "At least one trick")
    )
    return (
        '<div class="loo-coach" role="region" aria-label="the coach\'s advice">'
        f'<p class="loo-prompt">The coach, for seat {advice["seat"]}, {doing}</p>'
        f'<p class="loo-coach-why">{html.escape(advice["why"])}</p>'
        f'<table class="loo-grid loo-coach-moves"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        f'<p class="loo-muted">{advice["rollouts"]} deals of the cards seat {advice["seat"]} cannot see, '
        f"seed {advice['seed']}.</p>"
        f'<p class="loo-muted loo-coach-note">{html.escape(advice["note"])}</p></div>'
    )
