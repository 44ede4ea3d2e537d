"""Verdicts → JSON (the contract of `loo-lessons explain --json`) and readable text."""

from __future__ import annotations

import textwrap
from typing import Any

from loo_lessons.engine.cards import Card, codes
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Action, Hand, Phase, Verdict
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import (
    DEFAULT_PRESET,
    PRESETS,
    MissDealPosition,
    RuleOptions,
    preset_of,
)
from loo_lessons.engine.penalties import OFFENCE_FOR_LAW, ruling_for
from loo_lessons.engine.sources import RULES, Quote
from loo_lessons.explain.settlement import settlement_lines, settlement_text
from loo_lessons.explain.words import (
    action_label,
    book_name,
    book_quote,
    card_label,
    declared_words,
    plural,
    quote_text,
    seat_name,
    task_words,
)
from loo_lessons.scenario import Scenario


def _key(a: Action) -> str:
    return a.code if isinstance(a, Card) else str(a)


def _said(a: Action) -> str:
    """An option as the lessons say it: a card's code, a declaration in the books' words."""
    return a.code if isinstance(a, Card) else action_label(a)


def legal_line(keys: list[str]) -> str:
    """`Legal: stand, throw up, take miss (in a scenario file: play, pass, take_miss)`: the
    books' words, and the file's words where they differ; a card by its code (`Legal: 6S`)."""
    said = [action_label(k) if k in _DECLARATION_KEYS else k for k in keys]
    line = f"Legal: {', '.join(said)}"
    if said != keys:
        line += f" (in a scenario file: {', '.join(keys)})"
    return line


_DECLARATION_KEYS = frozenset(d.value for d in Declaration)


def law_json(law: Law, options: RuleOptions | None = None) -> dict[str, Any]:
    """A law for JSON: rule, reason, the verbatim quote and its seed file (`source`), the book's
    name and the quote in plain words (`words`); under a preset, that preset's own book's quote
    of the rule where it has one."""
    out: dict[str, Any] = law.as_json()
    q = book_quote(law.rule, law.quote, options)
    out.update(quote=q.text, source=q.source, book=book_name(q), words=quote_text(q))
    off = OFFENCE_FOR_LAW.get(law)
    if off is not None:
        r = ruling_for(off)
        out["penalty"] = {
            "offence": off.name.lower(),
            "size": str(r.size),
            "destination": str(r.destination),
            "rules": list(r.rules),
        }
    return out


def rule_json(
    rule_id: str,
    slug: str = "",
    reason: str | None = None,
    quote: int = 0,
    options: RuleOptions | None = None,
) -> dict[str, Any]:
    """A law-like mapping for a digest rule that is not an engine `Law` (R03, R04, R29, R37, …);
    under a preset, its own book's quote of the rule where it has one."""
    r = RULES[rule_id]
    q = book_quote(rule_id, r.quotes[min(quote, len(r.quotes) - 1)], options)
    return {
        "rule": slug,
        "rule_id": rule_id,
        "reason": reason if reason is not None else r.summary,
        "source": q.source,
        "quote": q.text,
        "book": book_name(q),
        "words": quote_text(q),
    }


def preset_matching(options: RuleOptions) -> str | None:
    """The name of the preset whose options are exactly `options` (`hoffmann`, `peel`), or None for
    rules of the table's own."""
    found = preset_of(options)
    return found.name if found else None


