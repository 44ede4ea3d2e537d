"""The moves a scenario describes, replayed through the engine's checked `apply`: declarations
in rotation, the tricks card by card, the penalties, and a settlement from counts or winners.
A move the engine refuses is refused here, naming the field that made it."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

from loo_lessons.engine.cards import FULL_PACK, Card
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.penalties import Offence

from .errors import ScenarioError
from .fields import Play
from .model import Scenario

#: How many ways of filling in an unknown hand are tried before a play is taken as made.
_MAX_COMPLETIONS = 2_000


def check_prefix(
    declarations: Mapping[int, Declaration], rotation: tuple[int, ...], playing: bool
) -> None:
    """Refuse declarations with a gap (a seat that declared after one that has not), unless play
    has begun and the gaps are inferred; the later seat is named."""
    if playing:
        return  # the gaps are inferred
    seen_gap = None
    for seat in rotation:
        if seat not in declarations:
            seen_gap = seat if seen_gap is None else seen_gap
        elif seen_gap is not None:
            raise ScenarioError(
                f"declarations.{seat}",
                f"seat {seat} declared before seat {seen_gap}: "
                "declaring goes to the left from the elder hand (R05)",
            )


def declarations(
    hand: Hand,
    declared: Mapping[int, Declaration],
    rotation: tuple[int, ...],
    sc: Scenario,
    shown: set[int] | None,
) -> None:
    """Replay the declarations in rotation. With `shown` (play has begun), a seat that did not
    declare is taken to have stood if it shows cards, else to have thrown up where it may."""
    for seat in rotation:
        if seat in declared:
            d = declared[seat]
        elif shown is None or hand.phase is Phase.SETTLED:
            return
        else:
            legal = hand.legal_actions()
            d = (
                Declaration.PASS
                if tuple(legal) == (Declaration.PASS,)
                or (seat not in shown and Declaration.PASS in legal)
                else Declaration.PLAY
            )
            sc.notes.append(f"Seat {seat} did not declare: taken as '{d}'.")
        if hand.phase is Phase.SETTLED:
            # R14: everyone before the dealer threw up; the dealer takes the pool whatever he says
            if d in (Declaration.PLAY, Declaration.PASS):
                if hand.award_law:
                    sc.notes.append(
                        f"Seat {seat}'s declaration is not needed: {hand.award_law.reason}"
                    )
                return
            raise ScenarioError(
                f"declarations.{seat}",
                f"{d} is not possible: everyone before the "
                "dealer threw up, so he takes the pool without play (R14)",
            )
        try:
            hand.apply(d)
        except IllegalAction as e:
            law = e.verdict.law_for(d) if e.verdict is not None else None
            cite = f" ({law.rule}: “{law.quote.text}”)" if law else ""
            reason = law.reason if law else str(e)
            raise ScenarioError(
                f"declarations.{seat}", f"seat {seat} cannot {d.words} ({d}): {reason}{cite}"
            ) from None


def _legal_in_some_hand(hand: Hand, seat: int, card: Card, unseen: Sequence[Card]) -> bool:
    """Could `card` have been legal for a seat whose hand is only partly known? It is, if it
    is legal with the cards of some way of filling in the unknown ones: only a play that is
    illegal whatever else he held is refused ("as far as the hands given allow")."""
    known = list(hand.held[seat])
    played = sum(1 for t in hand.tricks for s, _ in t if s == seat)
    need = 3 - played - len(known)
    if need <= 0:
        return card in hand.legal_actions()
    ways = itertools.islice(itertools.combinations(unseen, need), _MAX_COMPLETIONS)
    if any(card in hand.legal_with([*known, *extra]) for extra in ways):
        return True
    # illegal in every way tried; past the limit (more than a deal can need) it is taken as made
    return math.comb(len(unseen), need) > _MAX_COMPLETIONS


def tricks(hand: Hand, played: list[list[Play]], known: set[Card]) -> None:
    """Replay the tricks card by card. `known` are the cards the scenario shows anywhere; a
    seat whose hand is not given may have held any of the others."""
    if played and hand.phase is not Phase.PLAY:
        why = (
            "the declarations are not complete"
            if hand.phase is Phase.DECLARE
            else "the deal ended without play"
        )
        raise ScenarioError("tricks", f"no card can be played: {why}")
    unseen = [c for c in FULL_PACK if c not in known]
    for i, trick in enumerate(played):
        if i < len(played) - 1 and len(trick) != len(hand.players_in):
            raise ScenarioError(
                f"tricks[{i}]",
                f"only the last trick may be unfinished; this one has "
                f"{len(trick)} cards for {len(hand.players_in)} players",
            )
        if len(trick) > len(hand.players_in):
            raise ScenarioError(
                f"tricks[{i}]",
                f"a trick has one card from each player in ({len(hand.players_in)}), "
                f"not {len(trick)}",
            )
        for j, (seat, card) in enumerate(trick):
            where = f"tricks[{i}][{j}]"
            if hand.phase is not Phase.PLAY:
                raise ScenarioError(where, "the deal is already over")
            if seat not in hand.players_in:
                raise ScenarioError(
                    where, f"seat {seat} is not playing this deal (it threw up or never declared)"
                )
            if seat != hand.to_act:
                what = "lead" if j == 0 else "play"
                raise ScenarioError(
                    where,
                    f"seat {seat} played out of turn: seat {hand.to_act} was to "
                    f"{what} (R21, R29, R32)",
                )
            if card not in hand.held[seat]:
                raise ScenarioError(where, f"seat {seat} does not hold {card.code}")
            if hand.trumps is None:
                raise ScenarioError("turn_up", "needed: the play cannot be ruled without trumps")
            if seat in hand.partial and _legal_in_some_hand(hand, seat, card, unseen):
                hand.apply_unchecked(card)
                continue
            try:
                hand.apply(card)
            except IllegalAction as e:
                law = e.verdict.law_for(card) if e.verdict is not None else None
                if law is None:
                    raise ScenarioError(
                        where, f"seat {seat} cannot play {card.code}: {e}"
                    ) from None
                unknown = " whatever else he held" if seat in hand.partial else ""
                raise ScenarioError(
                    where,
                    f"seat {seat} played {card.code}, which was illegal{unknown}: "
                    f"{law.reason} ({law.rule}: “{law.quote.text}”)",
                ) from None


def penalty(hand: Hand, i: int, seat: int, off: Offence) -> None:
    """Record one penalty; the engine refuses offences this position makes impossible, and
    the refusal names the scenario's field."""
    problem = hand.penalty_problem(seat, off)
    if problem is not None:
        raise ScenarioError(f"penalties[{i}]", problem.problem)
    hand.penalise(seat, off)
