"""The one guarded reader: a file (or text) → plain data, for scenarios and saved games alike.

Whatever a file holds, reading it is bounded: at most `MAX_BYTES`, only regular files (a
device, a pipe or a directory is refused before it is opened), at most `MAX_DEPTH` levels
and `MAX_VALUES` values, whole numbers of at most `MAX_DIGITS` digits (checked before they
are converted), no aliases (so no alias bombs and no self-reference), no tags beyond the
plain YAML types, no key given twice, and every text cleaned of control characters and lone
surrogates. Each refusal is one `ScenarioError` naming the field.

JSON is read with the standard library alone. YAML needs PyYAML, imported only when a file
is not JSON; it is read event by event (the C parser where PyYAML has one), and the plain
data is built here, so no YAML constructor ever runs.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from loo_lessons.regular_file import NotAFile, read_regular

from .errors import ScenarioError
from .text import clean_text, clip, clip_path, excerpt, short_refusals

MAX_BYTES = 1_000_000
MAX_DEPTH = 20
MAX_VALUES = 20_000
MAX_DIGITS = 30
#: What a refusal may show of a key the file gave.
_KEY_SHOWN = 30

_DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_YAML_TAG = "tag:yaml.org,2002:"
#: The plain YAML types; any other tag (`!!python/…`, `!!set`, `!custom`) is refused.
_PLAIN_SCALARS = frozenset(_YAML_TAG + t for t in ("str", "int", "float", "bool", "null"))
_INSTALL = "pip install pyyaml"


def _yaml() -> ModuleType:
    """PyYAML, imported only for a file that is not JSON."""
    try:
        import yaml
    except ImportError:
        raise ScenarioError(
            "file",
            f"this file is YAML, and reading YAML needs PyYAML ({_INSTALL}); "
            "JSON files need nothing more",
        ) from None
    return yaml


class _NoKey:
    """The state of a mapping waiting for its next key."""


_NO_KEY = _NoKey()


class _Frame:
    __slots__ = ("container", "key", "lines", "path")

    def __init__(self, container: dict[Any, Any] | list[Any], path: str) -> None:
        self.container = container
        self.path = path
        self.key: Any = _NO_KEY
        self.lines: dict[Any, int | None] = {}


class _Plain:
    """Builds plain data (dict, list, str, int, float, bool, None) one value at a time, with
    the bounds of this module; no recursion, so no depth can overflow the stack."""

    def __init__(self) -> None:
        self.stack: list[_Frame] = []
        self.root: Any = None
        self.values = 0
        self.done = False

    @property
    def path(self) -> str:
        """The field now being read, as messages name it (`hands.1[2]`)."""
        if not self.stack:
            return "file"
        top = self.stack[-1]
        if isinstance(top.container, list):
            return f"{top.path}[{len(top.container)}]"
        if top.key is _NO_KEY:
            return top.path or "file"
        key = clip(str(top.key), _KEY_SHOWN)
        return f"{top.path}.{key}" if top.path else key

    def _put(self, value: Any, line: int | None) -> None:
        self.values += 1
        if self.values > MAX_VALUES:
            raise ScenarioError(
                "file", f"more than {MAX_VALUES:,} values: a scenario is far smaller than that"
            )
        if not self.stack:
            self.root = value
            self.done = True
            return
        top = self.stack[-1]
        if isinstance(top.container, list):
            top.container.append(value)
        elif top.key is _NO_KEY:
            if isinstance(value, dict | list):
                raise ScenarioError(
                    top.path or "file", "a key must be text or a number, not a list or mapping"
                )
            if value in top.lines:
                self._duplicate(top, value, line)
            top.key = value
            top.lines[value] = line
        else:
            top.container[top.key] = value
            top.key = _NO_KEY

    @staticmethod
    def _duplicate(top: _Frame, key: Any, line: int | None) -> None:
        first = top.lines[key]
        where = f" (lines {first} and {line})" if first is not None and line is not None else ""
        extra = (
            " (R12: 'No player may make a second declaration')"
            if top.path == "declarations"
            else ""
        )
        shown = clip(str(key), _KEY_SHOWN)
        raise ScenarioError(top.path or shown, f"key {shown} is given twice{where}{extra}")

    def scalar(self, value: Any, line: int | None = None) -> None:
        self._put(clean_text(value) if isinstance(value, str) else value, line)

    def open(self, container: dict[Any, Any] | list[Any], line: int | None = None) -> None:
        path = self.path
        if len(self.stack) >= MAX_DEPTH:
            raise ScenarioError(
                path, f"nested more than {MAX_DEPTH} deep: a scenario needs at most 5 levels"
            )
        self._put(container, line)
        self.stack.append(_Frame(container, path if self.stack else ""))

    def close(self) -> None:
        self.stack.pop()


# --- JSON: the standard library ----------------------------------------------------------


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its pairs in order, so that a key given twice can be refused."""


