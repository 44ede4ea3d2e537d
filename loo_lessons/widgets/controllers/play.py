"""Play one deal against bots: the controller behind `PlayTable` (JupyterLab) and the book.

The learner holds one seat; every other seat is a bot (loo_lessons.sim.bots) that sees only
what its seat may see and draws its randomness from one `random.Random` seeded by the deal.
The bots move at once, in Python, until it is the learner's turn. "What may I play and why?"
shows the engine's verdict (`Hand.verdict()`); "Undo" goes back to his previous decision; at
the end the settlement is told line by line with its rules; "Save transcript" writes the
deal's transcript (`Hand.transcript().as_json()`), which `PlayController.load(path)` reloads.

`PlayController` is built in layers, one concern each, none over 400 lines: `play_state`
(the deal, the seat, the bots around it), `play_task` (the task and its score), `play_drawn`
(what the component draws, and the static HTML), `play_files` (transcripts saved and loaded),
and this module, the session: the moves, undo, restart and the browser's requests.

`PlayController` is the game over the component's traits (data, request, show_hint, tried,
save_name), pure Python; the bots' loop is `sim.game.BotGame`, the terminal game's too. Both
back ends run this very controller (`widgets.backends`). The browser sends a click as a `request` ({n, type, key,
path}); Python answers by recomputing `data`. Nothing in the browser decides a rule.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from loo_lessons.engine.cards import Card
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction, InputError, LooError, NotationError
from loo_lessons.engine.game import Action, Hand, parse_action
from loo_lessons.engine.options import rule_options
from loo_lessons.explain import words
from loo_lessons.explain.table import action_key
from loo_lessons.scenario import DECLARATION_ALIASES
from loo_lessons.sim.asking import TASK_ROLLOUTS, Advisor
from loo_lessons.sim.bots import BOTS, get_bot
from loo_lessons.sim.game import DECISIONS, BotGame
from loo_lessons.views.prose import after_note
from loo_lessons.widgets.controllers.base import Refused, is_int
from loo_lessons.widgets.controllers.coaching import ROLLOUTS, Coaching
from loo_lessons.widgets.controllers.play_drawn import Hint
from loo_lessons.widgets.controllers.play_files import (
    PlayFiles,
    SavedTranscript,
    dealt_from_seed,
    inside_working_directory,
)
from loo_lessons.widgets.controllers.play_state import BotSpec, Rules, bots_around
from loo_lessons.widgets.controllers.play_task import task_asks, task_name
from loo_lessons.widgets.static import DEFAULT_STATE

#: The state traits of the play component and their starting values.
PLAY_STATE: dict[str, Any] = DEFAULT_STATE["play"]


class IllegalChoice(IllegalAction):
    """The learner chose an option the rules forbid: the message gives the rule id and the
    reason; `law` is the engine's law for it (rule, rule_id, reason, quote, book, source)."""

    def __init__(self, message: str, key: str, law: Mapping[str, Any] | None) -> None:
        super().__init__(message)
        self.key = key
        self.law = dict(law) if law is not None else None


