"""Practice by rule: a short session of new positions for the rules that are due or missed.

    >>> s = Session(record, now, seed=7)        # about ten items: what is due, weakest first
    >>> item = s.next()                         # a new question, generated for item.rule
    >>> s.answer(["KH"], now, seconds=12.0)     # graded by the question's verdicts; recorded
    >>> s.record                                # the record, one answer longer

Every item is a question the quiz generators deal afresh (`quiz.generate_one`) from a topic
and level that asks about its rule (`RULE_SOURCES`), kept only when the question tests that
rule. Its id is its position's fingerprint, so a position answered once (here or on another
device, once the records merge) is never asked again; its way back (`back`, `quiz:lead:2:1234`)
deals it again (`question_back`). A missed rule comes back within the session, two items later
(on a new position), and again on later days through the scheduler (`mastery`); a rule always
right is due less and less often, so it fades from the sessions.

The clock and the randomness are passed in, never read here: the same record, time and seed
give the same session, and a test moves the clock on by days.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from loo_lessons.engine.errors import InputError
from loo_lessons.engine.sources import RULES
from loo_lessons.progress import mastery
from loo_lessons.progress.record import Answer, Record, answer
from loo_lessons.quiz import generate_one, position_key
from loo_lessons.quiz.model import Question

#: Items in a session (about five minutes), and the most a missed rule may add to it.
SIZE = 10
MAX_SIZE = 30
MAX_COMEBACKS = 5
#: The most items one due rule gets in a session's plan (each a new position).
ROUNDS = 3
#: How many items later a missed rule comes back in the same session.
COMEBACK_AFTER = 2
#: Positions drawn for one item before the rule is passed over (each a few milliseconds).
MAX_DRAWS = 200

#: Where the quiz generators ask about each rule: (topic, level) pairs, the likeliest first.
#: Measured over 300 positions a pair (the share of questions that test the rule is after
#: each); pairs under a third of the best are left out. `tests/test_progress.py` checks that
#: each pair still asks about its rule.
RULE_SOURCES: dict[str, tuple[tuple[str, int], ...]] = {
    "R01": (("trick", 1), ("deal", 2)),  # trick/1 100%, deal/2 38%
    "R03": (("deal", 1), ("deal", 2)),  # deal/1 100%, deal/2 100%
    "R04": (("deal", 1), ("deal", 2)),  # deal/1 100%, deal/2 100%
    "R05": (("deal", 1), ("deal", 2)),  # deal/1 76%, deal/2 62%
    "R06": (("declare", 1), ("declare", 2)),  # declare/1 77%, declare/2 32%
    "R07": (("declare", 1), ("declare", 2)),  # declare/1 77%, declare/2 32%
    "R08": (("declare", 1),),  # declare/1 77%
    "R09": (("dealer", 1), ("declare", 2)),  # dealer/1 48%, declare/2 32%
    "R14": (("dealer", 2),),  # dealer/2 64%
    "R15": (("dealer", 2),),  # dealer/2 64%
    "R16": (("dealer", 2), ("dealer", 1)),  # dealer/2 64%, dealer/1 38%
    "R17": (("dealer", 2), ("dealer", 1)),  # dealer/2 64%, dealer/1 48%
    "R18": (("dealer", 2), ("dealer", 1), ("declare", 1)),  # 100%, 92%, 77%
    "R19": (("dealer", 2),),  # dealer/2 36%
    "R21": (("dealer", 2),),  # dealer/2 29%
    "R23": (("lead", 1), ("lead", 2), ("trick", 2), ("penalty", 1)),  # 8%, 4%, 4%, 3%
    "R24": (("lead", 2),),  # lead/2 6%
    "R25": (("lead", 1),),  # lead/1 16%
    "R26": (("lead", 2), ("lead", 1)),  # lead/2 15%, lead/1 11%
    "R27": (("lead", 2),),  # lead/2 13%
    "R28": (("lead", 1), ("lead", 2)),  # lead/1 65%, lead/2 58%
    "R30": (("trick", 2),),  # trick/2 72%
    "R31": (("penalty", 2), ("trick", 2), ("penalty", 1)),  # 6%, 4%, 3%
    "R32": (("follow", 1), ("penalty", 2)),  # follow/1 59%, penalty/2 34%
    "R33": (("follow", 1),),  # follow/1 12%
    "R35": (("follow", 2), ("follow", 1)),  # follow/2 54%, follow/1 20%
    "R36": (("follow", 2), ("follow", 1)),  # follow/2 46%, follow/1 19%
    "R37": (("trick", 1),),  # trick/1 100%
    "R38": (("pool", 1), ("pool", 2), ("dealer", 2)),  # 100%, 100%, 36%
    "R39": (("pool", 1), ("pool", 2), ("must", 2)),  # 100%, 100%, 59%
    "R40": (("pool", 1), ("pool", 2)),  # 100%, 100%
    "R41": (("must", 1),),  # must/1 23%
    "R42": (("must", 1),),  # must/1 23%
    "R43": (("must", 1), ("must", 2)),  # must/1 100%, must/2 44%
    "R44": (("must", 2),),  # must/2 44%
    "R45": (("must", 1), ("deal", 2)),  # must/1 77%, deal/2 29%
    "R46": (("must", 2),),  # must/2 41%
    "R47": (("must", 2),),  # must/2 41%
    "R48": (("must", 2),),  # must/2 41%
    "R49": (("must", 2),),  # must/2 17%
    "R50": (("penalty", 1),),  # penalty/1 33%
    "R51": (("penalty", 1),),  # penalty/1 17%
    "R52": (("penalty", 1), ("penalty", 2)),  # penalty/1 67%, penalty/2 22%
    "R53": (("declare", 2), ("penalty", 1)),  # declare/2 68%, penalty/1 27%
    "R54": (("penalty", 1), ("penalty", 2)),  # penalty/1 10%, penalty/2 6%
    "R55": (("penalty", 1),),  # penalty/1 4%
    "R56": (("penalty", 1), ("penalty", 2)),  # penalty/1 3%, penalty/2 1%
    "R57": (("penalty", 2),),  # penalty/2 29%
    "R58": (("penalty", 2), ("penalty", 1)),  # penalty/2 7%, penalty/1 4%
    "R59": (("penalty", 1),),  # penalty/1 7%
    "R60": (("penalty", 2), ("penalty", 1)),  # penalty/2 6%, penalty/1 3%
    "R61": (("penalty", 2), ("penalty", 1)),  # penalty/2 43%, penalty/1 23%
    "R62": (("penalty", 2), ("penalty", 1)),  # penalty/2 43%, penalty/1 23%
    "R63": (("penalty", 2), ("penalty", 1)),  # penalty/2 61%, penalty/1 23%
}
#: A first session, before she has answered anything: one rule of each lesson's topic.
STARTERS: tuple[str, ...] = ("R04", "R06", "R18", "R28", "R32", "R37", "R39", "R43", "R52", "R24")

_BACK = re.compile(r"quiz:([a-z]+):([12]):(\d{1,10})")


@dataclass(frozen=True)
class Item:
    """One practice item: a question generated for `rule`, and how to deal it again."""

    rule: str
    topic: str
    level: int
    seed: int
    question: Question

    @property
    def id(self) -> str:
        """The position's fingerprint: the same position is the same item wherever it was dealt."""
        return item_id(self.question)

    @property
    def back(self) -> str:
        """The way back to this position (`question_back` deals it again)."""
        return f"quiz:{self.topic}:{self.level}:{self.seed}"


