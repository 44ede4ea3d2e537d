"""Play one deal against bots: the controller behind `PlayTable` (JupyterLab) and the book.

The learner holds one seat; every other seat is a bot (loo_lessons.sim.bots) that sees only
what its seat may see and draws its randomness from one `random.Random` seeded by the deal.
The bots move at once, in Python, until it is the learner's turn. "What may I play and why?"
shows the engine's verdict (`Hand.verdict()`); "Undo" goes back to his previous decision; at
the end the settlement is told line by line with its rules; "Save transcript" writes the
deal's transcript (`Hand.transcript().as_json()`), which `PlayController.load(path)` reloads.

`PlayController` is the game over the component's traits (data, request, show_hint, tried,
save_name), pure Python; the bots' loop is `sim.game.BotGame`, the terminal game's too. Both
back ends run this very controller (`widgets.backends`). The browser sends a click as a `request` ({n, type, key,
path}); Python answers by recomputing `data`. Nothing in the browser decides a rule.
"""

from __future__ import annotations

import dataclasses
import html
import inspect
import json
import os
import random
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Self

from loo_lessons.engine.cards import Card, in_hand_order
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction, InputError, LooError, NotationError
from loo_lessons.engine.game import Action, Hand, Phase, parse_action
from loo_lessons.engine.options import RuleOptions, options_from
from loo_lessons.explain import law_json, words
from loo_lessons.explain.table import action_key, settlement_working, table_view
from loo_lessons.quiz.pick import pick_question
from loo_lessons.scenario import DECLARATION_ALIASES
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.scenario.transcripts import read_transcript
from loo_lessons.scenario.write import write_whole
from loo_lessons.sim.bots import BOTS, Bot, get_bot
from loo_lessons.sim.game import DECISIONS, BotGame, decision_kind
from loo_lessons.views.prose import prose
from loo_lessons.widgets.controllers.base import Controller, Refused, is_int, traits_of
from loo_lessons.widgets.controllers.coaching import Coaching
from loo_lessons.widgets.controllers.score import (
    TERMS,
    Weighed,
    coach_fields,
    coach_note,
    coach_words,
    stars,
    stars_words,
    weighed,
)
from loo_lessons.widgets.static import DEFAULT_STATE, Html, Static, component_html, live_html

BotSpec = str | Bot | Sequence[str | Bot | None]
Rules = str | RuleOptions | Mapping[str, Any] | None

#: The state traits of the play component and their starting values.
PLAY_STATE: dict[str, Any] = DEFAULT_STATE["play"]


_LIVE_NOTE = (
    '<p class="loo-live-note" style="font-size:.95em;margin:.4em 0">This is the table as it '
    "was when the book was built: the bots answer your moves, and the hint, undo and save "
    "buttons work once the engine has loaded in this page.</p>"
)


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


class Hint(dict[str, Any]):
    """The verdict on the learner's decision: `legal` (keys), `allowed` and `forbidden`
    (each with its rule id, reason and the book's words), `rule_ids`, `explanation`.
    A plain mapping that notebooks show as HTML."""

    def _repr_html_(self) -> str:
        rows = []
        for f in self["forbidden"]:
            rows.append(
                f"<li><strong>{html.escape(f['label'])}</strong>: not allowed — "
                f"<code>{html.escape(f['rule_id'])}</code> {html.escape(f['reason'])}"
                f"<blockquote style='margin:.2em 0 .4em 1em;font-style:italic'>“"
                f"{html.escape(f['quote'])}”<br><small>— {html.escape(f['book'])} "
                f"[{html.escape(f['source'])}]</small></blockquote></li>"
            )
        allowed = ", ".join(html.escape(a["label"]) for a in self["allowed"])
        why = self.get("why") or {}
        because = (
            f" (<code>{html.escape(why['rule_id'])}</code>: {html.escape(why['reason'])})"
            if why
            else ""
        )
        return (
            f"<div class='loo-hint'><p><strong>{html.escape(self['prompt'])}</strong></p>"
            f"<p>You may: <strong>{allowed}</strong>{because}</p>"
            + (f"<ul>{''.join(rows)}</ul>" if rows else "<p>Nothing else is forbidden.</p>")
            + "</div>"
        )


