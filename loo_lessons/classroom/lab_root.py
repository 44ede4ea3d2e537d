"""Lay out the folder JupyterLab serves the lessons from, so that their reference links work.

The lessons link to the book's reference pages as `../book/glossary.md#elder-hand` and
`../book/generated/variants.md`: right in the book, where the notebooks sit in `notebooks/`
beside `book/`. JupyterLab cannot reach above the folder it serves, so `make lessons` (and
the class hub, for each pupil) serves a folder laid out the same way:

    ROOT/notebooks/                    the lessons (a link to notebooks/, or a copy)
    ROOT/book/glossary.md              book/glossary.md, headings JupyterLab can jump to
    ROOT/book/playground.md            book/playground.md (its prose: the live box is the book's)
    ROOT/book/pass-and-play.md         book/pass-and-play.md (its prose: the table is the book's,
                                       or PassPlayTable in a notebook)
    ROOT/book/playground.html          a note for the lessons' "Open in the playground" links:
                                       the playground is a page of the built book
    ROOT/book/generated/*.md           the book's generated pages (sources, variants, …)

Everything comes from the sources the book is built from: `book/glossary.md` and
`book/_ext/book_pages.py`, read from the checkout or, in an installed copy of the project (a
class hub's venv, `pip install .`), from the copy the wheel carries (`loo_lessons/_lessons`,
pyproject.toml): the hub's pupils never need to reach the teacher's checkout. JupyterLab names a
heading's anchor after its text as written ("Elder-hand"), the book after its lower-case slug
("elder-hand"), and the links use the book's; so each heading of the glossary and of the variants
page is written in lower case with its first letter raised back by CSS: the same words on screen,
the book's anchor in JupyterLab.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path
from types import ModuleType

#: The book's pages the lessons link to whose prose is copied as it is (their live parts are the
#: built book's).
PROSE_PAGES = ("playground.md", "pass-and-play.md")

#: The checkout this package was imported from (when it was: an editable install, the tests).
CHECKOUT = Path(__file__).resolve().parent.parent.parent
#: The lessons an installed wheel carries (pyproject.toml's force-include), beside the package.
PACKAGED = Path(__file__).resolve().parent.parent / "_lessons"


def lessons_source() -> Path:
    """The folder holding `notebooks/` and `book/` (glossary, page generator): the installed
    package's own copy when it has one, else the checkout."""
    return PACKAGED if (PACKAGED / "notebooks").is_dir() else CHECKOUT


def _book_pages(source: Path) -> ModuleType:
    """book/_ext/book_pages.py, the module the book generates its pages with."""
    spec = importlib.util.spec_from_file_location(
        "book_pages", source / "book" / "_ext" / "book_pages.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lab_heading(line: str) -> str:
    """`## Elder hand` -> a heading whose text is `elder hand` (JupyterLab's anchor
    `elder-hand`, the book's slug) shown as "Elder hand"."""
    m = re.match(r"^(#{2,6}) (\S)(.*)$", line)
    if not m:
        return line
    hashes, first, rest = m.groups()
    return f'{hashes} <span style="text-transform:uppercase">{first.lower()}</span>{rest.lower()}'


def lab_glossary(text: str) -> str:
    """Every heading of a book page written as `lab_heading` does."""
    return "\n".join(lab_heading(line) for line in text.split("\n"))


#: Where the lessons' "Open in the playground" links (`playground_link`) land in JupyterLab: the
#: playground runs the engine in the book's page; here the notebook's own kernel answers.
PLAYGROUND_HTML = (
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>The scenario playground</title>'
    "<h1>The scenario playground</h1><p>The scenario playground is a page of the built book, not "
    "of JupyterLab: with the book installed, <code>loo-lessons book</code> serves it, the "
    "playground at <code>book/playground.html</code> under the address it prints; in a copy of the project, build the book "
    "(<code>make book</code>) and open <code>book/_build/html/book/playground.html</code> "
    "in a browser.</p><p>Here in JupyterLab a "
    "notebook answers the same questions: <code>L.check(text)</code> says whether a scenario loads, "
    "<code>L.explain(L.scenario(text))</code> explains it with the rules and the books' words, and "
    "<code>L.explore(L.scenario(text))</code> changes its rules live (lesson 11).</p></html>\n"
)


def copy_lessons(source: Path, lessons: Path) -> tuple[list[str], list[str]]:
    """Each lesson of `source` not yet in `lessons` copied there: (copied, kept). A lesson
    already there is the learner's work, kept as it is; a lesson a new release adds reaches a
    copy made by an earlier one."""
    lessons.mkdir(parents=True, exist_ok=True)
    copied: list[str] = []
    kept: list[str] = []
    for lesson in sorted(source.glob("[0-9]*.ipynb")):
        target = lessons / lesson.name
        if target.exists() or target.is_symlink():
            kept.append(lesson.name)
        else:
            shutil.copyfile(lesson, target)
            copied.append(lesson.name)
    return copied, kept


def lay_out(
    root: Path, *, copy: bool = False, notebooks: Path | None = None, source: Path | None = None
) -> Path:
    """Write ROOT (see the module's doc) and return the lessons' folder in it. With `copy`,
    the lessons are copied (`copy_lessons`: a lesson already there is a learner's work, kept;
    a missing one is added);
    otherwise ROOT/notebooks links to `notebooks`, so work is saved in the repository.
    `source`: where the lessons and the book's pages come from (`lessons_source()`)."""
    source = source or lessons_source()
    notebooks = notebooks or source / "notebooks"
    root.mkdir(parents=True, exist_ok=True)
    lessons = root / "notebooks"
    if copy:
        copy_lessons(notebooks, lessons)
    else:
        if lessons.is_symlink() or lessons.is_file():
            lessons.unlink()
        elif lessons.exists():
            raise FileExistsError(f"{lessons} is a folder, not the link to the lessons")
        lessons.symlink_to(notebooks.resolve(), target_is_directory=True)
    book = root / "book"
    (book / "generated").mkdir(parents=True, exist_ok=True)
    glossary = source / "book" / "glossary.md"
    (book / "glossary.md").write_text(
        lab_glossary(glossary.read_text(encoding="utf-8")), encoding="utf-8"
    )
    # lesson 11 sends the reader to the playground, lesson 12 to pass-and-play: in JupyterLab
    # their prose, not a 404
    for name in PROSE_PAGES:
        page = source / "book" / name
        if page.is_file():
            shutil.copyfile(page, book / name)
    (book / "playground.html").write_text(PLAYGROUND_HTML, encoding="utf-8")
    generated = book / "generated"
    _book_pages(source).write_pages(generated)
    variants = generated / "variants.md"  # the lessons link to its sections too
    variants.write_text(lab_glossary(variants.read_text(encoding="utf-8")), encoding="utf-8")
    return lessons
