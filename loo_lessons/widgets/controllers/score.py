"""A play-this-deal task's score, the coach's part: each of the learner's own decisions weighed
against the coach's best (`sim.coach.review`, as "Review my decisions" weighs them), in numbers
and in words a learner reads.

A decision counts as **the coach's choice** when it is the coach's first choice, or when the
coach cannot tell it from that choice at its number of deals: the 95 % interval of what it gave
up against the best, deal by deal (`versus_best`), reaches zero. It is a **mistake** when the
review marks it one (`sim.coach.MISTAKE_COUNTERS`: more than that given up on average, and
surely some). Between the two, a decision gave up a little, surely. Counters *given up* are
the sum, over the learner's decisions, of the mean counters each gave up against the coach's
choice. A forced move (one legal option) is no decision for the coach, but finding it is a
skill of its own: it is scored as *found first time* when no refusal came before it. The coach
is strategy, not law: the words say so, and nothing here says what is legal.

A task earns up to three **stars** (`stars`), from the learner's decisions only, never from
the cards: no refusal; the law's move found first time at every law-decided decision (one
where the law refused a choice on offer: a refusal or an undo over it loses it); the coach's
choice, or one it cannot tell from it, at every strategy decision (`sim.asking`: the coach's
best at least 0.3 counters ahead of its worst). Following the coach always earns all three; a
move the review calls a mistake never earns the last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from loo_lessons.engine.cards import Card
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Action, parse_action
from loo_lessons.engine.sources import RULES
from loo_lessons.explain.table import action_key
from loo_lessons.explain.words import card_label
from loo_lessons.sim.coach import MISTAKE_COUNTERS, Estimate

#: Each declaration as a learner's move ("standing gave up ...") and as the coach's ("the
#: coach would have stood").
_DECLARED: dict[Declaration, tuple[str, str]] = {
    Declaration.PLAY: ("standing", "stood"),
    Declaration.TAKE_MISS: ("taking the miss", "taken the miss"),
    Declaration.PASS: ("throwing up", "thrown up"),
    Declaration.PLAY_MISS_FOR_POOL: ("playing the miss for the pool", "played the miss for the pool"),
}


def _doing(a: Action, kind: str) -> str:
    """The move as something done: `throwing up`, `leading the 7♣`, `playing the 7♣`."""
    if isinstance(a, Card):
        return f"{'leading' if kind == 'lead' else 'playing'} {card_label(a, the=True)}"
    return _DECLARED[a][0]


def _done(a: Action, kind: str) -> str:
    """The move after `would have`: `stood`, `led the K♥`, `played the K♥`."""
    if isinstance(a, Card):
        return f"{'led' if kind == 'lead' else 'played'} {card_label(a, the=True)}"
    return _DECLARED[a][1]


def counters(x: float) -> str:
    """`about 0.6 counters`, `about 1.0 counter`."""
    n = f"{abs(x):.1f}" if abs(x) >= 0.095 else f"{abs(x):.2f}"
    return f"about {n} counter{'' if n == '1.0' else 's'}"


@dataclass(frozen=True, slots=True)
class Weighed:
    """One of the learner's own decisions, as the coach weighed it."""

    move: int  # its index in the deal's moves
    kind: str  # declare, lead or follow
    played: Action
    best: Action  # the coach's first choice
    cost: Estimate  # counters given up against it, deal by deal (0 for the best itself)
    mistake: bool

    @property
    def choice(self) -> bool:
        """The coach's choice: its first, or one it cannot tell from it at this many deals."""
        return self.played == self.best or self.cost.low <= 0

    @property
    def words(self) -> str:
        """`leading the 7♣ gave up about 0.6 counters on average (a mistake); the coach would
        have led the K♥`."""
        doing = _doing(self.played, self.kind)
        if self.played == self.best:
            return f"{doing} was the coach's first choice"  # (not said: the summary counts it)
        if self.choice:
            return (
                f"{doing} was as good as the coach's choice: it was {counters(self.cost.mean)} "
                f"behind {_doing(self.best, self.kind)}, and the coach can't tell these apart"
            )
        return (
            f"{doing} gave up {counters(self.cost.mean)} on average"
            + (f", a mistake (more than {MISTAKE_COUNTERS} counters given up)" if self.mistake else "")
            + f"; the coach would have {_done(self.best, self.kind)}"
        )

    def as_json(self) -> dict[str, Any]:
        """The weighed choice as the task's score stores it: the move, what was played and the
        coach's best, the cost in counters, and whether it was a mistake."""
        return {
            "move": self.move,
            "kind": self.kind,
            "played": action_key(self.played),
            "best": action_key(self.best),
            "cost": self.cost.as_json(),
            "choice": self.choice,
            "mistake": self.mistake,
            "words": self.words,
        }


