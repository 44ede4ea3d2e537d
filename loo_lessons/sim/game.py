"""One deal against bots: the learner's seat and a bot at every other seat, written once for
the terminal game (`views.terminal`) and the play widget (`widgets.controllers.play`).

The bots see only what their seats may see and draw from one `random.Random`, seeded by the
deal. Undo goes back to the learner's previous decision and puts the random state back too,
so the bots answer the same move the same way every time; `play_out` plays a whole deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from loo_lessons.engine.errors import LooError
from loo_lessons.engine.game import Action, Hand, Phase
from loo_lessons.explain.words import leading
from loo_lessons.sim.asking import Advisor
from loo_lessons.sim.bots import BOTS, Bot, bot_move


def play_out(hand: Hand, seed: int = 0, bot: str | Bot = "sensible") -> Hand:
    """Play a hand to the end with one bot at every seat (its draws from `seed`); returns it."""
    rng = random.Random(seed)
    who = BOTS[bot] if isinstance(bot, str) else bot
    while hand.to_act is not None:
        hand.apply(bot_move(hand, who, rng))
    return hand


#: A bot's move, as the table reports it: (seat, action, tricks complete before it).
Move = tuple[int, Action, int]

#: The kinds of decision a seat makes in a deal, in the order a deal asks them.
DECISIONS: tuple[str, ...] = ("declare", "lead", "follow")
#: Each kind of decision as a heading or a line says what the seat is doing.
DOING: dict[str, str] = {"declare": "declaring", "lead": "leading", "follow": "following"}


def decision_kind(hand: Hand) -> str:
    """What the seat to act decides now: `declare`, `lead` (the first card of a trick) or
    `follow` (a card to a trick begun)."""
    if hand.phase is not Phase.PLAY:
        return "declare"
    return "lead" if leading(hand) else "follow"


class BotGame:
    """The learner at `seat`, `bots[s]` at every other seat (None at his), the bots' draws
    from `rng`. `advance()` lets the bots move until it is his turn; `decide(a)` makes his
    move (checked by the engine) and lets them answer; `undo()` and `restart()` go back to one
    of his decisions, the random state with it.

    `asks` (a task): the kinds of decision (`DECISIONS`) the learner makes himself; his
    seat's other decisions are made for him by `stand_in`, in the open like a bot's move.

    `people`: every seat a person plays (pass-and-play: several at one device), `seat`
    among them; the one-learner game is `(seat,)`. Their bots' entries are None.

    `advisor` (a task): of the decisions of a kind in `asks`, only those that test something
    are asked (`sim.asking`: the law refuses a choice on offer, or the coach separates the
    legal ones); the others are played for him (the only legal move, or the coach's)."""

    def __init__(
        self,
        hand: Hand,
        seat: int,
        bots: Sequence[Bot | None],
        rng: random.Random,
        *,
        asks: Sequence[str] = DECISIONS,
        stand_in: Bot | None = None,
        people: Sequence[int] = (),
        advisor: Advisor | None = None,
    ) -> None:
        self.hand = hand
        self.seat = seat
        self.people = tuple(people) or (seat,)
        if seat not in self.people:
            raise LooError(f"seat {seat} is not among the people's seats {list(self.people)}")
        self.bots = tuple(bots)
        self.rng = rng
        self.asks = tuple(asks)
        self.stand_in = stand_in
        self.advisor = advisor
        if stand_in is None and set(DECISIONS) - set(self.asks):
            raise LooError("a seat that decides only some of its moves needs a stand-in bot")
        self.decisions: list[tuple[int, Any]] = []  # (moves made before it, random state)

    def learner_decides(self, hand: Hand | None = None) -> bool:
        """Is a person (the learner) to act now, on a kind of decision he makes himself?"""
        h = self.hand if hand is None else hand
        if h.to_act not in self.people or decision_kind(h) not in self.asks:
            return False
        return self.advisor is None or self.advisor.ruling(h).asked

    def played_for(self, hand: Hand | None = None) -> str | None:
        """The log's line when the learner's move now, of a kind he is asked, is played for
        him because it tests nothing (`Ruling.words`); None otherwise."""
        h = self.hand if hand is None else hand
        if self.advisor is None or h.to_act not in self.people or decision_kind(h) not in self.asks:
            return None
        r = self.advisor.ruling(h)
        return None if r.asked else r.words()

    def _move_for(self, seat: int) -> Action:
        """The move made for `seat` when nobody is asked: a decision of an asked kind that
        tests nothing gets the ruling's move (no draw); any other, its bot's."""
        h = self.hand
        if self.advisor is not None and seat in self.people and decision_kind(h) in self.asks:
            return self.advisor.ruling(h).move
        return bot_move(h, self.bot(seat), self.rng)

    def bot(self, seat: int) -> Bot:
        """The bot that plays `seat`: its own bot, or the stand-in for a person's decisions he
        does not make himself."""
        b = self.bots[seat] if seat not in self.people else self.stand_in
        if b is None:  # never: the loop stops at the learner's decisions
            raise LooError(f"seat {seat} is the learner's: no bot plays it")
        return b

    def advance(self, said: Callable[[int, Action, int], None] | None = None) -> list[Move]:
        """The bots move until it is the learner's turn or the deal is over; `said` hears
        each move as it is made (seat, action, tricks complete before it)."""
        h, moves = self.hand, []
        while h.to_act is not None and not self.learner_decides():
            seat, before = h.to_act, len(h.winners)
            a = self._move_for(seat)
            h.apply(a)
            moves.append((seat, a, before))
            if said is not None:
                said(seat, a, before)
        return moves

    def decide(self, a: Action) -> None:
        """The learner's move (IllegalAction if the rules forbid it; nothing changes then)."""
        mark = (len(self.hand.actions), self.rng.getstate())
        self.hand.apply(a)
        self.decisions.append(mark)

    def replay(self, moves: Sequence[Action]) -> None:
        """Recorded moves again: the learner's become his decisions; a bot is asked too (so
        the random draws stay in step), but the record is followed."""
        h = self.hand
        for a in moves:
            seat = h.to_act
            if seat is None:
                raise LooError("more moves than the deal has")
            if self.learner_decides():
                self.decisions.append((len(h.actions), self.rng.getstate()))
            else:
                self._move_for(seat)
            h.apply(a)

    def _back_to(self, decision: tuple[int, Any]) -> None:
        mark, state = decision
        while len(self.hand.actions) > mark:
            self.hand.undo()
        self.rng.setstate(state)

    def undo(self) -> bool:
        """Back to the learner's previous decision (False: he has made none)."""
        if not self.decisions:
            return False
        self._back_to(self.decisions.pop())
        return True

    def restart(self) -> None:
        """Back to the learner's first decision of the deal."""
        if self.decisions:
            first = self.decisions[0]
            self.decisions.clear()
            self._back_to(first)
