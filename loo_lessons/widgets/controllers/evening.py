"""An evening of Loo: the controller behind `Evening` (JupyterLab) and the book's evening.

Deal after deal at one table (`sim.evening.Evening`, over `engine.table.Table`, which decides
everything: the dealer's rotation, the pool carried forward, a single turning the next deal
into a must, unlimited loo growing and falling back, the ledger). Each deal is played as the
play table plays one (this controller is `PlayController`, its hand the evening's deal): the
same component draws it, and `js/evening.js` adds the evening below it: the deal's number,
dealer and pool, "Next deal" once it is over, the ledger of every player's counters after
each deal with every settlement line (rule id and the book's words), and a plot of balances
drawn from the numbers given here. "Save the evening" writes (or in the page, downloads) the
evening as its moves; `EveningController.load(path)` reads it back through the guarded
reader (`scenario.evening`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

from loo_lessons.engine.errors import LooError
from loo_lessons.engine.options import RuleOptions
from loo_lessons.scenario.write import write_whole
from loo_lessons.sim.evening import FORMAT, Evening, from_json, load, setup_of
from loo_lessons.widgets.controllers.base import Refused, is_int
from loo_lessons.widgets.controllers.coaching import ROLLOUTS, Coaching
from loo_lessons.widgets.controllers.play import PlayController, inside_working_directory
from loo_lessons.widgets.static import live_html

Rules = str | RuleOptions | Mapping[str, Any] | None


class EveningController(PlayController, component="evening"):
    """An evening at one table from the learner's seat; see the module docstring.

    `seed` deals every deal and seeds the bots; `stake`, `loo` (None: unlimited loo),
    `loo_cap` and `bank` (each player's counters at the start) are the table's
    (`engine.table.Table`). `deals` (the moves of each deal so far, as `save` writes them)
    resumes an evening; `evening` takes one already made (what `load` does). `people` and
    `names`: the seats people play and theirs (`controllers.pass_play`)."""

    def __init__(
        self,
        seed: int = 0,
        players: int = 5,
        rules: Rules = "hoffmann",
        seat: int = 1,
        bots: str | Sequence[str | None] = "sensible",
        *,
        stake: int = 3,
        loo: int | None = None,
        loo_cap: int | None = None,
        bank: int = 100,
        dealer: int = 0,
        deals: Sequence[Sequence[str]] | None = None,
        evening: Evening | None = None,
        title: str | None = None,
        rollouts: int | None = None,
        people: Sequence[int] = (),
        names: Sequence[str] = (),
        **traits: Any,
    ) -> None:
        if evening is None:
            setup = setup_of(
                seed, players, rules, seat, bots, people=people, names=names,
                stake=stake, loo=loo, loo_cap=loo_cap, bank=bank, dealer=dealer,
            )  # fmt: skip
            if deals:  # a saved evening: through the guarded reader, as a file would be
                evening = from_json({"format": FORMAT, **setup.as_json(), "deals": [list(d) for d in deals]})
            else:
                evening = Evening(setup)
        self.evening = evening
        evening.advance()
        s = evening.setup
        super().__init__(
            # the play table's bots name the seats; people's seats (pass-and-play) are played
            # through the evening's game, never by these
            s.seed, s.players, s.rules, s.seat, [b or "sensible" for b in s.bot_names()],
            hand=evening.hand, title=title, **traits
        )
        self.coaching = Coaching(s.seat, s.seed, rollouts or ROLLOUTS)
        if rollouts:
            self.coaching.review_rollouts = max(1, rollouts // 2)
        self._rollouts = rollouts
        self._bind_deal()
        self.take_changes()

    def _bind_deal(self) -> None:
        """The play table's hand and game are the evening's deal now."""
        self._hand = self.evening.hand
        self._game = self.evening.game
        self._apply({"data": self._data(), "show_hint": False, "tried": None})

    # --- the buttons ---------------------------------------------------------------------------
    def next_deal(self) -> Self:
        """"Next deal": the table settles this one (engine.table) and deals the next."""
        rec = self.evening.next_deal()
        self.evening.advance()
        self._message = f"Deal {rec.number} is settled; deal {rec.number + 1} is dealt."
        self._bind_deal()
        return self

    def play_deal(self, choose: Callable[[list[str]], str] | None = None) -> Self:
        """Play the rest of this deal with `choose(legal_keys) -> key` (default: the first
        legal move) for the learner, then deal the next: a notebook's quick evening."""
        while not self.over:
            keys = self.legal
            self.choose(keys[0] if choose is None else choose(keys))
        return self.next_deal()

    def ledger(self) -> list[dict[str, Any]]:
        """Every deal settled so far: its number, dealer, whether a must, the pool, each
        player's counters after it and the change, and the settlement lines with their rules."""
        rows: list[dict[str, Any]] = self._evening_data()["ledger"]
        return rows

    def save(self, path: str | os.PathLike[str] | None = None) -> Any:
        """Write the evening (its table and its moves) as JSON to `path` and return where."""
        where = Path(os.fspath(path)).expanduser() if path is not None and str(path).strip() else (
            Path.cwd() / self._default_name()
        )
        write_whole(where, json.dumps(self.evening.as_json(), indent=1) + "\n")
        self._message = f"The evening is saved to {where} ({self.evening.number} deals)."
        self._refresh()
        return where

    @classmethod
    def load(cls, path: str | os.PathLike[str], **kwargs: Any) -> Self:
        """A saved evening, live again where it was left (every move replayed by the engine)."""
        return cls(evening=load(path), **kwargs)

    # --- the browser's requests ------------------------------------------------------------------
    def handle_request(self, ev: object) -> None:
        """Take the component's `next` request (the next deal of the evening, `n` its count and
        nothing else); every other request is the play table's. An engine refusal shows in the
        widget."""
        if isinstance(ev, Mapping) and ev.get("type") == "next":
            try:
                extra = sorted(str(k)[:20] for k in ev if k not in ("n", "type"))
                if extra:
                    raise Refused(f"a next request has no {', '.join(extra)}")
                if not is_int(ev.get("n", 0)):
                    raise Refused("n must be a whole number, 0 or more")
                self.next_deal()
            except LooError as e:
                self._error = str(e)[:300]
                self._refresh()
            return
        super().handle_request(ev)

    def _default_name(self) -> str:
        return f"loo-evening-seed{self.evening.setup.seed}-deal{self.evening.number}.json"

    def _save_from_browser(self, name: str) -> None:
        name = name.strip() or self._default_name()
        if not self.files:
            file = Path(name).name if Path(name).name.endswith(".json") else Path(name).name + ".json"
            self._message = f"The evening is ready: {file} ({self.evening.number} deals)."
            data = self._data()
            data["download"] = {"name": file, "text": json.dumps(self.evening.as_json(), indent=1) + "\n"}
            self._apply({"data": data})
            return
        self.save(inside_working_directory(name))

    # --- the data the component draws --------------------------------------------------------------
    def _evening_data(self) -> dict[str, Any]:
        ev = self.evening
        t = ev.table
        players = ev.setup.players
        start = [ev.setup.bank] * players
        ledger = ev.ledger(you=self._you())
        before = start
        for row in ledger:
            row["change"] = [a - b for a, b in zip(row["balances"], before, strict=True)]
            before = row["balances"]
        h = ev.hand
        return {
            "deal": ev.number,
            "dealer": h.setup.dealer,
            "must": h.setup.must,
            "pool": h.setup.stakes.pool,
            "loo": h.full_loo,
            "seat": ev.setup.seat,
            "names": ["you" if b is None else f"seat {s} ({b})" for s, b in enumerate(ev.setup.bot_names())],
            "bank": ev.setup.bank,
            "balances": list(t.balances),
            "total": t.total(),
            "series": [start] + [row["balances"] for row in ledger],
            "ledger": ledger,
            "can_next": self.over,
        }

    def _data(self) -> dict[str, Any]:
        data = super()._data()
        if not hasattr(self, "evening"):
            return data
        ev = self._evening_data()
        data["evening"] = ev
        if not self._title:
            must = " — a must" if ev["must"] else ""
            data["title"] = f"An evening of Loo: deal {ev['deal']}, dealer seat {ev['dealer']}{must}. You are seat {ev['seat']}."
        return data

    # --- what notebooks and the book show ---------------------------------------------------------
    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this evening again: its setup, the deals played so far and
        the title."""
        s = self.evening.setup.as_json()
        moves = self.evening.as_json()["deals"]
        args = {**s, "deals": moves, "title": self._title}
        if self._rollouts:
            args["rollouts"] = self._rollouts
        return {"kind": "evening", "args": args}

    def book_html(self) -> str:
        """What the book shows: the evening as static HTML that the page's engine takes over."""
        spec = self.live_spec()
        assert spec is not None
        return live_html("evening", "evening", spec["args"], self.static_html())

    def static_html(self) -> str:
        """The play table's static form, and the ledger so far as a plain table."""
        import html

        ev = self._evening_data()
        head = "".join(f"<th>{html.escape(n)}</th>" for n in ev["names"])
        rows = "".join(
            f"<tr><td>{r['deal']}{' (must)' if r['must'] else ''}</td><td>{r['pool']}</td>"
            + "".join(f"<td>{b}</td>" for b in r["balances"])
            + "</tr>"
            for r in ev["ledger"]
        )
        return super().static_html() + (
            f"<table class='loo-ledger'><thead><tr><th>deal</th><th>pool</th>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )


__all__ = ["EveningController"]