def weighed(review: Mapping[str, Any], kinds: Mapping[int, str]) -> tuple[Weighed, ...]:
    """The review's decisions (`Coaching.weigh`), each with its kind (`kinds`: move index →
    declare, lead or follow)."""
    out = []
    for d in review["decisions"]:
        c = d["cost"]
        out.append(
            Weighed(
                d["move"],
                kinds[d["move"]],
                parse_action(d["played"]),
                parse_action(d["best"]),
                Estimate(c["mean"], c["low"], c["high"]),
                bool(d["mistake"]),
            )
        )
    return tuple(out)


def _forced_words(forced: int, found: int) -> str:
    """`the move the rules force found first time` (`2 of 3 moves the rules force ...`)."""
    if forced == 1:
        return f"the one move the rules allowed found {'first time' if found else 'after a refusal'}"
    return f"{found} of {forced} moves the rules force found first time"


def coach_summary(ws: Sequence[Weighed], forced: int = 0, found: int = 0) -> str:
    """The coach's part in a few words, for the progress page: `coach's choice 2 of 3, 1
    mistake`; with no real decision, the forced moves found (`_forced_words`)."""
    if not ws:
        return _forced_words(forced, found) if forced else "no move of your own"
    m = sum(w.mistake for w in ws)
    said = f"coach's choice {sum(w.choice for w in ws)} of {len(ws)}"
    return said + (f", {m} mistake{'' if m == 1 else 's'}" if m else "")


def coach_fields(ws: Sequence[Weighed], forced: int, rollouts: int, found: int = 0) -> dict[str, Any]:
    """The score's numbers: `decisions`, `coach_choice`, `mistakes`, `given_up` (counters),
    `forced` (moves with no choice), `forced_found` (those found with no refusal before
    them), `rollouts` (deals per move), `weighed` (each decision), and `coach_summary`
    (`coach_summary`)."""
    return {
        "decisions": len(ws),
        "coach_choice": sum(w.choice for w in ws),
        "mistakes": sum(w.mistake for w in ws),
        "given_up": round(sum(w.cost.mean for w in ws), 2),
        "forced": forced,
        "forced_found": found,
        "rollouts": rollouts,
        "weighed": [w.as_json() for w in ws],
        "coach_summary": coach_summary(ws, forced, found),
    }


#: The three stars of a task, in the order shown, each with what earns it.
STARS: tuple[tuple[str, str], ...] = (
    ("rules", "no refusal"),
    ("law", "the law's move found first time"),
    ("coach", "the coach's choice at every strategy decision"),
)


