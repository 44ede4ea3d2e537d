"""DataFrames: the one place where the simulation's and the quizzes' plain tables and records
become pandas DataFrames for the lessons.

`sim/` and `quiz/` aggregate in plain Python (dicts, tuples, `sim.tally.Table`, CSV); a
DataFrame is only a way of showing them, so it is a view and lives here. pandas (and numpy,
which comes with it) is imported on first use only: the engine, the simulation, the quizzes
and the CLI run without it, and without it a frame fails with one line naming the extra.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loo_lessons.quiz.results import COLUMNS as RESULT_COLUMNS
from loo_lessons.quiz.results import Result, load_csv

if TYPE_CHECKING:
    import pandas as pd

    from loo_lessons.sim.compare import Comparison
    from loo_lessons.sim.montecarlo import PairedMissValue, Session, SimResult
    from loo_lessons.sim.tally import Table

#: What a frame needs and how to get it (one line, the same everywhere).
NEEDS_PANDAS = "DataFrames need pandas: pip install 'loo-lessons[lessons]'"


def pandas() -> Any:
    """The pandas module, or a ModuleNotFoundError that says which extra brings it."""
    try:
        import pandas
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(NEEDS_PANDAS, name="pandas") from e
    return pandas


def records(
    rows: Iterable[Mapping[str, Any]],
    columns: Sequence[str] | None = None,
    index: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """One row per record (a dict of column -> value), optionally indexed by `index`."""
    pd = pandas()
    df = pd.DataFrame(list(rows), columns=list(columns) if columns is not None else None)
    if index is None or (not isinstance(index, str) and not index):
        return df
    return df.set_index(index if isinstance(index, str) else list(index))


def of_columns(columns: Mapping[str, Any]) -> pd.DataFrame:
    """A frame from its columns (name -> a column of values, e.g. another frame's column)."""
    return pandas().DataFrame(dict(columns))


_DASHED: dict[str, type[Any]] = {}


def dashed(df: pd.DataFrame) -> pd.DataFrame:
    """`df` as a DataFrame that notebooks and the book show with "—" where there is no value
    (a mean over no hands), never "NaN"; the class is made on first use, with pandas."""
    if "table" not in _DASHED:

        class Dashed(pandas().DataFrame):  # type: ignore[misc]
            @property
            def _constructor(self) -> type[Any]:
                return Dashed

            def _repr_html_(self) -> str:
                text: str = self.to_html(na_rep="—", float_format=lambda x: f"{x:.2f}")
                if bool(self.isna().to_numpy().any()):
                    text += "<p><small>— : no hand of that kind at that seat.</small></p>"
                return text

        _DASHED["table"] = Dashed
    return _DASHED["table"](df)


def concat(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Frames one under another (the same columns)."""
    return pandas().concat(list(frames))


def table(t: Table) -> pd.DataFrame:
    """A summary table of the simulation (`sim.tally.Table`), indexed by its index columns."""
    return records(t.records(), columns=[*t.index, *t.columns], index=t.index)


# --- the simulation -----------------------------------------------------------------------------


def simulation(res: SimResult) -> pd.DataFrame:
    """One row per hand and seat of a simulation kept with `rows=True` (columns:
    `sim.montecarlo.FRAME_COLUMNS`); `declaration` and `bot` are categoricals, flags booleans."""
    from loo_lessons.engine.errors import LooError
    from loo_lessons.sim.montecarlo import HAND_COLUMNS, SEAT_COLUMNS
    from loo_lessons.sim.tally import DECLARATION_NAMES

    if res.columns is None:
        raise LooError(
            "this simulation kept no rows: simulate(..., rows=True) keeps one per hand and seat"
        )
    pd = pandas()
    import numpy as np  # comes with pandas

    columns = res.columns
    n, p = len(columns["seed"]), res.players

    def col(name: str) -> Any:
        code = (HAND_COLUMNS | SEAT_COLUMNS)[name]
        dtype = "int8" if code == "b" else "int64"
        return np.frombuffer(columns[name], dtype=dtype).astype("int64")

    def per_hand(name: str) -> Any:
        return np.repeat(col(name), p)

    seat = np.tile(np.arange(p), n)
    dealer = per_hand("dealer")
    decl = col("declaration")
    dealt, played_hand = col("dealt"), col("played_hand")
    won, paid = col("won"), col("paid")
    kinds = res.bot_kinds
    bot_codes = np.array([kinds.index(b) for b in res.bots], dtype="int64")
    if res.all_ante:
        staked = np.full(n * p, res.stake_paid, dtype="int64")
    else:
        staked = np.where(seat == dealer, res.stake_paid, 0)
    data = {
        "hand": np.repeat(np.arange(n), p),
        "seed": per_hand("seed"),
        "players": np.full(n * p, p, dtype="int64"),
        "dealer": dealer,
        "seat": seat,
        "position": (seat - dealer - 1) % p + 1,
        "bot": pd.Categorical.from_codes(np.tile(bot_codes, n), categories=list(kinds)),
        "dealt_trumps": dealt & 3,
        "dealt_ace": (dealt & 4) > 0,
        "dealt_king": (dealt & 8) > 0,
        "declaration": pd.Categorical.from_codes(decl, categories=list(DECLARATION_NAMES)),
        "took_miss": (decl == 1) | (decl == 3),
        "played": (decl != 2) & (decl != 4),
        "played_trumps": played_hand & 3,
        "played_ace": (played_hand & 4) > 0,
        "played_king": (played_hand & 8) > 0,
        "tricks": col("tricks"),
        "looed": paid > 0,
        "won": won,
        "paid": paid,
        "net": won - paid,
        "staked": staked,
        "balance": won - paid - staked,
        "pool": per_hand("pool"),
        "in_play": per_hand("in_play"),
        "single": per_hand("single") > 0,
        "awarded": per_hand("awarded") > 0,
    }
    return pd.DataFrame(data)


def paired(res: PairedMissValue) -> pd.DataFrame:
    """One row per deal of `paired_miss_value`: the seat's net standing, taking the miss and
    throwing up."""
    return records(res.rows)


def paired_table(
    res: PairedMissValue, by: Sequence[str] = ("dealt_trumps", "dealt_ace", "dealt_king")
) -> pd.DataFrame:
    """Mean net of each choice by the kind of hand dealt; `value_of_miss` = take_miss -
    stand, and the choice with the best mean."""
    g = paired(res).groupby(list(by))
    out = g.agg(
        hands=("stand", "size"),
        stand=("stand", "mean"),
        take_miss=("take_miss", "mean"),
        throw_up=("throw_up", "mean"),
    )
    out["value_of_miss"] = out["take_miss"] - out["stand"]
    out["best"] = out[["stand", "take_miss", "throw_up"]].idxmax(axis=1)
    return out


def session(s: Session) -> pd.DataFrame:
    """One row per deal of a session at one table, indexed by the deal's number."""
    return records(s.rows, index="deal")


def comparison(c: Comparison) -> pd.DataFrame:
    """One row per step of a comparison: for each rule set the seat to act, the legal
    options, the move."""
    return records(c.step_rows(), index="step")


def comparison_money(c: Comparison) -> pd.DataFrame:
    """One row per seat: net counters under each rule set."""
    return records(
        ({"seat": seat, **nets} for seat, nets in c.money().items()),
        columns=["seat", *c.labels],
        index="seat",
    )


# --- the quizzes --------------------------------------------------------------------------------

_RESULT_TYPES = {
    "topic": "object",
    "question_id": "object",
    "rule_ids": "object",
    "answer_given": "object",
    "correct": "bool",
    "seconds": "float64",
}


def quiz_results(results: Iterable[Result]) -> pd.DataFrame:
    """One row per answer, the columns `quiz.results.COLUMNS` (topic, question_id, rule_ids,
    answer_given, correct, seconds)."""
    return records((r.row() for r in results), columns=RESULT_COLUMNS).astype(_RESULT_TYPES)


def quiz_results_csv(path: str | Path) -> pd.DataFrame:
    """A results CSV (`quiz.results.save_csv`) read back into the frame `quiz_results` makes."""
    return quiz_results(load_csv(path))


def quiz_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per topic: answers, share correct, mean seconds."""
    if len(frame) == 0:
        return records([], columns=["answers", "correct", "mean_seconds"])
    return frame.groupby("topic").agg(
        answers=("question_id", "count"),
        correct=("correct", "mean"),
        mean_seconds=("seconds", "mean"),
    )


def classroom(paths: Iterable[str | Path], codes: Sequence[str] | None = None) -> pd.DataFrame:
    """A class's results graded again (`quiz.classroom.merge` of these files and folders): one
    row per pupil and attempt. `frame.attrs` holds "questions" and "rules" (the per-question
    and per-rule tables, as frames) and "refused" (one line per result not counted)."""
    from loo_lessons.quiz.classroom import merge, question_table, rule_table
    from loo_lessons.quiz.classroom import table as class_table

    room = merge(paths, codes)
    columns, rows = class_table(room.pupils)
    frame = records(rows, columns=columns)
    q_cols, q_rows = question_table(room.pupils)
    r_cols, r_rows = rule_table(room.pupils)
    frame.attrs["questions"] = records(q_rows, columns=q_cols)
    frame.attrs["rules"] = records(r_rows, columns=r_cols)
    frame.attrs["refused"] = [r.line() for r in room.refusals]
    return frame