def shown_path(path: Path) -> str:
    """Where a saved file went, as a page shows it: relative to the working directory, or
    its name in the temporary folder (a build machine's own folders never appear in a page;
    the full path is `SavedTranscript.path`)."""
    where = path.resolve()
    for base, say in ((Path.cwd(), "{}"), (Path(tempfile.gettempdir()), "{} in the temporary folder")):
        try:
            return say.format(where.relative_to(base.resolve()).as_posix())
        except ValueError:
            continue
    return str(path)


def _dealt_from_seed(hand: Hand, seed: int) -> bool:
    """Is this deal the one `seed` deals (so that the book's engine can make it again)?"""
    try:
        dealt = Hand.from_seed(
            seed, hand.setup.players, hand.setup.dealer, hand.options, must=hand.setup.must
        )
    except LooError:
        return False
    return dealt.setup == hand.setup and dealt.dealt == hand.dealt


class SavedTranscript(os.PathLike[str]):
    """Where a transcript was written (a path: `PlayTable.load(saved)` reads it back)."""

    def __init__(
        self, path: Path, data: Mapping[str, Any], opener: Callable[..., Any] | None = None
    ) -> None:
        self.path = path
        self.data = dict(data)
        # what reads it back: the widget that saved it (`widgets.play.PlayTable.load`), else
        # the controller itself (this module never imports the widget that shows it)
        self._opener = opener

    def __fspath__(self) -> str:
        return str(self.path)

    def __str__(self) -> str:
        return str(self.path)

    def __repr__(self) -> str:
        # as a page shows it: a notebook's saved output never carries the machine's folders
        return f"<SavedTranscript: {shown_path(self.path)}, {self.moves} moves>"

    @property
    def moves(self) -> int:
        return len(self.data.get("actions") or [])

    def load(self, **kwargs: Any) -> Any:
        """The saved game, live again where it was saved (in JupyterLab, `PlayTable.load`)."""
        return (self._opener or PlayController.load)(self.path, **kwargs)

    def _repr_html_(self) -> str:
        n = self.moves
        return (
            f"<p class='loo-saved'>Transcript saved to <code>{html.escape(shown_path(self.path))}</code>: "
            f"{n} move{'s' if n != 1 else ''}, seed {self.data.get('seed')}, "
            f"{self.data.get('players')} players.</p>"
        )


class _StaticPlay(Static):
    """The play widget as the book shows it (plain HTML computed from the position now)."""

    def __init__(self, body: str, state: Mapping[str, Any]) -> None:
        self.name = "play"
        self.state = dict(state)
        self._body = body

    def _repr_html_(self) -> str:
        return self._body


def _bot_name(b: str | Bot) -> str:
    return get_bot(b).name


def _personality(b: Bot) -> str:
    doc = inspect.getdoc(type(b)) or ""
    return " ".join(doc.split())


def bots_around(spec: BotSpec, players: int, seat: int) -> tuple[Bot | None, ...]:
    """One bot per seat (None for the learner's): one bot for all, or a sequence naming one
    per seat (`players` long, the learner's entry ignored) or one per other seat, in order."""
    if isinstance(spec, str) or not isinstance(spec, Sequence):
        one = get_bot(spec)
        return tuple(None if s == seat else one for s in range(players))
    given = list(spec)
    if len(given) == players - 1:
        given.insert(seat, None)
    if len(given) != players:
        raise InputError(
            "bots",
            f"give one bot for every seat ({players}) or for every other seat ({players - 1}), "
            f"not {len(given)}",
        )
    out: list[Bot | None] = []
    for s, b in enumerate(given):
        if s == seat:
            out.append(None)
        elif b is None:
            raise InputError("bots", f"seat {s} has no bot")
        else:
            out.append(get_bot(b))
    return tuple(out)