@dataclass(frozen=True, slots=True)
class Decided:
    """One decision the learner was asked, as the table judged it before asking (`law`: the
    law refused a choice on offer; `strategy`: the coach separated the legal ones), with the
    engine's verdict on every choice on offer (`verdicts`, as `quiz.pick` gives them) and the
    coach's weighing of the move made (`weighed`, None with one legal move)."""

    move: int
    kind: str
    trick: int
    law: bool
    strategy: bool
    offered: tuple[str, ...]
    legal: tuple[str, ...]
    played: str
    found: bool  # no refusal at it and no undo over it
    refused: bool
    verdicts: Mapping[str, Mapping[str, Any]]
    weighed: Weighed | None

    @property
    def choice(self) -> bool:
        """The coach's choice, or one it cannot tell from it (True where it weighed nothing)."""
        return self.weighed is None or self.weighed.choice

    @property
    def well(self) -> bool:
        """The decision earned its mark: the law's move found first time where the law
        decided, the coach's choice where strategy did."""
        return (self.found or not self.law) and (self.choice or not self.strategy)

    def _where(self) -> str:
        if self.kind == "declare":
            return "Your declaration"
        return f"Trick {self.trick}, your {'lead' if self.kind == 'lead' else 'card to it'}"

    def _law_words(self) -> str:
        """What the law allowed of what was on offer, and why, from the engine's verdicts:
        each law once, with its rule id, the book it comes from and its reason."""
        groups: dict[tuple[str, str, str], list[str]] = {}
        refused = [k for k in self.offered if k not in self.legal]
        label = {k: _label(k, the=len(refused) == 1) for k in self.offered}
        for k in self.legal if len(self.legal) == 1 else refused:
            v = self.verdicts[k]
            groups.setdefault((str(v["rule_id"]), str(v["book"]).split(",")[0], str(v["reason"]).rstrip(".")), []).append(label[k])
        why = "; ".join(f"{rid}, {book}: {reason}" for rid, book, reason in groups)
        if len(self.legal) == 1:
            return (
                f"of {_and_list([label[k] for k in self.offered])}, only {_label(self.legal[0], the=True)} "
                f"was allowed ({why})"
            )
        return f"{_and_list([label[k] for k in refused])} {'was' if len(refused) == 1 else 'were'} not allowed ({why})"

    def words(self) -> str:
        """The decision in one line, worded from the deal as played: for a law-decided one what
        the law allowed and why, and whether she found it first time; for a strategy one the
        coach's verdict on the move she made."""
        said = f"{self._where()}: "
        if self.law:
            said += self._law_words() + ". "
            how = (
                "first time"
                if self.found
                else "after a refusal"
                if self.refused
                else "after an undo"
            )
            if len(self.legal) == 1:
                said += f"You found it {how}."
            else:  # several allowed: say which she chose
                said += f"You chose {_label(self.played, the=True)}, allowed, {how}."
        if self.strategy and self.weighed is not None:
            w = self.weighed.words
            # after "Your declaration: " the sentence goes on in lower case; after the law's
            # sentence a new one begins
            said += (" " + w[:1].upper() + w[1:] if self.law else w) + "."
        elif self.strategy:
            said += " The coach could not weigh it."
        return said

    def as_json(self) -> dict[str, Any]:
        """The decision as the score stores it: where, what was on offer and legal, the move
        made, whether law-decided or strategy, found first time, the coach's choice, its
        weighing and its line of words."""
        return {
            "move": self.move,
            "kind": self.kind,
            "trick": self.trick,
            "law": self.law,
            "strategy": self.strategy,
            "offered": list(self.offered),
            "legal": list(self.legal),
            "played": self.played,
            "found": self.found,
            "choice": self.choice,
            "well": self.well,
            "weighed": None if self.weighed is None else self.weighed.as_json(),
            "words": self.words(),
            "rules": list(self.rules),
            "correct": self.well,
        }

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids the decision tests, from the engine's verdicts: where the law decided,
        the laws that refused a choice on offer (or allowed the only one); where strategy did,
        the verdict's rule on the move made. What the learner's record keeps with it."""
        if self.law:
            keys = list(self.legal) if len(self.legal) == 1 else [k for k in self.offered if k not in self.legal]
        else:
            keys = [self.played]
        ids = (str(self.verdicts[k].get("rule_id") or "") for k in keys if k in self.verdicts)
        return tuple(dict.fromkeys(r for r in ids if r in RULES))


def _label(key: str, *, the: bool = False) -> str:
    """A choice's key as a learner reads it: `the 7♥`, `throw up`."""
    try:
        d = Declaration(key)
    except ValueError:
        return card_label(key, the=the)
    return d.words


