"""A Hypothesis state machine driving one Hand under random rule options.

Rules: apply a random legal action; try a random forbidden (or impossible) action, which must
raise IllegalAction and leave the position unchanged; undo; penalise a random seat for a
random Offence; replay the transcript (also through JSON). Invariants after every step: 52
cards accounted for, `to_act is None` iff the phase is settled, a non-empty `legal` when
someone is to act, legal and forbidden partition the options, and the settlement's counters
add up, penalties included.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from loo_lessons.engine.cards import FULL_PACK, Card
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction, LooError
from loo_lessons.engine.game import Action, Hand, Phase, Setup
from loo_lessons.engine.options import OPTION_SPECS, PRESETS, Ante, LooAmount, options_from, preset
from loo_lessons.engine.penalties import Destination, Offence
from loo_lessons.engine.settle import Stakes
from loo_lessons.scenario.transcripts import load_transcript


def rule_options() -> st.SearchStrategy[Any]:
    every = st.fixed_dictionaries(
        {k: st.sampled_from(list(spec.values)) for k, spec in OPTION_SPECS.items()}
    ).map(options_from)
    return st.one_of(every, st.sampled_from(sorted(PRESETS)).map(preset))


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    opts = draw(rule_options())
    must = draw(st.booleans())
    players = draw(st.integers(2, 17 if must else 16))
    dealer = draw(st.integers(0, players - 1))
    stake = draw(st.integers(1, 9))
    cap = draw(st.integers(1, 40)) if opts.loo_amount is LooAmount.POOL_CAPPED else None
    pool = draw(st.none() | st.integers(0, 90))
    stakes = Stakes.make(
        stake,
        draw(st.none() | st.integers(1, 18)),
        None,
        cap,
        pool,
        players=players,
        ante=opts.ante,
    )
    return Setup(players, dealer, opts, stakes, must)


def snapshot(h: Hand) -> tuple[Any, ...]:
    return h.snapshot()


class HandMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.hand: Hand | None = None
        self.before: list[tuple[Action, tuple[Any, ...]]] = []  # (move, position before it)

    @property
    def h(self) -> Hand:
        assert self.hand is not None
        return self.hand

    @initialize(setup=setups(), seed=st.integers(0, 2**32 - 1))
    def deal(self, setup: Setup, seed: int) -> None:
        self.hand = Hand.dealt(setup, random.Random(seed), seed=seed)

    # --- rules ----------------------------------------------------------------------
    @precondition(lambda self: self.hand is not None and self.hand.to_act is not None)
    @rule(i=st.integers(0, 3))
    def apply_legal(self, i: int) -> None:
        legal = self.h.legal_actions()
        a = legal[i % len(legal)]
        before = snapshot(self.h)
        self.h.apply(a)
        self.before.append((a, before))

    @precondition(lambda self: self.hand is not None and self.hand.to_act is not None)
    @rule(choices=st.lists(st.integers(0, 3), min_size=1, max_size=20))
    def apply_legal_run(self, choices: list[int]) -> None:
        """Several legal moves in a row, so that hands reach the play and the settlement."""
        for i in choices:
            if self.h.to_act is None:
                return
            self.apply_legal(i)

    @precondition(
        lambda self: (
            self.hand is not None
            and self.hand.to_act is not None
            and len(self.hand.verdict().forbidden) > 0
        )
    )
    @rule(i=st.integers(0, 3))
    def apply_forbidden(self, i: int) -> None:
        forbidden = self.h.verdict().forbidden
        a, law = forbidden[i % len(forbidden)]
        before = snapshot(self.h)
        try:
            self.h.apply(a)
        except IllegalAction as e:
            assert e.verdict is not None
            assert e.verdict.law_for(a) is law
            # an immutable copy of the position (scenario JSON), not the live hand
            assert isinstance(e.position, str) and e.position == self.h.to_scenario()
        else:
            raise AssertionError(f"forbidden {a} was accepted")
        assert snapshot(self.h) == before

    @precondition(lambda self: self.hand is not None)
    @rule(card=st.sampled_from(FULL_PACK), decl=st.sampled_from(list(Declaration)))
    def apply_impossible(self, card: Card, decl: Declaration) -> None:
        """A card the seat does not hold, a declaration during the play, or anything once settled."""
        h = self.h
        if h.to_act is None:
            candidates: list[Action] = [card, decl]
        elif h.phase is Phase.DECLARE:
            candidates = [card]
        else:
            candidates = [decl] + ([card] if card not in h.hand_of(h.to_act) else [])
        before = snapshot(h)
        for a in candidates:
            try:
                h.apply(a)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{a} was accepted")
            assert snapshot(h) == before

    @precondition(lambda self: self.hand is not None and len(self.before) > 0)
    @rule()
    def undo(self) -> None:
        a, before = self.before.pop()
        assert self.h.undo() == a
        assert snapshot(self.h) == before

    @precondition(lambda self: self.hand is not None)
    @rule(seat=st.integers(0, 16), offence=st.sampled_from(list(Offence)))
    def penalise(self, seat: int, offence: Offence) -> None:
        seat %= self.h.setup.players
        n = len(self.h.penalties)
        try:
            rec = self.h.penalise(seat, offence)
        except LooError:
            assert len(self.h.penalties) == n  # refused: nothing recorded
            return
        assert len(self.h.penalties) == n + 1 and self.h.penalties[-1] is rec
        assert rec.seat == seat and rec.offence is offence and rec.amount >= 0

    @precondition(lambda self: self.hand is not None)
    @rule()
    def replay(self) -> None:
        t = self.h.transcript()
        back = load_transcript(json.loads(json.dumps(t.as_json())))
        assert back == t
        assert snapshot(back.replay()) == snapshot(self.h)

    # --- invariants -----------------------------------------------------------------
    @invariant()
    def cards_accounted_for(self) -> None:
        if self.hand is None:
            return
        h = self.h
        assert sum(h.accounted().values()) == 52
        where = [c for cards in h.held for c in cards] + list(h.miss or ()) + h.discards
        where += [c for t in h.tricks for _, c in t] + list(h.stock)
        where += [h.turn_up] if h.turn_up is not None else []
        assert len(where) == 52 and set(where) == set(FULL_PACK)

    @invariant()
    def to_act_iff_not_settled(self) -> None:
        if self.hand is None:
            return
        assert (self.h.to_act is None) == (self.h.phase is Phase.SETTLED)

    @invariant()
    def someone_to_act_has_a_move(self) -> None:
        if self.hand is None or self.h.to_act is None:
            return
        h = self.h
        legal = h.legal_actions()
        assert len(legal) >= 1
        v = legal.verdict()
        forbidden = {a for a, _ in v.forbidden}
        assert not set(legal) & forbidden
        seat = h.to_act
        assert seat is not None
        everything: set[Action] = (
            set(Declaration) if h.phase is Phase.DECLARE else set(h.hand_of(seat))
        )
        assert set(legal) | forbidden == everything

    @invariant()
    def counters_add_up(self) -> None:
        if self.hand is None or self.h.phase is not Phase.SETTLED:
            return
        h = self.h
        s = h.settlement
        assert s is not None
        now = sum(p.amount for p in h.penalties if p.ruling.destination is Destination.POOL_NOW)
        nxt = sum(p.amount for p in h.penalties if p.ruling.destination is Destination.NEXT_POOL)
        # every penalty the hand accepted is in its settlement (R50, R53: this pool; R61: next)
        assert s.penalties_now == now, "a recorded penalty is missing from the settlement"
        assert s.penalties_next == nxt, "a recorded penalty is missing from the settlement"
        assert s.pool == h.setup.stakes.pool + now
        assert sum(s.receives.values()) + s.left_in_pool == s.pool
        st_ = h.setup.stakes.stake
        stake = st_ * h.setup.players if h.options.ante is Ante.ALL_PLAYERS else st_
        assert s.next_pool == sum(s.loo_pays.values()) + s.left_in_pool + stake + nxt
        if s.pool_awarded_to is None:
            for seat in s.receives:
                assert seat not in h.withheld_seats  # R54, R63: the offender's winnings stay
            won = {seat: h.winners.count(seat) for seat in h.players_in}
            assert s.looed == tuple(
                seat for seat in h.players_in if won[seat] == 0 and seat != h.for_pool
            )
            assert s.is_single == (len(h.players_in) == 3 and all(n == 1 for n in won.values()))


TestHandMachine = HandMachine.TestCase
TestHandMachine.settings = settings(
    max_examples=150,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