class PlayController(Controller):
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

    component = "play"
    TRAITS: ClassVar[dict[str, Any]] = traits_of("play")
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
            opts = (
                rules
                if isinstance(rules, RuleOptions)
                else options_from(dict(rules) if isinstance(rules, Mapping) else rules)
            )
            hand = Hand.from_seed(seed, players, dealer % max(players, 1), opts, must=bool(must))
        else:
            hand = hand.root()
            players = hand.setup.players
            from_seed = _dealt_from_seed(hand, seed)  # a saved seeded deal, loaded again
        if not 0 <= seat < players:
            raise InputError("seat", f"seat {seat} does not exist: seats are 0 to {players - 1}")
        self.seed = seed
        self.seat = seat
        self.rng_seed = seed if rng_seed is None else rng_seed
        self.bots = bots_around(bots, players, seat)
        self.task = _task_name(task)
        self.asks = _asks(asks)
        if self.task is None and self.asks != DECISIONS:
            raise InputError("asks", "only a task asks some of the decisions: name the task")
        self.stand_in = get_bot(stand_in)
        # the lesson's words on the deal, shown once it is over (never before the learner acts)
        try:
            self._after = prose(after) if after is not None else None
        except ValueError as e:
            raise InputError("after", str(e).removeprefix("after: ")) from None
        self._refused = 0
        self._refused_at: set[int] = set()  # the move numbers at which a click was refused
        self._undone = 0
        self._baseline: int | None = None
        self._title = title
        self._hand = hand
        # the same game as the terminal's (sim.game): undo puts the bots' draws back too
        self._game = BotGame(
            hand, seat, self.bots, random.Random(self.rng_seed), asks=self.asks, stand_in=self.stand_in
        )
        self._message: str | None = None
        self._error: str | None = None
        self._game.replay([parse_action(m) if isinstance(m, str) else m for m in moves])
        self.coaching = Coaching(seat, self.rng_seed)  # "Ask the coach" and the review
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

    # --- reading the game -------------------------------------------------------------------
    @property
    def hand(self) -> Hand:
        """The deal as it stands (read it; move only through choose/undo/restart)."""
        return self._hand

    @property
    def over(self) -> bool:
        return self._hand.to_act is None

    @property
    def my_turn(self) -> bool:
        """Is it the learner's decision now (in a task: one of the kinds it asks)?"""
        return self._game.learner_decides()

    @property
    def legal(self) -> list[str]:
        """The keys of the learner's legal options now, in the order shown (his cards in hand
        order, trumps first; or the declarations); [] when it is not his turn."""
        if not self.my_turn:
            return []
        return list(self._question()["answer"])

    @property
    def options(self) -> list[str]:
        """Every option the learner has now, legal or not (his cards, or the declarations
        the engine rules on)."""
        if not self.my_turn:
            return []
        return [c["key"] for c in self._question()["choices"]]

    @property
    def decisions(self) -> int:
        """How many decisions the learner has made (and could undo)."""
        return len(self._game.decisions)

    def moves(self) -> list[dict[str, Any]]:
        """Every move so far: seat, key, who made it ("you" or the bot's name), and words."""
        return [
            {k: e[k] for k in ("seat", "key", "who", "text", "trick_won_by")}
            for e in self._log()
            if e["key"]
        ]

    def transcript(self) -> dict[str, Any]:
        """The deal's transcript (`Hand.transcript().as_json()`), plus who played which seat."""
        out = self._hand.transcript().as_json()
        out["learner"] = {
            "seat": self.seat,
            "bots": [None if b is None else b.name for b in self.bots],
            "rng_seed": self.rng_seed,
        }
        if self.task is not None:  # a lesson's task, loaded again as the same task
            out["learner"] |= {"task": self.task, "asks": list(self.asks)}
        return out

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
        if action_key(a) not in options:
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
        if not self._game.undo():
            raise LooError("nothing to undo: you have not decided anything yet")
        self._undone += 1
        self._message = "Undone: back to your previous decision."
        self._refresh(show_hint=False, tried=None)
        return self

    def restart(self) -> Self:
        """Back to the learner's first decision of the deal."""
        self._game.restart()
        self._refused = self._undone = 0  # a task started again is a new attempt
        self._refused_at = set()
        self._message = "Started again."
        self._refresh(show_hint=False, tried=None)
        return self

    def save(self, path: str | os.PathLike[str] | None = None) -> SavedTranscript:
        """Write the transcript as JSON to `path` (no path: a file in the temporary folder)
        and return where it went."""
        if path is None or not str(path).strip():
            where = Path(tempfile.gettempdir()) / (
                f"loo-seed{self.seed}-seat{self.seat}-{len(self._hand.actions)}moves.json"
            )
        else:
            where = Path(os.fspath(path)).expanduser()
        out = self.transcript()
        write_whole(where, json.dumps(out, indent=2) + "\n")
        saved = SavedTranscript(where, out)
        self._message = f"Transcript saved to {shown_path(where)} ({saved.moves} moves)."
        self._refresh()
        return saved

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        seat: int | None = None,
        bots: BotSpec | None = None,
        title: str | None = None,
    ) -> Self:
        """A saved game, live again at the same point: the moves are replayed (each checked
        by the engine) and the bots carry on from there."""
        tr, learner = read_transcript(path)  # the guarded reader: checked, every move replayed
        me = int(seat if seat is not None else learner.get("seat", 1))
        if tr.penalties:
            raise ScenarioError("transcript", "a deal with penalties cannot be played on here")
        saved = learner.get("bots")
        who: BotSpec = (
            bots
            if bots is not None
            else [b if b is not None else "sensible" for b in saved]
            if isinstance(saved, list)
            else saved or "sensible"
        )
        if bots is None:  # the file's bots: an unknown name is a bad file, named as its field
            try:
                for name in saved if isinstance(saved, list) else [saved]:
                    if isinstance(name, str):
                        get_bot(name)
            except InputError as e:
                raise ScenarioError("transcript.learner.bots", e.problem) from None
        start = dataclasses.replace(tr, actions=()).replay()
        rng_seed = learner.get("rng_seed", tr.seed if tr.seed is not None else 0)
        try:
            return cls(
                tr.seed if tr.seed is not None else int(rng_seed),
                seat=me,
                bots=who,
                title=title,
                hand=start,
                moves=tr.actions,
                rng_seed=int(rng_seed),
                task=learner.get("task"),
                asks=learner.get("asks"),
            )
        except InputError as e:  # the file's task: a bad one is a bad file, named as its field
            if e.field in ("task", "asks"):
                raise ScenarioError(f"transcript.learner.{e.field}", e.problem) from None
            raise

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

    def _default_name(self) -> str:
        return f"loo-seed{self.seed}-seat{self.seat}-{len(self._hand.actions)}moves.json"

    def _save_from_browser(self, name: str) -> None:
        """"Save transcript" clicked: a file in the working directory (the name typed, or
        one made up), never anywhere else; in the book the page downloads it instead."""
        name = name.strip() or self._default_name()
        if not self.files:
            out = self.transcript()
            file = Path(name).name if Path(name).name.endswith(".json") else Path(name).name + ".json"
            self._message = f"Transcript ready: {file} ({len(out['actions'])} moves)."
            data = self._data()
            data["download"] = {"name": file, "text": json.dumps(out, indent=2) + "\n"}
            self._apply({"data": data})
            return
        self.save(inside_working_directory(name))

    # --- the data the component draws ---------------------------------------------------------
    def _refresh(self, **state: Any) -> None:
        data = self._data()
        self._error = None
        self._apply({"data": data, **state})

    def _question(self) -> dict[str, Any]:
        return pick_question(self._hand, reveal={self.seat}, qid="play", topic="play")

    def _who(self, seat: int) -> str:
        b = self.bots[seat]
        return "you" if b is None else b.name

    def _log(self) -> list[dict[str, Any]]:
        h = self._hand.root()
        out: list[dict[str, Any]] = []
        for i, a in enumerate(self._hand.actions):
            seat = h.to_act
            assert seat is not None
            before = len(h.winners)
            leading = not h.tricks or len(h.tricks) == len(h.winners) or not h.tricks[-1]
            me = self._game.learner_decides(h)
            stood_in = seat == self.seat and not me
            h.apply_unchecked(a)
            text = words.move_words(h, seat, a, leading=leading, you=self.seat)
            if stood_in:
                text += f" (made for you by the {self.stand_in.name} bot: not asked in this task)"
            won: int | None = None
            if len(h.winners) > before:
                won = h.winners[-1]
                who = "you" if won == self.seat else words.seat_name(h, won, miss=False)
                text += f"; trick {len(h.winners)} is won by {who}"
            out.append(
                {
                    "index": i,
                    "seat": seat,
                    "key": action_key(a),
                    "who": self._who(seat),
                    "text": text + ".",
                    "trick_won_by": won,
                    "mine": me,
                }
            )
        if h.award_law is not None and h.awarded_to is not None:
            out.append(
                {
                    "index": len(self._hand.actions),
                    "seat": h.awarded_to,
                    "key": "",
                    "who": "",
                    "text": f"{words.subject(h, h.awarded_to, self.seat, miss=False)} "
                    f"{'take' if h.awarded_to == self.seat else 'takes'} the pool without play "
                    f"({h.award_law.rule}): {h.award_law.reason}",
                    "trick_won_by": None,
                    "mine": False,
                }
            )
        return out

    def _prompt(self) -> str:
        h = self._hand
        if h.to_act is None:
            return "The deal is over."
        if h.phase is Phase.DECLARE:
            return f"Your turn to declare (you are seat {self.seat}). What will you do?"
        return f"Your turn to {words.task_words(h)}."

    def _hint_data(self, q: Mapping[str, Any] | None = None) -> dict[str, Any]:
        q = q if q is not None else self._question()
        v = self._hand.verdict()
        verdicts = q["verdicts"]
        labels = {c["key"]: _YOUR_LABELS.get(c["key"], c["label"]) for c in q["choices"]}
        keep = ("rule", "rule_id", "reason", "quote", "book", "source", "words")
        allowed = [
            {"key": k, "label": labels[k], **{x: verdicts[k][x] for x in keep}} for k in q["answer"]
        ]
        forbidden = [
            {"key": c["key"], "label": labels[c["key"]], **{x: verdicts[c["key"]][x] for x in keep}}
            for c in q["choices"]
            if c["key"] not in q["answer"]
        ]
        why = v.why
        return {
            "seat": self.seat,
            "phase": self._hand.phase.value,
            "prompt": self._prompt(),
            "legal": list(q["answer"]),
            "why": {x: law_json(why, self._hand.options)[x] for x in keep}
            if why is not None
            else None,
            "allowed": allowed,
            "forbidden": forbidden,
            "rule_ids": list(q["rule_ids"]),
            "explanation": q["explanation"],
        }

    def _since_my_last(self, log: list[dict[str, Any]]) -> list[str]:
        last = max((i for i, e in enumerate(log) if e["mine"]), default=-1)
        return [e["text"] for e in log[last + 1 :]]

    def _data(self) -> dict[str, Any]:
        h = self._hand
        seat = self.seat
        log = self._log()
        mine = self.my_turn
        data: dict[str, Any] = {
            "title": self._title
            or f"Seed {self.seed}: {h.setup.players} players, "
            f"{self._preset_words()}. You are seat {seat}.",
            "live": True,
            "seat": seat,
            "players": [
                {
                    "seat": s,
                    "who": self._who(s),
                    "personality": "" if b is None else _personality(b),
                }
                for s, b in enumerate(self.bots)
            ],
            "view": table_view(h, reveal={seat}, last_trick=True),
            "phase": h.phase.value if h.to_act is not None else Phase.SETTLED.value,
            "my_turn": mine,
            "over": h.to_act is None,
            "prompt": self._prompt(),
            "cards": [c.code for c in in_hand_order(h.held[seat], h.trumps)],
            "choices": [],
            "hint": None,
            "log": [e["text"] for e in log],
            "since": self._since_my_last(log),
            "can_undo": bool(self._game.decisions),
            "settlement": None,
            "message": self._message,
            "error": self._error,
            **self.coaching.data(h),
            "task": self._task_data(),
            # the lesson's words on the deal: in the data only once it is over
            "after": self._after if (self._after and h.to_act is None) else None,
        }
        if mine:
            q = self._question()
            hint = self._hint_data(q)
            legal = set(hint["legal"])
            data["choices"] = [
                {
                    "key": c["key"],
                    "label": _YOUR_LABELS.get(c["key"], c["label"]),
                    "legal": c["key"] in legal,
                }
                for c in q["choices"]
            ]
            data["kind"] = "declaration" if h.phase is Phase.DECLARE else "card"
            data["hint"] = hint
        s = h.settlement
        if s is not None:
            net = s.receives.get(seat, 0) - s.loo_pays.get(seat, 0)
            data["settlement"] = {
                "working": settlement_working(s, h, you=seat),
                "result": net,
                "receives": s.receives.get(seat, 0),
                "pays": s.loo_pays.get(seat, 0),
                "next_pool": s.next_pool,
                "looed": seat in s.looed,
            }
        return data

    # --- the task -----------------------------------------------------------------------------
    def asked_words(self) -> str:
        """What the learner decides in this task, in words ("you declare; the sensible bot
        leads and follows for you")."""
        mine = [_ASK_WORDS[k][0] for k in self.asks]
        rest = [_ASK_WORDS[k][1] for k in DECISIONS if k not in self.asks]
        said = f"You {_and(mine)}"
        if rest:
            said += f"; the {self.stand_in.name} bot {_and(rest)} for you, and the log shows each move"
        return said + "."

    def baseline(self) -> int:
        """What the stand-in bot ends on from the learner's seat with the same cards, the
        other bots drawing from the same seed (it makes every one of the seat's decisions)."""
        if self._baseline is None:
            h = self._hand.root()
            BotGame(h, self.seat, self.bots, random.Random(self.rng_seed), asks=(), stand_in=self.stand_in).advance()
            s = h.settlement
            assert s is not None
            self._baseline = s.receives.get(self.seat, 0) - s.loo_pays.get(self.seat, 0)
        return self._baseline

    def own_moves(self) -> set[int]:
        """The indices in the deal's moves of the learner's own (not the stand-in's) moves."""
        return {mark for mark, _ in self._game.decisions}

    def _coach_score(self) -> tuple[dict[str, Any], list[dict[str, str]], tuple[Weighed, ...] | None]:
        """The coach's part of the score (`controllers.score`): the learner's own decisions
        weighed against the coach's best by `Coaching.weigh`, the very review "Review my
        decisions" shows, seeded by the task's seed, computed once when the deal ends and
        kept. Its rollouts are the review's (`REVIEW_ROLLOUTS`, 100 deals a move): measured in
        the book's page engine (Chromium, Pyodide 0.29.5, 2 shared cores, the tasks of lessons
        3 to 10 played to the end), the end-of-deal review alone took 60-300 ms and the deal's
        last click, the score included, 50-400 ms: well under the 2 s a click may take, so the
        score needs no fewer rollouts than the review."""
        mine = self.own_moves()
        h = self._hand.root()
        kinds: dict[int, str] = {}
        forced = found = 0
        for i, a in enumerate(self._hand.actions):
            if i in mine:
                kinds[i] = decision_kind(h)
                if len(h.legal_actions()) == 1:  # the move the rule forces: found first time?
                    forced += 1
                    found += i not in self._refused_at
            h.apply_unchecked(a)
        rollouts = self.coaching.review_rollouts
        made_for = self.stand_in.name if self.asks != DECISIONS else None
        try:
            ws = weighed(self.coaching.weigh(self._hand, mine), kinds)
        except InputError as e:  # a deal the coach cannot weigh (one with a penalty)
            said = f"The coach cannot weigh this deal: {e.problem}."
            return {"decisions": None, "coach_summary": "not weighed"}, [{"kind": "coach", "text": said}], None
        told = coach_words(ws, forced=forced, made_for_you=made_for, found=found)
        parts = [{"kind": "coach", "text": told}]
        if ws:
            parts[0]["text"] = (
                "One deal is as much the cards as the play, so the coach weighs each of your "
                f"decisions. {told}"
            )
            parts.append({"kind": "note", "text": coach_note(rollouts)})
        return coach_fields(ws, forced, rollouts, found), parts, ws

    def score(self) -> dict[str, Any] | None:
        """The task's score once the deal is over (None before): `result` (counters received
        less counters paid), `tricks`, `looed`, `in` (he played), `baseline` (the stand-in's
        result from his seat), `refused` (forbidden cards or declarations clicked), `undone`;
        the coach's part (`controllers.score`): `decisions` (his own, a forced move aside),
        `coach_choice` (how many were the coach's choice, or too close to it to tell),
        `mistakes` (the review's), `given_up` (mean counters given up against the coach's
        choices, in all), `forced`, `forced_found` (forced moves found with no refusal before
        them), `rollouts`, `weighed` (each decision), `coach_summary`; `stars` ({rules, coach,
        counters}: `controllers.score.stars`) and `star_count`; and `text`, the whole in plain
        words, also in `parts` ({kind, text}: the deal, the coach's words, its note, the rules
        kept, the stars, the words used), which the component draws one by one."""
        h, seat = self._hand, self.seat
        s = h.settlement
        if self.task is None or s is None:
            return None
        result = s.receives.get(seat, 0) - s.loo_pays.get(seat, 0)
        tricks = sum(1 for w in h.winners if w == seat)
        looed = seat in s.looed
        played = seat in {x for t in h.tricks for x, _ in t}
        base = self.baseline()
        if h.awarded_to == seat:
            what = "You took the pool without play"
        elif not played:
            what = "You were out of this deal"
        else:
            what = f"You took {tricks} trick{'' if tricks == 1 else 's'}" + (
                " and were looed" if looed else ", not looed"
            )
        diff = result - base
        compare = (
            "the same" if diff == 0 else f"{abs(diff)} {'better' if diff > 0 else 'worse'} than that"
        )
        coached, said, ws = self._coach_score()
        deal = (
            f"{what}: {result:+d} counter{'' if abs(result) == 1 else 's'} this deal. The "
            f"{self.stand_in.name} bot, making every decision from your seat with these cards, "
            f"ends on {base:+d}: you did {compare}."
        )
        rules = (
            f"Your decisions kept the rules: {self._refused} forbidden "
            f"click{'' if self._refused == 1 else 's'} refused, "
            f"{self._undone} undo{'' if self._undone == 1 else 's'}."
        )
        earned = stars(refused=self._refused, ws=ws, result=result, baseline=base)
        parts = [
            {"kind": "deal", "text": deal},
            *said,
            {"kind": "rules", "text": rules},
            {"kind": "stars", "text": stars_words(earned, self.stand_in.name)},
            {"kind": "terms", "text": TERMS},
        ]
        return {
            "result": result,
            "tricks": tricks,
            "looed": looed,
            "in": played,
            "baseline": base,
            "refused": self._refused,
            "undone": self._undone,
            **coached,
            "stars": earned,
            "star_count": sum(earned.values()),
            "parts": parts,
            "text": " ".join(p["text"] for p in parts),
        }

    def _task_data(self) -> dict[str, Any] | None:
        if self.task is None:
            return None
        return {
            "id": self.task,
            "asks": list(self.asks),
            "asked": self.asked_words(),
            "stand_in": self.stand_in.name,
            "refused": self._refused,
            "score": self.score(),
        }

    def _preset_words(self) -> str:
        from loo_lessons.explain import preset_matching

        name = preset_matching(self._hand.options)
        return f"{name.capitalize()}'s rules" if name else "custom rules"

    # --- what notebooks and the book show -----------------------------------------------------
    def players(self) -> Html:
        """Who sits where: you, and each bot with its declared personality (HTML)."""
        rows = "".join(
            f"<tr><th scope='row'>Seat {p['seat']}</th><td><strong>{html.escape(p['who'])}"
            f"</strong></td><td>{html.escape(p['personality'] or 'You play this seat.')}</td></tr>"
            for p in self.data["players"]
        )
        return Html(
            "<table class='loo-players'><thead><tr><th>seat</th><th>player</th>"
            f"<th>personality</th></tr></thead><tbody>{rows}</tbody></table>"
        )

    def static_html(self) -> str:
        """The position now as static HTML: the learner's decision as a pick question (each
        option explained), or the table and the settlement once the deal is over."""
        d = self.data
        parts = [_LIVE_NOTE]
        if d["task"] is not None:
            parts.append(f"<p class='loo-task-asks'><strong>Task.</strong> {html.escape(d['task']['asked'])}</p>")
        if d["since"]:
            parts.append(
                "<div class='loo-play-since'><p>Since your last decision:</p><ul>"
                + "".join(f"<li>{html.escape(t)}</li>" for t in d["since"])
                + "</ul></div>"
            )
        if self.my_turn:
            q = self._question()
            q["prompt"] = d["prompt"] + " Click an option to see whether the rules allow it."
            parts.append(component_html("pick", {"data": {"question": q, "title": d["title"]}}))
        else:
            parts.append(
                component_html(
                    "table",
                    {"data": {"view": d["view"], "title": d["title"], "caption": d["prompt"]}},
                )
            )
        if d["log"]:
            parts.append(
                "<details class='loo-play-log'><summary>The moves so far</summary><ol>"
                + "".join(f"<li>{html.escape(t)}</li>" for t in d["log"])
                + "</ol></details>"
            )
        s = d["settlement"]
        if s is not None:
            lines = "".join(
                "<li>"
                + (f"<code>{html.escape(w['rule_id'])}</code> " if w["rule_id"] else "")
                + f"{html.escape(w['text'])}</li>"
                for w in s["working"]
            )
            parts.append(
                f"<div class='loo-play-settlement'><p><strong>The settlement</strong> "
                f"(your result: {s['result']:+d})</p><ol>{lines}</ol></div>"
            )
        return "".join(parts)

    def live_spec(self) -> dict[str, Any] | None:
        return {"kind": "play", "args": self._spec} if self._spec is not None else None

    def book_html(self) -> str:
        """What the book shows: the static position (above), which the page's engine replaces
        with the live table once it has loaded (when the table can be made again there)."""
        if self._spec is None:
            return self.static_html()
        # the moves made so far (by `choose`, `undo` and `restart` too), so that the live
        # table starts where the static one stands
        spec = {**self._spec, "moves": [action_key(a) for a in self._hand.actions]}
        return live_html("play", "play", spec, self.static_html())

    def static(self) -> Static:
        return _StaticPlay(self.static_html(), self.state())


