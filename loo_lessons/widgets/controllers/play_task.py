"""A play-this-deal task: what it asks of the learner, and its score once the deal is over
(the stand-in bot's baseline, the coach's part from `score`, the stars)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from loo_lessons.engine.errors import InputError
from loo_lessons.sim.game import DECISIONS, BotGame, decision_kind
from loo_lessons.widgets.controllers.play_state import PlayState
from loo_lessons.widgets.controllers.score import (
    TERMS,
    Weighed,
    coach_fields,
    coach_note,
    coach_words,
    stars,
    stars_words,
    weighed,
)


class PlayTask(PlayState):
    """The task's side of the play controller: its words, its baseline and its score."""

    def asked_words(self) -> str:
        """What the learner decides in this task, in words ("you declare; the sensible bot
        leads and follows for you")."""
        mine = [_ASK_WORDS[k][0] for k in self.asks]
        rest = [_ASK_WORDS[k][1] for k in DECISIONS if k not in self.asks]
        said = f"You {_and(mine)}"
        if rest:
            said += f"; the {self.stand_in.name} bot {_and(rest)} for you, and the log shows each move"
        return said + "."

    def baseline(self) -> int:
        """What the stand-in bot ends on from the learner's seat with the same cards, the
        other bots drawing from the same seed (it makes every one of the seat's decisions)."""
        if self._baseline is None:
            h = self._hand.root()
            BotGame(h, self.seat, self.bots, random.Random(self.rng_seed), asks=(), stand_in=self.stand_in).advance()
            s = h.settlement
            assert s is not None
            self._baseline = s.receives.get(self.seat, 0) - s.loo_pays.get(self.seat, 0)
        return self._baseline

    def own_moves(self) -> set[int]:
        """The indices in the deal's moves of the learner's own (not the stand-in's) moves."""
        return {mark for mark, _ in self._game.decisions}

    def _coach_score(self) -> tuple[dict[str, Any], list[dict[str, str]], tuple[Weighed, ...] | None]:
        """The coach's part of the score (`controllers.score`): the learner's own decisions
        weighed against the coach's best by `Coaching.weigh`, the very review "Review my
        decisions" shows, seeded by the task's seed, computed once when the deal ends and
        kept. Its rollouts are the review's (`REVIEW_ROLLOUTS`, 100 deals a move): measured in
        the book's page engine (Chromium, Pyodide 0.29.5, 2 shared cores, the tasks of lessons
        3 to 10 played to the end), the end-of-deal review alone took 60-300 ms and the deal's
        last click, the score included, 50-400 ms: well under the 2 s a click may take, so the
        score needs no fewer rollouts than the review."""
        mine = self.own_moves()
        h = self._hand.root()
        kinds: dict[int, str] = {}
        forced = found = 0
        for i, a in enumerate(self._hand.actions):
            if i in mine:
                kinds[i] = decision_kind(h)
                if len(h.legal_actions()) == 1:  # the move the rule forces: found first time?
                    forced += 1
                    found += i not in self._refused_at
            h.apply_unchecked(a)
        rollouts = self.coaching.review_rollouts
        made_for = self.stand_in.name if self.asks != DECISIONS else None
        try:
            ws = weighed(self.coaching.weigh(self._hand, mine), kinds)
        except InputError as e:  # a deal the coach cannot weigh (one with a penalty)
            said = f"The coach cannot weigh this deal: {e.problem}."
            return {"decisions": None, "coach_summary": "not weighed"}, [{"kind": "coach", "text": said}], None
        told = coach_words(ws, forced=forced, made_for_you=made_for, found=found)
        parts = [{"kind": "coach", "text": told}]
        if ws:
            parts[0]["text"] = (
                "One deal is as much the cards as the play, so the coach weighs each of your "
                f"decisions. {told}"
            )
            parts.append({"kind": "note", "text": coach_note(rollouts)})
        return coach_fields(ws, forced, rollouts, found), parts, ws

    def score(self) -> dict[str, Any] | None:
        """The task's score once the deal is over (None before): `result` (counters received
        less counters paid), `tricks`, `looed`, `in` (he played), `baseline` (the stand-in's
        result from his seat), `refused` (forbidden cards or declarations clicked), `undone`;
        the coach's part (`controllers.score`): `decisions` (his own, a forced move aside),
        `coach_choice` (how many were the coach's choice, or too close to it to tell),
        `mistakes` (the review's), `given_up` (mean counters given up against the coach's
        choices, in all), `forced`, `forced_found` (forced moves found with no refusal before
        them), `rollouts`, `weighed` (each decision), `coach_summary`; `stars` ({rules, coach,
        counters}: `controllers.score.stars`) and `star_count`; and `text`, the whole in plain
        words, also in `parts` ({kind, text}: the deal, the coach's words, its note, the rules
        kept, the stars, the words used), which the component draws one by one."""
        h, seat = self._hand, self.seat
        s = h.settlement
        if self.task is None or s is None:
            return None
        result = s.receives.get(seat, 0) - s.loo_pays.get(seat, 0)
        tricks = sum(1 for w in h.winners if w == seat)
        looed = seat in s.looed
        played = seat in {x for t in h.tricks for x, _ in t}
        base = self.baseline()
        if h.awarded_to == seat:
            what = "You took the pool without play"
        elif not played:
            what = "You were out of this deal"
        else:
            what = f"You took {tricks} trick{'' if tricks == 1 else 's'}" + (
                " and were looed" if looed else ", not looed"
            )
        diff = result - base
        compare = (
            "the same" if diff == 0 else f"{abs(diff)} {'better' if diff > 0 else 'worse'} than that"
        )
        coached, said, ws = self._coach_score()
        deal = (
            f"{what}: {result:+d} counter{'' if abs(result) == 1 else 's'} this deal. The "
            f"{self.stand_in.name} bot, making every decision from your seat with these cards, "
            f"ends on {base:+d}: you did {compare}."
        )
        rules = (
            f"Your decisions kept the rules: {self._refused} forbidden "
            f"click{'' if self._refused == 1 else 's'} refused, "
            f"{self._undone} undo{'' if self._undone == 1 else 's'}."
        )
        earned = stars(refused=self._refused, ws=ws, result=result, baseline=base)
        parts = [
            {"kind": "deal", "text": deal},
            *said,
            {"kind": "rules", "text": rules},
            {"kind": "stars", "text": stars_words(earned, self.stand_in.name)},
            {"kind": "terms", "text": TERMS},
        ]
        return {
            "result": result,
            "tricks": tricks,
            "looed": looed,
            "in": played,
            "baseline": base,
            "refused": self._refused,
            "undone": self._undone,
            **coached,
            "stars": earned,
            "star_count": sum(earned.values()),
            "parts": parts,
            "text": " ".join(p["text"] for p in parts),
        }

    def _task_data(self) -> dict[str, Any] | None:
        if self.task is None:
            return None
        return {
            "id": self.task,
            "asks": list(self.asks),
            "asked": self.asked_words(),
            "stand_in": self.stand_in.name,
            "refused": self._refused,
            "score": self.score(),
        }


