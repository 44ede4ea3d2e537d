"""Streaming aggregates of a simulation: integer sums per group, added hand by hand and merged
chunk by chunk, so memory does not grow with the number of hands and the totals do not depend
on how the hands were split among workers (integer sums in any order are equal).

`Table` is a summary table as plain Python (records, text, CSV); `views.frames.table` shows
it as a DataFrame for the lessons.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Declaration codes (index into this tuple); "none": the dealer took the pool without
#: declaring (R14).
DECLARATION_NAMES: tuple[str, ...] = (
    "play",
    "take_miss",
    "pass",
    "play_miss_for_pool",
    "none",
)
PLAY, TAKE_MISS, PASS, MISS_FOR_POOL, NONE = range(5)

Cell = int | float | bool | str | None

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def normal_interval(n: int, total: float, squares: float) -> tuple[float, float]:
    """The normal 95 % interval of a mean from the sums of the values and of their squares.
    Sound for the strength table's thousands of seat-hands; the coach's few hundred
    play-outs of a bounded, skewed outcome need `sim.coach.mean_interval`."""
    mean = total / n
    var = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(max(0.0, var) / n)
    return mean - half, mean + half


@dataclass(frozen=True)
class Table:
    """Rows of index values followed by column values."""

    index: tuple[str, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]

    def records(self) -> list[dict[str, Cell]]:
        """The table's rows as mappings, index columns first."""
        names = (*self.index, *self.columns)
        return [dict(zip(names, row, strict=True)) for row in self.rows]

    def text(self, digits: int = 3) -> str:
        """Aligned columns, numbers right-justified (what `simulate` prints)."""

        def cell(v: Cell) -> str:
            if v is None:
                return "-"
            if isinstance(v, float):
                return f"{v:.{digits}f}"
            return str(v)

        grid = [[*self.index, *self.columns], *([cell(v) for v in r] for r in self.rows)]
        widths = [max(len(r[i]) for r in grid) for i in range(len(grid[0]))]
        return "\n".join(
            "  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in grid
        )

    def csv(self) -> str:
        """The table as CSV text with a header row (an empty cell for None)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([*self.index, *self.columns])
        w.writerows(["" if v is None else v for v in r] for r in self.rows)
        return buf.getvalue()


def _add(into: dict[Any, list[int]], key: Any, values: Sequence[int]) -> None:
    row = into.get(key)
    if row is None:
        into[key] = list(values)
    else:
        for i, v in enumerate(values):
            row[i] += v


def honours_words(ace: bool, king: bool) -> str:
    """A `trick_rates("honours")` group in words: the ace and king of trumps held."""
    if ace and king:
        return "ace and king"
    return "ace" if ace else "king" if king else "neither"


def group_label(by: str, key: Sequence[Cell]) -> str:
    """A `trick_rates(by)` row's index in words: "2 trumps", "ace and king", "seat 1 (elder
    hand)"."""
    if by == "trumps":
        n = int(key[0] or 0)
        return f"{n} trump{'' if n == 1 else 's'}"
    if by == "honours":
        return honours_words(bool(key[0]), bool(key[1]))
    return f"seat {key[0]}" + (" (elder hand)" if key[0] == 1 else "")


