"""The play table's state as the parts of its controller read it: the deal, the seat, the
bots around it (`bots_around`), and what the learner may do now. `PlayController` is built on
it in layers, one concern each: the task and its score (`play_task`), what is drawn
(`play_drawn`), the transcripts (`play_files`), the session's moves (`play`)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any

from loo_lessons.engine.errors import InputError
from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import RuleOptions
from loo_lessons.explain.table import action_key
from loo_lessons.quiz.pick import pick_question
from loo_lessons.sim.asking import on_offer
from loo_lessons.sim.bots import Bot, get_bot
from loo_lessons.sim.game import BotGame
from loo_lessons.widgets.controllers.base import Controller
from loo_lessons.widgets.controllers.coaching import Coaching

BotSpec = str | Bot | Sequence[str | Bot | None]
Rules = str | RuleOptions | Mapping[str, Any] | None


def _bot_name(b: str | Bot) -> str:
    return get_bot(b).name


def _personality(b: Bot) -> str:
    doc = inspect.getdoc(type(b)) or ""
    return " ".join(doc.split())


def bots_around(spec: BotSpec, players: int, seat: int) -> tuple[Bot | None, ...]:
    """One bot per seat (None for the learner's): one bot for all, or a sequence naming one
    per seat (`players` long, the learner's entry ignored) or one per other seat, in order."""
    if isinstance(spec, str) or not isinstance(spec, Sequence):
        one = get_bot(spec)
        return tuple(None if s == seat else one for s in range(players))
    given = list(spec)
    if len(given) == players - 1:
        given.insert(seat, None)
    if len(given) != players:
        raise InputError(
            "bots",
            f"give one bot for every seat ({players}) or for every other seat ({players - 1}), "
            f"not {len(given)}",
        )
    out: list[Bot | None] = []
    for s, b in enumerate(given):
        if s == seat:
            out.append(None)
        elif b is None:
            raise InputError("bots", f"seat {s} has no bot")
        else:
            out.append(get_bot(b))
    return tuple(out)


class PlayState(Controller):
    """What every layer of the play controller reads: the deal as it stands and the seat's
    options now (the attributes are set by `PlayController.__init__`)."""

    # the deal and who sits where (set by PlayController.__init__)
    seed: int
    seat: int
    rng_seed: int
    bots: tuple[Bot | None, ...]
    task: str | None
    asks: tuple[str, ...]
    stand_in: Bot
    coaching: Coaching
    _after: list[list[tuple[str, str]]] | None  # the lesson's words, as `views.prose` reads them
    _refused: int
    _refused_at: set[int]
    _undone_at: set[int]
    _undone: int
    _baseline: int | None
    _title: str | None
    _hand: Hand
    _game: BotGame
    _message: str | None
    _error: str | None
    _spec: dict[str, Any] | None

    @property
    def hand(self) -> Hand:
        """The deal as it stands (read it; move only through choose/undo/restart)."""
        return self._hand

    @property
    def over(self) -> bool:
        """Whether the deal is over: nobody is left to act."""
        return self._hand.to_act is None

    @property
    def my_turn(self) -> bool:
        """Is it the learner's decision now (in a task: one of the kinds it asks)?"""
        return self._game.learner_decides()

    @property
    def legal(self) -> list[str]:
        """The keys of the learner's legal options now, in the order shown (his cards in hand
        order, trumps first; or the declarations); [] when it is not his turn."""
        if not self.my_turn:
            return []
        return list(self._question()["answer"])

    @property
    def options(self) -> list[str]:
        """Every option the learner has now, legal or not (his cards, or the declarations
        the engine rules on)."""
        if not self.my_turn:
            return []
        return [c["key"] for c in self._question()["choices"]]

    @property
    def decisions(self) -> int:
        """How many decisions the learner has made (and could undo)."""
        return len(self._game.decisions)

    def _question(self) -> dict[str, Any]:
        """The learner's decision as a pick question, its choices the buttons the table shows
        (`sim.asking.on_offer`); every law stays in `verdicts`, so a key typed in is refused
        with its rule all the same."""
        q = pick_question(self._hand, reveal={self.seat}, qid="play", topic="play")
        shown = {action_key(a) for a in on_offer(self._hand)}
        q["choices"] = [c for c in q["choices"] if c["key"] in shown]
        return q

    def _you(self) -> int | None:
        """The seat the table's words address as "you" (pass-and-play: none while the
        device is being passed)."""
        return self.seat

    def _who(self, seat: int) -> str:
        b = self.bots[seat]
        return "you" if b is None else b.name


__all__ = ["BotSpec", "PlayState", "Rules", "bots_around"]