def item_id(q: Question) -> str:
    """A question's item id: `practice:` and a fingerprint of its position."""
    return "practice:" + hashlib.sha256(position_key(q).encode()).hexdigest()[:16]


def _deal(topic: str, level: int, seed: int) -> Question:
    return generate_one(topic, random.Random(seed), f"practice-{topic}-{level}-{seed}", level=level)


def question_back(back: str) -> Question:
    """The question a practice answer's way back (`quiz:lead:2:1234`) names, dealt again."""
    return item_back(back).question


def item_back(back: object) -> Item:
    """The practice item a way back (`quiz:lead:2:1234`) names, dealt again: her mistake, to
    look at again (its rule: the first of its rules practice asks about)."""
    m = _BACK.fullmatch(back) if isinstance(back, str) else None
    if m is None or m.group(1) not in {t for s in RULE_SOURCES.values() for t, _ in s}:
        raise InputError("back", "not a practice position such as quiz:lead:2:1234")
    topic, level, seed = m.group(1), int(m.group(2)), int(m.group(3))
    q = _deal(topic, level, seed)
    rule = next(iter(practised(q.rule_ids)), q.rule_ids[0])
    return Item(rule, topic, level, seed, q)


def practised(rules: Iterable[str]) -> list[str]:
    """Those of `rules` that practice can ask about (some rules no generated question tests)."""
    return [r for r in dict.fromkeys(rules) if r in RULE_SOURCES]


def draw(rule: str, rng: random.Random, avoid: Iterable[str] = ()) -> Item | None:
    """A new question on `rule`: positions are drawn from its sources until one tests the rule
    and is not among the ids in `avoid`; None after `MAX_DRAWS`."""
    sources = RULE_SOURCES.get(rule)
    if not sources:
        return None
    seen = set(avoid)
    for i in range(MAX_DRAWS):
        topic, level = sources[i % len(sources)] if i % 3 else sources[0]  # the likeliest most
        seed = rng.randrange(2**31)
        q = _deal(topic, level, seed)
        if rule in q.rule_ids and item_id(q) not in seen:
            return Item(rule, topic, level, seed, q)
    return None


def graded(q: Question, picked: Sequence[str]) -> tuple[bool, tuple[str, ...]]:
    """Right or wrong, and the rules missed: the rules of the verdicts on each wrong key
    picked and, where several are right, each right key left out (among the question's)."""
    if q.grade(list(picked)):
        return True, ()
    wrong = [k for k in picked if k in q.verdicts and not q.verdicts[k].correct]
    if q.multi:
        wrong += [k for k in q.answer if k not in picked]
    missed = {q.verdicts[k].rule_id for k in wrong}
    return False, tuple(r for r in q.rule_ids if r in missed)


