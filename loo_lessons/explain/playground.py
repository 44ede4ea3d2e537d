"""The scenario playground: text a reader typed → the answer `loo-lessons explain` gives.

`answer(text)` is what the book's playground page calls (in the reader's browser, through
the in-page engine) and what the book build precomputes for the shipped examples. It never
raises for bad input: a refused scenario comes back as the one line the CLI prints on
stderr (`error: FIELD: problem`), with nothing half-answered. The HTML is a view of the
same explanation text the CLI prints, its citations set as quotations: nothing is decided
here.

`advise(text)` is the playground's "Ask the coach": the coach's estimates (`sim.coach`,
strategy, not law) for the seat to act in the scenario, as `loo-lessons coach FILE` gives
them, with fewer deals of the unseen cards (the page is slow) and seeded, so the same text gets
the same advice.
"""

from __future__ import annotations

import html
import re
from typing import Any, TypedDict

from loo_lessons.engine.errors import LooError
from loo_lessons.explain import explain_json, explain_text
from loo_lessons.scenario import loads


class Answer(TypedDict):
    ok: bool
    text: str  # what `loo-lessons explain FILE` prints
    html: str  # the same explanation, readable in a page
    json: dict[str, Any] | None  # what `loo-lessons explain FILE --json` prints
    error: str | None  # what it prints on stderr when the scenario is refused


#: The longest text the playground reads: a scenario is a screenful, not a book.
MAX_CHARS = 20_000

_RULE_START = re.compile(r"^(R\d\d) — (.*)$")
_QUOTE_START = re.compile(r"^(.+?) \[(\d{3})\]: “(.*)$")


def answer(text: str) -> Answer:
    """Explain a scenario given as YAML or JSON text (JSON is YAML, read by the safe loader)."""
    if len(text) > MAX_CHARS:
        return _refused(f"file: the scenario is {len(text)} characters long (at most {MAX_CHARS})")
    try:
        sc = loads(text)
        j = explain_json(sc)
        t = explain_text(sc)
    except LooError as e:  # ScenarioError names the field; the engine's other refusals too
        return _refused(str(e))
    return {"ok": True, "text": t, "html": explanation_html(t), "json": j, "error": None}


#: Deals of the unseen cards per legal move when the playground asks the coach (as the play
#: table's "Ask the coach"; `loo-lessons coach` takes 1,000 by default).
COACH_ROLLOUTS = 200


def advise(text: str, rollouts: int = COACH_ROLLOUTS, seed: int = 0) -> Answer:
    """The coach's advice for the seat to act in a scenario given as YAML or JSON text: `text`
    as `loo-lessons coach FILE --rollouts N --seed S` prints it, `json` as its `--json`, `html`
    a table of the moves, best first; a scenario the coach cannot weigh (nobody to act, the
    seat's cards not given, a penalty) is refused in one line, like a bad one."""
    from loo_lessons.sim.coach import coach
    from loo_lessons.sim.game import decision_kind

    if len(text) > MAX_CHARS:
        return _refused(f"file: the scenario is {len(text)} characters long (at most {MAX_CHARS})")
    try:
        hand = loads(text).hand
        advice = coach(hand, rollouts=rollouts, seed=seed)
    except LooError as e:
        return _refused(str(e))
    j = advice.as_json()
    doing = _DOING[decision_kind(hand)]
    return {
        "ok": True,
        "text": advice.text(),
        "html": advice_html(j, doing),
        "json": j,
        "error": None,
    }


#: The seat's decision, as the coach's heading says it.
_DOING = {"declare": "declaring", "lead": "leading", "follow": "following"}


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


def _refused(message: str) -> Answer:
    line = "error: " + message.splitlines()[0] if message else "error: file: refused"
    return {
        "ok": False,
        "text": "",
        "html": f'<p class="loo-refused" role="alert">{html.escape(line)}</p>',
        "json": None,
        "error": line,
    }


def explanation_html(text: str) -> str:
    """The explanation text as HTML: plain lines as lines, each indented citation (rule id —
    summary, then the book's words) as a quotation naming its book."""
    out: list[str] = []
    lines = text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    ") and _RULE_START.match(line.strip()):
            block = []
            while i < len(lines) and lines[i].startswith("    "):
                block.append(lines[i].strip())
                i += 1
            out.append(_citations_html(block))
            continue
        if line.startswith("=") and set(line) == {"="}:
            i += 1
            continue
        if i + 1 < len(lines) and lines[i + 1] and set(lines[i + 1]) == {"="}:
            out.append(f'<h3 class="loo-explain-title">{html.escape(line)}</h3>')
        elif line.strip():
            cls = "loo-explain-line" + (" loo-explain-sub" if line.startswith("  ") else "")
            text = line.strip()
            # a line the terminal's wrapping carried over (indented deeper than the line it
            # continues) joins that line's paragraph: no paragraph ends mid-sentence
            while i + 1 < len(lines) and _continues(line, lines[i + 1]):
                i += 1
                text += " " + lines[i].strip()
            out.append(f'<p class="{cls}">{html.escape(text)}</p>')
        i += 1
    return '<div class="loo-explain-html">' + "".join(out) + "</div>"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _continues(line: str, nxt: str) -> bool:
    """Is `nxt` the wrapped rest of `line`? (The terminal's wrapping indents a carried-over
    rest by 6 or more, deeper than the line; a sub-line is indented by 2, a citation by 4.)"""
    return (
        bool(nxt.strip())
        and _indent(nxt) >= 6
        and _indent(nxt) > _indent(line)
        and not _RULE_START.match(nxt.strip())
    )


def _citations_html(block: list[str]) -> str:
    """Lines of one or more citations as `cite()` / `cite_rule()` wrap them; a line that is
    not part of a citation (a penalty note) stays a line."""
    parts: list[str] = []
    rule: tuple[str, list[str]] | None = None
    quote: tuple[str, str, list[str]] | None = None

    def flush() -> None:
        nonlocal rule, quote
        if rule is not None:
            rid, summary = rule
            q = ""
            if quote is not None:
                book, seed, words = quote
                q = (
                    f'<br><q class="loo-explain-quote">{html.escape(" ".join(words).rstrip("”"))}'
                    f"</q> <small>— {html.escape(book)} [{seed}]</small>"
                )
            parts.append(
                f'<blockquote class="loo-quote" data-rule="{rid}"><strong>{rid}</strong> — '
                f"{html.escape(' '.join(summary))}{q}</blockquote>"
            )
        rule, quote = None, None

    for line in block:
        m = _RULE_START.match(line)
        if m:
            flush()
            rule = (m.group(1), [m.group(2)])
            continue
        q = _QUOTE_START.match(line)
        if rule is not None and quote is None and q:
            quote = (q.group(1), q.group(2), [q.group(3)])
        elif quote is not None and not quote[2][-1].endswith("”"):
            quote[2].append(line)
        elif rule is not None and quote is None:
            rule[1].append(line)
        else:
            flush()
            parts.append(f'<p class="loo-explain-line loo-explain-sub">{html.escape(line)}</p>')
    flush()
    return "".join(parts)
