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
from loo_lessons.engine.errors import IllegalAction, LooError, ScenarioError
from loo_lessons.engine.game import Action, Hand, Phase, parse_action
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import RuleOptions, options_from
from loo_lessons.scenario import DECLARATION_ALIASES
from loo_lessons.sim.bots import Bot, bot_move, get_bot

PROMPT = "[number, ? help, u undo, s FILE save, q quit] > "
END_PROMPT = "[s FILE save, u undo, Enter leave] > "


def _code(a: Action) -> str:
    return a.code if isinstance(a, Card) else str(a)


def _label(a: Action) -> str:
    if isinstance(a, Card):
        return f"{a.code}  ({a.name})"
    return f"{a}: {a.words}"


def _seat_name(hand: Hand, seat: int, me: int) -> str:
    tags = []
    if seat == me:
        tags.append("you")
    if seat == hand.setup.dealer:
        tags.append("dealer")
    if seat == hand.setup.elder:
        tags.append("elder hand")
    return f"seat {seat}" + (f" ({', '.join(tags)})" if tags else "")


def _law_lines(law: Law, lead: str) -> list[str]:
    q = law.quote
    return [f"{lead}{law.rule} {law.slug}: {law.reason}", f"      {q.book} [{q.seed}]: “{q.text}”"]


def help_text(hand: Hand) -> str:
    """ "What may I play and why": the verdict on the seat to act, with rule ids and quotes."""
    v = hand.verdict()
    lines = ["What you may do, and why:"]
    if v.why is not None:
        lines += _law_lines(v.why, "  ")
    if v.phase is Phase.DECLARE:
        for a, law in v.allowed_by:
            lines.append(f"  {_code(a)}: allowed — {law.rule} {law.slug}: {law.reason}")
    else:
        lines.append("  allowed: " + " ".join(_code(a) for a in v.legal))
    for a, law in v.forbidden:
        lines += _law_lines(law, f"  {_code(a)}: not allowed — ")
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
        self.bots = bots
        self.rng = rng
        self.inp = inp
        self.out = out
        self.decisions: list[int] = []  # len(hand.actions) at each of my decisions

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
            self.say(f"== Your turn to declare, {_seat_name(h, self.me, self.me)} ==")
        else:
            n = len(h.winners) + 1
            what = "lead to" if not self.trick_so_far() else "play to"
            self.say(f"== Your turn to {what} trick {n} ==")
        self.say(self.trumps_line())
        if h.declared:
            made = ", ".join(f"seat {s} {d}" for s, d in h.declared.items())
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
        who = "You" if seat == self.me else f"Seat {seat}"
        if isinstance(a, Declaration):
            self.say(f"{who} declare{'' if seat == self.me else 's'}: {a} ({a.words}).")
        else:
            self.say(f"{who} play{'' if seat == self.me else 's'} {a.code}.")
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
        if s.pool_awarded_to is not None:
            why = f" ({h.award_law.rule}: {h.award_law.reason})" if h.award_law else ""
            lines.append(
                f"{_seat_name(h, s.pool_awarded_to, self.me)} takes the pool of {s.pool} "
                f"without play{why}"
            )
        else:
            for i, w in enumerate(h.winners):
                lines.append(f"Trick {i + 1} won by {_seat_name(h, w, self.me)}.")
            for seat, n in sorted(s.receives.items()):
                lines.append(f"{_seat_name(h, seat, self.me)} receives {n}.")
            for seat, n in sorted(s.loo_pays.items()):
                lines.append(f"{_seat_name(h, seat, self.me)} is looed and pays {n}.")
            if s.left_in_pool:
                lines.append(f"{s.left_in_pool} stay in the pool.")
            if s.is_single:
                lines.append("Three played and each took a trick: a single (R41).")
        net = s.receives.get(self.me, 0) - s.loo_pays.get(self.me, 0)
        lines.append(f"Next pool: {s.next_pool}.  Your result: {net:+d}.")
        return "\n".join(lines)

    # --- running ----------------------------------------------------------------------
    def bots_move(self) -> None:
        h = self.hand
        while h.to_act is not None and h.to_act != self.me:
            seat = h.to_act
            before = len(h.winners)
            a = bot_move(h, self.bots[seat], self.rng)
            h.apply(a)
            self.announce(seat, a, before)

    def save(self, path: str) -> None:
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(self.hand.transcript().as_json(), f, indent=2)
                f.write("\n")
        except OSError as e:
            self.say(f"Could not save to {path}: {e.strerror}")
            return
        self.say(f"Transcript saved to {path}.")

    def undo(self) -> bool:
        if not self.decisions:
            self.say("Nothing to undo: you have not decided anything yet.")
            return False
        target = self.decisions.pop()
        while len(self.hand.actions) > target:
            self.hand.undo()
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
            elif line.lower() in DECLARATION_ALIASES:
                action = DECLARATION_ALIASES[line.lower()]
            else:
                try:
                    action = parse_action(line)
                except (ScenarioError, ValueError):
                    self.say(
                        f"Not understood: {line!r}. Type a number from 1 to {len(legal)}, "
                        "? for help, u to undo, s FILE to save, q to quit."
                    )
                    continue
            before = len(h.winners)
            mark = len(h.actions)
            try:
                h.apply(action)
            except IllegalAction as e:
                self.say(f"Not allowed: {e}")
                law = e.verdict.law_for(action) if e.verdict is not None else None
                if law is not None:
                    self.say(f"  {law.quote.book} [{law.quote.seed}]: “{law.quote.text}”")
                continue
            self.decisions.append(mark)
            self.announce(self.me, action, before)
            return "moved"

    def run(self) -> int:
        h = self.hand
        self.say(
            f"Three-card Loo. {h.setup.players} players, dealer seat {h.setup.dealer}; "
            f"you are {_seat_name(h, self.me, self.me)}."
        )
        self.say(self.trumps_line())
        while True:
            self.bots_move()
            if h.to_act is None:
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
                continue
            if self.my_turn() == "quit":
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
) -> int:
    """Play the deal of `seed` from `seat` against bots. Returns 0 when the deal was played
    to the end, 1 when the learner quit (or the input ran out) before it was over."""
    opts = (
        rules
        if isinstance(rules, RuleOptions)
        else options_from(dict(rules) if isinstance(rules, Mapping) else rules)
    )
    if not 0 <= seat < players:
        raise LooError(f"seat {seat} does not exist: seats are 0 to {players - 1}")
    hand = Hand.from_seed(seed, players, dealer % players, opts)
    bot = get_bot(bots)
    game = _Game(hand, seat, (bot,) * players, random.Random(seed), input, output)
    return game.run()
