"""Pass-and-play: an evening of Loo on one device, three to eight people at their seats and bots
in the seats left empty (issue 27, deliver 4). The controller behind `PassPlay` (JupyterLab)
and the book's page `book/pass-and-play.md`; no server.

It is the evening's controller (`EveningController`: `sim.evening.Evening` with
`EveningSetup.people`, the table's rules all `engine.table`'s) with a screen in front of it:

- `screen == "pass"`: "Pass to seat 3 (Ann)". The data holds no card of any hand: the table
  as everyone sees it (`table_view` with no seat revealed: the turn-up and the cards played
  face up), the moves told in the open (the bots' too, as the evening tells them), the
  settlement and the ledger once a deal is over.
- `screen == "play"`, after "I am Ann: show my cards" (`show`): the play table from that seat
  alone (its own cards, as `engine.observation.SeatView` gives a seat; its options and the
  engine's verdicts). After the move the screen is the next person's pass screen again.

A move made is made: no undo (it would show the previous person's cards to the next). Names
are the players' own text (`scenario.evening.person_name` checks them); every view writes
them as text, never as HTML. Saved as an evening (its JSON with `people` and `names`), read
back through the guarded reader (`scenario.evening`).
"""

from __future__ import annotations

import html
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Self

from loo_lessons.engine.cards import in_hand_order
from loo_lessons.engine.errors import InputError, LooError
from loo_lessons.engine.game import Action
from loo_lessons.engine.observation import seat_view
from loo_lessons.engine.options import LooAmount
from loo_lessons.explain.table import settlement_working, table_view
from loo_lessons.scenario.evening import MAX_NAME, TABLE_BOUNDS, evening_text, person_name
from loo_lessons.sim.bots import BOTS
from loo_lessons.sim.evening import Evening, replay
from loo_lessons.widgets.controllers.base import Refused, is_int
from loo_lessons.widgets.controllers.coaching import Coaching
from loo_lessons.widgets.controllers.evening import EveningController, Rules
from loo_lessons.widgets.controllers.play_state import bots_around
from loo_lessons.widgets.static import component_html, live_html

#: Players at one pass-and-play table: Loo is a round game for three and more (A18: an
#: evening deals a miss); eight round one device is already a crowd.
MIN_PLAYERS, MAX_PLAYERS = 3, 8
#: The keys of a `start` request (the set-up form; `start_setup` checks each).
START_KEYS = ("n", "type", "names", "preset", "stake", "loo", "cap", "seed", "bots")
#: The requests only this table takes, each with its keys (the play table's are refused or
#: taken as the evening takes them): js/types.d.ts PassplayRequest types them
#: (tests/test_js_events.py holds the two together).
PASS_REQUEST_KEYS: dict[str, tuple[str, ...]] = {
    "show": ("n", "type"),
    "start": START_KEYS,
    "load": ("n", "type", "text", "name"),
}
#: The bots that may fill the empty seats (the coached bot is the coach's, not a player).
TABLE_BOTS = tuple(b for b in BOTS if b != "coached")
#: What a person cannot ask at a shared device, and why.
NOT_HERE = {
    "undo": "a move made is made at a pass-and-play table: undo would show the last player's cards",
    "restart": "a move made is made at a pass-and-play table: a deal is not started again",
    "review": "the coach's review is for one seat's own decisions: play a deal alone for it",
}


