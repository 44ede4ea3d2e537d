"""A play-this-deal task: what it asks of the learner, and its score once the deal is over
(the stars, from her decisions alone, and one line per decision she was asked, worded from
the deal as played: the engine's verdict for a law-decided one, the coach's for a strategy
one; `controllers.score`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from loo_lessons.engine.errors import InputError
from loo_lessons.engine.game import Hand
from loo_lessons.explain.table import action_key
from loo_lessons.quiz.pick import pick_question
from loo_lessons.sim.game import DECISIONS, BotGame, decision_kind
from loo_lessons.widgets.controllers.play_state import PlayState
from loo_lessons.widgets.controllers.score import (
    GLOSSARY,
    STARS,
    TERMS,
    Decided,
    Weighed,
    coach_fields,
    coach_note,
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
        # (a move that tests nothing is played for her too: its line in the log says so, and
        # the page's words stay few, tools/pace.py)
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

    def _weigh(self, mine: set[int]) -> tuple[Weighed, ...] | None:
        """The coach's review of the learner's own decisions (`Coaching.weigh`, the very review
        "Review my decisions" shows, from the table's kept advice: the same play-outs and seed
        as "Ask the coach" and the question whether to ask her), computed once when the deal
        ends; None for a deal the coach cannot weigh (one with a penalty)."""
        h = self._hand.root()
        kinds: dict[int, str] = {}
        for i, a in enumerate(self._hand.actions):
            if i in mine:
                kinds[i] = decision_kind(h)
            h.apply_unchecked(a)
        try:
            return weighed(self.coaching.weigh(self._hand, mine), kinds)
        except InputError:
            return None

    def asked_decisions(self) -> list[Decided]:
        """Each decision the learner was asked in the deal as played, judged as the table judged
        it before asking (`sim.asking.Ruling`): law-decided, strategy, both; with the engine's
        verdict on what was on offer, and whether she found the law's move first time."""
        mine = self.own_moves()
        ws = self._weigh(mine)
        by_move = {w.move: w for w in ws or ()}
        advisor = self.coaching.advisor
        h = self._hand.root()
        out: list[Decided] = []
        for i, a in enumerate(self._hand.actions):
            if i in mine:
                r = advisor.ruling(h)
                q = self._question_at(h)
                out.append(
                    Decided(
                        move=i,
                        kind=decision_kind(h),
                        trick=len(h.winners) + 1,
                        law=r.law,
                        strategy=r.strategy,
                        offered=tuple(action_key(x) for x in r.offered),
                        legal=tuple(action_key(x) for x in r.legal),
                        played=action_key(a),
                        found=i not in self._refused_at and i not in self._undone_at,
                        refused=i in self._refused_at,
                        verdicts=q["verdicts"],
                        weighed=by_move.get(i),
                    )
                )
            h.apply_unchecked(a)
        return out

    def played_for_lines(self) -> list[str]:
        """The log's line for each move of a kind the task asks that was played for the
        learner because it tested nothing (`sim.asking`), in the deal's order."""
        h = self._hand.root()
        out = []
        for a in self._hand.actions:
            said = self._game.played_for(h) if not self._game.learner_decides(h) else None
            if said is not None:
                out.append(said)
            h.apply_unchecked(a)
        return out

    def _question_at(self, h: Hand) -> dict[str, Any]:
        return pick_question(h, reveal={self.seat}, qid="play", topic="play")

    def score(self) -> dict[str, Any] | None:
        """The task's score once the deal is over (None before). The stars measure the
        learner's decisions, never the cards (`controllers.score.stars`): `rules` (no click
        refused), `law` (the law's move found first time, no refusal or undo over it, at every
        law-decided decision), `coach` (the coach's choice, or one it cannot tell from it, at
        every strategy decision); `star_count`. `asked`: one entry per decision she was asked
        (`Decided.as_json`), worded from the deal as played; `decided_well` (those that earned
        their mark; the progress page ranks attempts by stars, then by it); `law_decisions`,
        `law_found`, `strategy_decisions`, `strategy_choice`; `played_for` (the lines of the
        moves played for her). Kept as before: `result` (counters received less paid),
        `tricks`, `looed`, `in`, `baseline` (the stand-in's result from her seat, not shown),
        `refused`, `undone`, the coach's numbers (`controllers.score.coach_fields`). `text` is
        the whole in plain words, also in `parts` ({kind, text}: stars, deal, one `decision`
        each, the coach's note, the words used with `glossary` anchors)."""
        h, seat = self._hand, self.seat
        s = h.settlement
        if self.task is None or s is None:
            return None
        result = s.receives.get(seat, 0) - s.loo_pays.get(seat, 0)
        tricks = sum(1 for w in h.winners if w == seat)
        looed = seat in s.looed
        played = seat in {x for t in h.tricks for x, _ in t}
        if h.awarded_to == seat:
            what = "You took the pool without play"
        elif not played:
            what = "You were out of this deal"
        else:
            what = f"You took {tricks} trick{'' if tricks == 1 else 's'}" + (
                " and were looed" if looed else ", not looed"
            )
        asked = self.asked_decisions()
        mine = self.own_moves()
        ws = self._weigh(mine)
        forced = sum(1 for d in asked if len(d.legal) == 1)
        found = sum(1 for d in asked if len(d.legal) == 1 and not d.refused)
        rollouts = self.coaching.review_rollouts
        coached = coach_fields(ws or (), forced, rollouts, found)
        earned = stars(refused=self._refused, asked=asked, weighed_ok=ws is not None)
        played_for = self.played_for_lines()
        parts: list[dict[str, Any]] = [
            {"kind": "stars", "text": stars_words(earned)},
            {"kind": "deal", "text": f"{what}: {result:+d} counter{'' if abs(result) == 1 else 's'} this deal."},
            *({"kind": "decision", "text": d.words()} for d in asked),
        ]
        if not asked:
            parts.append({"kind": "decision", "text": "Nothing in this deal tested you: every move of yours was played for you."})
        if ws is None:
            parts.append({"kind": "coach", "text": "The coach cannot weigh this deal (a penalty was paid)."})
        elif any(d.strategy for d in asked):
            parts.append({"kind": "note", "text": coach_note(rollouts)})
        parts.append({"kind": "terms", "text": TERMS, "glossary": list(GLOSSARY)})
        law = [d for d in asked if d.law]
        strategy = [d for d in asked if d.strategy]
        return {
            "result": result,
            "tricks": tricks,
            "looed": looed,
            "in": played,
            "baseline": self.baseline(),
            "refused": self._refused,
            "undone": self._undone,
            **coached,
            "asked": [d.as_json() for d in asked],
            "law_decisions": len(law),
            "law_found": sum(d.found for d in law),
            "strategy_decisions": len(strategy),
            "strategy_choice": sum(d.choice for d in strategy),
            "decided_well": sum(d.well for d in asked),
            "played_for": played_for,
            "stars": earned,
            "star_count": sum(earned.values()),
            "stars_max": len(STARS),
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
