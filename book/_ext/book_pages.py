"""Pages of the book generated from the engine (so they never drift from it).

`write_pages(folder)` writes `sources.md` (the three seed texts in full, every rule id
anchored at the words it comes from), `variants.md` (every option, each preset's value and
the source of each reading) and `disagreements.md` (shipped scenarios on which the presets
give different verdicts, both shown).
"""

from __future__ import annotations

import html
import re
from importlib import resources
from pathlib import Path
from typing import Any

from loo_lessons.cli.clean import for_terminal
from loo_lessons.engine.errors import InputError
from loo_lessons.engine.options import DEFAULTS_DECIDED, OPTION_SPECS, PRESETS
from loo_lessons.engine.sources import BOOKS, RULES, SEED_FILES, seed_text
from loo_lessons.explain.words import seed_html


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


# Markdown punctuation that could start a link, an image, a role, a directive, code, math or
# a block; emphasis (* and _) is left alone: the descriptions use it, and it runs nothing
_MD_PUNCT = re.compile(r"([\\`{}\[\]()#+\-.!|~:$])")


def md_text(text: object) -> str:
    """Text from a scenario file as inert Markdown: one line, no control characters, HTML
    escaped, the punctuation of links, roles, directives and code backslash-escaped."""
    flat = " ".join(for_terminal(str(text)).split())
    return _MD_PUNCT.sub(r"\\\1", html.escape(flat, quote=False))


def seed_paragraphs(text: str) -> list[str]:
    """The seed's paragraphs, each on one line: a blank line ends one, and so does a short
    line that ends a sentence (the transcriber's line breaks are kept only there)."""
    paras: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines: list[str] = []
        for line in block.splitlines():
            lines.append(line)
            if len(line.rstrip()) < 62 and re.search(r'[.:)"]$', line.rstrip()):
                paras.append(" ".join(lines))
                lines = []
        if lines:
            paras.append(" ".join(lines))
    return [_norm(p) for p in paras if p.strip()]


#: The seeds that are cut off in the source itself (rules-digest.md, "the seed texts").
_CUT = {"003": "The seed is cut off at both ends: it starts and ends in the middle of a word."}


def sources_md() -> str:
    out = [
        "# The sources",
        "",
        "The rules in these lessons come from three old texts, given here in full. Every rule id "
        "(R01–R63) is anchored at the words it comes from: a highlighted passage is followed by "
        "the ids that quote it, and every rule id elsewhere in the book links here.",
        "",
    ]
    for seed, fname in SEED_FILES.items():
        cut = f" {_CUT[seed]}" if seed in _CUT else ""
        out += [f"## [{seed}] {BOOKS[seed]}", "", f"File `{fname}`, in full.{cut}", ""]
        paras = seed_paragraphs(seed_text(seed))
        anchored: set[str] = set()
        marks: dict[int, list[tuple[int, int, str]]] = {}
        for rid, rule in RULES.items():
            for q in rule.quotes:
                if q.seed != seed:
                    continue
                qt = _norm(q.text)
                for i, p in enumerate(paras):
                    at = p.find(qt)
                    if at >= 0:
                        marks.setdefault(i, []).append((at, at + len(qt), rid))
                        break
        for i, p in enumerate(paras):
            ms = sorted(marks.get(i, []))
            pieces: list[str] = []
            pos = 0
            # merge overlapping spans; anchors at each start, ids after each merged span
            merged: list[tuple[int, int, list[tuple[int, str]]]] = []
            for s, e, rid in ms:
                if merged and s < merged[-1][1]:
                    ms_s, ms_e, ids = merged[-1]
                    merged[-1] = (ms_s, max(ms_e, e), [*ids, (s, rid)])
                else:
                    merged.append((s, e, [(s, rid)]))
            for s, e, ids in merged:
                pieces.append(seed_html(p[pos:s]))
                seg = ""
                cur = s
                for start, rid in sorted(ids):
                    seg += seed_html(p[cur:start])
                    anchor = f"rule-{rid.lower()}"
                    if anchor not in anchored:
                        seg += f'<span id="{anchor}"></span>'
                        anchored.add(anchor)
                    cur = start
                seg += seed_html(p[cur:e])
                labels = sorted({rid for _, rid in ids})
                pieces.append(
                    f'<mark class="rule-quote">{seg}</mark><sup class="rule-ids">'
                    f"{' '.join(labels)}</sup>"
                )
                pos = e
            pieces.append(seed_html(p[pos:]))
            if seed in _CUT and i == 0:
                pieces.insert(0, '<span class="seed-cut" title="cut off in the seed">\u2026</span>')
            if seed in _CUT and i == len(paras) - 1:
                pieces.append('<span class="seed-cut" title="cut off in the seed">\u2026</span>')
            out += [f'<p class="seed-text">{"".join(pieces)}</p>', ""]
    out += ["## Every rule, with its words", ""]
    for rid, rule in RULES.items():
        quotes = " / ".join(f"[{q.seed}] “{seed_html(q.text)}”" for q in rule.quotes)
        out += [f"- **{rid}** {rule.summary} {quotes}"]
    return "\n".join(out) + "\n"