def explain_json(sc: Scenario) -> dict[str, Any]:
    """What `loo-lessons explain FILE --json` prints for a scenario: the phase, trumps, who acts,
    what is legal and forbidden with the law (rule id, the book's quote and name) behind each,
    the settlement when the deal is over."""
    hand = sc.hand
    needed = sc.hand_needed  # the seat to act, when its hand was not given
    v = hand.verdict() if needed is None else Verdict(hand.phase, needed, (), None, (), ())
    out: dict[str, Any] = {
        "phase": hand.phase.value,  # the engine's one phase
        "trumps": hand.trumps.value if hand.trumps is not None else None,
        "to_act": hand.to_act,
        "leader": hand.leader,
        "legal": sorted(_key(a) for a in v.legal),
        "illegal": {
            _key(a): law_json(law, sc.options)
            for a, law in sorted(v.forbidden, key=lambda x: _key(x[0]))
        },
        "tricks": [t.as_json() for t in hand.completed_tricks() if t.plays],
    }
    if needed is not None:
        # the contract: what can be known is answered; what seat `needed` may play cannot be
        del out["legal"], out["illegal"]
        out["hand_needed"] = f"hands.{needed}"
    if v.why is not None:
        out["why"] = law_json(v.why, sc.options)
    note = leader_note(hand) if sc.settlement is None else None
    if note is not None:  # a trick winner leads under the first leader's obligations (R29)
        out["leads_by"] = rule_json(note[0], "winner-leads", note[1], options=sc.options)
    s = sc.final_settlement
    if s is not None:
        out["settlement"] = s.as_json()
        out["settlement"]["lines"] = settlement_lines(s, hand, options=sc.options)
        if hand.award_law is not None:
            out["settlement"]["awarded_by"] = law_json(hand.award_law, sc.options)
    out["title"] = sc.title
    out["players"] = hand.setup.players
    out["dealer"] = hand.setup.dealer
    out["elder_hand"] = hand.setup.elder
    out["must"] = hand.setup.must
    out["turn_up"] = hand.turn_up.code if hand.turn_up is not None else None
    out["declarations"] = {str(k): str(d) for k, d in hand.declared.items()}
    out["players_in"] = list(hand.players_in)
    out["miss_holder"] = hand.miss_holder
    out["rules"] = sc.options.to_dict()
    out["preset"] = preset_matching(sc.options)
    if sc.dealt is not None:
        d = sc.dealt
        out["hands"] = {str(i): [c.code for c in h] for i, h in enumerate(d.hands)}
        out["miss"] = [c.code for c in d.miss] if d.miss is not None else None
    if sc.dealt is not None or sc.before_first_trick:
        out.update(sc.deal_counts())
    notes = [n for n in sc.notes if n]
    if needed is not None:
        notes.append(
            f"Seat {needed} is to play, but its hand is not given: what it may play needs "
            f"hands.{needed}."
        )
    if notes:
        out["notes"] = notes
    return out


# --- readable text ---------------------------------------------------------------------------


def _fill(text: str, indent: str) -> str:
    return textwrap.indent(textwrap.fill(text, 88, break_long_words=False), indent)


def cite(law: Law, indent: str = "    ", options: RuleOptions | None = None) -> str:
    """A law for a learner: its rule id and reason, then the book's name and its words."""
    q = book_quote(law.rule, law.quote, options)
    return (
        _fill(f"{law.rule} — {law.reason}", indent)
        + "\n"
        + _fill(f"{book_name(q)}: “{quote_text(q)}”", indent)
    )


def penalty_words(law: Law) -> str | None:
    """The penalty for playing a card this law forbids, in words (None if none is listed)."""
    off = OFFENCE_FOR_LAW.get(law)
    if off is None:
        return None
    r = ruling_for(off)
    if str(r.size) == "none":
        return f"none is listed ({r.note})"
    where = (
        "into this pool at once" if str(r.destination) == "pool_now" else "to the next deal's pool"
    )
    return (
        f"{off.info.words} costs a {str(r.size).replace('_', ' ')}, {where}; the cards are "
        f"replayed and his winnings stay in the pool ({', '.join(r.rules)})."
    )


def cite_rule(
    rule_id: str,
    indent: str = "    ",
    options: RuleOptions | None = None,
    quote: Quote | None = None,
    reason: str | None = None,
) -> str:
    """A rule by id: its summary (or `reason`) and its quote, with the book named."""
    r = RULES[rule_id]
    q = book_quote(rule_id, quote or r.quote, options)
    return (
        _fill(f"{rule_id} — {reason or r.summary}", indent)
        + "\n"
        + _fill(f"{book_name(q)}: “{quote_text(q)}”", indent)
    )


#: Why the seat to lead leads: the first leader (R21, R22) or the winner of the last trick (R29).
WINNER_LEADS = (
    "R29",
    "He won the last trick, so he leads to the next, under the same obligations as the "
    "original leader.",
)


def leader_note(hand: Hand) -> tuple[str, str] | None:
    """(rule id, reason) when the seat to act leads to a later trick: R29 binds him as the
    first leader was bound; None otherwise."""
    if (
        hand.phase is Phase.PLAY
        and hand.to_act is not None
        and hand.winners
        and len(hand.tricks) > len(hand.winners)
        and not hand.tricks[-1]
    ):
        return WINNER_LEADS
    return None


def rules_line(sc: Scenario) -> str:
    """The preset the scenario starts from, and the options it changes."""
    raw = sc.data.get("rules")
    base = raw if isinstance(raw, str) else (raw or {}).get("preset", DEFAULT_PRESET)
    base_opts = PRESETS[base].options.to_dict() if base in PRESETS else {}
    changed = [f"{k} = {v}" for k, v in sc.options.to_dict().items() if base_opts.get(k) != v]
    book = PRESETS[base].book if base in PRESETS else ""
    return f"{base} ({book})" + (", with " + ", ".join(changed) if changed else "")