class UnknownChoice(LooError, KeyError):
    """The key names none of the learner's options (a card he does not hold, a typo)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class PlayController(PlayFiles, component="play"):
    """One deal against bots, from the learner's seat; see the module docstring.

    `bots`: one bot for every other seat (a name: random-legal, cautious, bold, sensible; or
    a Bot), or one per seat. `dealer`: the dealer's seat (the elder hand is on his left).
    `hand` and `moves` (keyword-only) restart from a deal already made and replay moves
    already played (what `load` does). `must`: the deal is a must (R43–R45).

    A *task* (`task`: its name, kept in the reader's progress): the learner makes only the
    kinds of decision in `asks` (of "declare", "lead", "follow"; all three by default), the
    `stand_in` bot makes his seat's others in the open (the log says so), and when the deal
    is over the task is scored (`score()`): each of his own decisions weighed against the
    coach's best (`controllers.score`), his result in counters beside the stand-in's from
    the same seat and cards, the cards refused and the decisions undone.
    """

    EVENTS: ClassVar[tuple[str, ...]] = ("request",)
    SYNCED: ClassVar[tuple[str, ...]] = ("request", "show_hint", "tried", "save_name")
    request: dict[str, Any]
    show_hint: bool
    tried: str | None
    save_name: str

    def __init__(
        self,
        seed: int,
        players: int = 5,
        rules: Rules = "hoffmann",
        seat: int = 1,
        bots: BotSpec = "sensible",
        *,
        dealer: int = 0,
        title: str | None = None,
        hand: Hand | None = None,
        moves: Sequence[str | Action] = (),
        rng_seed: int | None = None,
        must: bool = False,
        task: str | None = None,
        asks: Sequence[str] | None = None,
        stand_in: str = "sensible",
        after: str | None = None,
        **kwargs: Any,
    ) -> None:
        from_seed = hand is None
        if hand is None:
            hand = Hand.from_seed(
                seed, players, dealer % max(players, 1), rule_options(rules), must=bool(must)
            )
        else:
            hand = hand.root()
            players = hand.setup.players
            from_seed = dealt_from_seed(hand, seed)  # a saved seeded deal, loaded again
        if not 0 <= seat < players:
            raise InputError("seat", f"seat {seat} does not exist: seats are 0 to {players - 1}")
        self.seed = seed
        self.seat = seat
        self.rng_seed = seed if rng_seed is None else rng_seed
        self.bots = bots_around(bots, players, seat)
        self.task = task_name(task)
        self.asks = task_asks(asks)
        if self.task is None and self.asks != DECISIONS:
            raise InputError("asks", "only a task asks some of the decisions: name the task")
        self.stand_in = get_bot(stand_in)
        # the lesson's words on the deal, shown once it is over (never before the learner acts)
        self._after = after_note(after)
        self._refused = 0
        self._refused_at: set[int] = set()  # the move numbers at which a click was refused
        self._undone_at: set[int] = set()  # the move numbers of decisions undone
        self._undone = 0
        self._baseline: int | None = None
        self._title = title
        self._hand = hand
        # a task's coach: one evaluation per position (TASK_ROLLOUTS) decides whether the
        # learner is asked (sim.asking), answers "Ask the coach" and makes the review
        advisor = Advisor(seat, self.rng_seed, TASK_ROLLOUTS) if self.task is not None else None
        # the same game as the terminal's (sim.game): undo puts the bots' draws back too
        self._game = BotGame(
            hand,
            seat,
            self.bots,
            random.Random(self.rng_seed),
            asks=self.asks,
            stand_in=self.stand_in,
            advisor=advisor,
        )
        self._message: str | None = None
        self._error: str | None = None
        self._game.replay([parse_action(m) if isinstance(m, str) else m for m in moves])
        # "Ask the coach" and the review: the same deals and seed, so they rank moves alike
        self.coaching = (
            Coaching(seat, self.rng_seed, review_rollouts=ROLLOUTS)
            if advisor is None
            else Coaching(seat, self.rng_seed, review_rollouts=TASK_ROLLOUTS, advisor=advisor)
        )
        self._game.advance()
        #: How the book's engine makes this very table again (None: it cannot, e.g. a
        #: deal not made from a seed, or a bot of the notebook's own).
        self._spec: dict[str, Any] | None = None
        if from_seed and all(b is None or b.name in BOTS for b in self.bots):
            self._spec = {
                "seed": seed,
                "players": players,
                "rules": hand.options.to_dict(),
                "seat": seat,
                "bots": [None if b is None else b.name for b in self.bots],
                "dealer": hand.setup.dealer,
                "moves": [m if isinstance(m, str) else action_key(m) for m in moves],
                "rng_seed": self.rng_seed,
                "title": title,
            }
            if hand.setup.must:
                self._spec["must"] = True
            if self.task is not None:
                self._spec |= {"task": self.task, "asks": list(self.asks), "stand_in": self.stand_in.name}
            if after is not None:
                self._spec["after"] = after
        super().__init__(**kwargs)
        self._apply({"data": self._data()})
        self.take_changes()

    # --- the buttons --------------------------------------------------------------------------
    def _parse(self, key: str | Action) -> Action:
        options = self.options
        if isinstance(key, Card | Declaration):
            a: Action = key
        else:
            text = str(key).strip()
            alias = DECLARATION_ALIASES.get(text.lower())
            if alias is not None:
                a = alias
            else:
                try:
                    a = parse_action(text.upper())
                except (NotationError, ValueError):
                    raise UnknownChoice(
                        f"{key!r} is none of your options: {', '.join(options)}"
                    ) from None
        # every option the engine rules on may be typed, the buttons' and the one the table does
        # not show (play the miss for the pool, away from the dealer): the law refuses it by name
        ruled = list(self._question()["verdicts"]) if self.my_turn else []
        if action_key(a) not in ruled:
            raise UnknownChoice(
                f"{action_key(a)} is none of your options now: {', '.join(options)}"
                + (" (you do not hold it)" if isinstance(a, Card) else "")
            )
        return a

    def choose(self, key: str | Action) -> Self:
        """Make the learner's move `key` (a card code such as "KH", or a declaration: play,
        take_miss, pass, play_miss_for_pool); then the bots move until it is his turn again.

        Raises UnknownChoice (a KeyError) for a key that is none of his options, and
        IllegalChoice (a ValueError) with the rule id and the reason for a forbidden one.
        Returns the table (so that a notebook cell shows it)."""
        if not self.my_turn:
            raise IllegalAction("the deal is over: there is nothing to choose", None, self._hand)
        a = self._parse(key)
        k = action_key(a)
        if a not in self._hand.legal_actions():
            law = self._question()["verdicts"][k]
            self._refused += 1
            self._refused_at.add(len(self._hand.actions))
            self._refresh(tried=k)  # the widget shows the refusal (and a task counts it)
            what = f"play {words.card_label(a, the=True)}" if isinstance(a, Card) else words.declared_words(a, you=True)
            raise IllegalChoice(
                f"you may not {what}: "
                f"{law['reason']} ({law['rule_id']})",
                k,
                law,
            )
        self._game.decide(a)
        self._game.advance()
        self._message = None
        self._refresh(show_hint=False, tried=None)
        return self

    def hint(self) -> Hint:
        """ "What may I play and why?": the verdict on the learner's decision (and the widget
        shows it)."""
        if not self.my_turn:
            raise IllegalAction("the deal is over: there is nothing to decide", None, self._hand)
        self._apply({"show_hint": True})
        return Hint(self._hint_data())

    def ask_coach(self) -> dict[str, Any]:
        """"Ask the coach": each legal move's value, loo and trick chances (sim.coach;
        strategy, not law), and the widget shows them."""
        if not self.my_turn:
            raise LooError("it is not your turn: the coach weighs your decisions")
        advice = self.coaching.ask(self._hand)
        self._refresh()
        return advice

    def review(self) -> dict[str, Any]:
        """After the deal: the coach's review of each of your decisions (mistakes marked)."""
        if not self.over:
            raise LooError("the deal is not over: the review comes after it")
        out = self.coaching.review(self._hand, None if self.task is None else self.own_moves())
        self._refresh()
        return out

    def undo(self) -> Self:
        """Back to the learner's previous decision (the bots' moves since go too)."""
        last = self._game.decisions[-1][0] if self._game.decisions else None
        if not self._game.undo():
            raise LooError("nothing to undo: you have not decided anything yet")
        if last is not None:  # the decision taken back: the law's star is not found first time
            self._undone_at.add(last)
        self._undone += 1
        self._message = "Undone: back to your previous decision."
        self._refresh(show_hint=False, tried=None)
        return self

    def restart(self) -> Self:
        """Back to the learner's first decision of the deal."""
        self._game.restart()
        self._refused = self._undone = 0  # a task started again is a new attempt
        self._refused_at = set()
        self._undone_at = set()
        self._message = "Started again."
        self._refresh(show_hint=False, tried=None)
        return self

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        self.handle_request(ev.get("request"))

    def _sync(self, changes: Mapping[str, Any]) -> None:
        if "show_hint" in changes:
            if not isinstance(changes["show_hint"], bool):
                raise Refused("show_hint is true or false")
            self._apply({"show_hint": changes["show_hint"]})
        if "tried" in changes:
            t = changes["tried"]
            if t is not None and t not in self.options:
                raise Refused("tried must be one of your options")
            self._apply({"tried": t})
        if "save_name" in changes:
            name = changes["save_name"]
            if not isinstance(name, str) or len(name) > 200:
                raise Refused("the file name is text, at most 200 characters")
            self._apply({"save_name": name})
        if "request" in changes:
            self._apply({"request": changes["request"]})
            self.handle_request(changes["request"])



    # --- the browser's requests ---------------------------------------------------------------
    def handle_request(self, ev: object) -> None:
        """One click from the component (`{n, type, key?, path?}`). Anything the component
        would never send is refused with a message in the widget; nothing is raised."""
        try:
            if not ev:
                return  # the request trait cleared (a fresh widget): nothing asked
            if not isinstance(ev, Mapping):
                raise Refused("a request is an object {n, type, ...}")
            kind = ev.get("type")
            extra = sorted(str(k)[:20] for k in ev if k not in REQUEST_KEYS.get(str(kind), ()))
            if kind not in REQUEST_KEYS:
                raise Refused(
                    f"unknown request {str(kind)[:40]!r} (the table takes {', '.join(REQUEST_KEYS)})"
                )
            if extra:
                raise Refused(f"a {kind} request has no {', '.join(extra)}")
            n = ev.get("n", 0)
            if not is_int(n) or n < 0:
                raise Refused("n must be a whole number, 0 or more")
            if kind == "choose":
                key = ev.get("key")
                if not isinstance(key, str) or not 0 < len(key) <= 40:
                    raise Refused("key must be one of your options")
                self.choose(key)
            elif kind == "undo":
                self.undo()
            elif kind == "restart":
                self.restart()
            elif kind == "hint":
                self.hint()
            elif kind == "coach":
                self.ask_coach()
            elif kind == "review":
                self.review()
            else:
                name = ev.get("path", "")
                if not isinstance(name, str) or len(name) > 200:
                    raise Refused("the file name is text, at most 200 characters")
                self._save_from_browser(name)
        except (LooError, KeyError, ValueError, OSError) as e:  # shown, never lost
            self._error = str(e)[:300]
            self._refresh()


#: The requests the component sends, each with the keys it may carry.
REQUEST_KEYS: dict[str, tuple[str, ...]] = {
    "choose": ("n", "type", "key"),
    "undo": ("n", "type"),
    "restart": ("n", "type"),
    "hint": ("n", "type"),
    "coach": ("n", "type"),
    "review": ("n", "type"),
    "save": ("n", "type", "path"),
}


__all__ = [
    "PLAY_STATE",
    "REQUEST_KEYS",
    "BotSpec",
    "Hint",
    "IllegalChoice",
    "PlayController",
    "Rules",
    "SavedTranscript",
    "UnknownChoice",
    "bots_around",
    "inside_working_directory",
]
