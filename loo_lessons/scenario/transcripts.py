"""Saved games (`Hand.transcript().as_json()`, as the play widget writes them) read back through
the same guarded reader as scenarios, every field checked, and every move replayed through the
engine's checked `apply` before anything is handed on: a bad file is one `ScenarioError`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from loo_lessons.engine.errors import ScenarioError
from loo_lessons.engine.game import Transcript

from . import fields
from .read import read_data, read_file
from .text import excerpt, short_refusals

_SHORT = 40


def _where(key: str) -> str:
    return f"transcript.{key}"


def _learner(raw: Mapping[str, Any], players: object) -> dict[str, Any]:
    """The play widget's `learner` entry: who played which seat, with which bots."""
    learner = raw.get("learner", {})
    if not isinstance(learner, dict) or set(learner) - {"seat", "bots", "rng_seed"}:
        raise ScenarioError(_where("learner"), "expected {seat, bots, rng_seed}")
    if "seat" in learner:
        fields.seat(learner["seat"], players if isinstance(players, int) else 0, _where("learner.seat"))
    seed = learner.get("rng_seed")
    if "rng_seed" in learner and (
        isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > 10**30
    ):
        raise ScenarioError(_where("learner.rng_seed"), f"expected a whole number, got {excerpt(seed)}")
    bots = learner.get("bots")
    names = bots if isinstance(bots, list) else [bots]
    if (isinstance(bots, list) and len(bots) != players) or any(
        b is not None and (not isinstance(b, str) or len(b) > _SHORT) for b in names
    ):
        raise ScenarioError(_where("learner.bots"), "one bot name per seat (null for the learner)")
    return learner


def transcript_from(raw: object) -> tuple[Transcript, dict[str, Any]]:
    """Plain data → a checked `Transcript` (the engine's own checks: every field, the deal,
    every move and penalty replayed, `Transcript.from_json`) and its `learner` entry."""
    if not isinstance(raw, dict):
        raise ScenarioError("transcript", "expected a JSON object (a saved game)")
    try:
        tr = Transcript.from_json(raw)
    except ScenarioError as e:
        raise ScenarioError(_where(str(e.field)), e.problem) from None
    return tr, _learner(raw, tr.players)


@short_refusals
def read_transcript(path: str | os.PathLike[str]) -> tuple[Transcript, dict[str, Any]]:
    """A saved game from a file: the checked transcript and who played which seat."""
    p = Path(path)
    try:
        raw = read_data(read_file(p), p.name)
    except ScenarioError as e:  # the file as a whole: name it as what it should have been
        raise ScenarioError(
            "transcript" if e.field == "file" else _where(e.field), e.problem
        ) from None
    return transcript_from(raw)
