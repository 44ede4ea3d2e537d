"""Lay out the folder JupyterLab serves the lessons from (`make lessons`), so that their
reference links work: the lessons beside the book's glossary and generated pages. The work is
`loo_lessons.classroom.lab_root` (the class hub lays out each pupil's copy with it too).

    python -m tools.lab_root ROOT [--copy]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # book_pages imports loo_lessons: this checkout's

from loo_lessons.classroom.lab_root import lab_glossary, lab_heading, lay_out  # noqa: E402

__all__ = ["lab_glossary", "lab_heading", "lay_out", "main"]


def main(argv: list[str] | None = None) -> int:
    """`python -m tools.lab_root ROOT [--copy]`."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("root", type=Path)
    ap.add_argument("--copy", action="store_true", help="copy the lessons instead of linking")
    args = ap.parse_args(argv)
    lay_out(args.root, copy=args.copy)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
