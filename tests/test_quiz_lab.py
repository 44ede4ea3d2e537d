"""In JupyterLab a pupil types a class code the page does not hold, and the kernel deals it
(QuizRunner.class_request -> quiz.for_code): the same questions as every other page."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Route
from test_jupyterlab import lab, run_cell  # noqa: F401  (the JupyterLab fixture)

from loo_lessons import quiz


def test_a_class_code_typed_in_jupyterlab_is_dealt_by_python(
    lab: tuple[str, str],  # noqa: F811
    browser: Browser,
) -> None:
    base, token = lab
    external: list[str] = []

    def route(r: Route) -> None:
        if r.request.url.startswith((base, "data:", "blob:")):
            r.continue_()
        else:
            external.append(r.request.url)
            r.abort()

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.route("**/*", route)
        page.goto(f"{base}/lab/tree/smoke.ipynb?token={token}", wait_until="commit")
        page.locator("#jp-main-statusbar").get_by_text(re.compile(r"Idle")).wait_for(timeout=90_000)
        run_cell(page, 2)  # QuizRunner('lead', seed=1, count=2)
        box = page.locator(".jp-OutputArea [data-class-code]")
        box.wait_for(timeout=60_000)
        assert box.input_value() == "lead-2-1"
        box.fill("follow-3-4")
        box.press("Enter")
        want = quiz.for_code("follow-3-4")[0].prompt
        page.locator(".jp-OutputArea .loo-quiz-screen .loo-prompt", has_text=want[:60]).wait_for(
            timeout=30_000
        )
        assert page.locator(".jp-OutputArea [data-class-code]").input_value() == "follow-3-4"
        run_cell(page, 3)
        out = page.locator(".jp-OutputArea-output").filter(has_text="QUIZ NOW")
        out.wait_for(timeout=60_000)
        ids = [q.id for q in quiz.for_code("follow-3-4")]
        assert f"QUIZ NOW 4 {ids}" in out.inner_text()
    finally:
        page.close()
    assert external == []