def _and_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def stars(*, refused: int, asked: Sequence[Decided], weighed_ok: bool = True) -> dict[str, bool]:
    """The stars a task earned, from the learner's decisions only: `rules` (no click refused),
    `law` (every law-decided decision found first time), `coach` (every strategy decision the
    coach's choice; a deal the coach could not weigh earns none: `weighed_ok` False)."""
    return {
        "rules": refused == 0,
        "law": all(d.found for d in asked if d.law),
        "coach": weighed_ok and all(d.choice for d in asked if d.strategy),
    }


def stars_words(earned: Mapping[str, bool]) -> str:
    """`★★☆ (no refusal ★; the law's move found first time ★; ... ☆)`."""
    n = sum(bool(earned[k]) for k, _ in STARS)
    marks = "★" * n + "☆" * (len(STARS) - n)  # counted, as the progress page shows a lesson's
    each = "; ".join(f"{what} {'★' if earned[k] else '☆'}" for k, what in STARS)
    return f"{marks} ({each})."


#: The glossary's entries for the words the result uses (book/glossary.md's anchors).
GLOSSARY: tuple[str, ...] = ("stars", "coach", "play-out", "counters-on-average")

#: The words a learner meets in the result, once, pointing at the glossary for more.
TERMS = "The stars, the coach, a play-out and counters on average are in the glossary."


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def coach_note(rollouts: int) -> str:
    """The coach's own note, short: strategy, not law, and how many play-outs its figures
    come from."""
    return f"Strategy, not law: the coach's figures come from {rollouts:,} play-outs of each move."


def coach_words(ws: Sequence[Weighed], *, forced: int, made_for_you: str | None, found: int = 0) -> str:
    """The coach's part of the score in plain words (its note aside: `coach_note`).
    `made_for_you`: the stand-in's name when it made some of the seat's moves; `found`: the
    forced moves found with no refusal before them."""
    n = len(ws)
    if n == 0:
        if forced:
            if found == forced:
                return (
                    "Each of your moves was the one the rules allowed, and you found "
                    f"{'it' if forced == 1 else 'every one'} first time: finding the move the rule forces is a skill."
                )
            return (
                f"Each of your moves was the one the rules allowed: you found {found} of {forced} "
                "first time, the others after a refusal."
            )
        if made_for_you:
            return f"The {made_for_you} bot made your seat's moves this deal."
        return "You had no move to make this deal."
    k = sum(w.choice for w in ws)
    m = sum(w.mistake for w in ws)
    if n == 1:
        said = f"Your one decision was {'' if k else 'not '}the coach's choice"
    else:
        how_many = f"all {n}" if k == n else "none" if k == 0 else str(k)
        said = f"Of your {n} decisions, {how_many} {'was' if k == 1 else 'were'} the coach's choice"
    if m and n > 1:
        said += f", and {m} {'was a mistake' if m == 1 else 'were mistakes'}"
    if forced:
        said += (
            f" (your {forced} other move{'' if forced == 1 else 's'} had no choice: "
            + ("found first time" if found == forced else f"{found} found first time")
            + ")"
        )
    costly = [w for w in ws if not w.choice]
    close = [w for w in ws if w.choice and w.played != w.best]
    parts = [said + "."]
    parts += [_cap(w.words) + "." for w in costly + close]
    total = sum(w.cost.mean for w in ws)
    if len(costly) + len(close) > 1:
        parts.append(f"In all you gave up {counters(total)} against the coach's choices.")
    return " ".join(parts)


__all__ = ["GLOSSARY", "STARS", "TERMS", "Decided", "Weighed", "coach_fields", "coach_note", "coach_summary", "coach_words", "counters", "stars", "stars_words", "weighed"]
