"""The moves a scenario describes, replayed through the engine's checked `apply`: declarations
in rotation, the tricks card by card, the penalties, and a settlement from counts or winners.
A move the engine refuses is refused here, naming the field that made it."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

from loo_lessons.engine.cards import FULL_PACK, Card, Rank
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction, ScenarioError
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.options import PoolRemainder, VoidTrumpRule
from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.settle import Settlement, settle

from .fields import Play
from .model import Scenario

#: How many ways of filling in an unknown hand are tried before a play is taken as made.
_MAX_COMPLETIONS = 2_000


def check_prefix(
    declarations: Mapping[int, Declaration], rotation: tuple[int, ...], playing: bool
) -> None:
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
                f"declarations.{seat}", f"seat {seat} cannot {d.words}: {reason}{cite}"
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
    for extra in ways:
        hand.held[seat] = known + list(extra)
        try:
            if card in hand.legal_actions():
                return True
        finally:
            hand.held[seat] = known
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
    """Record one penalty, refusing offences this position makes impossible."""
    where = f"penalties[{i}]"
    o = hand.options
    if off.info.play_phase:
        if seat not in hand.players_in or hand.awarded_to is not None:
            raise ScenarioError(
                where,
                f"seat {seat} played no card this deal, so it cannot be "
                f"penalised for {off.info.words} (R07, R13)",
            )
        if off is Offence.FAIL_TO_LEAD_KING and not (
            hand.turn_up is not None and hand.turn_up.rank == Rank.ACE
        ):
            raise ScenarioError(
                where, "the king must be led only when the ace of trumps is turned up (R24, R55)"
            )
        if off is Offence.FAIL_TO_UNDERTRUMP and o.void_trump_rule is not VoidTrumpRule.MUST_TRUMP:
            raise ScenarioError(
                where,
                "under void_trump_rule: only_if_heads a player need not "
                "trump when he cannot head the trick (R36)",
            )
        if off is Offence.FAIL_TO_HEAD_IN_SUIT and not o.must_head_in_suit:
            raise ScenarioError(
                where,
                "under must_head_in_suit: false heading in the suit led is not compulsory (R34)",
            )
    if off is Offence.LOOK_AT_MISS:
        if hand.setup.must:
            raise ScenarioError(where, "there is no miss in a must (R45)")
        if hand.miss_holder == seat:
            raise ScenarioError(
                where,
                f"seat {seat} took the miss: the offence is looking at it without taking it (R51)",
            )
    hand.penalise(seat, off)


def settle_from(
    hand: Hand,
    tricks_won: Mapping[int, int] | None,
    winners: Sequence[int] | None,
) -> Settlement:
    """The settlement when the scenario says who won (counts, or winners in order)."""
    field_name = "tricks_won" if winners is None else "trick_winners"
    if hand.phase is not Phase.PLAY or hand.tricks != [[]]:
        why = (
            "the deal ended without play"
            if hand.phase is Phase.SETTLED
            else "the declarations are not complete"
        )
        raise ScenarioError(field_name, f"cannot settle: {why}")
    if winners is not None:
        for i, seat in enumerate(winners):
            if seat not in hand.players_in:
                raise ScenarioError(f"trick_winners[{i}]", f"seat {seat} did not play this deal")
        counts = {s: winners.count(s) for s in winners}
        if tricks_won is not None and {s: n for s, n in tricks_won.items() if n} != counts:
            raise ScenarioError("trick_winners", "do not agree with tricks_won")
    else:
        assert tricks_won is not None
        for seat, n in tricks_won.items():
            if n and seat not in hand.players_in:
                raise ScenarioError(f"tricks_won.{seat}", f"seat {seat} did not play this deal")
    s = hand.setup
    now = sum(p.amount for p in hand.penalties if p.ruling.destination == "pool_now")
    pool = s.stakes.pool + now
    if (
        winners is None
        and pool % 3
        and hand.options.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE
    ):
        raise ScenarioError(
            "tricks_won",
            f"a pool of {pool} does not divide by three, and "
            "pool_remainder: early_tricks_preference gives the odd counters to the "
            "first and second tricks: give `trick_winners` (or `tricks`) so their winners are known",
        )
    try:
        return settle(
            players=s.players,
            stakes=s.stakes,
            options=hand.options,
            players_in=hand.players_in,
            trick_winners=list(winners) if winners is not None else None,
            tricks_won=dict(tricks_won) if winners is None and tricks_won is not None else None,
            for_pool=hand.for_pool,
            withheld_seats=sorted(hand.withheld_seats),
            penalties_now=now,
            penalties_next=sum(
                p.amount for p in hand.penalties if p.ruling.destination == "next_pool"
            ),
        )
    except ValueError as e:  # the engine's own refusal, should the pre-check above miss one
        raise ScenarioError(field_name, f"cannot settle: {e}") from None
