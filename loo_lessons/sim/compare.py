"""Play the same deal under several rule sets and show where the verdicts and the money differ.

`compare(seed, players)` deals once (seed, dealer), then plays that deal under each rule
set with the same bots and a fresh `random.Random(seed)` each. While the moves agree the
positions are the same, and any difference in the legal options at a step is a
difference of the rules alone (`Step.verdicts_differ`). Once a rule set forces a
different move the lines part (`Comparison.parted_at`); later steps are still listed,
flagged `same_position = False`. The settlements are compared seat by seat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from loo_lessons.engine.cards import Card
from loo_lessons.engine.deal import deal
from loo_lessons.engine.errors import LooError
from loo_lessons.engine.game import Action, Hand, Setup
from loo_lessons.engine.options import PRESETS, RuleOptions, options_from
from loo_lessons.engine.settle import Stakes
from loo_lessons.sim.bots import Bot, bot_move
from loo_lessons.sim.coached import get_bot


def _code(a: Action) -> str:
    return a.code if isinstance(a, Card) else str(a)


@dataclass(frozen=True)
class Step:
    """One step (the n-th move) under every rule set, keyed by rule-set label."""

    index: int
    same_position: bool  # every rule set reached this step by the same moves
    seat: dict[str, int | None]  # None: that rule set's deal is already over
    phase: dict[str, str]
    legal: dict[str, tuple[str, ...]]  # sorted codes
    forbidden: dict[str, dict[str, str]]  # action -> rule id that forbids it
    action: dict[str, str | None]

    @property
    def verdicts_differ(self) -> bool:
        """Same position, different verdict: who acts, or what he may do."""
        if not self.same_position:
            return False
        return len(set(self.legal.values())) > 1 or len(set(self.seat.values())) > 1

    def as_json(self) -> dict[str, Any]:
        """The step as JSON: its index, whether the position is the same and the verdicts differ,
        and per rule set the seat to act, the legal moves, what is forbidden (with the rule id)
        and the move made."""
        return {
            "index": self.index,
            "same_position": self.same_position,
            "verdicts_differ": self.verdicts_differ,
            "seat": self.seat,
            "phase": self.phase,
            "legal": {k: list(v) for k, v in self.legal.items()},
            "forbidden": self.forbidden,
            "action": self.action,
        }


@dataclass(frozen=True)
class Comparison:
    """One seeded deal played by the same bots under several rule sets: the steps side by side,
    each settlement and each seat's net counters, and each transcript."""

    seed: int
    players: int
    dealer: int
    labels: tuple[str, ...]
    options: dict[str, dict[str, str | bool]]
    steps: tuple[Step, ...]
    settlements: dict[str, dict[str, Any]]  # label -> Settlement.as_json()
    nets: dict[str, dict[int, int]]  # label -> seat -> won - loos
    transcripts: dict[str, dict[str, Any]]  # label -> Transcript.as_json()

    @property
    def verdict_differences(self) -> list[Step]:
        """The steps where the very same position gets a different verdict (who acts, or what he
        may do)."""
        return [s for s in self.steps if s.verdicts_differ]

    @property
    def parted_at(self) -> int | None:
        """The first step whose moves differ between rule sets (None: the same moves all
        the way)."""
        for s in self.steps:
            if len(set(s.action.values())) > 1:
                return s.index
        return None

    @property
    def money_differs(self) -> bool:
        """Whether the rule sets leave any seat with different net counters."""
        return len({tuple(sorted(n.items())) for n in self.nets.values()}) > 1

    def money(self) -> dict[int, dict[str, int]]:
        """seat -> label -> net counters (won - loos)."""
        return {
            seat: {label: self.nets[label].get(seat, 0) for label in self.labels}
            for seat in range(self.players)
        }

    def option_differences(self) -> dict[str, dict[str, str | bool]]:
        """The rule options that are not the same in every rule set."""
        keys = self.options[self.labels[0]].keys()
        return {
            k: {lab: self.options[lab][k] for lab in self.labels}
            for k in keys
            if len({self.options[lab][k] for lab in self.labels}) > 1
        }

    def as_json(self) -> dict[str, Any]:
        """The comparison as JSON: the seed and table, the option differences, where the lines
        part, the steps whose verdicts differ, and each rule set's money."""
        return {
            "seed": self.seed,
            "players": self.players,
            "dealer": self.dealer,
            "rulesets": list(self.labels),
            "option_differences": self.option_differences(),
            "parted_at": self.parted_at,
            "verdict_differences": [s.index for s in self.verdict_differences],
            "steps": [s.as_json() for s in self.steps],
            "settlements": self.settlements,
            "money": {str(k): v for k, v in self.money().items()},
            "money_differs": self.money_differs,
        }

    def step_rows(self) -> list[dict[str, Any]]:
        """One record per step: for each rule set the seat to act, the legal options, the
        move (`views.frames.comparison` shows them as a DataFrame)."""
        rows = []
        for s in self.steps:
            row: dict[str, Any] = {
                "step": s.index,
                "same_position": s.same_position,
                "verdicts_differ": s.verdicts_differ,
            }
            for lab in self.labels:
                row[f"{lab}: seat"] = s.seat[lab]
                row[f"{lab}: legal"] = " ".join(s.legal[lab])
                row[f"{lab}: move"] = s.action[lab]
            rows.append(row)
        return rows