@dataclass(frozen=True)
class Tally:
    """Integer sums of one simulation (or one chunk of it). Keys use seat features packed as
    trumps | ace << 2 | king << 3, positions 1 (elder hand) ... players (dealer)."""

    players: int
    #: hands, singles, awarded, in_play (summed), played_in (in_play of hands played out), loos
    totals: dict[str, int] = field(default_factory=dict)
    #: (features of the hand played, position) -> [seats, took a trick, looed, tricks, net]
    play: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    #: (position, declaration code) -> [seats, net, balance]
    decl: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    #: (features dealt, PLAY or TAKE_MISS) -> [seats, net]
    miss: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    #: bot code -> [seats, balance, balance squared, looed, played out]
    bots: dict[int, list[int]] = field(default_factory=dict)

    def count(self, name: str, n: int = 1) -> None:
        """Add `n` to the total `name` (hands, singles, loos, ...)."""
        self.totals[name] = self.totals.get(name, 0) + n

    def deal(
        self,
        single: bool,
        awarded: bool,
        in_play: int,
        positions: Sequence[int],
        codes: Sequence[int],
        dealt: Sequence[int],
        played: Sequence[int],
        tricks: Mapping[int, int],
        won: Mapping[int, int],
        paid: Mapping[int, int],
        staked: Sequence[int],
        bots: Sequence[int],
    ) -> None:
        """Add one hand and each of its seats: seat k's position, declaration code, features
        dealt and played, stake and bot code are the k-th of those sequences; its tricks,
        counters won and loos paid are `tricks[k]`, `won[k]`, `paid[k]` (0 when absent, as
        in a `Settlement`). One call a hand, the rows bound once: it runs for every simulated
        hand. A new row keeps its bools (`tricks > 0`, `looed`), as `_add`'s `list(values)`
        does; tests/test_fast_paths.py checks it against `count` and `_add`, value and type."""
        t = self.totals
        get = t.get
        t["hands"] = get("hands", 0) + 1
        t["singles"] = get("singles", 0) + single
        t["awarded"] = get("awarded", 0) + awarded
        t["in_play"] = get("in_play", 0) + in_play
        t["played_in"] = get("played_in", 0) + (0 if awarded else in_play)
        by_bot, by_decl, by_miss, by_play = self.bots, self.decl, self.miss, self.play
        loos = 0
        # one bot in every seat (`simulate`'s usual table): its row's sums are made over the
        # seats here and added once a hand, not seat by seat (a row made by one seat keeps
        # its bools, below, so the row's values and types are the same)
        seats = len(codes)
        one = seats > 0 and bots.count(bots[0]) == seats
        sb = sq = sl = so = 0
        for seat, code in enumerate(codes):
            paid_here = paid.get(seat, 0)
            net = won.get(seat, 0) - paid_here
            looed = paid_here > 0
            if looed:
                loos += 1
            balance = net - staked[seat]
            out = code <= TAKE_MISS  # PLAY or TAKE_MISS: played his own cards or the miss
            if one:
                sb += balance
                sq += balance * balance
                sl += looed
                so += out
            else:
                bot = bots[seat]
                row = by_bot.get(bot)
                if row is None:
                    by_bot[bot] = [1, balance, balance * balance, looed, out]
                else:
                    row[0] += 1
                    row[1] += balance
                    row[2] += balance * balance
                    row[3] += looed
                    row[4] += out
            position = positions[seat]
            key = (position, code)
            row = by_decl.get(key)
            if row is None:
                by_decl[key] = [1, net, balance]
            else:
                row[0] += 1
                row[1] += net
                row[2] += balance
            if out:
                key = (dealt[seat], code)
                row = by_miss.get(key)
                if row is None:
                    by_miss[key] = [1, net]
                else:
                    row[0] += 1
                    row[1] += net
                if not awarded:  # a hand played out (the miss for the pool aside: A16)
                    n = tricks.get(seat, 0)
                    key = (played[seat], position)
                    row = by_play.get(key)
                    if row is None:
                        by_play[key] = [1, n > 0, looed, n, net]
                    else:
                        row[0] += 1
                        row[1] += n > 0
                        row[2] += looed
                        row[3] += n
                        row[4] += net
        if one:
            row = by_bot.get(bots[0])
            if row is None:
                # one seat's row keeps its bools, as a row made seat by seat does
                by_bot[bots[0]] = [seats, sb, sq, sl > 0, so > 0] if seats == 1 else [
                    seats, sb, sq, sl, so
                ]
            else:
                row[0] += seats
                row[1] += sb
                row[2] += sq
                row[3] += sl
                row[4] += so
        if loos:
            t["loos"] = get("loos", 0) + loos

    def copy(self) -> Tally:
        """A copy whose sums can be added to without changing this one."""
        return Tally(
            self.players,
            dict(self.totals),
            {k: list(v) for k, v in self.play.items()},
            {k: list(v) for k, v in self.decl.items()},
            {k: list(v) for k, v in self.miss.items()},
            {k: list(v) for k, v in self.bots.items()},
        )

    def merge(self, other: Tally) -> None:
        """Add another chunk's sums into this one (a simulation's chunks merge in any order)."""
        for k, v in other.totals.items():
            self.count(k, v)
        for mine, theirs in (
            (self.play, other.play),
            (self.decl, other.decl),
            (self.miss, other.miss),
            (self.bots, other.bots),
        ):
            for key, values in theirs.items():
                _add(mine, key, values)

    # --- the summary tables ---------------------------------------------------------------
    def overview(self) -> dict[str, float]:
        """The simulation's headline figures: hands, the share of singles and of pools awarded
        without play, the mean players in, and the share of players in who were looed."""
        t = self.totals
        hands = t.get("hands", 0)
        n = max(1, hands)
        played = t.get("played_in", 0)
        return {
            "hands": float(hands),
            "single_rate": t.get("singles", 0) / n,
            "awarded_rate": t.get("awarded", 0) / n,
            "mean_in_play": t.get("in_play", 0) / n,
            "loo_rate_of_players": t.get("loos", 0) / played if played else 0.0,
        }

    def trick_rates(self, by: str) -> Table:
        """Seats that played a hand out, by "trumps" (trumps in the hand played), "honours"
        (ace / king of trumps in it) or "position"."""
        names = {
            "trumps": ("played_trumps",),
            "honours": ("played_ace", "played_king"),
            "position": ("position",),
        }
        if by not in names:
            raise ValueError(f"by is one of {', '.join(names)}, not {by!r}")

        def key(f: int, p: int) -> tuple[Cell, ...]:
            if by == "trumps":
                return (f & 3,)
            return (f & 4 > 0, f & 8 > 0) if by == "honours" else (p,)

        groups: dict[tuple[Any, ...], list[int]] = {}
        for (f, p), values in self.play.items():
            _add(groups, key(f, p), values)
        rows = tuple(
            (*k, n, took / n, looed / n, tricks / n, net / n)
            for k, (n, took, looed, tricks, net) in sorted(groups.items())
        )
        return Table(names[by], ("hands", "took_trick", "looed", "tricks", "net"), rows)

    def expected_counters(self, wide: bool = True) -> Table:
        """Mean net of each declaration by table size and position; long: with counts, the
        mean balance and each declaration's share of that position's decisions."""
        if not wide:
            per_position: dict[int, int] = {}
            for (p, _), (n, _, _) in self.decl.items():
                per_position[p] = per_position.get(p, 0) + n
            long = tuple(
                (self.players, p, DECLARATION_NAMES[c], n, net / n, bal / n, n / per_position[p])
                for (p, c), (n, net, bal) in sorted(self.decl.items())
            )
            return Table(
                ("players", "position", "declaration"), ("hands", "net", "balance", "share"), long
            )
        codes = sorted({c for _, c in self.decl})
        positions = sorted({p for p, _ in self.decl})
        rows: list[tuple[Cell, ...]] = []
        for p in positions:
            means: list[Cell] = []
            for c in codes:
                v = self.decl.get((p, c))
                means.append(v[1] / v[0] if v else None)
            rows.append((self.players, p, *means))
        return Table(
            ("players", "position"), tuple(DECLARATION_NAMES[c] for c in codes), tuple(rows)
        )

    def miss_value(self) -> Table:
        """Mean net of standing vs taking the miss, by the seat's own dealt cards."""
        rows: list[tuple[Cell, ...]] = []
        for f in sorted({f for f, _ in self.miss}, key=lambda f: (f & 3, f & 4, f & 8)):
            stand = self.miss.get((f, PLAY), [0, 0])
            take = self.miss.get((f, TAKE_MISS), [0, 0])
            s = stand[1] / stand[0] if stand[0] else None
            t = take[1] / take[0] if take[0] else None
            value = t - s if s is not None and t is not None else None
            rows.append((f & 3, f & 4 > 0, f & 8 > 0, s, t, stand[0], take[0], value))
        return Table(
            ("dealt_trumps", "dealt_ace", "dealt_king"),
            ("stand_net", "take_miss_net", "stand_hands", "take_miss_hands", "value_of_miss"),
            tuple(rows),
        )

    def strength(self, names: Sequence[str] = ()) -> Table:
        """How each bot fares: its mean balance a hand (counters won - loos - stakes, per seat
        and hand) with a 95 % interval, and how often it played and was looed. `names`: the
        bots' names by code (else `bot 0`, `bot 1`, ...)."""
        rows: list[tuple[Cell, ...]] = []
        for code, (n, total, squares, looed, played) in sorted(self.bots.items()):
            low, high = normal_interval(n, total, squares)
            name = names[code] if code < len(names) else f"bot {code}"
            rows.append((name, n, total / n, low, high, played / n, looed / n))
        return Table(
            ("bot",),
            ("seat_hands", "balance", "balance_low", "balance_high", "played", "looed"),
            tuple(rows),
        )

    def tables(self, names: Sequence[str] = ()) -> dict[str, Table]:
        """The summary tables by name (what `loo-lessons simulate` prints); `names`: the bots'
        names by code, for the strength table."""
        ov: dict[str, Cell] = {**self.overview(), "hands": self.totals.get("hands", 0)}
        return {
            "overview": Table((), tuple(ov), (tuple(ov.values()),)),
            "by_trumps": self.trick_rates("trumps"),
            "by_honours": self.trick_rates("honours"),
            "by_position": self.trick_rates("position"),
            "expected_counters": self.expected_counters(),
            "value_of_miss": self.miss_value(),
            "strength": self.strength(names),
        }


def merged(players: int, parts: Iterable[Tally]) -> Tally:
    """One tally of `players` summing all `parts` (the chunks of a simulation)."""
    out = Tally(players)
    for part in parts:
        out.merge(part)
    return out
