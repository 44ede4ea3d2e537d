"""Argument types for the `loo-lessons` command line: each checks its range, so a bad value
is refused by argparse as one line naming the option, before any work starts.

Every limit is stated here, once; `--help` and the error messages quote them.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from pathlib import Path

from loo_lessons.cli.clean import for_terminal
from loo_lessons.engine.deal import MAX_PLAYERS_WITHOUT_MISS, MIN_PLAYERS
from loo_lessons.scenario.evening import MAX_DEALS as _MAX_DEALS
from loo_lessons.scenario.evening import MAX_SEED as _MAX_SEED

#: Most hands one `simulate` may play (some 15 to 20 minutes on one core).
#: Exit codes: 0 done, 1 a game left unfinished (`play`), 2 refused or failed (one line on
#: stderr), 130 interrupted (Ctrl-C; `simulate` prints its partial tables first).
EXIT_REFUSED = 2
EXIT_INTERRUPTED = 130

MAX_HANDS = 10**7
#: Most worker processes for `simulate`.
MAX_WORKERS = 64
#: Most rollouts per move for `coach` (the coach's own limit, sim.coach.MAX_ROLLOUTS).
MAX_ROLLOUTS = 100_000
#: Most deals one `play --deals` evening may have (what a saved evening may hold).
MAX_DEALS = _MAX_DEALS
#: Longest `bench --seconds`.
MAX_SECONDS = 600.0
#: Shortest `bench --seconds`: a figure timed for less than this is noise (and a loop timed for
#: less than one pass has nothing to divide by).
MIN_SECONDS = 0.01
#: Seeds are whole numbers 0 to 2**63 - 1 (what a seeded chunk stores; one bound with the evenings').
MAX_SEED = _MAX_SEED
#: A number typed on the command line longer than this is refused before conversion.
_MAX_DIGITS = 20

_INT = re.compile(rf"[+-]?\d{{1,{_MAX_DIGITS}}}")


def short(text: str, limit: int = 40) -> str:
    """`text` as a short quoted excerpt for a message (never the whole of a long input)."""
    text = for_terminal(text)
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _whole(text: str) -> int:
    s = text.strip().replace("_", "")
    if not _INT.fullmatch(s):
        raise argparse.ArgumentTypeError(f"expected a whole number, got {short(text)}")
    return int(s)


def int_range(low: int, high: int, note: str = "") -> Callable[[str], int]:
    """A whole number from `low` to `high` inclusive (`note` follows the range in a refusal)."""

    def check(text: str) -> int:
        n = _whole(text)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"{n} is out of range: {low} to {high}{note}")
        return n

    check.__name__ = "whole number"
    return check


deals = int_range(1, MAX_DEALS)

#: A table: 2 to 17 players (17 only in a must, 16 with a miss: A18); cross-checked by the
#: engine against the miss once the other options are known.
players = int_range(
    MIN_PLAYERS, MAX_PLAYERS_WITHOUT_MISS, " players (16 with a miss; 17 only in a must)"
)
#: A seat number, before it is checked against the table (`within_table`).
seat = int_range(0, MAX_PLAYERS_WITHOUT_MISS - 1)
seed = int_range(0, MAX_SEED)
hands = int_range(1, MAX_HANDS)
workers = int_range(1, MAX_WORKERS)
rollouts = int_range(1, MAX_ROLLOUTS)
#: Items in one practice session (`loo-lessons practice --count`).
practice_count = int_range(1, 30)


def seconds(text: str) -> float:
    """A finite number of seconds, MIN_SECONDS to MAX_SECONDS."""
    s = text.strip()
    if len(s) > _MAX_DIGITS + 10:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {short(text)}")
    try:
        x = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {short(text)}"
        ) from None
    if not math.isfinite(x) or not MIN_SECONDS <= x <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{short(text)} is out of range: {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds"
        )
    return x


def preset_name(text: str) -> str:
    """A preset of rules (hoffmann, peel)."""
    from loo_lessons.engine.options import PRESETS

    if text not in PRESETS:
        raise argparse.ArgumentTypeError(
            f"unknown preset {short(text)} (known: {', '.join(sorted(PRESETS))})"
        )
    return text


def bot_names(text: str) -> tuple[str, ...]:
    """One bot name, or one per seat, comma-separated."""
    from loo_lessons.sim.coached import ALL_BOTS as BOTS

    names = tuple(b.strip() for b in text.split(","))
    if len(names) > MAX_PLAYERS_WITHOUT_MISS:
        raise argparse.ArgumentTypeError(
            f"{len(names)} bots: at most one per seat ({MAX_PLAYERS_WITHOUT_MISS})"
        )
    for b in names:
        if b not in BOTS:
            raise argparse.ArgumentTypeError(
                f"unknown bot {short(b)} (known: {', '.join(sorted(BOTS))})"
            )
    return names


#: The table's agreements `--option` takes besides the rule options, as a scenario names them
#: (scenario-format.md): `loo_cap`, the cap of `loo_amount=pool_capped` (R49).
TABLE_KEYS = ("loo_cap",)


def option_pair(text: str) -> tuple[str, str | bool | int]:
    """KEY=VALUE: one rule option and one of its values, or `loo_cap=N`."""
    from loo_lessons.engine.options import OPTION_SPECS
    from loo_lessons.scenario.evening import TABLE_BOUNDS

    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or (key not in OPTION_SPECS and key not in TABLE_KEYS):
        raise argparse.ArgumentTypeError(
            f"expected KEY=VALUE with KEY one of: {', '.join([*OPTION_SPECS, *TABLE_KEYS])}"
        )
    if key in TABLE_KEYS:
        try:
            return key, int_range(*TABLE_BOUNDS[key])(value)
        except argparse.ArgumentTypeError as e:
            raise argparse.ArgumentTypeError(f"{key}: {e}") from None
    spec = OPTION_SPECS[key]
    v = value.strip()
    if spec.kind is bool:
        if v.lower() not in ("true", "false"):
            raise argparse.ArgumentTypeError(f"{key} takes true or false, not {short(v)}")
        return key, v.lower() == "true"
    known = [str(x) for x in spec.values]
    if v not in known:
        raise argparse.ArgumentTypeError(f"{key} takes one of {', '.join(known)}, not {short(v)}")
    return key, v


#: The scenarios the package ships (loo_lessons/scenarios): each is named by its file's name
#: without `.yaml` (`lead-king-when-ace-turned`), so an installed copy names them with no path.
SHIPPED = Path(__file__).resolve().parent.parent / "scenarios"


def shipped_scenarios() -> dict[str, Path]:
    """Every shipped scenario's name and file, sorted by name."""
    return {p.stem: p for p in sorted(SHIPPED.glob("*.yaml"))}


