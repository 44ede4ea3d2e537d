"""An evening of Loo at the keyboard: deal after deal at one table (`sim.evening.Evening`,
over `engine.table.Table`, which decides every rule and every sum).

Each deal is played as `loo-lessons play` plays one (`views.terminal`): the same prompts,
plus these commands:

    c or coach  the coach's advice for your decision (sim.coach: strategy, not law)
    ?           what you may do and why (rule ids and the books' words), then the coach
    s FILE      save the evening (JSON; `loo-lessons play --resume FILE` goes on from it)

After each deal: the settlement, line by line with its rule id and the book's words; then
Enter deals the next (the ledger of every player's counters is shown), `r` reviews your
decisions (the coach marks those that cost more than half a counter), `q` ends the evening.
"""

from __future__ import annotations

import random
from typing import TextIO

from loo_lessons.engine.errors import LooError
from loo_lessons.explain.table import settlement_working
from loo_lessons.sim.bots import get_bot
from loo_lessons.sim.coach import coach, review
from loo_lessons.sim.evening import Evening
from loo_lessons.views.terminal import _Game, help_text

PROMPT = "[number, ? help, c coach, u undo, s FILE save, q quit] > "
END_PROMPT = "[Enter next deal, r review, u undo, s FILE save, q quit] > "
#: Deals of the unseen cards per move when the learner asks the coach at the keyboard.
ROLLOUTS = 1000
REVIEW_ROLLOUTS = 300


