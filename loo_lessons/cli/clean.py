"""The output-side guard for text that came from a file: what reaches a terminal carries no
control characters (no escape codes that move the cursor or retitle the window) and no lone
surrogates (which cannot be encoded). HTML output uses `html.escape` on top of this."""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and lone surrogates
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def for_terminal(text: str) -> str:
    """`text` with each control character and lone surrogate replaced by U+FFFD."""
    return _UNSAFE.sub("\ufffd", text)


def one_line(text: str, limit: int = 380) -> str:
    """`text` safe for a terminal, on one line, at most `limit` characters."""
    flat = " ".join(for_terminal(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
