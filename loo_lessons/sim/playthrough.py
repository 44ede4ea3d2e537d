"""A deal written out step by step, as OpenSpiel keeps its playthroughs: the golden transcripts.

`playthrough(seed, players, rules, bot)` deals from `seed`, lets one bot (`sim.bots`, its
randomness from `random.Random(seed)`) play every seat, and writes every step: who is to act,
the legal actions, why they are legal, the law that forbids each other option (rule ids), the
action taken; and at the end every line of the settlement with its rule id. The text depends
only on the engine's verdicts and these words, so any change to a ruling shows in a diff.

Regenerate the stored transcripts (after a deliberate change, then read the diff):

    python -m loo_lessons.sim.playthrough tests/golden
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from loo_lessons.engine.cards import Card
from loo_lessons.engine.game import Action, Hand, Phase
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import PRESETS, options_from
from loo_lessons.explain import leader_note
from loo_lessons.explain.settlement import settlement_text
from loo_lessons.explain.words import action_label, plural, seat_name, task_words
from loo_lessons.sim.bots import bot_move
from loo_lessons.sim.coached import get_bot

#: The stored playthroughs: (file name, seed, players, preset, bot).
GOLDEN: tuple[tuple[str, int, int, str, str], ...] = (
    ("playthrough-hoffmann.txt", 4, 5, "hoffmann", "sensible"),
    ("playthrough-peel.txt", 4, 5, "peel", "sensible"),
)


def _key(a: Action) -> str:
    return a.code if isinstance(a, Card) else str(a)


def _option(a: Action) -> str:
    """`KH` for a card; `stand`, `take miss` … for a declaration (with its contract key)."""
    return a.code if isinstance(a, Card) else f"{action_label(a)} [{a}]"


def _law(law: Law) -> str:
    return f"{law.rule} {law.slug}"


def playthrough(seed: int, players: int = 5, rules: str = "hoffmann", bot: str = "sensible") -> str:
    """The whole deal of `seed`, every seat played by `bot`, as text (see the module doc)."""
    opts = options_from(rules)
    hand = Hand.from_seed(seed, players, 0, opts)
    player = get_bot(bot)
    rng = random.Random(seed)
    book = PRESETS[rules].book if rules in PRESETS else "custom rules"
    out = [
        f"# Playthrough: seed {seed}, {plural(players, 'player')}, rules {rules} ({book})",
        f"# every seat played by the {player.name} bot, random.Random({seed})",
        f"dealer: seat {hand.setup.dealer}; elder hand: seat {hand.setup.elder}",
        f"turn-up: {hand.turn_up.code if hand.turn_up else '-'}; trumps: "
        f"{hand.trumps.plural if hand.trumps else '-'}; pool: {hand.setup.stakes.pool}",
    ]
    for seat in range(players):
        out.append(f"hand {seat}: {' '.join(c.code for c in hand.held[seat])}")
    if hand.miss is not None:
        out.append(f"miss: {' '.join(c.code for c in hand.miss)}")
    step = 0
    while hand.to_act is not None:
        step += 1
        seat = hand.to_act
        v = hand.verdict()
        out.append("")
        out.append(f"step {step}: {seat_name(hand, seat)} to {task_words(hand)}")
        if hand.phase is Phase.PLAY:
            out.append(f"  holds: {' '.join(c.code for c in hand.held[seat])}")
        out.append(f"  legal: {', '.join(_option(a) for a in v.legal)}")
        note = leader_note(hand)
        if note is not None:
            out.append(f"  leads: {note[0]} winner-leads")
        if v.why is not None:
            out.append(f"  why: {_law(v.why)}")
        for a, law in v.forbidden:
            out.append(f"  forbidden: {_option(a)} — {_law(law)}")
        a = bot_move(hand, player, rng)
        before = len(hand.winners)
        hand.apply(a)
        out.append(f"  taken: {_option(a)}")
        if len(hand.winners) > before:
            out.append(f"  trick {len(hand.winners)} won by seat {hand.winners[-1]} (R37)")
    s = hand.settlement
    assert s is not None
    out.append("")
    out.append("settlement:")
    out += settlement_text(s, hand)
    return "\n".join(out) + "\n"


def write_golden(folder: Path) -> list[Path]:
    """Write every stored playthrough into `folder` (the regeneration path; tests never call it)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, seed, players, rules, bot in GOLDEN:
        path = folder / name
        path.write_text(playthrough(seed, players, rules, bot), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":  # pragma: no cover - the documented regeneration command
    for p in write_golden(Path(sys.argv[1] if len(sys.argv) > 1 else "tests/golden")):
        print(f"wrote {p}")