#: Each kind of decision in words: what the learner does, what the stand-in does for him.
_ASK_WORDS: dict[str, tuple[str, str]] = {
    "declare": ("declare", "declares"),
    "lead": ("lead", "leads"),
    "follow": ("follow", "follows"),
}


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _task_name(task: object) -> str | None:
    if task is None:
        return None
    if not isinstance(task, str) or not 0 < len(task) <= 40 or not task.replace("-", "").isalnum():
        raise InputError("task", "a task's name is letters, digits and hyphens, at most 40")
    return task


def _asks(asks: object) -> tuple[str, ...]:
    """The kinds of decision a task asks, in the deal's order (InputError for anything else)."""
    if asks is None:
        return DECISIONS
    if isinstance(asks, str) or not isinstance(asks, Sequence) or not asks:
        raise InputError("asks", f"a list of one or more of {', '.join(DECISIONS)}")
    for k in asks:
        if k not in DECISIONS:
            raise InputError("asks", f"{str(k)[:20]!r} is no decision: the decisions are {', '.join(DECISIONS)}")
    if len(set(asks)) != len(asks):
        raise InputError("asks", "a decision is named twice")
    return tuple(k for k in DECISIONS if k in asks)


#: The learner's buttons: the books' words for each declaration (`explain.words`).
_YOUR_LABELS: dict[str, str] = {d.value: words.action_label(d, capital=True) for d in Declaration}


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


def inside_working_directory(name: str, cwd: Path | None = None) -> Path:
    """Where a file name typed in the browser may be written: a `.json` file inside the
    working directory (sub-folders allowed, if they exist); anything else is refused."""
    base = (cwd or Path.cwd()).resolve()
    if "\0" in name or not name.strip():
        raise Refused("type a file name such as my-hand.json")
    raw = Path(name.strip()).expanduser()
    if raw.is_absolute() or ".." in raw.parts:
        raise Refused(
            "the transcript is saved inside the working folder: type a file name, not a path "
            "(to save elsewhere, call save(path) in a cell)"
        )
    if raw.suffix != ".json":
        raw = raw.with_name(raw.name + ".json")
    where = (base / raw).resolve()
    if base not in where.parents:
        raise Refused("the transcript is saved inside the working folder only")
    if where.exists() and not where.is_file():
        raise Refused(f"{raw} is not a file")
    return where


__all__ = [
    "PLAY_STATE",
    "REQUEST_KEYS",
    "Hint",
    "IllegalChoice",
    "PlayController",
    "SavedTranscript",
    "UnknownChoice",
    "inside_working_directory",
]
