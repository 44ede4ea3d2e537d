"""What a reader of the book sees of the facade's answers: views, never raw data.

- `comparison_rows`: one position under each preset, under the scenario's own rules when they
  differ from every preset, and under its own rules with some options changed; a comparison
  keeps the options the scenario sets (lessons 9 and 14 compare capped, unlimited and
  limited loo on one position).
- `Answer`: the contract's JSON answer (`verdict()`), a dict to code, a rule or a small
  table to a reader.
- `playground_link`: "Open in the playground", the scenario's text in the URL fragment.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any
from urllib.parse import quote

from loo_lessons.engine.errors import InputError
from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import (
    DEFAULT_PRESET,
    PRESETS,
    LooAmount,
    RuleOptions,
    options_from,
)
from loo_lessons.explain import explain_json, preset_matching
from loo_lessons.scenario import Scenario, dump, load


def comparison_rows(
    sc: Scenario, presets: Iterable[str], changes: Mapping[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """(label, the contract's answer or {"refused": message}) for each distinct rule set:
    each preset, the scenario's own rules, and its own rules with `changes`."""
    base = _own_preset(sc)
    sets: list[RuleOptions] = [PRESETS[name].options for name in presets]
    sets.append(sc.options)
    if changes:
        sets.append(options_from(dict(changes), sc.options))
    rows: list[tuple[str, dict[str, Any]]] = []
    seen: list[RuleOptions] = []
    for opts in sets:
        if opts in seen:
            continue
        seen.append(opts)
        rows.append((_rules_label(opts, base), _under(sc, opts)))
    return rows


def _under(sc: Scenario, opts: RuleOptions) -> dict[str, Any]:
    data = dict(sc.data)
    data["rules"] = opts.to_dict()
    if opts.loo_amount is not LooAmount.POOL_CAPPED:
        # the scenario's `loo_cap` is the maximum of capped loo (R49): rules that do not cap
        # the loo have no use for it, so the same deal is shown under them without it
        data.pop("loo_cap", None)
    try:
        return explain_json(load(data))
    except InputError as e:  # the file refused, or the engine on the way
        return {"refused": str(e)}


def _rules_label(opts: RuleOptions, base: str) -> str:
    """A preset's name, or the scenario's preset and the options that differ from it."""
    name = preset_matching(opts)
    if name is not None:
        return name
    start = PRESETS[base].options.to_dict() if base in PRESETS else {}
    # an option in words ("two trumps lead: highest"), as the lessons' prose says it
    changed = [
        f"{k.replace('_', ' ')}: {str(v).replace('_', ' ')}"
        for k, v in opts.to_dict().items()
        if start.get(k) != v
    ]
    return base + " with " + ", ".join(changed)


def _own_preset(sc: Scenario) -> str:
    raw = sc.data.get("rules")
    name = raw.get("preset") if isinstance(raw, dict) else raw
    return name if isinstance(name, str) and name in PRESETS else DEFAULT_PRESET


class Answer(dict[str, Any]):
    """The contract's JSON answer (a plain dict to code), shown to a reader as a view: a
    rule's verdict as its id, reason and quotation, anything else as a small table. Every
    mapping inside it is an Answer too, so `verdict(x)["illegal"]["8H"]` shows the rule."""

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        return Answer(value) if isinstance(value, dict) and not isinstance(value, Answer) else value

    def _repr_html_(self) -> str:
        if "rule_id" in self and "quote" in self:
            rid = html.escape(str(self["rule_id"]))
            pen = self.get("penalty") or {}
            penalty = (
                f"<br><small>Penalty: {html.escape(str(pen.get('size', '')).replace('_', ' '))}"
                f" ({html.escape(', '.join(pen.get('rules', [])))})</small>"
                if pen
                else ""
            )
            return (
                f'<blockquote class="loo-quote"><strong>{rid}</strong> — '
                f"{html.escape(str(self.get('reason', '')))}<br><em>“{html.escape(str(self['quote']))}”</em>"
                f" <small>— {html.escape(str(self.get('book', '')))}</small>{penalty}</blockquote>"
            )
        rows = "".join(
            f"<tr><th scope='row'>{html.escape(str(k))}</th><td>{html.escape(_plain(v))}</td></tr>"
            for k, v in self.items()
        )
        return f"<table class='loo-answer-table'><tbody>{rows}</tbody></table>"


def _plain(v: object) -> str:
    if isinstance(v, dict):
        return "; ".join(f"{k}: {_plain(x)}" for k, x in v.items()) or "—"
    if isinstance(v, (list, tuple)):
        return ", ".join(_plain(x) for x in v) or "—"
    return "—" if v is None else str(v)


#: Where the book's playground page is, from a lesson page (notebooks/*.html).
PLAYGROUND = "../book/playground.html"


def playground_link(position: Scenario | Hand | str) -> str:
    """A link "Open in the playground" carrying the scenario's text in the URL fragment.
    Hidden by its own style outside the book (JupyterLab has no playground page); the book's
    stylesheet shows it."""
    if isinstance(position, Hand):
        return ""
    if isinstance(position, str) and _shipped(position):
        where = "example=" + quote(position, safe="")
    else:
        text = position if isinstance(position, str) else dump(position.data)
        where = "scenario=" + quote(text, safe="")
    return (
        f'<a class="loo-playground-link" style="display:none" href="{PLAYGROUND}#{where}">'
        "Open in the playground</a>"
    )


def _shipped(name: str) -> bool:
    if "\n" in name or "/" in name or ":" in name:
        return False
    return resources.files("loo_lessons").joinpath("scenarios", f"{name}.yaml").is_file()