class EveningGame(_Game):
    """The terminal game, its hand the evening's deal (see the module docstring)."""

    def __init__(self, evening: Evening, inp: TextIO, out: TextIO) -> None:
        bots = tuple(get_bot(b or "sensible") for b in evening.setup.bot_names())
        super().__init__(evening.hand, evening.setup.seat, bots, random.Random(0), inp, out)
        self.evening = evening
        self._bind()

    def _bind(self) -> None:
        self.hand = self.evening.hand
        self.game = self.evening.game

    def read(self, prompt: str = PROMPT) -> str | None:
        """Read the learner's next line at the evening's own prompt; None at the end of input."""
        return super().read(prompt)

    # --- the commands -----------------------------------------------------------------------
    def coach_text(self) -> str:
        """The coach's advice for the learner's seat at this point (Monte Carlo rollouts of the
        unseen cards), or why it cannot answer."""
        h = self.hand
        try:
            advice = coach(h, self.me, rollouts=ROLLOUTS, seed=self.evening.setup.seed + len(h.actions))
        except LooError as e:
            return f"The coach cannot answer here: {e}"
        return "The coach:\n" + advice.text().rstrip("\n")

    def review_text(self) -> str:
        """The coach's review of the learner's choices in the deal just played, each mistake
        marked."""
        try:
            decisions = review(self.hand, self.me, rollouts=REVIEW_ROLLOUTS, seed=self.evening.setup.seed)
        except LooError as e:
            return f"The coach cannot review this deal: {e}"
        if not decisions:
            return "The coach's review: you had no choice to make in this deal."
        lines = [f"The coach's review ({sum(d.mistake for d in decisions)} mistakes):"]
        for d in decisions:
            lines.append(f"  {'✗ mistake: ' if d.mistake else ''}{d.words}")
        lines.append(decisions[0].advice.note)
        return "\n".join(lines)

    def save(self, path: str) -> None:
        """Save the evening to `path` as JSON, to be resumed with `loo-lessons play --resume`; a
        file that cannot be written is said, not raised."""
        self.write_json(
            path,
            self.evening.as_json(),
            1,
            f"The evening is saved to {path} (go on with: loo-lessons play --resume {path}).",
        )

    def command(self, line: str) -> str | None:
        """Answer the evening's own commands (`c` the coach; `?` help with the coach's advice)
        before the game's; "done" when one was answered."""
        low = line.lower()
        if low in ("c", "coach"):
            self.say(self.coach_text())
            return "done"
        if low in ("?", "h", "help") and self.hand.to_act == self.me:
            self.say(help_text(self.hand))
            self.say(self.coach_text())
            return "done"
        return super().command(line)

    # --- the deal's end and the ledger ------------------------------------------------------------
    def settlement_text(self) -> str:
        """The end of a deal: the settlement worked out line by line with rule ids and the book's
        quotes, and what the learner won or paid."""
        h = self.hand
        s = h.settlement
        assert s is not None
        lines = ["", f"== Deal {self.evening.number} is over =="]
        for w in settlement_working(s, h, you=self.me):
            lines.append(f"[{w['rule_id']}] {w['text']}" if w["rule_id"] else w["text"])
            if w.get("quote"):
                lines.append(f"      {w['book']}: “{w['quote']}”")
        net = s.receives.get(self.me, 0) - s.loo_pays.get(self.me, 0)
        must = " (a must: the last deal had a single)" if s.next_is_must else ""
        lines.append(f"Next pool: {s.next_pool}{must}.  Your result: {net:+d}.")
        return "\n".join(lines)

    def ledger_text(self) -> str:
        """The evening's ledger: every player's counters after each deal, with the dealer, the pool
        and the musts."""
        ev = self.evening
        names = ["you" if b is None else f"seat {s}" for s, b in enumerate(ev.setup.bot_names())]
        width = max(7, *(len(n) for n in names))
        head = f"{'deal':>5} {'dealer':>6} {'pool':>5} {'must':>4} " + " ".join(f"{n:>{width}}" for n in names)
        lines = ["The ledger (each player's counters after each deal):", head]
        lines.append(f"{'start':>5} {'':>6} {'':>5} {'':>4} " + " ".join(f"{ev.setup.bank:>{width}}" for _ in names))
        for r in ev.table.history:
            lines.append(
                f"{r.number:>5} {r.dealer:>6} {r.pool:>5} {'yes' if r.must else '':>4} "
                + " ".join(f"{b:>{width}}" for b in r.balances)
            )
        t = ev.table
        lines.append(
            f"Now: deal {ev.number}, dealer seat {t.dealer}, pool {t.pool}"
            + (", a must" if t.next_must else "")
            + f"; counters on the table {t.total()}."
        )
        return "\n".join(lines)

    # --- running ------------------------------------------------------------------------------------
    def play_one(self) -> str:
        """This deal to its end ('over') or until the learner quits ('quit')."""
        h = self.hand
        must = ", a must: everybody plays" if h.setup.must else ""
        self.say(
            f"\n=== Deal {self.evening.number}: dealer seat {h.setup.dealer}, "
            f"pool {h.setup.stakes.pool}{must} ==="
        )
        self.say(self.trumps_line())
        return self.play_on()

    def after(self) -> str:
        """The deal's end: 'next', 'undo' (back into the deal) or 'quit'."""
        self.say(self.settlement_text())
        while True:
            line = self.read(END_PROMPT)
            if line is None or line.lower() in ("q", "quit"):
                return "quit"
            if not line:
                return "next"
            if line.lower() in ("r", "review"):
                self.say(self.review_text())
                continue
            got = self.command(line)
            if got == "undo":
                return "undo"
            if got is None:
                self.say("The deal is over: Enter for the next deal, r, u, s FILE, or q.")

    def run_evening(self, deals: int | None) -> int:
        """Play until `deals` deals are settled (None: until the learner quits). Returns 0
        when the evening ended as asked, 1 when the learner quit in the middle of a deal."""
        ev = self.evening
        self.say(
            f"An evening of Loo: {ev.setup.players} players, each with {ev.setup.bank} counters; "
            f"you are seat {self.me}. Type c at a prompt to ask the coach."
        )
        while True:
            if self.play_one() == "quit":
                self.say(self.ledger_text())
                self.say("Goodbye.")
                return 1
            what = self.after()
            if what == "undo":
                continue
            if what == "quit":
                self.say(self.ledger_text())
                self.say("Goodbye.")
                return 0 if deals is None else 1
            ev.next_deal()
            self._bind()
            self.say(self.ledger_text())
            if deals is not None and len(ev.hands) >= deals:
                self.say(f"That was {len(ev.hands)} deals. Goodbye.")
                return 0


def play_evening(evening: Evening, deals: int | None, input: TextIO, output: TextIO) -> int:
    """An evening at the keyboard (see the module docstring)."""
    return EveningGame(evening, input, output).run_evening(deals)


__all__ = ["EveningGame", "play_evening"]