def variants_md() -> str:
    names = list(PRESETS)
    out = [
        "# Variants: where the books differ",
        "",
        "Every place where the seed texts disagree, or say nothing, is a rule option with a "
        "documented reading. The presets name the book they follow: "
        + "; ".join(f"`{p.name}` — {p.book}" for p in PRESETS.values())
        + ".",
        "",
        "| option | " + " | ".join(f"`{n}`" for n in names) + " | readings and their sources |",
        "|---|" + "---|" * len(names) + "---|",
    ]
    for spec in OPTION_SPECS.values():
        vals = [str(PRESETS[n].options.to_dict()[spec.key]).lower() for n in names]
        readings = "<br>".join(
            f"**{str(r.value).lower()}**: {r.meaning} ({', '.join(r.rules)}"
            + (f"; {r.variant}" if r.variant else "")
            + (f"; {r.ambiguity}" if r.ambiguity else "")
            + ")"
            + (f" Outside the seeds: {r.outside}" if r.outside else "")
            for r in spec.readings
        )
        out.append(f"| `{spec.key}` | " + " | ".join(f"`{v}`" for v in vals) + f" | {readings} |")
    out += ["", "## Why each preset reads it so", ""]
    for p in PRESETS.values():
        out += [f"### `{p.name}`", ""]
        out += [f"- `{k}`: {v}" for k, v in p.why.items()]
        out.append("")
    out += [
        "## Where the books are silent",
        "",
        "These ambiguities are decided once, the same way in every preset:",
        "",
    ]
    out += [f"- **{k}**: {v}" for k, v in DEFAULTS_DECIDED.items()]
    return "\n".join(out) + "\n"


def _verdict_under(data: dict[str, Any], preset: str) -> dict[str, Any]:
    from loo_lessons.explain import explain_json
    from loo_lessons.scenario import load

    d = dict(data)
    rules = d.get("rules")
    if isinstance(rules, dict):
        rules = {k: v for k, v in rules.items() if k != "preset"} | {"preset": preset}
        d["rules"] = rules
    else:
        d["rules"] = preset
    try:
        return explain_json(load(d))
    except InputError as e:  # the file refused, or the engine on the way
        return {"refused": str(e)}


def _summary(j: dict[str, Any]) -> str:
    if "refused" in j:
        return f"refused: {j['refused']}"
    parts = [f"phase **{j['phase']}**"]
    if j.get("to_act") is not None:
        parts.append(f"seat {j['to_act']} may: **{', '.join(j['legal'])}**")
        if j["illegal"]:
            parts.append(
                "not: " + ", ".join(f"{k} ({v['rule_id']})" for k, v in j["illegal"].items())
            )
    s = j.get("settlement")
    if s:  # the settlement's own lines, each with its rule (explain.settlement)
        said = " ".join(
            f"{x['text']} ({x['rule_id']})"
            for x in s["lines"]
            if x["kind"] not in ("pool", "next_pool")
        )
        parts.append(f"{said} Next pool {s['next_pool']}")
    return "; ".join(parts)


def _money(j: dict[str, Any]) -> dict[str, Any] | None:
    """The settlement's figures, without its worded lines (whose quotes follow the preset)."""
    s = j.get("settlement")
    return None if s is None else {k: v for k, v in s.items() if k != "lines"}


def disagreements_md(folder: Any = None) -> str:
    """The page; `folder` (a Traversable or Path) holds the scenarios, by default the shipped
    ones."""
    import yaml

    out = [
        "# Scenarios where the presets disagree",
        "",
        "Each shipped scenario is answered under both presets; those where the verdict or the "
        "money differs are shown side by side. Run any of them with "
        "`loo-lessons explain FILE` (change `rules:` to compare).",
        "",
    ]
    if folder is None:
        folder = resources.files("loo_lessons").joinpath("scenarios")
    count = 0
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith((".yaml", ".yml", ".json")):
            continue
        # the package's own scenarios: libyaml's safe loader where there is one (a pupil's
        # server writes this page at each start, and the pure-Python parser was most of it)
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        data = yaml.load(entry.read_text(encoding="utf-8"), Loader=loader)
        a, b = (_verdict_under(data, p) for p in ("hoffmann", "peel"))
        keys = ("phase", "to_act", "legal", "refused")
        if all(a.get(k) == b.get(k) for k in keys) and _money(a) == _money(b):
            continue
        count += 1
        title = md_text(data.get("title", entry.name))
        name = for_terminal(entry.name).replace("`", "'")
        out += [f"## {title}", "", f"File `{name}`.", ""]
        if data.get("description"):
            paras = re.split(r"\n\s*\n", str(data["description"]))
            out += ["\n\n".join(md_text(p) for p in paras if p.strip()), ""]
        out += [f"- **hoffmann**: {_summary(a)}", f"- **peel**: {_summary(b)}", ""]
    if not count:
        out.append("No shipped scenario makes the presets disagree.")
    return "\n".join(out) + "\n"


def write_pages(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (
        ("sources.md", sources_md()),
        ("variants.md", variants_md()),
        ("disagreements.md", disagreements_md()),
    ):
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
