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
    Ante,
    MissDealPosition,
    PoolRemainder,
    RuleOptions,
)
from loo_lessons.engine.penalties import OFFENCE_FOR_LAW, ruling_for
from loo_lessons.engine.sources import RULES
from loo_lessons.scenario import Scenario


def _key(a: Action) -> str:
    return a.code if isinstance(a, Card) else str(a)


def law_json(law: Law) -> dict[str, Any]:
    out: dict[str, Any] = law.as_json()
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


def preset_matching(options: RuleOptions) -> str | None:
    for name, p in PRESETS.items():
        if p.options == options:
            return name
    return None


def explain_json(sc: Scenario) -> dict[str, Any]:
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
            _key(a): law_json(law) for a, law in sorted(v.forbidden, key=lambda x: _key(x[0]))
        },
        "tricks": [t.as_json() for t in hand.completed_tricks() if t.plays],
    }
    if needed is not None:
        # the contract: what can be known is answered; what seat `needed` may play cannot be
        del out["legal"], out["illegal"]
        out["hand_needed"] = f"hands.{needed}"
    if v.why is not None:
        out["why"] = law_json(v.why)
    s = sc.final_settlement
    if s is not None:
        out["settlement"] = s.as_json()
        if hand.award_law is not None:
            out["settlement"]["awarded_by"] = law_json(hand.award_law)
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


def cite(law: Law, indent: str = "    ") -> str:
    q = law.quote
    body = f"{law.rule} — {law.reason}\n{q.book} [{q.seed}]: “{q.text}”"
    return textwrap.indent(
        textwrap.fill(body.split("\n")[0], 88) + "\n" + textwrap.fill(body.split("\n")[1], 88),
        indent,
    )


def why_withheld(hand: Hand, seat: int) -> str:
    """The rule that keeps a seat's winnings in the pool: the miss played for the pool (R19),
    a peek after standing (R54), or a replay after a play-phase penalty (R63)."""
    if seat == hand.for_pool:
        return "R19"
    ids = {r for p in hand.penalties if p.seat == seat for r in p.ruling.rules}
    return ", ".join(r for r in ("R54", "R63") if r in ids) or "R63"


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


def cite_rule(rule_id: str, indent: str = "    ") -> str:
    """A rule by id: its summary and its first quote, with the book named."""
    r = RULES[rule_id]
    q = r.quote
    return textwrap.indent(
        textwrap.fill(f"{rule_id} — {r.summary}", 88)
        + "\n"
        + textwrap.fill(f"{q.book} [{q.seed}]: “{q.text}”", 88),
        indent,
    )


def rules_line(sc: Scenario) -> str:
    """The preset the scenario starts from, and the options it changes."""
    raw = sc.data.get("rules")
    base = raw if isinstance(raw, str) else (raw or {}).get("preset", DEFAULT_PRESET)
    base_opts = PRESETS[base].options.to_dict() if base in PRESETS else {}
    changed = [f"{k} = {v}" for k, v in sc.options.to_dict().items() if base_opts.get(k) != v]
    book = PRESETS[base].book if base in PRESETS else ""
    return f"{base} ({book})" + (", with " + ", ".join(changed) if changed else "")


def _seat_name(hand: Hand, seat: int) -> str:
    tags = []
    if seat == hand.setup.dealer:
        tags.append("dealer")
    if seat == hand.setup.elder:
        tags.append("elder hand")
    if seat == hand.miss_holder:
        tags.append("holds the miss")
    return f"seat {seat}" + (f" ({', '.join(tags)})" if tags else "")


