"""Guide pages of the book generated from the code (so they never drift from it).

`write_guides(folder)` writes `cli.md` (every `loo-lessons` command, walked from the argument
parser itself: its help, usage and options) and `api.md` (the public names of `loo_lessons`
and of the engine's modules: signature and docstring).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

from loo_lessons.cli import parser as cli_parser

#: The engine's modules whose public names the API page shows, in the order a reader meets them.
API_MODULES = (
    "loo_lessons.engine.cards",
    "loo_lessons.engine.game",
    "loo_lessons.engine.options",
    "loo_lessons.engine.errors",
    "loo_lessons.engine.table",
    "loo_lessons.engine.observation",
    "loo_lessons.scenario",
)


def subcommands(p: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser, str]]:
    """(name, parser, help) of each subcommand of `p`, in the parser's order."""
    for action in p._actions:  # argparse keeps its subparsers only here
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, sub, helps.get(name, "")


def commands(p: argparse.ArgumentParser | None = None, prefix: str = "") -> list[str]:
    """Every command path of the parser ("explain", "quiz results", "class add-pupils")."""
    p = p or cli_parser()
    out: list[str] = []
    for name, sub, _ in subcommands(p):
        path = f"{prefix}{name}"
        out.append(path)
        out.extend(commands(sub, path + " "))
    return out


def _option_rows(p: argparse.ArgumentParser) -> list[str]:
    rows = []
    for a in p._actions:
        if a.help == argparse.SUPPRESS or isinstance(
            a, (argparse._HelpAction, argparse._SubParsersAction)
        ):
            continue
        name = ", ".join(a.option_strings) or (a.metavar if isinstance(a.metavar, str) else a.dest)
        quiet = a.default is None or a.default is False or a.default == argparse.SUPPRESS
        default = "" if quiet or not a.option_strings else f" (default: `{a.default}`)"
        helptext = " ".join((a.help or "").split()).replace("|", "\\|") or "—"
        rows.append(f"| `{name}` | {helptext}{default} |")
    return rows


def _command_md(path: str, p: argparse.ArgumentParser, helptext: str, level: int) -> list[str]:
    usage = " ".join(p.format_usage().removeprefix("usage: ").split())
    out = [f"{'#' * level} `loo-lessons {path}`", "", helptext.strip() or "", "",
           "```text", usage, "```", ""]
    rows = _option_rows(p)
    if rows:
        out += ["| argument | what it does |", "|---|---|", *rows, ""]
    for name, sub, h in subcommands(p):
        out += _command_md(f"{path} {name}", sub, h, min(level + 1, 4))
    return out


def cli_md() -> str:
    p = cli_parser()
    lines = [
        "# The command line, every command",
        "",
        "Generated from `loo_lessons.cli`'s argument parser when the book is built: what "
        "`loo-lessons COMMAND --help` says, for every command. Examples are in the "
        "[learner's guide](../guides/learners.md) and the [teacher's guide](../guides/teachers.md).",
        "",
    ]
    for name, sub, h in subcommands(p):
        lines += _command_md(name, sub, h, 2)
    return "\n".join(lines).rstrip() + "\n"


def _doc(obj: object) -> str:
    return inspect.cleandoc(inspect.getdoc(obj) or "(no docstring)")


def _first_paragraph(obj: object) -> str:
    return " ".join(_doc(obj).split("\n\n")[0].split())


def _signature(name: str, obj: object) -> str:
    try:
        return f"{name}{inspect.signature(obj)}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return name


def public_names(module: object) -> list[str]:
    """The module's public names: its `__all__`, or the names it defines itself."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items()
                 if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__  # type: ignore[attr-defined]
                 and (inspect.isclass(v) or inspect.isfunction(v))]
    return sorted(names)


def _entry(name: str, obj: object, level: int) -> list[str]:
    kind = "class" if inspect.isclass(obj) else "function"
    out = [f"{'#' * level} `{name}`", "", "```python", f"{kind} {_signature(name, obj)}", "```",
           "", _doc(obj), ""]  # the docstring as prose: its `names` read as code, as a method's do
    if inspect.isclass(obj) and not issubclass(obj, BaseException):
        for mname, member in vars(obj).items():
            if mname.startswith("_") or not (inspect.isfunction(member)
                                             or isinstance(member, (classmethod, staticmethod))):
                continue
            func = getattr(obj, mname)
            out += [f"- `{_signature(mname, func)}`: {_first_paragraph(func)}"]
        out.append("")
    return out


def api_md() -> str:
    import loo_lessons

    lines = [
        "# The engine's Python API",
        "",
        "Generated from the docstrings when the book is built. `from loo_lessons import "
        "NAME` gives each of the package's public names (imported on first use); "
        "`import loo_lessons.engine` loads the engine alone.",
        "",
        "## `loo_lessons`",
        "",
    ]
    top = sorted(n for n in loo_lessons.__all__ if not n.startswith("_"))
    for name in top:
        lines += _entry(name, getattr(loo_lessons, name), 3)
    for modname in API_MODULES:
        module = importlib.import_module(modname)
        # headed by its name below the package, short enough for the page's contents
        short = modname.removeprefix("loo_lessons.")
        lines += [f"## `{short}`", "", f"`import {modname}`: {_first_paragraph(module)}", ""]
        for name in public_names(module):
            obj = getattr(module, name)
            home = getattr(obj, "__module__", "") or ""
            if name in top and home.startswith("loo_lessons.engine"):
                lines += [f"- `{name}`: under `loo_lessons`, above.", ""]
            elif (inspect.isclass(obj) or inspect.isfunction(obj)) and not home.startswith(modname):
                lines += [f"- `{name}`: from `{home}`.", ""]  # a re-export: shown where it lives
            elif inspect.isclass(obj) or inspect.isfunction(obj):
                lines += _entry(name, obj, 3)
    return "\n".join(lines).rstrip() + "\n"


def write_guides(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (("cli.md", cli_md()), ("api.md", api_md())):
        path = folder / name
        if not path.exists() or path.read_text() != text:  # unchanged pages stay unchanged
            path.write_text(text)
