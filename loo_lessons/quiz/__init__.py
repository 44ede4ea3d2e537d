"""Quiz questions, one generator per lesson topic, answered and explained by the engine.

    >>> from loo_lessons.quiz import generate
    >>> qs = generate("follow", 5, seed=42)
    >>> qs[0].to_json()["answer"]          # the engine's verdict, never the generator's

The same seed always gives the same questions (the RNG is injected, never global), and
question i does not depend on how many are asked. Every answer comes from the rules engine
(`explain_json`, the settlement, `penalties.ruling_for`); every question carries its
scenario, which `scenario.load` accepts and which reproduces the answer.

Questions that can't be gamed and that a table can meet: `asking.finish` puts every
question's choices in an order drawn from its own RNG (a class code still deals every pupil
the same order), so the place of a right answer tells nothing; a deal that states a pool is
dealt at a table the engine brought there (`positions.reach`: deals played from the first
dealer's stake under the question's rules), and its scenario's `question.table` records
how, so `positions.replay_table` plays it again; every quote shown is whole
(`explain.quotes.uncut`).

Where things are: one generator module per topic in `quiz/topics/` (deal, declare, dealer,
lead, follow, trick, pool, must, penalty), and what they share, one module an idea:
`asking.py` (asking the engine, assembling the question), `dealing.py` (the positions asked
about), `choices.py`, `verdicts.py`, `prompts.py` (the prompt's words) and `money.py`
(settlement questions); `class_code.py` reads and
writes class codes ("lead-10-42", dealt by `for_code`); `results.py` is a live quiz's
record and `classroom.py` merges the pupils' exported results.
"""

from __future__ import annotations

import random
import time

from loo_lessons.quiz.asking import Gen, Reject
from loo_lessons.quiz.class_code import ClassCode
from loo_lessons.quiz.class_code import parse as parse_code
from loo_lessons.quiz.model import TOPICS, Choice, Question, Verdict
from loo_lessons.quiz.positions import PRESET_NAMES
from loo_lessons.quiz.topics import DISAGREEMENT_LEVELS, GENERATORS

#: The most questions asked at once (`loo-lessons quiz --count`, a class code's count).
MAX_COUNT = 500
#: Difficulty levels: 1 = basic, 2 = harder.
LEVELS: tuple[int, ...] = (1, 2)
#: Topics (and their levels) where Hoffmann's and Peel's rules can disagree.
DISAGREEMENT_TOPICS: tuple[str, ...] = tuple(t for t in TOPICS if t in DISAGREEMENT_LEVELS)

#: Positions drawn per question before giving up (a bug, not bad luck, if ever reached).
MAX_TRIES = 2000


def _levels(topic: str, level: int | None, disagreement: bool) -> tuple[int, ...]:
    allowed = DISAGREEMENT_LEVELS.get(topic, ()) if disagreement else LEVELS
    if disagreement and not allowed:
        raise ValueError(
            f"Hoffmann's and Peel's rules never disagree on a {topic!r} question; "
            f"disagreement mode is available for: {', '.join(DISAGREEMENT_TOPICS)}"
        )
    if level is None:
        return allowed
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(map(str, LEVELS))})")
    if level not in allowed:
        raise ValueError(
            f"at level {level} the books never disagree on {topic!r} "
            f"(disagreement levels: {', '.join(map(str, allowed))})"
        )
    return (level,)


def generate_one(
    topic: str,
    rng: random.Random,
    qid: str,
    *,
    preset: str | None = None,
    disagreement: bool = False,
    level: int | None = None,
) -> Question:
    """One question from an injected RNG."""
    if topic not in GENERATORS:
        raise ValueError(f"unknown topic {topic!r} (topics: {', '.join(TOPICS)})")
    if preset is not None and preset not in PRESET_NAMES:
        raise ValueError(f"unknown preset {preset!r} (presets: {', '.join(PRESET_NAMES)})")
    levels = _levels(topic, level, disagreement)
    lvl = rng.choice(levels)
    gen = GENERATORS[topic]
    for _ in range(MAX_TRIES):
        g = Gen(topic, qid, rng, lvl, preset, disagreement)
        try:
            return gen(g)
        except Reject:
            continue
    raise RuntimeError(f"no {topic} question found at level {lvl} after {MAX_TRIES} positions")


#: Redraws of one question while it repeats what came before (then the last draw is kept).
REDRAWS = 24


def situation(q: Question) -> tuple[object, ...]:
    """What a learner reasons about, apart from the cards: the kind of question, the answer
    and which rule makes each choice right or wrong. Two questions with the same situation
    teach the same thing ("Stand, and only Stand, by R43")."""
    return (
        q.kind,
        tuple(sorted(q.answer)),
        # by key, not by place: the choices' order is drawn afresh for every question
        tuple(
            sorted((c.key, q.verdicts[c.key].correct, q.verdicts[c.key].rule_id) for c in q.choices)
        ),
    )


def answer_key(q: Question) -> tuple[str, tuple[str, ...]]:
    """The kind of question and its answer, whatever places the answer stands at."""
    return (q.kind, tuple(sorted(q.answer)))