def explain_text(sc: Scenario) -> str:
    """What `loo-lessons explain FILE` prints: the rules, the table, whose turn it is, each legal
    and forbidden action with the rule id and the book's quote that decide it."""
    hand = sc.hand
    opts = sc.options
    j = explain_json(sc)
    lines: list[str] = []
    if sc.title:
        lines += [sc.title, "=" * len(sc.title)]
    lines.append("Rules: " + rules_line(sc))
    lines.append(
        f"Table: {plural(hand.setup.players, 'player')}, dealer seat {hand.setup.dealer}, "
        f"elder hand seat {hand.setup.elder}"
        + (" — a must: everyone plays, no miss" if hand.setup.must else "")
    )
    if hand.turn_up is not None:
        lines.append(
            f"Turn-up: {hand.turn_up.code} ({card_label(hand.turn_up, the=True)}, "
            f"{hand.turn_up.name}); trumps are {hand.turn_up.suit.plural} (R04)."
        )
    elif hand.trumps is not None:
        lines.append(f"Trumps: {hand.trumps.plural}.")
    if hand.phase is Phase.DEAL and sc.dealt is not None:
        first = hand.options.miss_deal_position is MissDealPosition.FIRST_EACH_ROUND
        lines.append(
            "The deal: three cards each, one at a time, from the elder hand; the miss's card "
            + ("first" if first else "last")
            + f" in each round (miss_deal_position: {hand.options.miss_deal_position}); "
            "then the next card is turned up."
        )
        lines.append(cite_rule("R03", options=opts))
        lines.append(cite_rule("R04", options=opts))
        for seat, h in enumerate(sc.dealt.hands):
            lines.append(f"  {seat_name(hand, seat)}: {' '.join(c.code for c in h)}")
        if sc.dealt.miss is not None:
            lines.append(f"  miss: {' '.join(c.code for c in sc.dealt.miss)}")
        lines.append(f"  {plural(j['stock_remaining'], 'card')} remain in the stock.")
    if hand.declared:
        lines.append(
            "Declarations: "
            + ", ".join(
                f"seat {s} {declared_words(Declaration(d))}" for s, d in hand.declared.items()
            )
        )
    for i, t in enumerate(j["tricks"]):
        plays = ", ".join(f"seat {s} {c}" for s, c in t["plays"])
        won = f" → won by seat {t['winner']} (R37)" if t["winner"] is not None else " (unfinished)"
        lines.append(f"Trick {i + 1}: {plays}{won}")
    lines.append("")
    if j["to_act"] is not None:
        seat = j["to_act"]
        lines.append(f"Now {seat_name(hand, seat)} is to {task_words(hand)}.")
    if j["to_act"] is not None and "legal" in j:
        seat = j["to_act"]
        if hand.phase is Phase.PLAY:
            lines.append(f"He holds: {' '.join(codes(hand.held[seat]))}")
        lines.append(legal_line(j["legal"]))
        note = leader_note(hand)
        if note is not None:
            lines.append(cite_rule(note[0], options=opts, reason=note[1]))
        v = hand.verdict()
        if v.why is not None:
            lines.append(cite(v.why, options=opts))
        if v.forbidden:
            lines.append("Not allowed:")
            by_law: dict[Law, list[str]] = {}
            for a, law in v.forbidden:
                by_law.setdefault(law, []).append(_said(a))
            for law, keys in by_law.items():
                lines.append(f"  {', '.join(keys)}:")
                lines.append(cite(law, options=opts))
                pen = penalty_words(law)
                if pen:
                    lines.append(f"    Penalty ({PRESETS['peel'].book.split(' (')[0]}): {pen}")
    s = sc.final_settlement
    if s is not None:
        lines.append("The deal is over.")
        lines += [
            textwrap.fill(x, 88, subsequent_indent="        ", break_long_words=False)
            for x in settlement_text(s, hand, options=opts)
        ]
        lines.append("Why:")
        cited: set[tuple[str, str]] = set()
        for line in s.lines:
            if (line.rule, line.quote.text) not in cited:
                cited.add((line.rule, line.quote.text))
                lines.append(
                    cite_rule(line.rule, options=opts, quote=line.quote, reason=line.reason)
                )
    for n in j.get("notes", []):
        lines.append(f"Note: {n}")
    return "\n".join(lines).rstrip() + "\n"