def explain_text(sc: Scenario) -> str:
    hand = sc.hand
    j = explain_json(sc)
    lines: list[str] = []
    if sc.title:
        lines += [sc.title, "=" * len(sc.title)]
    lines.append("Rules: " + rules_line(sc))
    lines.append(
        f"Table: {hand.setup.players} players, dealer seat {hand.setup.dealer}, elder hand "
        f"seat {hand.setup.elder}"
        + (" — a must: everyone plays, no miss" if hand.setup.must else "")
    )
    if hand.turn_up is not None:
        lines.append(
            f"Turn-up: {hand.turn_up.code} ({hand.turn_up.name}); trumps are "
            f"{hand.turn_up.suit.plural} (R04)."
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
        lines.append(cite_rule("R03"))
        lines.append(cite_rule("R04"))
        for seat, h in enumerate(sc.dealt.hands):
            lines.append(f"  {_seat_name(hand, seat)}: {' '.join(c.code for c in h)}")
        if sc.dealt.miss is not None:
            lines.append(f"  miss: {' '.join(c.code for c in sc.dealt.miss)}")
        lines.append(f"  {j['stock_remaining']} cards remain in the stock.")
    if hand.declared:
        lines.append(
            "Declarations: "
            + ", ".join(f"seat {s} {Declaration(d).words}" for s, d in hand.declared.items())
        )
    for i, t in enumerate(j["tricks"]):
        plays = ", ".join(f"seat {s} {c}" for s, c in t["plays"])
        won = f" → won by seat {t['winner']} (R37)" if t["winner"] is not None else " (unfinished)"
        lines.append(f"Trick {i + 1}: {plays}{won}")
    lines.append("")
    if j["to_act"] is not None:
        seat = j["to_act"]
        what = (
            "declare"
            if hand.phase is not Phase.PLAY  # declaring starts from the deal shown (Phase.DEAL)
            else ("lead" if j["leader"] == seat and not hand.current_trick else "play")
        )
        lines.append(f"Now {_seat_name(hand, seat)} is to {what}.")
    if j["to_act"] is not None and "legal" in j:
        seat = j["to_act"]
        if hand.phase is Phase.PLAY:
            lines.append(f"He holds: {' '.join(codes(hand.held[seat]))}")
        lines.append(f"Legal: {', '.join(j['legal'])}")
        v = hand.verdict()
        if v.why is not None:
            lines.append(cite(v.why))
        if v.forbidden:
            lines.append("Not allowed:")
            by_law: dict[Law, list[str]] = {}
            for a, law in v.forbidden:
                by_law.setdefault(law, []).append(_key(a))
            for law, keys in by_law.items():
                lines.append(f"  {', '.join(keys)}:")
                lines.append(cite(law))
                pen = penalty_words(law)
                if pen:
                    lines.append(f"    Penalty (Peel's laws, seed 004): {pen}")
    s = sc.final_settlement
    if s is not None:
        lines.append("The deal is over.")
        if hand.award_law is not None:
            lines.append(f"Seat {s.pool_awarded_to} takes the whole pool of {s.pool} without play.")
            lines.append(cite(hand.award_law))
        else:
            for seat, n in sorted(s.receives.items()):
                lines.append(
                    f"  seat {seat} took {s.tricks_won.get(seat, 0)} trick(s): receives {n} "
                    "(R38: one third of the pool a trick)"
                )
            for seat, n in sorted(s.withheld.items()):
                lines.append(
                    f"  seat {seat}'s winnings of {n} stay in the pool ({why_withheld(hand, seat)})"
                )
            for seat in s.looed:
                lines.append(
                    f"  seat {seat} played and took no trick: looed, pays {s.loo_pays[seat]} (R39)"
                )
            if not s.looed:
                lines.append("  nobody is looed")
        for p in hand.penalties:
            where = {
                "pool_now": "paid into this pool at once",
                "next_pool": "added to the next deal's pool",
                "nowhere": "no penalty listed",
            }[str(p.ruling.destination)]
            lines.append(
                f"  seat {p.seat} is penalised {p.amount} for {p.offence.info.words}: "
                f"{where} ({', '.join(p.ruling.rules)})"
            )
        if s.penalties_now:
            now_rules = sorted(
                {
                    p.ruling.rules[0]
                    for p in hand.penalties
                    if str(p.ruling.destination) == "pool_now"
                }
            )
            lines.append(
                f"  the pool divided was {s.pool}: the stake or pool of {s.pool - s.penalties_now}"
                f" plus {s.penalties_now} in penalties paid at once ({', '.join(now_rules)})"
            )
        odd = s.pool % 3 if s.pool_awarded_to is None else 0
        if odd and hand.options.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE:
            lines.append(
                f"  the pool of {s.pool} does not divide by three: the winners of the first and "
                "second tricks take the odd counters (pool_remainder: early_tricks_preference, "
                "Peel; A11, V12)"
            )
        if s.left_in_pool:
            why = (
                "odd counters carried forward (pool_remainder: carry_forward; A11, V12)"
                if odd and hand.options.pool_remainder is PoolRemainder.CARRY_FORWARD
                else "what the miss or an offender won (R19, R54, R63)"
            )
            lines.append(f"  {s.left_in_pool} counters stay in the pool for the next deal: {why}")
        antes = hand.options.ante is Ante.ALL_PLAYERS
        lines.append(
            f"Next pool: {s.next_pool} (the loos, what stays, "
            + (f"{s.penalties_next} in penalties (R61), " if s.penalties_next else "")
            + (
                f"and every player's ante of {hand.setup.stakes.stake} (ante: all_players, V9))"
                if antes
                else "and the new dealer's stake: R40)"
            )
        )
        if s.is_single:
            lines.append(
                "Three played and each took one trick: the next deal is a single (R41, R42)"
                + (", played as a must (R43)." if s.next_is_must else ".")
            )
        if s.pool_awarded_to is None:
            lines.append("Why:")
            cited = list(s.rules)
            for p in hand.penalties:
                cited += [r for r in p.ruling.rules if r not in cited]
            for rid in cited:
                lines.append(cite_rule(rid))
    for n in j.get("notes", []):
        lines.append(f"Note: {n}")
    return "\n".join(lines).rstrip() + "\n"
