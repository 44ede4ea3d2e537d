"""The play table's transcripts: saved as JSON (`save`, or a download in the book), loaded
again live at the same point (`load`), and where a name typed in the browser may be written."""

from __future__ import annotations

import dataclasses
import html
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Self, cast

from loo_lessons.engine.errors import InputError, LooError
from loo_lessons.engine.game import Hand
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.scenario.transcripts import read_transcript
from loo_lessons.scenario.write import write_whole
from loo_lessons.sim.bots import get_bot
from loo_lessons.widgets.controllers.base import Refused
from loo_lessons.widgets.controllers.play_drawn import PlayDrawing
from loo_lessons.widgets.controllers.play_state import BotSpec


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


def dealt_from_seed(hand: Hand, seed: int) -> bool:
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
        """How many moves (declarations and cards) the saved game holds."""
        return len(self.data.get("actions") or [])

    def load(self, **kwargs: Any) -> Any:
        """The saved game, live again where it was saved (in JupyterLab, `PlayTable.load`)."""
        if self._opener is None:
            raise LooError("this transcript was not saved by a table: load it with PlayController.load(path)")
        return self._opener(self.path, **kwargs)

    def _repr_html_(self) -> str:
        n = self.moves
        return (
            f"<p class='loo-saved'>Transcript saved to <code>{html.escape(shown_path(self.path))}</code>: "
            f"{n} move{'s' if n != 1 else ''}, seed {self.data.get('seed')}, "
            f"{self.data.get('players')} players.</p>"
        )


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


class PlayFiles(PlayDrawing):
    """Saving and loading the deal's transcript."""

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
        saved = SavedTranscript(where, out, opener=type(self).load)
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
            # the table made again with the session's own arguments (`PlayController.__init__`,
            # the class this layer is a base of)
            made: Self = cast(Any, cls)(
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
        return made

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


__all__ = ["PlayFiles", "SavedTranscript", "inside_working_directory", "shown_path"]