def comeback_rule(item: Item, a: Answer) -> str:
    """The rule a missed item brings back: the rule it was drawn for if she missed that one,
    else the first rule she missed that practice can ask about."""
    fault = a.at_fault
    if item.rule in fault:
        return item.rule
    return next(iter(practised(fault)), item.rule)


def plan(record: Record, now: datetime, *, size: int = SIZE, rules: Sequence[str] | None = None) -> list[str]:
    """The rules a session asks about, in order (at most `size`).

    The rules given (a teacher's link), in turn until the session is full. Else the rules due,
    least sure first, in turn, each at most `ROUNDS` times (a new position each time): a
    session of what is due, shorter when little is. With nothing due, the least sure rules
    she has met, once each ("practise ahead"); with nothing met, one rule of each lesson's
    topic."""
    size = max(1, min(size, MAX_SIZE))
    if rules is not None:
        chosen = practised(rules)
        if not chosen:
            raise InputError("rules", "none of these rules has practice questions")
        return [chosen[i % len(chosen)] for i in range(size)]
    chosen = practised(mastery.due(record, now))
    if chosen:
        return [chosen[i % len(chosen)] for i in range(min(size, ROUNDS * len(chosen)))]
    st = mastery.states(record)
    ahead = practised(sorted(st, key=lambda r: (st[r].sure(now), r)))
    return (ahead or list(STARTERS))[:size]


class Session:
    """One practice session over a learner's record: `next()` deals the next item, `answer()`
    grades it and records it, and a missed rule is queued to come back."""

    def __init__(
        self,
        record: Record,
        now: datetime,
        *,
        seed: int,
        size: int = SIZE,
        rules: Sequence[str] | None = None,
        page: str = "practice",
        first: Item | None = None,
    ) -> None:
        self.record = record
        self.page = page
        self.rng = random.Random(seed)
        self.queue: list[str] = plan(record, now, size=size, rules=rules)
        self.planned = len(self.queue)
        # a position asked again (a mistake looked at from the progress page) comes first
        self.current: Item | None = first
        if first is not None and len(self.queue) >= size:
            self.queue.pop()
        self.done: list[tuple[Item, Answer]] = []
        self.comebacks = 0
        self._asked: set[str] = set()

    @property
    def finished(self) -> bool:
        """Whether every item has been answered (and nothing is on screen)."""
        return self.current is None and not self.queue

    def next(self) -> Item | None:
        """The item on screen: the current one while unanswered, else a new position for the
        next rule in the queue (a rule no new position can be found for is passed over)."""
        while self.current is None and self.queue:
            rule = self.queue.pop(0)
            self.current = draw(rule, self.rng, self.record.ids() | self._asked)
        if self.current is not None:
            self._asked.add(self.current.id)
        return self.current

    def answer(self, picked: Sequence[str], now: datetime, seconds: float | None = None) -> Answer:
        """Grade the item on screen with the keys `picked` (none: she asked to see the answer,
        which counts as missed), record the answer, and queue its rule to come back (on a new
        position) if she missed it."""
        item = self.next()
        if item is None:
            raise InputError("answer", "the session is over: no item on screen")
        keys = [str(k) for k in picked]
        unknown = [k for k in keys if k not in item.question.verdicts]
        if unknown:
            raise InputError("picked", f"{unknown[0][:20]} is not one of the choices")
        correct, missed = graded(item.question, keys)
        a = answer(
            item.id,
            "practice",
            item.question.rule_ids,
            correct,
            now,
            seconds=seconds,
            page=self.page,
            back=item.back,
            missed=missed,
        )
        self.record = self.record.add(a)
        self.done.append((item, a))
        self.current = None
        if not correct and self.comebacks < MAX_COMEBACKS and len(self.planned_rules()) < MAX_SIZE:
            self.comebacks += 1
            self.queue.insert(min(COMEBACK_AFTER, len(self.queue)), comeback_rule(item, a))
        return a

    def planned_rules(self) -> list[str]:
        """Every rule of the session: those answered, the one on screen, those to come."""
        now_on = [self.current.rule] if self.current is not None else []
        return [i.rule for i, _ in self.done] + now_on + self.queue

    def score(self) -> tuple[int, int]:
        """Right answers and answers, so far."""
        return sum(a.correct for _, a in self.done), len(self.done)


def rule_words(rule: str) -> str:
    """The rule as a learner reads it: its id and summary."""
    return f"{rule}: {RULES[rule].summary}"


__all__ = [
    "RULE_SOURCES",
    "SIZE",
    "STARTERS",
    "Item",
    "Session",
    "comeback_rule",
    "draw",
    "graded",
    "item_back",
    "item_id",
    "plan",
    "practised",
    "question_back",
    "rule_words",
]
