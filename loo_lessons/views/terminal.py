"""Play one deal at the keyboard against bots.

The learner holds one seat; the other seats are played by `sensible` bots whose draws come
from `random.Random(seed)`. At each of the learner's turns the game shows his cards, the
turn-up, the declarations and the trick so far, and numbers his legal options. Commands:

    1, 2, ...   make that move (a card code such as KH, or a declaration name, also works)
    ? or h      what may I play, and why (the verdict: rule ids and the books' words)
    u           undo back to my previous decision
    s FILE      save the transcript (JSON) to FILE
    q           quit

Input is read with `input.readline()`, so a test can drive a whole game from a StringIO.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping
from typing import Any, TextIO

from loo_lessons.engine.cards import Card, Suit, in_hand_order
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction, LooError, NotationError
from loo_lessons.engine.game import Action, Hand, Phase, parse_action
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import RuleOptions, rule_options
from loo_lessons.engine.settle import Stakes
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import leader_note
from loo_lessons.explain.settlement import settlement_text
from loo_lessons.explain.words import (
    action_label,
    book_name,
    book_quote,
    card_label,
    move_words,
    quote_text,
    seat_name,
    task_words,
)
from loo_lessons.sim.bots import Bot, get_bot
from loo_lessons.sim.game import BotGame

PROMPT = "[number, ? help, u undo, s FILE save, q quit] > "
END_PROMPT = "[s FILE save, u undo, Enter leave] > "


def _code(a: Action) -> str:
    return a.code if isinstance(a, Card) else str(a)


def _label(a: Action) -> str:
    """An option as the learner types or picks it: `KH  (the K♥, king of hearts)`, `stand`."""
    if isinstance(a, Card):
        return f"{a.code}  ({card_label(a, the=True)}, {a.name})"
    return action_label(a)


def _seat_name(hand: Hand, seat: int, me: int) -> str:
    return seat_name(hand, seat, you=me, miss=False)


def _law_lines(law: Law, lead: str, options: RuleOptions | None = None) -> list[str]:
    q = book_quote(law.rule, law.quote, options)
    return [f"{lead}{law.rule}: {law.reason}", f"      {book_name(q)}: “{quote_text(q)}”"]


def help_text(hand: Hand) -> str:
    """ "What may I play and why": the verdict on the seat to act, with rule ids and quotes."""
    v = hand.verdict()
    opts = hand.options
    lines = ["What you may do, and why:"]
    note = leader_note(hand)
    if note is not None:
        q = book_quote(note[0], RULES[note[0]].quote, opts)
        lines += [f"  {note[0]}: {note[1]}", f"      {book_name(q)}: “{quote_text(q)}”"]
    if v.why is not None:
        lines += _law_lines(v.why, "  ", opts)
    if v.phase is Phase.DECLARE:
        for a, law in v.allowed_by:
            lines.append(f"  {action_label(a)}: allowed — {law.rule}: {law.reason}")
    else:
        lines.append("  allowed: " + " ".join(_code(a) for a in v.legal))
    for a, law in v.forbidden:
        lines += _law_lines(
            law,
            f"  {action_label(a) if isinstance(a, Declaration) else _code(a)}: not allowed — ",
            opts,
        )
    return "\n".join(lines)


class _Game:
    def __init__(
        self,
        hand: Hand,
        me: int,
        bots: tuple[Bot, ...],
        rng: random.Random,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        self.hand = hand
        self.me = me
        # the same game as the play widget's: undo puts the bots' random state back too
        self.game = BotGame(hand, me, [None if s == me else b for s, b in enumerate(bots)], rng)
        self.inp = inp
        self.out = out

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def read(self, prompt: str = PROMPT) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if line == "":
            return None
        return line.strip()

    # --- showing the position ---------------------------------------------------------
    def trumps_line(self) -> str:
        h = self.hand
        t: Suit | None = h.trumps
        turn = f" (turn-up {h.turn_up.code})" if h.turn_up is not None else ""
        return f"Trumps: {t.plural if t else 'unknown'}{turn}.  Pool: {h.setup.stakes.pool}."

    def show(self) -> None:
        h = self.hand
        self.say()
        if h.phase is Phase.DECLARE:
            self.say(f"== Your turn to declare, {seat_name(h, self.me, miss=False)} ==")
        else:
            self.say(f"== Your turn to {task_words(h)} ==")
        self.say(self.trumps_line())
        if h.declared:
            made = ", ".join(
                f"{_seat_name(h, s, self.me)}: {action_label(d)}" for s, d in h.declared.items()
            )
            self.say(f"Declarations: {made}.")
        if h.miss_holder is not None:
            self.say(f"Seat {h.miss_holder} holds the miss.")
        trick = self.trick_so_far()
        if trick:
            self.say("Trick so far: " + ", ".join(f"seat {s} {c.code}" for s, c in trick) + ".")
        mine = in_hand_order(h.held[self.me], h.trumps)
        self.say("Your cards: " + " ".join(c.code for c in mine))
        self.say("Your options:")
        for i, a in enumerate(h.legal_actions(), 1):
            self.say(f"  {i}) {_label(a)}")

    def trick_so_far(self) -> list[tuple[int, Card]]:
        h = self.hand
        if h.phase is Phase.PLAY and len(h.tricks) > len(h.winners):
            return list(h.tricks[-1])
        return []

    def announce(self, seat: int, a: Action, before_tricks: int) -> None:
        h = self.hand
        leading = len(h.tricks) > before_tricks and h.tricks[before_tricks][:1] == [(seat, a)]
        self.say(f"{move_words(h, seat, a, leading=leading, you=self.me)}.")
        if len(h.winners) > before_tricks:
            w = h.winners[-1]
            plays = " ".join(f"{c.code}" for _, c in h.tricks[before_tricks])
            self.say(
                f"  Trick {before_tricks + 1} ({plays}) is won by {_seat_name(h, w, self.me)}."
            )
        if isinstance(a, Declaration) and h.phase is Phase.PLAY and h.to_act is not None:
            ins = ", ".join(str(s) for s in h.players_in)
            self.say(f"Declaring is over. Playing: seats {ins}. Seat {h.to_act} leads.")

    def settlement_text(self) -> str:
        h = self.hand
        s = h.settlement
        assert s is not None
        lines = ["", "== The deal is over =="]
        lines += settlement_text(s, h, you=self.me, indent="")
        net = s.receives.get(self.me, 0) - s.loo_pays.get(self.me, 0)
        lines.append(f"Next pool: {s.next_pool}.  Your result: {net:+d}.")
        return "\n".join(lines)

    # --- running ----------------------------------------------------------------------
    def play_on(self) -> str:
        """The bots move and the learner plays until the deal ends ('over') or the learner
        quits ('quit')."""
        while True:
            self.bots_move()
            if self.hand.to_act is None:
                return "over"
            if self.my_turn() == "quit":
                return "quit"

    def bots_move(self) -> None:
        self.game.advance(self.announce)  # each bot's move said as it is made

    def save(self, path: str) -> None:
        self.write_json(path, self.hand.transcript().as_json(), 2, f"Transcript saved to {path}.")

    def write_json(self, path: str, data: Any, indent: int, done: str) -> None:
        """Write `data` to `path` as JSON and say `done`; a file that cannot be written is
        said, not raised (the game goes on)."""
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=indent)
                f.write("\n")
        except OSError as e:
            self.say(f"Could not save to {path}: {e.strerror}")
            return
        self.say(done)

    def undo(self) -> bool:
        if not self.game.undo():
            self.say("Nothing to undo: you have not decided anything yet.")
            return False
        self.say("Undone: back to your previous decision.")
        return True

    def command(self, line: str) -> str | None:
        """Handle a command common to every prompt; return 'quit', 'undo', 'done' or None."""
        low = line.lower()
        if low in ("q", "quit"):
            return "quit"
        if low in ("u", "undo"):
            return "undo" if self.undo() else "done"
        if low == "s" or low.startswith("s "):
            path = line[1:].strip()
            if not path:
                self.say("Give a file name: s FILE")
            else:
                self.save(path)
            return "done"
        return None

    def my_turn(self) -> str:
        """Read until the learner makes a legal move ('moved'), undoes ('undo') or quits."""
        h = self.hand
        self.show()
        while True:
            line = self.read()
            if line is None:
                self.say("(input ended)")
                return "quit"
            if not line:
                continue
            done = self.command(line)
            if done in ("quit", "undo"):
                return done
            if done == "done":
                continue
            legal = h.legal_actions()
            if line in ("?", "h", "help"):
                self.say(help_text(h))
                continue
            action: Action | None = None
            if line.isdigit():
                k = int(line)
                if 1 <= k <= len(legal):
                    action = legal[k - 1]
                else:
                    self.say(f"Choose a number from 1 to {len(legal)}.")
                    continue
            else:
                try:  # the books' words or a card code: the engine's one reader of moves
                    action = parse_action(line)
                except NotationError:
                    self.say(
                        f"Not understood: {line!r}. Type a number from 1 to {len(legal)}, "
                        "? for help, u to undo, s FILE to save, q to quit."
                    )
                    continue
            before = len(h.winners)
            try:
                self.game.decide(action)
            except IllegalAction as e:
                self.say(f"Not allowed: {e}")
                law = e.verdict.law_for(action) if e.verdict is not None else None
                if law is not None:
                    q = book_quote(law.rule, law.quote, h.options)
                    self.say(f"  {book_name(q)}: “{quote_text(q)}”")
                continue
            self.announce(self.me, action, before)
            return "moved"

    def run(self) -> int:
        h = self.hand
        self.say(
            f"Three-card Loo. {h.setup.players} players, dealer seat {h.setup.dealer}; "
            f"you are {seat_name(h, self.me, miss=False)}."
        )
        self.say(self.trumps_line())
        while self.play_on() == "over":
            self.say(self.settlement_text())
            self.say("Type s FILE to save the transcript, u to undo, or Enter to leave.")
            while True:
                line = self.read(END_PROMPT)
                if not line:
                    return 0
                got = self.command(line)
                if got == "quit":
                    return 0
                if got == "undo":
                    break
                if got is None:
                    self.say("The deal is over: s FILE, u, or Enter to leave.")
        self.say("Goodbye.")
        return 1


def play_terminal(
    seed: int,
    players: int = 5,
    rules: str | RuleOptions | Mapping[str, Any] | None = "hoffmann",
    seat: int = 1,
    input: TextIO = sys.stdin,
    output: TextIO = sys.stdout,
    *,
    dealer: int = 0,
    bots: str | Bot = "sensible",
    loo_cap: int | None = None,
) -> int:
    """Play the deal of `seed` from `seat` against bots (`loo_cap`: the cap of unlimited loo,
    R49). Returns 0 when the deal was played to the end, 1 when the learner quit (or the
    input ran out) before it was over."""
    opts = rule_options(rules)
    if not 0 <= seat < players:
        raise LooError(f"seat {seat} does not exist: seats are 0 to {players - 1}")
    stakes = Stakes.make(loo_cap=loo_cap, players=players, ante=opts.ante)
    hand = Hand.from_seed(seed, players, dealer % players, opts, stakes=stakes)
    bot = get_bot(bots)
    game = _Game(hand, seat, (bot,) * players, random.Random(seed), input, output)
    return game.run()
