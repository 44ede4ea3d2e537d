"""Write the book's generated pages before the book is built (`make book` runs it first, through
scripts/build-book.sh): the rule sources, the variants and the disagreements between the books
(book/_ext/book_pages.py), and the command line and the Python API (book/_ext/book_guides.py),
into book/generated/.

A plain step, not a Sphinx hook: any builder reads the pages as Markdown files, so a move to
Jupyter Book 2 (mystmd, which runs no Sphinx extension) keeps them as they are.

    python -m tools.book_pages [FOLDER]     (default book/generated)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "book" / "_ext"))  # the generators live beside the extension
sys.path.insert(0, str(REPO))  # this checkout's loo_lessons

from book_guides import write_guides  # noqa: E402
from book_pages import write_pages  # noqa: E402

#: Where the book's table of contents expects the pages.
GENERATED = REPO / "book" / "generated"


def write(folder: Path = GENERATED) -> list[Path]:
    """Every generated page written into `folder`; the files, sorted."""
    folder.mkdir(parents=True, exist_ok=True)
    write_pages(folder)
    write_guides(folder)
    return sorted(folder.glob("*.md"))


def main(argv: list[str] | None = None) -> int:
    """`python -m tools.book_pages [FOLDER]`."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("folder", nargs="?", type=Path, default=GENERATED)
    args = ap.parse_args(argv)
    pages = write(args.folder)
    print(f"{len(pages)} generated pages in {args.folder}: {', '.join(p.stem for p in pages)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
