"""The book's guides (issue 26): every command a guide shows runs, the command-line page lists
every command with its options, and the book's search finds the guides.

A line of a ```sh block in a guide is either a `loo-lessons …` command, run here in a temporary
folder, or marked `# not run by the tests: REASON` (it starts a server, waits for keys, takes
minutes); the marked lines are listed in NOT_RUN, so none is skipped silently. The hub's own
deployment file, which the IT guide includes (`{include}`), is the hub tests' to run
(tests/test_hub_install.py runs its install block; tests/test_jupyterhub.py and
tests/test_hub_admin.py start the hub it describes).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import pytest
from book_guides import api_md, cli_md, commands, subcommands

from loo_lessons.cli import main, parser

ROOT = Path(__file__).resolve().parent.parent
GUIDES = ROOT / "book" / "guides"

MARK = "# not run by the tests:"
#: Every line of a guide the tests do not run, by page: a new one must be added here knowingly.
NOT_RUN = {
    ("learners.md", "pip install 'loo_lessons-0.2.0-py3-none-any.whl[lessons]'"),
    ("learners.md", "loo-lessons lessons"),
    ("learners.md", "loo-lessons lessons ~/loo-study --port 9000"),
    ("learners.md", "pip install loo_lessons_book-0.2.0-py3-none-any.whl"),
    ("learners.md", "loo-lessons book"),
    ("learners.md", "make lessons"),
    ("learners.md", "make lessons PORT=9000"),
    ("learners.md", "loo-lessons play --seed 39 --players 5"),
    ("learners.md", "loo-lessons play --seed 21 --deals 3"),
    ("teachers.md", "loo-lessons quiz results class/"),
    ("teachers.md", "loo-lessons quiz results class/ --code lead-10-42"),
    ("teachers.md", "loo-lessons quiz results class/ --csv > class.csv"),
    ("teachers.md", "loo-lessons quiz results class/ --class-list names.txt"),
    ("contributors.md", ".venv/bin/python -m pytest -q tests/test_cli.py"),
    ("performance.md", "loo-lessons bench"),
    ("performance.md", "loo-lessons bench --million"),
    ("performance.md", "loo-lessons bench --browser"),
}
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)


def guide_lines() -> tuple[list[tuple[str, str]], set[tuple[str, str]]]:
    """(page, command) to run, and (page, command) marked as not run."""
    run: list[tuple[str, str]] = []
    marked: set[tuple[str, str]] = set()
    for page in sorted(GUIDES.glob("*.md")):
        for block in SH_BLOCK.findall(page.read_text()):
            for line in block.splitlines():
                command, _, reason = line.partition(MARK)
                command = command.strip()
                if not command or command.startswith("#"):
                    continue
                if reason:
                    assert reason.strip(), f"{page.name}: {command}: say why it is not run"
                    marked.add((page.name, command))
                else:
                    run.append((page.name, command))
    return run, marked


def test_the_guides_show_commands_and_list_what_they_do_not_run() -> None:
    run, marked = guide_lines()
    assert marked == NOT_RUN
    assert len(run) >= 10
    others = [(p, c) for p, c in run if not c.startswith("loo-lessons ")]
    assert not others, f"a line neither run nor marked `{MARK} REASON`: {others}"


@pytest.mark.parametrize("page", sorted({p for p, _ in guide_lines()[0]}))
def test_every_command_a_guide_shows_runs(page: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # an empty folder, as a learner's: the guides name shipped scenarios by name, never by a
    # path into a checkout
    monkeypatch.chdir(tmp_path)
    for _, command in (x for x in guide_lines()[0] if x[0] == page):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(shlex.split(command)[1:])
        assert code == 0, f"{page}: `{command}` ended {code}: {err.getvalue()[-300:]}"
        assert out.getvalue().strip() or list(tmp_path.iterdir()), \
            f"{page}: `{command}` printed nothing and wrote nothing"


def test_the_command_line_page_has_every_command_and_option() -> None:
    page = cli_md()
    paths = commands()
    assert {"explain", "rules", "deal", "quiz", "quiz results", "simulate", "play", "coach",
            "bench", "class add-pupils"} <= set(paths)
    for path in paths:
        assert re.search(rf"^#+ `loo-lessons {re.escape(path)}`$", page, re.M), path
        # what `--help` shows for the command, option by option, is on the page
        sub = parser()
        for word in path.split():
            sub = {name: p for name, p, _ in subcommands(sub)}[word]
        for action in sub._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help") and action.help != "==SUPPRESS==":
                    assert f"`{option}" in page, f"{path}: {option}"


def test_the_api_page_shows_every_public_name_with_its_docstring() -> None:
    import inspect

    import loo_lessons

    page = api_md()
    for name in (n for n in loo_lessons.__all__ if not n.startswith("_")):
        obj = getattr(loo_lessons, name)
        doc = inspect.getdoc(obj)
        assert doc, f"loo_lessons.{name} has no docstring"
        assert f"### `{name}`" in page and inspect.cleandoc(doc) in page, name
        if not (inspect.isclass(obj) and issubclass(obj, BaseException)):  # no signature
            assert f"{name}{inspect.signature(obj)}" in page, name


def test_the_books_search_finds_the_guides(built_book: Path) -> None:
    raw = (built_book / "searchindex.js").read_text()
    index = json.loads(raw[raw.index("(") + 1 : raw.rindex(")")])
    docs = index["docnames"]

    def found(word: str) -> set[str]:
        """The pages Sphinx's search lists for a stemmed word: in the text or in a title."""
        pages: set[str] = set()
        for table in ("terms", "titleterms"):
            hits = index[table].get(word, [])
            pages |= {docs[i] for i in ([hits] if isinstance(hits, int) else hits)}
        return pages

    assert "book/guides/it" in found("culler")
    assert "book/guides/teachers" in found("handout")
    assert "book/generated/cli" in found("simul")
    assert "book/guides/contributors" in found("architectur")
