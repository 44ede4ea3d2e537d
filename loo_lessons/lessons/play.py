"""Whole hands: stepping through one, playing one against bots, a running ledger, presenting one to a class."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from loo_lessons.engine.options import options_from
from loo_lessons.lessons.cards import Position, _position, deal
from loo_lessons.sim.game import play_out
from loo_lessons.views import frames
from loo_lessons.widgets import live
from loo_lessons.widgets.static import Static


def stepper(
    position: Position | int, players: int = 5, rules: str = "hoffmann", title: str | None = None
) -> Any:
    """Step through a whole hand: the deal, the declarations, each trick, the settlement."""
    if isinstance(position, int):
        position = play_out(deal(position, players=players, rules=rules), seed=position)
    return live.Stepper(_position(position), title=title)


def play(
    seed: int,
    players: int = 5,
    rules: str = "hoffmann",
    seat: int = 1,
    *,
    bots: str | Iterable[str] = "sensible",
    moves: Iterable[str] = (),
) -> Any:
    """Play one deal live against bots from `seat` (the elder hand by default): the hint,
    undo, the settlement and "save transcript". Returns a `PlayTable`; its methods
    `choose(key)`, `hint()`, `undo()`, `restart()`, `save(path)` do what its buttons do.
    `bots`: one bot for every other seat, or a list of one per other seat (random-legal,
    cautious, bold, sensible).

    `moves`: the learner's decisions already made, in order (`["play", "JH"]`: stood, then
    led the J♥); the bots answer each from the seed, as in a game played by hand. Each call
    deals a table of its own, so a lesson can show every step of a walkthrough in its own
    cell and each stays at its step after "Run All"."""
    from loo_lessons.widgets.play import PlayTable

    table = PlayTable(seed, players, rules, seat, bots if isinstance(bots, str) else list(bots))
    for key in moves:
        table.choose(key)
    return table


def task(name: str) -> Any:
    """The lesson's play-this-deal task `name` (`lessons.tasks.TASKS`: its deal, its table
    and seat, what it asks), played live: the learner is asked only the decisions of the
    task's kinds that test something (`sim.asking`: the law refuses a choice on offer, or the
    coach separates the legal ones); the others are played for her, one line in the log saying
    so. A forbidden click is refused with the rule's id and the book's words; at the end the
    task is scored (`table.score()`: the stars, and one line per decision worded from the deal
    as played) and the book keeps the score in the reader's progress under `name`. An unknown
    name is an `InputError` on `task`."""
    from loo_lessons.lessons.tasks import task_named
    from loo_lessons.widgets.play import PlayTable

    t = task_named(name)
    return PlayTable(
        t.seed,
        t.players,
        t.rules,
        t.seat,
        t.bots if isinstance(t.bots, str) else list(t.bots),
        dealer=t.dealer,
        must=t.must,
        task=t.id,
        asks=list(t.asks),
        title=t.title,
    )


def ledger(
    seed: int,
    players: int = 5,
    deals: int = 8,
    rules: str | Mapping[str, Any] = "hoffmann",
    bank: int = 100,
) -> Any:
    """A running table, deal after deal, with sensible bots: the ledger as a DataFrame."""
    import random

    from loo_lessons.engine.table import Table
    from loo_lessons.sim.bots import BOTS, bot_move

    opts = options_from(rules)
    t = Table.seeded(players, seed, opts, bank=bank)
    rng = random.Random(seed)
    bot = BOTS["sensible"]
    rows = []
    for _ in range(deals):
        must = t.next_must
        pool_before = t.pool
        rec = t.play_deal(lambda h: bot_move(h, bot, rng))
        s = rec.settlement
        rows.append(
            {
                "deal": rec.number,
                "dealer": rec.dealer,
                "must": must,
                "pool": pool_before,
                "tricks": " ".join(f"{k}:{v}" for k, v in sorted(s.tricks_won.items())) or "—",
                "looed": " ".join(map(str, s.looed)) or "—",
                "loo each": next(iter(s.loo_pays.values()), 0),
                "next pool": s.next_pool,
                "single": s.is_single,
                **{f"seat {i}": b for i, b in enumerate(rec.balances)},
            }
        )
    return frames.records(rows, index="deal")


def static(widget: Any) -> Static:
    """A live component as static HTML (what the book shows)."""
    return widget.static()  # type: ignore[no-any-return]


def class_table(code: str | None = None) -> Any:
    """Sit at a class table on the hub: the table's code your teacher gave (or type it in the
    widget). Your own three cards, the table as your seat sees it, your moves as buttons; the
    hub's tables service deals and checks every move (a move against the rules is refused with
    its rule id and the book's words), and the table follows live as the others play."""
    from loo_lessons.widgets.live import TableSeat

    return TableSeat(code)


def present(seed: int, players: int = 5, rules: str = "hoffmann") -> Any:
    """A seeded deal for the whole class: very large cards, every hand face up or hidden (a
    toggle), step by step forwards and back (buttons or the arrow keys), each step's rule said
    plainly with its id and the book's words, and the seed and the rules in big type so that
    anyone can deal the same cards. The same deal as `stepper(seed)`."""
    from loo_lessons.widgets.present import Presenter

    return Presenter(seed, players=players, rules=rules)
