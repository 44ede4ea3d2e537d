"""Golden playthroughs, one per preset, as OpenSpiel keeps them (issue 9, item 6).

Each file under tests/golden/ is a whole deal from a fixed seed with a fixed bot, every step
written out: who is to act, the legal actions, the law for them, the law forbidding each other
option (rule ids), the action taken, and every settlement line with its rule id. The test
compares the text byte for byte, so a change to any ruling, to dealing, to the bots or to the
words shows as a diff.

After a deliberate change, regenerate and read the diff before committing:

    PYTHONPATH=. python -m loo_lessons.sim.playthrough tests/golden

The test never writes the files: a missing or different file fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import PRESETS
from loo_lessons.sim.playthrough import GOLDEN, playthrough

GOLDEN_DIR = Path(__file__).parent / "golden"


def test_one_golden_playthrough_per_preset() -> None:
    assert sorted(rules for _, _, _, rules, _ in GOLDEN) == sorted(PRESETS)


@pytest.mark.parametrize(
    ("name", "seed", "players", "rules", "bot"), GOLDEN, ids=[g[0] for g in GOLDEN]
)
def test_playthrough_is_byte_for_byte_the_stored_one(
    name: str, seed: int, players: int, rules: str, bot: str
) -> None:
    stored = (GOLDEN_DIR / name).read_bytes()
    assert playthrough(seed, players, rules, bot).encode("utf-8") == stored


@pytest.mark.parametrize(
    ("name", "seed", "players", "rules", "bot"), GOLDEN, ids=[g[0] for g in GOLDEN]
)
def test_playthrough_agrees_with_the_engine(
    name: str, seed: int, players: int, rules: str, bot: str
) -> None:
    """Independently of the stored bytes: every step's legal list is the engine's, every
    forbidden option names a rule id, and replaying the taken actions gives the same deal."""
    text = playthrough(seed, players, rules, bot)
    taken = re.findall(r"^  taken: (?:.*\[(\w+)\]|(\S+))$", text, re.M)
    actions = [d or c for d, c in taken]
    hand = Hand.from_seed(seed, players, 0, rules)
    steps = text.split("\nstep ")[1:]
    assert len(steps) == len(actions)
    for block, action in zip(steps, actions, strict=True):
        v = hand.verdict()
        assert len(re.findall(r"^  forbidden: .* — R\d\d ", block, re.M)) == len(v.forbidden)
        assert len(v.legal) == block.split("\n  legal: ")[1].split("\n")[0].count(",") + 1
        hand.apply(action)
    assert hand.settlement is not None
    tail = text.split("\nsettlement:\n")[1].splitlines()
    assert len(tail) == len(hand.settlement.lines)
    assert [re.match(r"  \[(R\d\d)\] ", x).group(1) for x in tail] == [  # type: ignore[union-attr]
        x.rule for x in hand.settlement.lines
    ]
