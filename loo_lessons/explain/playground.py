"""The scenario playground: text a reader typed → the answer `loo-lessons explain` gives.

`answer(text)` is what the book's playground page calls (in the reader's browser, through
the in-page engine) and what the book build precomputes for the shipped examples. It never
raises for bad input: a refused scenario comes back as the one line the CLI prints on
stderr (`error: FIELD: problem`), with nothing half-answered. The HTML is a view of the
same explanation text the CLI prints, its citations set as quotations: nothing is decided
here.
The playground's "Ask the coach" is `views.advice.advise` (the coach is above this layer).
"""

from __future__ import annotations

import html
import re
from typing import Any, TypedDict

from loo_lessons.engine.errors import LooError
from loo_lessons.explain import explain_json, explain_text
from loo_lessons.scenario import loads


class Answer(TypedDict):
    """The playground's answer to a scenario typed in the book's page: the same text, HTML and JSON
    `loo-lessons explain` gives, or the one-line refusal."""

    ok: bool
    text: str  # what `loo-lessons explain FILE` prints
    html: str  # the same explanation, readable in a page
    json: dict[str, Any] | None  # what `loo-lessons explain FILE --json` prints
    error: str | None  # what it prints on stderr when the scenario is refused


#: The longest text the playground reads: a scenario is a screenful, not a book.
MAX_CHARS = 20_000

_RULE_START = re.compile(r"^(R\d\d) — (.*)$")
_QUOTE_START = re.compile(r"^(.+?) \[(\d{3})\]: “(.*)$")


def answer(text: str) -> Answer:
    """Explain a scenario given as YAML or JSON text (JSON is YAML, read by the safe loader)."""
    if len(text) > MAX_CHARS:
        return refused(f"file: the scenario is {len(text)} characters long (at most {MAX_CHARS})")
    try:
        sc = loads(text)
        j = explain_json(sc)
        t = explain_text(sc)
    except LooError as e:  # ScenarioError names the field; the engine's other refusals too
        return refused(str(e))
    return {"ok": True, "text": t, "html": explanation_html(t), "json": j, "error": None}


def refused(message: str) -> Answer:
    """The playground's answer to a refused scenario: the refusal's first line as `error: FIELD:
    problem`, also as an alert in the page."""
    line = "error: " + message.splitlines()[0] if message else "error: file: refused"
    return {
        "ok": False,
        "text": "",
        "html": f'<p class="loo-refused" role="alert">{html.escape(line)}</p>',
        "json": None,
        "error": line,
    }


def explanation_html(text: str) -> str:
    """The explanation text as HTML: plain lines as lines, each indented citation (rule id —
    summary, then the book's words) as a quotation naming its book."""
    out: list[str] = []
    lines = text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    ") and _RULE_START.match(line.strip()):
            block = []
            while i < len(lines) and lines[i].startswith("    "):
                block.append(lines[i].strip())
                i += 1
            out.append(_citations_html(block))
            continue
        if line.startswith("=") and set(line) == {"="}:
            i += 1
            continue
        if i + 1 < len(lines) and lines[i + 1] and set(lines[i + 1]) == {"="}:
            out.append(f'<h3 class="loo-explain-title">{html.escape(line)}</h3>')
        elif line.strip():
            cls = "loo-explain-line" + (" loo-explain-sub" if line.startswith("  ") else "")
            text = line.strip()
            # a line the terminal's wrapping carried over (indented deeper than the line it
            # continues) joins that line's paragraph: no paragraph ends mid-sentence
            while i + 1 < len(lines) and _continues(line, lines[i + 1]):
                i += 1
                text += " " + lines[i].strip()
            out.append(f'<p class="{cls}">{html.escape(text)}</p>')
        i += 1
    return '<div class="loo-explain-html">' + "".join(out) + "</div>"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _continues(line: str, nxt: str) -> bool:
    """Is `nxt` the wrapped rest of `line`? (The terminal's wrapping indents a carried-over
    rest by 6 or more, deeper than the line; a sub-line is indented by 2, a citation by 4.)"""
    return (
        bool(nxt.strip())
        and _indent(nxt) >= 6
        and _indent(nxt) > _indent(line)
        and not _RULE_START.match(nxt.strip())
    )


def _citations_html(block: list[str]) -> str:
    """Lines of one or more citations as `cite()` / `cite_rule()` wrap them; a line that is
    not part of a citation (a penalty note) stays a line."""
    parts: list[str] = []
    rule: tuple[str, list[str]] | None = None
    quote: tuple[str, str, list[str]] | None = None

    def flush() -> None:
        nonlocal rule, quote
        if rule is not None:
            rid, summary = rule
            q = ""
            if quote is not None:
                book, seed, words = quote
                q = (
                    f'<br><q class="loo-explain-quote">{html.escape(" ".join(words).rstrip("”"))}'
                    f"</q> <small>— {html.escape(book)} [{seed}]</small>"
                )
            parts.append(
                f'<blockquote class="loo-quote" data-rule="{rid}"><strong>{rid}</strong> — '
                f"{html.escape(' '.join(summary))}{q}</blockquote>"
            )
        rule, quote = None, None

    for line in block:
        m = _RULE_START.match(line)
        if m:
            flush()
            rule = (m.group(1), [m.group(2)])
            continue
        q = _QUOTE_START.match(line)
        if rule is not None and quote is None and q:
            quote = (q.group(1), q.group(2), [q.group(3)])
        elif quote is not None and not quote[2][-1].endswith("”"):
            quote[2].append(line)
        elif rule is not None and quote is None:
            rule[1].append(line)
        else:
            flush()
            parts.append(f'<p class="loo-explain-line loo-explain-sub">{html.escape(line)}</p>')
    flush()
    return "".join(parts)
