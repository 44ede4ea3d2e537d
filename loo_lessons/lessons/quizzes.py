"""Questions the engine answers: pick a card or a declaration, fill in the pool, a generated quiz."""

from __future__ import annotations

from typing import Any

from loo_lessons.engine.errors import InputError
from loo_lessons.lessons.cards import Position, _position
from loo_lessons.lessons.picks import pick_def, words_for
from loo_lessons.widgets import live


def pick(
    position: Position,
    title: str | None = None,
    prompt: str | None = None,
    after: str | None = None,
    *,
    words: str | None = None,
) -> Any:
    """Pick a card or a declaration, then Check: each choice's verdict, rule and the book's
    words. `position`: a lesson's pick by its id (`"05-two-trumps"`, kept with its title, prompt
    and words in `lessons/picks.py`), a scenario's name, scenario YAML or a Hand. `after`: words
    on the answer, shown only once the learner has checked (never on the page before he acts);
    a lesson keeps its own in the package, not in its cell, and names them with `words` when it
    builds the position in its cells."""
    if isinstance(position, str) and (found := pick_def(position)) is not None:
        if found.position is None:
            raise InputError("position", f"the pick {position!r} is built by its lesson: pass it")
        position = found.position
        title = title if title is not None else found.title
        prompt = prompt if prompt is not None else found.prompt
        after = after if after is not None else found.after
    if words is not None:
        after = words_for(words)
    return live.PickCard(_position(position), title=title, prompt=prompt, after=after)


def pool(position: Position, title: str | None = None) -> Any:
    """The pool calculator: fill in who receives and who pays; checked against the engine."""
    return live.PoolCalculator(_position(position), title=title)


def quiz(
    topic: str | None,
    seed: int = 1,
    count: int = 6,
    preset: str | None = None,
    title: str | None = None,
) -> Any:
    """A quiz from the topic's generator (fixed seed: the book is reproducible). Live, its
    "New questions" button asks the engine for more."""
    return live.QuizRunner(topic, seed=seed, count=count, preset=preset, title=title)


def quiz_results(*paths: str, code: str | None = None) -> Any:
    """A class's results graded again by the engine (a pandas DataFrame): the pupils' exported
    CSV files, files of pasted result codes, or folders of them, one row per pupil and attempt
    (name, class_code, attempt, right, answered, questions, seconds, then q1, q2, … as 1, 0 or
    blank), as `loo-lessons quiz results` prints it. With `code`, a result for another class
    code is refused. Each refused result is one warning line (naming the pupil and the
    problem), kept in `frame.attrs["refused"]`; `frame.attrs["questions"]` and
    `frame.attrs["rules"]` are the per-question and per-rule tables (rules most missed first)."""
    import warnings

    from loo_lessons.quiz.class_code import parse
    from loo_lessons.views import frames

    frame = frames.classroom(paths, None if code is None else [str(parse(code))])
    for line in frame.attrs["refused"]:
        warnings.warn(f"refused: {line}", stacklevel=2)
    return frame


def practice(rules: str | list[str] | None = None, path: str | None = None, size: int = 10) -> Any:
    """Practice by rule: about ten new positions for the rules that are due or that you missed
    (`rules`, e.g. "R24,R32", for those rules alone), graded by the engine's verdicts and kept
    in your progress file (`~/loo-progress.json` unless `path` names another, or
    `LOO_PROGRESS` does). A rule you miss comes back in the session and on later days."""
    chosen = [r for r in rules.replace(" ", ",").split(",") if r] if isinstance(rules, str) else rules
    return live.Practice(chosen, path=path, size=size)


def merge_progress(source: str, path: str | None = None) -> str:
    """Add a progress file (`loo-progress.json` downloaded from the book's progress page, or
    another JupyterLab's) to your progress here (`~/loo-progress.json` unless `path`, or
    `LOO_PROGRESS`, names another): nothing is lost or counted twice. Says what it added."""
    from loo_lessons.progress.store import merge_file

    added, total = merge_file(source, path)
    return f"{added} answer{'' if added == 1 else 's'} added, {total} in all"


def progress(path: str | None = None) -> Any:
    """Your progress rule by rule (a DataFrame, one row a rule you have met): how sure you are
    of it now (%), whether it is due and when, right and wrong, and your latest mistake with
    the way back to it, from your progress file (`~/loo-progress.json` unless `path`, or
    `LOO_PROGRESS`, names another)."""
    from datetime import UTC, datetime

    from loo_lessons.progress import mastery, store
    from loo_lessons.views import frames

    rows = [
        {
            "rule": r["rule"],
            "words": r["words"],
            "sure %": r["sure"],
            "due": "now" if r["due"] else r["due_at"][:10],
            "right": r["right"],
            "wrong": r["wrong"],
            "last mistake": r["mistakes"][0]["back"] if r["mistakes"] else "",
        }
        for r in mastery.summary(store.load(path), datetime.now(UTC))
    ]
    columns = ["rule", "words", "sure %", "due", "right", "wrong", "last mistake"]
    return frames.records(rows, columns, index="rule")
