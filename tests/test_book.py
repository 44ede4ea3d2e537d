"""The book: builds with warnings as errors, and works offline in a real browser.

Every page of the built site is opened in headless Chromium from a local server with every
non-local request blocked and recorded: no console errors, nothing asked of other hosts,
internal links resolve, and quizzes answer a click.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def test_book_builds_with_warnings_as_errors(built_book: Path) -> None:
    pages = sorted(built_book.rglob("*.html"))
    assert any(p.name == "sources.html" for p in pages)
    assert any(p.parent.name == "notebooks" for p in pages)


def _pages(html: Path) -> list[Path]:
    skip = {"genindex.html", "search.html"}
    return [
        p
        for p in sorted(html.rglob("*.html"))
        if p.name not in skip and "_static" not in p.parts and "_sources" not in p.parts
    ]


def test_internal_links_resolve(built_book: Path) -> None:
    broken = []
    for page in _pages(built_book):
        text = page.read_text(encoding="utf-8")
        ids = set(re.findall(r'\bid="([^"]+)"', text))
        for href in re.findall(r'(?:href|src)="([^"]+)"', text):
            if href.startswith(("http:", "https:", "mailto:", "javascript:", "data:")):
                continue
            path, _, frag = href.partition("#")
            path = path.partition("?")[0]
            target = (page.parent / path).resolve() if path else page
            if path and not target.exists():
                broken.append(f"{page.relative_to(built_book)} → {href}")
                continue
            if frag and "=" not in frag and target.suffix == ".html":  # `#example=…`: data
                tids = (
                    ids
                    if target == page
                    else set(re.findall(r'\bid="([^"]+)"', target.read_text(encoding="utf-8")))
                )
                if frag not in tids:
                    broken.append(f"{page.relative_to(built_book)} → {href} (no #{frag})")
    assert not broken, "\n".join(broken[:30])


def test_rule_ids_link_to_the_sources(built_book: Path) -> None:
    page = built_book / "book" / "glossary.html"
    text = page.read_text(encoding="utf-8")
    assert 'href="generated/sources.html#rule-r38"' in text
    sources = (built_book / "book" / "generated" / "sources.html").read_text(encoding="utf-8")
    for i in range(1, 64):
        assert f'id="rule-r{i:02d}"' in sources


def test_every_page_offline_no_errors(built_book: Path, server: str, browser: object) -> None:
    external: list[str] = []
    problems: list[str] = []
    ctx = browser.new_context()  # type: ignore[attr-defined]
    host = urlparse(server).netloc

    def route(r: object) -> None:
        url = r.request.url  # type: ignore[attr-defined]
        if urlparse(url).netloc == host or url.startswith(("data:", "blob:")):
            r.continue_()  # type: ignore[attr-defined]
        else:
            external.append(url)
            r.abort()  # type: ignore[attr-defined]

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.on(
        "console", lambda m: problems.append(f"{page.url}: {m.text}") if m.type == "error" else None
    )
    page.on("pageerror", lambda e: problems.append(f"{page.url}: {e}"))
    for p in _pages(built_book):
        rel = p.relative_to(built_book).as_posix()
        if rel == "index.html":  # a meta-refresh to the intro: wait for it to land
            with page.expect_navigation(url="**/book/intro.html"):
                page.goto(f"{server}/{rel}", wait_until="commit")
            continue
        page.goto(f"{server}/{rel}", wait_until="load")
        page.wait_for_timeout(50)
    ctx.close()
    assert not external, f"requests to other hosts: {external[:10]}"
    assert not problems, "\n".join(problems[:20])


QUIZ_PAGES = [
    "notebooks/05-leading.html",
    "notebooks/08-pool-and-loos.html",
    "notebooks/10-penalties.html",
]


@pytest.mark.parametrize("rel", QUIZ_PAGES)
def test_quiz_in_the_book_answers_clicks(server: str, browser: object, rel: str) -> None:
    """With no kernel, the page's quiz grades a right and a wrong click from its bank."""
    ctx = browser.new_context()  # type: ignore[attr-defined]
    host = urlparse(server).netloc
    ctx.route(
        "**/*", lambda r: r.continue_() if urlparse(r.request.url).netloc == host else r.abort()
    )
    page = ctx.new_page()
    page.goto(f"{server}/{rel}", wait_until="load")
    quizzes = page.evaluate(
        """() => (window.looLessons || []).filter(c => c.name === 'quiz').map(c => ({
             id: c.el.getAttribute('data-loo-id'),
             questions: c.model.get('questions').map(q => ({
               answer: q.answer, keys: q.choices.map(x => x.key), multi: q.multi,
               rules: q.rule_ids, verdicts: q.verdicts}))}))"""
    )
    assert quizzes, f"{rel}: no quiz component on the page"
    quiz = quizzes[-1]
    root = page.locator(f'div[data-loo-id="{quiz["id"]}"]')
    first = quiz["questions"][0]
    for key in first["answer"] if first["multi"] else first["answer"][:1]:
        root.locator(f'.loo-choices [data-key="{key}"]').click()
    if first["multi"]:
        root.locator('button[data-action="check"]').click()
    assert "Right" in root.locator(".loo-feedback").inner_text()
    assert root.locator(".loo-score").get_attribute("data-score") == "1"
    root.locator('button[data-action="next"]').click()
    second = next((q for q in quiz["questions"][1:2] if set(q["keys"]) - set(q["answer"])), None)
    if second is not None:
        wrong = sorted(set(second["keys"]) - set(second["answer"]))[0]
        root.locator(f'.loo-choices [data-key="{wrong}"]').click()
        if second["multi"]:
            root.locator('button[data-action="check"]').click()
        feedback = root.locator(".loo-feedback").inner_text()
        assert "Not right" in feedback
        assert second["verdicts"][wrong]["rule_id"] in root.inner_text()
        assert root.locator(".loo-score").get_attribute("data-score") == "1"
    ctx.close()
