"""The rules catalogue: presets and options with their sources (`loo-lessons rules`)."""

from __future__ import annotations

from typing import Any

from loo_lessons.engine.options import DEFAULT_PRESET, DEFAULTS_DECIDED, OPTION_SPECS, PRESETS
from loo_lessons.engine.sources import RULES, SEED_FILES


def rules_json() -> dict[str, Any]:
    """What `loo-lessons rules --json` prints: every rule option with its meaning, values and each
    book's reading (rule id and quote), and the presets."""
    options = []
    for spec in OPTION_SPECS.values():
        options.append(
            {
                "key": spec.key,
                "meaning": spec.meaning,
                "values": list(spec.values),
                "readings": [
                    {
                        "value": r.value,
                        "meaning": r.meaning,
                        "rules": list(r.rules),
                        "variant": r.variant,
                        "ambiguity": r.ambiguity,
                        "outside_source": r.outside,
                        "quotes": [
                            {"rule": rid, "source": q.source, "quote": q.text}
                            for rid, q in zip(r.rules, r.quotes, strict=True)
                        ],
                    }
                    for r in spec.readings
                ],
                "presets": {name: p.options.to_dict()[spec.key] for name, p in PRESETS.items()},
            }
        )
    return {
        "default_preset": DEFAULT_PRESET,
        "preset_names": list(PRESETS),
        "option_keys": list(OPTION_SPECS),
        "presets": [
            {
                "name": p.name,
                "book": p.book,
                "seeds": [SEED_FILES[s] for s in p.seeds],
                "options": p.options.to_dict(),
                "why": p.why,
            }
            for p in PRESETS.values()
        ],
        "options": options,
        "decided_defaults": DEFAULTS_DECIDED,
        "rules": [
            {
                "id": r.id,
                "summary": r.summary,
                "quotes": [{"source": q.source, "quote": q.text} for q in r.quotes],
            }
            for r in RULES.values()
        ],
    }


def rules_text() -> str:
    """What `loo-lessons rules` prints: the presets with their books, then every option, each
    reading with the presets that take it and the book's quote."""
    lines = ["Presets", "======="]
    for p in PRESETS.values():
        default = " (default)" if p.name == DEFAULT_PRESET else ""
        lines.append(f"{p.name}{default}: {p.book}")
    lines += ["", "Options", "======="]
    for spec in OPTION_SPECS.values():
        lines.append(f"{spec.key}: {spec.meaning}")
        for r in spec.readings:
            who = [n for n, p in PRESETS.items() if p.options.to_dict()[spec.key] == r.value]
            v = str(r.value).lower() if isinstance(r.value, bool) else r.value
            lines.append(f"  - {v}{' [' + ', '.join(who) + ']' if who else ''}: {r.meaning}")
            for rid, q in zip(r.rules, r.quotes, strict=True):
                lines.append(f"      {rid} [{q.seed}]: “{q.text}”")
            if r.outside:
                lines.append(f"      outside the seeds: {r.outside}")
    lines += [
        "",
        "Defaults decided where the books are silent",
        "===========================================",
    ]
    for k, v in DEFAULTS_DECIDED.items():
        lines.append(f"{k}: {v}")
    return "\n".join(lines) + "\n"