#: Each kind of decision in words: what the learner does, what the stand-in does for him.
_ASK_WORDS: dict[str, tuple[str, str]] = {
    "declare": ("declare", "declares"),
    "lead": ("lead", "leads"),
    "follow": ("follow", "follows"),
}


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def task_name(task: object) -> str | None:
    """A task's name as given (letters, digits and hyphens, at most 40), or None for no task;
    anything else is an `InputError` on `task`."""
    if task is None:
        return None
    if not isinstance(task, str) or not 0 < len(task) <= 40 or not task.replace("-", "").isalnum():
        raise InputError("task", "a task's name is letters, digits and hyphens, at most 40")
    return task


def task_asks(asks: object) -> tuple[str, ...]:
    """The kinds of decision a task asks, in the deal's order (InputError for anything else)."""
    if asks is None:
        return DECISIONS
    if isinstance(asks, str) or not isinstance(asks, Sequence) or not asks:
        raise InputError("asks", f"a list of one or more of {', '.join(DECISIONS)}")
    for k in asks:
        if k not in DECISIONS:
            raise InputError("asks", f"{str(k)[:20]!r} is no decision: the decisions are {', '.join(DECISIONS)}")
    if len(set(asks)) != len(asks):
        raise InputError("asks", "a decision is named twice")
    return tuple(k for k in DECISIONS if k in asks)


__all__ = ["PlayTask"]
