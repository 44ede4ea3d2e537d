"""In JupyterLab the lessons' playground links land on a page that is there (issue 23.5): the
"Open in the playground" links of `L.explain`/`L.compare` and lesson 11's link to the playground
page, followed from the folder `make lessons` serves (tools/lab_root.py), reach a note saying
where the playground is and what answers a scenario in a notebook, not a 404."""

from __future__ import annotations

import re
from pathlib import Path

from loo_lessons import lessons as L
from loo_lessons.lessons.book import playground_link
from tools import lab_root


def test_the_playground_links_reach_a_page_in_jupyterlab(tmp_path: Path) -> None:
    root = tmp_path / "root"
    lessons = lab_root.lay_out(root, copy=True)
    hrefs = [
        re.search(r'href="([^"#]+)', playground_link(p))
        for p in ("lead-two-trumps-hoffmann-lead-one", L.scenario("players: 4"))
    ]
    lesson11 = (lessons / "11-scenario-files.ipynb").read_text(encoding="utf-8")
    targets = [m.group(1) for m in hrefs if m] + re.findall(
        r"\]\((\.\./book/playground\.md)\)", lesson11
    )
    assert len(targets) >= 3 and {t.rsplit(".", 1)[1] for t in targets} == {"html", "md"}, targets
    for target in targets:
        page = (lessons / target).resolve()
        assert page.is_relative_to(root.resolve()) and page.is_file(), f"{target} is not there"
        text = page.read_text(encoding="utf-8")
        if target.endswith(".html"):  # the widgets' links: a note saying where to go
            assert "make book" in text and "L.check" in text, f"{target} does not say where to go"
        else:  # lesson 11's link: the book's playground page itself, its prose
            assert "playground" in text.lower(), f"{target} is not the playground's page"
    assert "<script" not in (root / "book" / "playground.html").read_text(encoding="utf-8")