def start_setup(ev: Mapping[str, Any]) -> dict[str, Any]:
    """The page's set-up form (a `start` request) → `PassPlayController`'s arguments; a bad
    field is a `Refused` naming it. `names`: one per seat, 3 to 8 ("" leaves a seat to a
    bot); `bots`: which bot plays those seats; `preset`; `stake`; `loo`: "limited" or
    "unlimited" (the pool, R46), with `cap` (R49) or none."""
    extra = sorted(str(k)[:20] for k in ev if k not in START_KEYS)
    if extra:
        raise Refused(f"a start request has no {', '.join(extra)}")
    names = ev.get("names")
    if not isinstance(names, list) or not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise Refused(f"names: one per seat, {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    people: list[int] = []
    called: list[str] = []
    for s, n in enumerate(names):
        if n is None or (isinstance(n, str) and not n.strip()):
            continue  # an empty seat: a bot plays it
        try:
            called.append(person_name(n))
        except InputError as e:
            raise Refused(f"names[{s}]: {e.problem}") from None
        people.append(s)
    if not people:
        raise Refused("names: at least one person plays (type a name)")
    bots = ev.get("bots", "sensible")
    if bots not in TABLE_BOTS:
        raise Refused(f"bots: one of {', '.join(TABLE_BOTS)}")
    preset = ev.get("preset", "hoffmann")
    if preset not in ("hoffmann", "peel"):
        raise Refused("preset: hoffmann or peel")
    loo = ev.get("loo", "limited")
    if loo not in ("limited", "unlimited"):
        raise Refused("loo: limited or unlimited")
    rules: dict[str, Any] = {"preset": preset}
    cap = ev.get("cap")
    if loo == "unlimited":
        rules["loo_amount"] = "pool" if cap is None else "pool_capped"
    elif cap is not None:
        raise Refused("cap: only unlimited loo has a cap")
    for key, value in (("stake", ev.get("stake", 3)), ("loo_cap", cap), ("seed", ev.get("seed", 0))):
        lo, hi = TABLE_BOUNDS[key]
        if value is not None and (not is_int(value) or not lo <= value <= hi):
            raise Refused(f"{'cap' if key == 'loo_cap' else key}: a whole number from {lo} to {hi}")
    return {
        "seed": ev["seed"] if "seed" in ev else secrets.randbelow(2**31),
        "players": len(names),
        "rules": rules,
        "people": people,
        "names": called,
        "bots": bots,
        "stake": ev.get("stake", 3),
        "loo_cap": cap,
    }


class PassPlayController(EveningController, component="passplay"):
    """An evening passed round one device; see the module docstring.

    `people`: the seats people play (the others bots: `bots`, one name for all or one per
    seat); `names`: theirs, in the same order (default "Player 1", ...). The rest is the
    evening's (`EveningController`)."""

    def __init__(
        self,
        seed: int = 0,
        players: int = 5,
        rules: Rules = "hoffmann",
        people: Sequence[int] = (0, 1, 2),
        names: Sequence[str] = (),
        bots: str | Sequence[str | None] = "sensible",
        *,
        seat: int | None = None,  # a saved evening's first person (`EveningSetup.seat`)
        **evening: Any,
    ) -> None:
        seats = list(people)
        called = list(names) or [f"Player {i + 1}" for i in range(len(seats))]
        first = seat if seat is not None else (seats[0] if seats else 0)
        self._screen = "pass"  # read by `_data` while the evening's controller is made
        self._set_up = False  # an evening started from the page's form (its form then folds)
        super().__init__(seed, players, rules, first, bots, people=seats, names=called, **evening)
        if not self.evening.setup.people:
            raise InputError("people", "a pass-and-play evening names the seats people play")

    # --- who is who ------------------------------------------------------------------------------
    @property
    def screen(self) -> str:
        """"pass" (the device between people: no card of any hand shown) or "play"."""
        return self._screen

    @property
    def turn(self) -> int | None:
        """The person's seat whose move it is (None: the deal is over)."""
        return self._hand.to_act if self._game.learner_decides() else None

    def name(self, seat: int) -> str:
        """Seat `seat`'s player as the table names him: the person's name, or the bot's."""
        s = self.evening.setup
        if seat in s.people:
            return s.names[s.people.index(seat)] if s.names else f"seat {seat}"
        return f"the {s.bot_names()[seat]} bot"

    def _you(self) -> int | None:
        return self.seat if self._screen == "play" else None

    def _who(self, seat: int) -> str:
        return "you" if seat == self._you() else self.name(seat)

    @property
    def my_turn(self) -> bool:
        """Is a person's decision to be made on this screen (his cards shown)?"""
        return self._screen == "play" and super().my_turn

    # --- the screens -----------------------------------------------------------------------------
    def show(self) -> Self:
        """"I am Ann: show my cards": the play table from the seat whose turn it is."""
        turn = self.turn
        if self._screen == "play" or turn is None:
            raise LooError("there are no cards to show now: " + ("they are shown" if turn is not None else "the deal is over"))
        self.seat = turn
        self.coaching = Coaching(turn, self.evening.setup.seed)  # nothing of the last person's advice
        self._screen = "play"
        self._message = None
        self._refresh(show_hint=False, tried=None)
        return self

    def choose(self, key: str | Action) -> Self:
        """The shown seat's move (the engine checks it); then the bots answer and the device
        is passed on: the next person's pass screen, or the deal's end."""
        if self._screen != "play":
            turn = self.turn
            who = "nobody: the deal is over" if turn is None else f"seat {turn} ({self.name(turn)})"
            raise LooError(f"the cards are hidden: pass the device to {who}, who shows them first")
        mover = self.seat
        super().choose(key)  # an illegal move raises here, the same seat's cards still shown
        self._screen = "pass"
        self._message = f"{self.name(mover)} has played: the cards are hidden again."
        self._refresh(show_hint=False, tried=None)
        return self

    def play_deal(self, choose: Callable[[list[str]], str] | None = None) -> Self:
        """Play the rest of this deal (every person's cards shown in turn; `choose(legal_keys)
        -> key`, default the first legal move), then deal the next: a notebook's quick evening."""
        while not self.over:
            keys = self.show().legal
            self.choose(keys[0] if choose is None else choose(keys))
        return self.next_deal()

    def undo(self) -> Self:
        """Refused: a move made is made (undo would show the last player's cards)."""
        raise LooError(NOT_HERE["undo"])

    def restart(self) -> Self:
        """Refused: a deal at a shared device is not started again."""
        raise LooError(NOT_HERE["restart"])

    def review(self) -> dict[str, Any]:
        """Refused: the coach's review is one seat's, and this device is everybody's."""
        raise LooError(NOT_HERE["review"])

    def handle_request(self, ev: object) -> None:
        """One click from the component: `show`, `start` (the set-up form), `load` (a saved
        evening's text) here, the play table's and the evening's requests as they take
        them; undo, restart and review refused in the widget. Nothing is raised."""
        if isinstance(ev, Mapping) and ev.get("type") in ("show", "start", "load", *NOT_HERE):
            try:
                kind = ev["type"]
                if kind == "start":
                    self._start(start_setup(ev))
                    return
                if kind == "load":
                    self._load_text(ev)
                    return
                extra = sorted(str(k)[:20] for k in ev if k not in PASS_REQUEST_KEYS["show"])
                if extra:
                    raise Refused(f"a {kind} request has no {', '.join(extra)}")
                if not is_int(ev.get("n", 0)):
                    raise Refused("n must be a whole number, 0 or more")
                if kind == "show":
                    self.show()
                else:
                    raise LooError(NOT_HERE[kind])
            except LooError as e:
                self._error = str(e)[:300]
                self._refresh()
            return
        super().handle_request(ev)

    def _start(self, args: Mapping[str, Any]) -> None:
        """A new evening from the page's set-up form, on its first pass screen."""
        self._take(type(self)(**args).evening)
        self._set_up = True  # the form has done its work: folded, the pass screen in view
        self._message = f"A new evening: {len(args['names'])} at the table. Pass to the first player."
        self._refresh()

    def _take(self, evening: Evening) -> None:
        """Another evening at this widget (the set-up form's, or a saved one), on its pass
        screen; the play table's seat, bots and seed are its."""
        s = evening.setup
        evening.advance()
        self.evening = evening
        self.seed = self.rng_seed = s.seed
        self.seat = s.seat
        self.bots = bots_around([b or "sensible" for b in s.bot_names()], s.players, s.seat)
        self.coaching = Coaching(s.seat, s.seed)
        self._screen = "pass"
        self._set_up = False
        self._bind_deal()

    def _load_text(self, ev: Mapping[str, Any]) -> None:
        """A saved evening the page's reader chose (its text): through the guarded reader,
        every move replayed by the engine; on its pass screen."""
        extra = sorted(str(k)[:20] for k in ev if k not in PASS_REQUEST_KEYS["load"])
        if extra:
            raise Refused(f"a load request has no {', '.join(extra)}")
        text, name = ev.get("text"), ev.get("name", "evening.json")
        if not isinstance(text, str) or not isinstance(name, str) or len(name) > 200:
            raise Refused("a load request carries the file's text and its name")
        loaded = replay(evening_text(text, name[:80] or "evening.json"))
        if not loaded.setup.people:
            raise Refused("evening.people: an evening of one learner: play it in lesson 12's evening table")
        self._take(loaded)
        self._message = f"The saved evening is back: deal {loaded.number}, {len(loaded.hands)} deals played."
        self._refresh()

    # --- the data the component draws --------------------------------------------------------------
    def _people(self) -> list[dict[str, Any]]:
        s = self.evening.setup
        return [{"seat": p, "name": self.name(p)} for p in s.people]

    def _since_my_last(self, log: list[dict[str, Any]]) -> list[str]:
        """The moves since the last move of the seat about to play (the one shown, or the one
        the device is passed to): all of them public."""
        seat = self.seat if self._screen == "play" else self.turn
        if seat is None:
            return super()._since_my_last(log)
        last = max((i for i, e in enumerate(log) if e["seat"] == seat and e["key"]), default=-1)
        return [e["text"] for e in log[last + 1 :]]

    def _evening_data(self) -> dict[str, Any]:
        ev = super()._evening_data()
        ev["seat"] = self._you()
        ev["names"] = [f"seat {s} ({self.name(s)})" for s in range(self.evening.setup.players)]
        return ev

    def _data(self) -> dict[str, Any]:
        if not hasattr(self, "evening"):
            return super()._data()
        if self._screen == "play":
            data = super()._data()
            name = self.name(self.seat)
            data |= {
                "screen": "play",
                "turn": self.seat,
                "name": name,
                "people": self._people(),
                "can_undo": False,
                # a shared device: no undo, no start again, no review, and the evening is saved
                # on the pass screen, so the play table draws none of those controls
                "shared": True,
                # the seat's own cards as the engine lets a seat know them (R11: nobody else's)
                "cards": [c.code for c in in_hand_order(seat_view(self._hand, self.seat).hand, self._hand.trumps)],
            }
            if not self._title:
                data["title"] = f"{name}'s cards (seat {self.seat}): deal {self.evening.number}. Pass on after your move."
            return data
        return self._pass_data()

    def _pass_data(self) -> dict[str, Any]:
        """The pass screen: what the whole table may see, and no card of any hand."""
        h = self._hand
        log = self._log()
        turn = self.turn
        ev = self._evening_data()
        name = None if turn is None else self.name(turn)
        prompt = (
            f"Deal {ev['deal']} is over: the settlement and the ledger are below. Next deal when you are ready."
            if h.to_act is None
            else f"Pass to seat {turn} ({name})."
        )
        s = h.settlement
        return {
            "screen": "pass",
            "turn": turn,
            "name": name,
            "people": self._people(),
            "title": self._title or f"Pass and play: deal {ev['deal']}, dealer seat {ev['dealer']}"
            + (" — a must" if ev["must"] else ""),
            "live": True,
            "seat": None,
            "view": table_view(h, reveal=(), last_trick=True),
            "phase": h.phase.value,
            "my_turn": False,
            "over": h.to_act is None,
            "prompt": prompt,
            "cards": [],
            "choices": [],
            "hint": None,
            "log": [e["text"] for e in log],
            "since": self._since_my_last(log),
            "can_undo": False,
            "settlement": None if s is None else {"working": settlement_working(s, h), "next_pool": s.next_pool},
            "message": self._message,
            "error": self._error,
            "evening": ev,
            # the set-up form, filled with this evening's; open while nobody has moved yet
            "setup": self._setup_form(),
            "fresh": ev["deal"] == 1 and not self._game.decisions and not self._set_up,
        }

    def _setup_form(self) -> dict[str, Any]:
        from loo_lessons.explain import preset_matching

        s = self.evening.setup
        unlimited = s.rules.loo_amount.value != "fixed"
        base = s.rules if not unlimited else replace(s.rules, loo_amount=LooAmount.FIXED)
        return {
            "names": [self.name(p) if p in s.people else "" for p in range(s.players)],
            "preset": preset_matching(base) or "hoffmann",
            "bots": next((b for b in s.bot_names() if b is not None), "sensible"),
            "bot_names": list(TABLE_BOTS),
            "stake": s.stake,
            "loo": "unlimited" if unlimited else "limited",
            "cap": s.loo_cap,
            "min": MIN_PLAYERS,
            "max": MAX_PLAYERS,
            "max_name": MAX_NAME,
        }

    # --- what notebooks and the book show ---------------------------------------------------------
    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this evening again: the evening's spec (its setup with the
        people and their names, the deals played so far) as the `passplay` kind."""
        spec = super().live_spec()
        assert spec is not None
        return {"kind": "passplay", "args": spec["args"]}

    def book_html(self) -> str:
        """What the book shows: the pass screen as static HTML, which the page's engine replaces
        with the live pass-and-play table once it has loaded."""
        spec = self.live_spec()
        assert spec is not None
        return live_html("passplay", "passplay", spec["args"], self.static_html())

    def static_html(self) -> str:
        """The pass screen as static HTML (the table as everyone sees it, the people named as
        text): what shows before the page's engine has loaded."""
        d = self._pass_data()
        people = ", ".join(f"seat {p['seat']}: {html.escape(p['name'])}" for p in d["people"])
        return (
            f"<p class='loo-pass-static'><strong>{html.escape(d['prompt'])}</strong> At the table: {people}. "
            "The game starts once the engine has loaded in this page.</p>"
            + component_html("table", {"data": {"view": d["view"], "title": d["title"], "caption": ""}})
        )


__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "PASS_REQUEST_KEYS", "PassPlayController", "start_setup"]