class _Refused:
    """A JSON value refused where it stands, so that the refusal can name its field."""

    __slots__ = ("problem",)

    def __init__(self, problem: str) -> None:
        self.problem = problem


def _json_int(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:  # before int(): 4,300 digits and more would not even convert
        return _Refused(f"a number of {digits} digits: at most {MAX_DIGITS}")
    return int(text)


def _json_float(text: str) -> float | _Refused:
    if len(text) > MAX_DIGITS:
        return _Refused(f"a number of {len(text)} characters: at most {MAX_DIGITS}")
    return float(text)


def _json_constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a number a scenario can use")


def _from_json(text: str) -> Any:
    try:
        tree = json.loads(
            text,
            object_pairs_hook=_Pairs,
            parse_int=_json_int,
            parse_float=_json_float,
            parse_constant=_json_constant,
        )
    except RecursionError:
        raise ScenarioError("file", f"nested more than {MAX_DEPTH} deep") from None
    out = _Plain()
    # walk the tree with an explicit stack: (value, is_close_marker)
    todo: list[Any] = [tree]
    close = object()
    while todo:
        item = todo.pop()
        if item is close:
            out.close()
        elif isinstance(item, _Pairs):
            out.open({})
            todo.append(close)
            for k, v in reversed(item):
                todo.append(v)
                todo.append(_Key(k))
        elif isinstance(item, list):
            out.open([])
            todo.append(close)
            todo.extend(reversed(item))
        elif isinstance(item, _Key):
            out.scalar(item.key)
        elif isinstance(item, _Refused):
            raise ScenarioError(out.path, item.problem)
        else:
            out.scalar(item)
    return out.root


class _Key:
    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key


# --- YAML: PyYAML's parser, events only --------------------------------------------------


def _short_tag(tag: str) -> str:
    return clip("!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag, 50)


def _yaml_scalar(yaml: ModuleType, resolver: Any, event: Any, path: str) -> Any:
    value: str = event.value
    tag = event.tag
    if tag is None or tag == "!":
        tag = resolver.resolve(yaml.ScalarNode, value, event.implicit)
    elif tag not in _PLAIN_SCALARS:
        raise ScenarioError(
            path,
            f"the tag {_short_tag(tag)} is not allowed: a scenario is plain data "
            "(text, numbers, true/false, lists and mappings)",
        )
    elif tag != _YAML_TAG + "str":
        plain = resolver.resolve(yaml.ScalarNode, value, (True, False))
        if plain != tag:
            what = {"int": "a whole number", "float": "a number", "bool": "true or false"}
            kind_words = what.get(tag[len(_YAML_TAG) :], "empty")
            raise ScenarioError(
                path,
                f"the tag {_short_tag(tag)} is given {excerpt(value)}, which is not {kind_words}",
            )
    kind = tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else "str"
    if kind == "null":
        return None
    if kind == "bool":
        return value.lower() in ("yes", "true", "on", "y")
    if kind == "int":
        digits = value.lstrip("+-")
        if len(digits) > MAX_DIGITS:
            raise ScenarioError(path, f"a number of {len(digits)} digits: at most {MAX_DIGITS}")
        if not _DECIMAL.fullmatch(value):  # 0x1, 010 (octal in YAML 1.1), 1_000, 1:30
            try:
                node = yaml.ScalarNode(tag, value)
                read_as = f" (YAML would read it as {yaml.constructor.SafeConstructor().construct_yaml_int(node)})"
            except (ValueError, TypeError, yaml.YAMLError):
                read_as = ""
            raise ScenarioError(
                path,
                f"{excerpt(value)} is not a decimal whole number{read_as}: write numbers in "
                "decimal, without leading zeros",
            )
        return int(value)
    if kind == "float":
        if len(value) > MAX_DIGITS:
            raise ScenarioError(path, f"a number of {len(value)} characters: at most {MAX_DIGITS}")
        try:
            node = yaml.ScalarNode(tag, value)
            return float(yaml.constructor.SafeConstructor().construct_yaml_float(node))
        except (ValueError, TypeError, yaml.YAMLError):
            raise ScenarioError(path, f"{excerpt(value)} is not a number") from None
    if kind == "merge":
        raise ScenarioError(path, "merge keys (<<) are not allowed: write the keys out")
    return value  # text; a date or `=` is kept as the text it is


def _from_yaml(text: str) -> Any:
    yaml = _yaml()
    loader_class = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader
    loader = loader_class(text)
    resolver = yaml.resolver.Resolver()
    out = _Plain()
    documents = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            line = event.start_mark.line + 1 if event.start_mark is not None else None
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise ScenarioError(
                        "file", f"one scenario per file: a second document starts at line {line}"
                    )
            elif isinstance(event, yaml.AliasEvent):
                raise ScenarioError(
                    out.path, "aliases (*name) are not allowed: write the value out in full"
                )
            elif isinstance(event, yaml.ScalarEvent):
                out.scalar(_yaml_scalar(yaml, resolver, event, out.path), line)
            elif isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
                seq = isinstance(event, yaml.SequenceStartEvent)
                if event.tag not in (None, "!", _YAML_TAG + ("seq" if seq else "map")):
                    raise ScenarioError(
                        out.path,
                        f"the tag {_short_tag(event.tag)} is not allowed: a scenario is plain "
                        "data (text, numbers, true/false, lists and mappings)",
                    )
                out.open([] if seq else {}, line)
            elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
                out.close()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ScenarioError("file", f"malformed YAML{where}: {clip(str(problem), 120)}") from None
    finally:
        loader.dispose()
    return out.root


# --- the reader ----------------------------------------------------------------------------


@short_refusals
def read_data(text: str, name: str = "scenario") -> Any:
    """Any plain data from YAML or JSON text, within the bounds above."""
    if len(text) > MAX_BYTES:
        raise ScenarioError(
            "file", f"{name} is larger than the limit of 1 MB ({MAX_BYTES:,} bytes)"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ScenarioError("file", f"{name} is not UTF-8 text (a lone surrogate)") from None
    text = text.removeprefix("\ufeff")
    if text.lstrip()[:1] in ("{", "["):
        try:
            return _from_json(text)
        except json.JSONDecodeError as e:
            if name.endswith(".json"):
                raise ScenarioError(
                    "file", f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}"
                ) from None
            # YAML's flow style looks like JSON: `{players: 4}`
    return _from_yaml(text)


@short_refusals
def read_text(text: str, name: str = "scenario") -> dict[str, Any]:
    """A scenario's text → its plain mapping (nothing is ever evaluated)."""
    data = read_data(text, name)
    if data is None:
        raise ScenarioError(
            "file", f"{clip(name, 60)} is empty: a scenario needs at least `players`"
        )
    if not isinstance(data, dict):
        raise ScenarioError(
            "file",
            f"{clip(name, 60)} must be a mapping of keys (title, players, …), "
            f"got {type(data).__name__}",
        )
    return data


def read_bytes(raw: bytes, name: str = "scenario") -> str:
    """File contents → text: at most `MAX_BYTES`, UTF-8 only."""
    if len(raw) > MAX_BYTES:
        raise ScenarioError("file", f"{clip(name, 60)} is larger than the limit of 1 MB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError("file", f"{clip(name, 60)} is not UTF-8 text") from None


@short_refusals
def read_file(path: str | os.PathLike[str]) -> str:
    """A file's text, refusing before opening it anything that is not a regular file, and
    reading no more than the limit whatever the file claims."""
    p = Path(path)
    try:
        raw = read_regular(p, MAX_BYTES, clip_path(str(p), 80), "1 MB")
    except NotAFile as e:
        raise ScenarioError("file", str(e)) from None
    return read_bytes(raw, p.name)


@short_refusals
def read_path(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A scenario file → its plain mapping."""
    p = Path(path)
    return read_text(read_file(p), p.name)
