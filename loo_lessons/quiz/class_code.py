"""Class codes: one short string that deals the same questions on every pupil's page.

A class code is TOPIC-COUNT-SEED, for instance ``lead-10-42``: ten `lead` questions from
seed 42. The teacher picks the three; each pupil types the code into the quiz (or opens the
page at ``…#class=lead-10-42``) and gets the same questions in the same order, in the book,
in JupyterLab or on a page from ``loo-lessons quiz --html``. TOPIC is a quiz topic or
``mixed`` (every topic in turn); COUNT is 1 to `MAX_COUNT`; SEED is 0 to `MAX_SEED`.
Letters may be typed in any case; spaces around the code are ignored.

    >>> parse(" Lead-10-42 ")
    ClassCode(topic='lead', count=10, seed=42)
    >>> format(parse("lead-10-42"))
    'lead-10-42'

Pure functions: no I/O, no position is dealt here. `loo_lessons.quiz.for_code` deals the questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from loo_lessons.quiz.model import TOPICS

#: The topics a code may name, in lesson order, and "mixed" for every topic in turn.
CODE_TOPICS: tuple[str, ...] = (*TOPICS, "mixed")
#: The most questions one code deals (the same limit as `loo-lessons quiz --count`).
MAX_COUNT = 500
#: The largest seed (six digits: easy to read out to a class).
MAX_SEED = 999_999

_CODE = re.compile(r"([a-z]+)-(\d{1,3})-(\d{1,6})")


@dataclass(frozen=True, slots=True)
class ClassCode:
    """What a class code says: the topic, how many questions, and the seed."""

    topic: str
    count: int
    seed: int

    def __post_init__(self) -> None:
        if self.topic not in CODE_TOPICS:
            raise ValueError(
                f"class code: unknown topic {self.topic!r} (topics: {', '.join(CODE_TOPICS)})"
            )
        if not 1 <= self.count <= MAX_COUNT:
            raise ValueError(f"class code: the count must be 1 to {MAX_COUNT}, not {self.count}")
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"class code: the seed must be 0 to {MAX_SEED}, not {self.seed}")

    def __str__(self) -> str:
        return format(self)


def parse(text: str) -> ClassCode:
    """The class code in `text` ("lead-10-42"); ValueError, in one line, for anything else."""
    m = _CODE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
    if m is None:
        shown = text.strip()[:40] if isinstance(text, str) else type(text).__name__
        raise ValueError(
            f"class code: {shown!r} is not a class code (write topic-count-seed, e.g. lead-10-42)"
        )
    return ClassCode(m.group(1), int(m.group(2)), int(m.group(3)))


def format(  # the module's verb beside `parse`, read as `class_code.format(code)`
    code: ClassCode | None = None,
    /,
    *,
    topic: str | None = None,
    count: int | None = None,
    seed: int | None = None,
) -> str:
    """The code as pupils type it: `format(ClassCode(...))` or `format(topic=…, count=…,
    seed=…)`; the parts are checked as `parse` checks them."""
    if code is None:
        if not isinstance(topic, str) or not isinstance(count, int) or not isinstance(seed, int):
            raise ValueError("class code: give topic (text), count and seed (whole numbers)")
        code = ClassCode(topic, count, seed)
    return f"{code.topic}-{code.count}-{code.seed}"


def url_fragment(code: ClassCode) -> str:
    """What to add to a quiz page's address: ``#class=lead-10-42``."""
    return f"#class={format(code)}"