def _rulesets(
    presets: Sequence[str | RuleOptions | Mapping[str, Any]],
    changes: Mapping[str, Any] | None,
) -> list[tuple[str, RuleOptions]]:
    out: list[tuple[str, RuleOptions]] = []
    for p in presets:
        if isinstance(p, RuleOptions):
            name = next((n for n, pr in PRESETS.items() if pr.options == p), f"rules {len(out)}")
            out.append((name, p))
        elif isinstance(p, str):
            out.append((p, options_from(p)))
        else:
            out.append((f"rules {len(out)}", options_from(dict(p))))
    if changes:
        if all(isinstance(v, Mapping) for v in changes.values()):
            # named variants: {label: {preset: ..., option: value, ...}}
            for label, mapping in changes.items():
                out.append((str(label), options_from(dict(mapping))))
        else:
            if not out:
                raise LooError("changes need a preset to change")
            base_label, base = out[0]
            label = base_label + " + " + ", ".join(f"{k}={v}" for k, v in changes.items())
            out.append((label, base.with_(**dict(changes))))
    if not out:
        raise LooError("nothing to compare: give presets or changes")
    labels = [lab for lab, _ in out]
    if len(set(labels)) != len(labels):
        out = [(f"{lab} #{i + 1}", o) for i, (lab, o) in enumerate(out)]
    return out


def compare(
    seed: int,
    players: int,
    moves_by: Sequence[str | Bot] | str | Bot = "sensible",
    presets: Sequence[str | RuleOptions | Mapping[str, Any]] = ("hoffmann", "peel"),
    changes: Mapping[str, Any] | None = None,
    *,
    dealer: int = 0,
    stake: int = 3,
) -> Comparison:
    """Replay the deal of `seed` (dealer `dealer`) under each rule set.

    `moves_by`: one bot for every seat, or one per seat. `presets`: preset names, option
    mappings or RuleOptions. `changes`: option changes, either `{option: value, ...}`
    (added as one more rule set: the first preset with these changes) or
    `{label: {"preset": ..., option: value, ...}, ...}` (named rule sets added).
    """
    rulesets = _rulesets(presets, changes)
    if isinstance(moves_by, str) or not isinstance(moves_by, Sequence):
        bots: tuple[Bot, ...] = (get_bot(moves_by),) * players
    else:
        bots = tuple(get_bot(b) for b in moves_by)
        if len(bots) == 1:
            bots *= players
        if len(bots) != players:
            raise LooError(f"{len(bots)} bots for {players} seats")
    first = rulesets[0][1]
    dealt = deal(random.Random(seed), players, dealer, position=first.miss_deal_position)

    records: dict[str, list[tuple[int | None, str, tuple[str, ...], dict[str, str], str]]] = {}
    settlements: dict[str, dict[str, Any]] = {}
    nets: dict[str, dict[int, int]] = {}
    transcripts: dict[str, dict[str, Any]] = {}
    for label, opts in rulesets:
        setup = Setup(players, dealer, opts, Stakes.make(stake, players=players, ante=opts.ante))
        hand = Hand.from_dealt(setup, dealt)
        rng = random.Random(seed)
        rec: list[tuple[int | None, str, tuple[str, ...], dict[str, str], str]] = []
        while (seat := hand.to_act) is not None:
            v = hand.verdict()
            legal = tuple(sorted(_code(a) for a in v.legal))
            forbidden = {_code(a): law.rule for a, law in v.forbidden}
            move = bot_move(hand, bots[seat], rng)
            rec.append((seat, hand.phase.value, legal, forbidden, _code(move)))
            hand.apply(move)
        s = hand.settlement
        assert s is not None
        records[label] = rec
        settlements[label] = s.as_json()
        nets[label] = {
            seat: s.receives.get(seat, 0) - s.loo_pays.get(seat, 0) for seat in range(players)
        }
        transcripts[label] = hand.transcript().as_json()

    labels = tuple(lab for lab, _ in rulesets)
    steps: list[Step] = []
    longest = max(len(r) for r in records.values())
    same = True
    for i in range(longest):
        seat_d: dict[str, int | None] = {}
        phase_d: dict[str, str] = {}
        legal_d: dict[str, tuple[str, ...]] = {}
        forb_d: dict[str, dict[str, str]] = {}
        act_d: dict[str, str | None] = {}
        for lab in labels:
            r = records[lab]
            if i < len(r):
                seat_i, phase_i, legal_i, forb_i, act_i = r[i]
                seat_d[lab], phase_d[lab], legal_d[lab] = seat_i, phase_i, legal_i
                forb_d[lab], act_d[lab] = forb_i, act_i
            else:
                seat_d[lab], phase_d[lab], legal_d[lab] = None, "settled", ()
                forb_d[lab], act_d[lab] = {}, None
        if same and i > 0:
            prev = steps[-1]
            same = len(set(prev.action.values())) == 1 and None not in prev.action.values()
        steps.append(Step(i, same, seat_d, phase_d, legal_d, forb_d, act_d))
    return Comparison(
        seed,
        players,
        dealer,
        labels,
        {lab: o.to_dict() for lab, o in rulesets},
        tuple(steps),
        settlements,
        nets,
        transcripts,
    )