def position_key(q: Question) -> str:
    """The position asked about: the scenario without the quiz's own annotations."""
    import json

    data = {
        k: v for k, v in q.scenario.items() if k not in ("topic", "level", "answer", "rule_ids")
    }
    asked = data.get("question")
    if isinstance(asked, dict):  # how the table got there is not the position
        data["question"] = {k: v for k, v in asked.items() if k != "table"}
    return json.dumps(data, sort_keys=True, default=str)


def selects_all(q: Question) -> bool:
    """A "select every …" question whose answer is every choice: nothing binds the player."""
    return q.multi and set(q.answer) == {c.key for c in q.choices}


def _repeat_cap(i: int) -> int:
    """How often a situation (or an all-selected answer) may occur in questions 0..i: at most a
    quarter of them, and always once."""
    return max(1, (i + 1) // 4)


def _check_seed(seed: int) -> None:
    """A quiz's seed is a whole number 0 to 2**63 - 1 (what the command line takes): a
    question's id holds it, and `lead--1-0` is no id."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed: expected a whole number from 0 to {2**63 - 1}, got {str(seed)[:30]}")


def generate(
    topic: str,
    count: int,
    seed: int,
    *,
    preset: str | None = None,
    disagreement: bool = False,
    level: int | None = None,
) -> list[Question]:
    """`count` questions on `topic`. The same arguments always give the same questions.

    `preset` asks every question under that book's rules; `disagreement` keeps only positions
    where Hoffmann and Peel give different verdicts (both are stated in the explanation);
    `level` is 1 (basic) or 2 (harder), or None for a mix.

    Questions that teach: a question is drawn again (up to `REDRAWS` times) while it repeats
    a position already asked, while its situation (see `situation`) has already filled a
    quarter of the questions so far, while its answer has already been the answer to a third
    of them (and twice), or while it is one more "select every …" question answered by
    selecting every choice (at most a quarter of those: prefer positions where a law binds). Question i depends only on the seed and questions 0..i-1, never on `count`.
    """
    if count < 0:
        raise ValueError("count must be at least 0")
    _check_seed(seed)
    master = random.Random(seed)
    out: list[Question] = []
    seen_positions: set[str] = set()
    situations: dict[tuple[object, ...], int] = {}
    answers: dict[tuple[object, ...], int] = {}
    all_selected = multi = 0
    for i in range(count):
        rng = random.Random(master.getrandbits(64))
        qid = f"{topic}-{seed}-{i}"
        q = generate_one(topic, rng, qid, preset=preset, disagreement=disagreement, level=level)
        cap = _repeat_cap(i)
        for _ in range(REDRAWS):
            repeats = (
                position_key(q) in seen_positions
                or situations.get(situation(q), 0) >= cap
                or answers.get(answer_key(q), 0) >= max(2, (i + 1) // 3)
                or (selects_all(q) and all_selected + 1 > (multi + 1) // 4)
            )
            if not repeats:
                break
            q = generate_one(topic, rng, qid, preset=preset, disagreement=disagreement, level=level)
        seen_positions.add(position_key(q))
        situations[situation(q)] = situations.get(situation(q), 0) + 1
        answers[answer_key(q)] = answers.get(answer_key(q), 0) + 1
        all_selected += selects_all(q)
        multi += q.multi
        out.append(q)
    return out


def generate_mixed(count: int, seed: int, *, preset: str | None = None) -> list[Question]:
    """`count` questions over every topic in turn (starting at topic `seed % 9`): each topic's
    questions are that topic's `generate(topic, k, seed)`, so they agree with a one-topic quiz."""
    if count < 0:
        raise ValueError("count must be at least 0")
    _check_seed(seed)
    start = seed % len(TOPICS)
    order = [TOPICS[(start + i) % len(TOPICS)] for i in range(count)]
    banks = {
        t: iter(generate(t, order.count(t), seed, preset=preset)) for t in dict.fromkeys(order)
    }
    return [next(banks[t]) for t in order]


def for_code(code: str | ClassCode) -> list[Question]:
    """The questions of a class code ("lead-10-42": ten `lead` questions from seed 42; see
    `loo_lessons.quiz.class_code`). Every page that deals a code deals these."""
    c = parse_code(code) if isinstance(code, str) else code
    if c.topic == "mixed":
        return generate_mixed(c.count, c.seed)
    return generate(c.topic, c.count, c.seed)


def bench_bank(topic: str, n: int = 200) -> float:
    """Seconds taken to generate a bank of `n` questions on `topic` (the goal: 200 in < 2 s)."""
    t0 = time.perf_counter()
    generate(topic, n, seed=0)
    return time.perf_counter() - t0


__all__ = [
    "DISAGREEMENT_TOPICS",
    "GENERATORS",
    "LEVELS",
    "MAX_COUNT",
    "TOPICS",
    "Choice",
    "ClassCode",
    "Question",
    "Verdict",
    "bench_bank",
    "for_code",
    "generate",
    "generate_mixed",
    "generate_one",
    "position_key",
    "selects_all",
    "situation",
]
