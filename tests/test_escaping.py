"""Text from scenario files is inert where it is shown: escaped on the book's pages (HTML
through MyST Markdown) and stripped of control characters on a terminal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from book_pages import disagreements_md, md_text
from hypothesis import given
from hypothesis import strategies as st

from loo_lessons.cli import main
from loo_lessons.cli.clean import for_terminal, one_line

ROOT = Path(__file__).resolve().parent.parent
DISAGREES = ROOT / "loo_lessons" / "scenarios" / "dealer-miss-holder-alone-dealer-stands.yaml"
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
HOSTILE_TITLE = "<script>alert(1)</script> [click](javascript:alert(1)) {raw}`html`"
HOSTILE_DESCRIPTION = (
    "```{raw} html\n<img src=x onerror=alert(1)>\n```\n\n![x](http://elsewhere/x.png)"
)


@given(st.text())
def test_terminal_text_has_no_control_characters(text: str) -> None:
    clean = for_terminal(text)
    assert not CONTROL.search(clean)
    clean.encode("utf-8")  # no lone surrogates left
    assert for_terminal(clean) == clean
    line = one_line(text)
    assert "\n" not in line and len(line) <= 380


@given(st.text())
def test_markdown_text_has_no_markup(text: str) -> None:
    md = md_text(text)
    assert not CONTROL.search(md) and "\n" not in md
    assert "<" not in md and ">" not in md
    # every link, role, directive or code character is escaped
    assert not re.search(r"(?<!\\)[\[\]`{}()!]", md.replace("\\\\", ""))


def test_the_disagreements_page_escapes_titles_and_descriptions(tmp_path: Path) -> None:
    data = yaml.safe_load(DISAGREES.read_text(encoding="utf-8"))
    data["title"] = HOSTILE_TITLE
    data["description"] = HOSTILE_DESCRIPTION
    (tmp_path / "hostile.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    page = disagreements_md(tmp_path)
    assert "&lt;script&gt;" in page  # listed, and escaped
    for raw in ("<script", "<img", "```", "{raw}", "](javascript", "](http", "`html`"):
        assert raw not in page


def test_text_mode_explain_prints_no_terminal_escape_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = yaml.safe_load(DISAGREES.read_text(encoding="utf-8"))
    data["title"] = "\x1b]0;owned\x07\x1b[2J\x1b[31mred title\x9b"
    data["description"] = "line\r\x1b[1Aover"
    path = tmp_path / "escapes.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for argv in (["explain", str(path)], ["explain", "--json", str(path)]):
        rc = main(argv)
        out, err = capsys.readouterr()
        assert rc in (0, 2)  # answered, or refused at read time
        assert "\x1b" not in out + err and "\x07" not in out + err and "\x9b" not in out + err
        if rc == 0 and "--json" not in argv:
            assert "red title" in out