def scenario_file(text: str) -> str:
    """A scenario: a file's path, or the name of a shipped scenario (`loo-lessons scenarios`
    lists them). A path that exists wins over a name."""
    found = shipped_scenarios().get(text.removesuffix(".yaml"))
    if Path(text).exists() or (found is None and ("/" in text or "." in text)):
        return text  # a path: the reader reads it (or says, in one line, why it cannot)
    if found is not None:
        return str(found)
    raise argparse.ArgumentTypeError(
        f"{short(text)}: neither a file nor a shipped scenario's name "
        "(loo-lessons scenarios lists the names)"
    )


def within_table(option: str, value: int, players: int) -> None:
    """A seat (`--dealer`, `--seat`) must sit at the table of `players`."""
    if not 0 <= value < players:
        raise argparse.ArgumentTypeError(
            f"argument {option}: seat {value} is not at a table of {players}: 0 to {players - 1}"
        )


__all__ = [
    "MAX_HANDS",
    "MAX_ROLLOUTS",
    "MAX_SECONDS",
    "MAX_SEED",
    "MAX_WORKERS",
    "bot_names",
    "hands",
    "int_range",
    "option_pair",
    "players",
    "preset_name",
    "rollouts",
    "scenario_file",
    "seat",
    "seconds",
    "seed",
    "shipped_scenarios",
    "short",
    "within_table",
]
