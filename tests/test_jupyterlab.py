"""JupyterLab smoke test: a live component's click reaches Python.

A temporary copy of a two-cell notebook is served by `jupyter lab` (its own process group,
a temporary config dir with the announcements pop-up disabled, a random token, a free
port). Chromium opens it, waits for the kernel to be idle (the status bar, not the
toolbar), runs the first cell (a PickCard), clicks a card, and runs the second cell, which
prints what Python saw. See design.md, "Traps measured".
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _browser import SHOTS
from playwright.sync_api import Browser, Page, Route

import loo_lessons
from tools import lab_root

SCENARIO = Path(loo_lessons.__file__).parent / "scenarios" / "trump-after-trick-lead-a-trump.yaml"
JUPYTER = Path(sys.executable).parent / "jupyter"
ROOT = Path(__file__).resolve().parent.parent
LAB_CONFIG = ROOT / "tools" / "lab_config.py"  # what `make lessons` runs JupyterLab with


def notebook() -> dict[str, object]:
    def cell(src: str) -> dict[str, object]:
        return {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": src,
        }

    return {
        "cells": [
            cell(
                "from loo_lessons.scenario import load_file\n"
                "from loo_lessons.widgets import PickCard\n"
                f"w = PickCard(load_file({str(SCENARIO)!r}), title='Smoke test')\n"
                "w"
            ),
            cell("print('PYTHON SAW', w.picked, w.current, w.verdict['rule_id'])"),
            cell(
                "from loo_lessons.widgets import QuizRunner\nr = QuizRunner('lead', seed=1, count=2)\nr"
            ),
            cell("print('QUIZ NOW', r.seed, [q['id'] for q in r.questions])"),
            cell(
                "from loo_lessons import lessons as L\n"
                "x = L.explore('follow-under-trump-hoffmann', options=('must_head_in_suit', 'void_trump_rule'))\n"
                "x"
            ),
            cell("print('EXPLORE NOW', x.rules['void_trump_rule'], x.verdict['question']['answer'])"),
            cell("d = L.explore_declarations('declare-declined-miss-goes-round')\nd"),
            cell("print('DECLARED NOW', d.data['declarations'][0]['value'], sorted(d.verdict['question']['answer']))"),
            cell("r.next()\nr.next()\nprint('AT THE END', r.index)"),
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serve(tmp_path: Path, root: Path, *args: str) -> Iterator[tuple[str, str]]:
    """`jupyter lab` serving `root`: its own process group, a temporary config dir with the
    announcements pop-up disabled, a random token, a free port; stopped by its pid."""
    config = tmp_path / "config"
    (config / "labconfig").mkdir(parents=True)
    (config / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
    )
    token = secrets.token_hex(16)
    port = free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(config),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
    }
    log = (tmp_path / "lab.log").open("w")
    proc = subprocess.Popen(
        [
            str(JUPYTER),
            "lab",
            "--allow-root",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={port}",
            "--port-retries=0",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={root}",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            *args,
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped below by its own pid
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "jupyter lab did not start:\n" + (tmp_path / "lab.log").read_text()
                    ) from None
                time.sleep(0.3)
        yield base, token
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.close()


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[str, str]]:
    root = tmp_path / "notebooks"
    root.mkdir()
    (root / "smoke.ipynb").write_text(json.dumps(notebook()), encoding="utf-8")
    with serve(tmp_path, root) as served:
        yield served


@pytest.fixture
def lessons_lab(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The lessons as `make lessons` serves them (tools/lab_root.py), on a copy."""
    root = tmp_path / "root"
    lab_root.lay_out(root, copy=True)
    with serve(tmp_path, root, f"--config={LAB_CONFIG}") as served:
        yield served


def run_cell(page: Page, index: int) -> None:
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")


def no_external(base: str, external: list[str]) -> Callable[[Route], None]:
    def route(r: Route) -> None:
        if r.request.url.startswith((base, "data:", "blob:")):
            r.continue_()
        else:
            external.append(r.request.url)
            r.abort()

    return route


@contextlib.contextmanager
def lab_page(
    browser: Browser, served: tuple[str, str], path: str, width: int = 1280, height: int = 900
) -> Iterator[Page]:
    """A page of JupyterLab opened at `path`, every request to another host blocked (and
    the test failed if there was one)."""
    base, token = served
    external: list[str] = []
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.route("**/*", no_external(base, external))
        page.goto(f"{base}/lab/tree/{path}?token={token}", wait_until="commit")
        yield page
    finally:
        page.close()
    assert external == []


def test_a_click_in_jupyterlab_reaches_python(lab: tuple[str, str], browser: Browser) -> None:
    with lab_page(browser, lab, "smoke.ipynb", 1400, 1000) as page:
        # the status bar says Idle only once the kernel exists (the toolbar says it before)
        page.locator("#jp-main-statusbar").get_by_text(re.compile(r"Idle")).wait_for(timeout=90_000)
        run_cell(page, 0)
        card = page.locator(".jp-OutputArea .loo-choices").get_by_role(
            "button", name=re.compile("queen of diamonds")
        )
        card.wait_for(timeout=60_000)
        card.click()  # selects: every pick is graded on Check (issue 15)
        page.locator('.jp-OutputArea button[data-action="check"]').click()
        card.click()  # once checked, a click shows that card's verdict
        verdict = page.locator('.jp-OutputArea .loo-verdict[data-verdict="QD"]')
        verdict.wait_for(timeout=30_000)
        assert "R30" in verdict.inner_text()
        run_cell(page, 1)
        out = page.locator(".jp-OutputArea-output").filter(has_text="PYTHON SAW")
        out.wait_for(timeout=60_000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "jupyterlab.png"))
        assert "PYTHON SAW ['QD'] QD R30" in out.inner_text()

        # the quiz's "New questions" button asks Python for a fresh bank (the next seed)
        run_cell(page, 2)
        new = page.locator('.jp-OutputArea button[data-action="new"]')
        new.wait_for(timeout=60_000)
        first = page.locator(".jp-OutputArea .loo-prompt").last.inner_text()
        new.click()
        page.wait_for_function(
            "t => [...document.querySelectorAll('.jp-OutputArea .loo-prompt')]"
            ".some(e => e.innerText !== t) || false",
            arg=first,
            timeout=30_000,
        )
        run_cell(page, 3)
        quiz_out = page.locator(".jp-OutputArea-output").filter(has_text="QUIZ NOW")
        quiz_out.wait_for(timeout=60_000)
        assert "QUIZ NOW 2 ['lead-2-0', 'lead-2-1']" in quiz_out.inner_text()

        # the option explorer: the same controller as in the book, here behind the kernel
        run_cell(page, 4)
        verdict = page.locator('.jp-OutputArea .loo-explore-verdict[data-answer="5S"]')
        verdict.wait_for(timeout=60_000)
        page.locator('.jp-OutputArea select[data-key="explore-preset"]').select_option(label="peel")
        page.locator('.jp-OutputArea .loo-explore-verdict:not([data-answer="5S"])').wait_for(
            timeout=30_000
        )
        run_cell(page, 5)
        ex_out = page.locator(".jp-OutputArea-output").filter(has_text="EXPLORE NOW")
        ex_out.wait_for(timeout=60_000)
        assert "EXPLORE NOW" in ex_out.inner_text() and "['5S']" not in ex_out.inner_text()

        # the declarations explorer (lessons 3 and 4): a seat's select, answered by the kernel
        run_cell(page, 6)
        seat = page.locator('.jp-OutputArea select[data-key="explore-seat-1"]')
        seat.wait_for(timeout=60_000)
        seat.select_option(label="take miss")
        page.locator('.jp-OutputArea .loo-explore-verdict[data-answer="play pass"]').wait_for(timeout=30_000)
        run_cell(page, 7)
        dec_out = page.locator(".jp-OutputArea-output").filter(has_text="DECLARED NOW")
        dec_out.wait_for(timeout=60_000)
        assert "DECLARED NOW take miss ['pass', 'play']" in dec_out.inner_text()

        # the quiz's last screen: "Show the result code" shows it here too (issue 15: an
        # anywidget model fires no change for an equal value, and the view waited for one)
        run_cell(page, 8)
        show = page.locator('.jp-OutputArea button[data-action="export-code"]')
        show.wait_for(timeout=60_000)
        show.click()
        code = page.locator(".jp-OutputArea textarea[data-result-code]")
        code.wait_for(timeout=30_000)
        text = code.input_value()
        assert text.startswith("loo2.")  # results carry answers (quiz.results.Submission)
        from loo_lessons.quiz.results import from_code

        assert from_code(text).class_code == "lead-2-2"

def test_a_glossary_link_in_a_lesson_opens_the_entry(
    lessons_lab: tuple[str, str], browser: Browser
) -> None:
    """Lesson 1's link to the glossary's "Loo" opens the glossary in JupyterLab, scrolled to
    that entry, headed as the book heads it."""
    base, token = lessons_lab
    with lab_page(browser, lessons_lab, "notebooks/01-welcome.ipynb", 1280, 800) as page:
        link = page.locator('.jp-RenderedMarkdown a[href*="glossary.md"][href$="#loo"]').first
        link.wait_for(state="attached", timeout=90_000)
        link.scroll_into_view_if_needed()
        link.click()
        entry = page.locator('.jp-RenderedMarkdown h2[data-jupyter-id="loo"]')
        entry.wait_for(timeout=30_000)
        page.wait_for_timeout(500)  # the preview scrolls once it has rendered
        assert entry.inner_text().replace("¶", "").strip() == "Loo"
        box, pane = entry.bounding_box(), page.locator(".jp-MarkdownViewer").last.bounding_box()
        assert box is not None and pane is not None
        assert pane["y"] <= box["y"] <= pane["y"] + pane["height"], "the entry is not in view"
        first = page.locator('.jp-RenderedMarkdown h2[data-jupyter-id="pool"]')
        assert first.bounding_box() is None or first.bounding_box()["y"] < pane["y"], (  # type: ignore[index]
            "the glossary opened at its top, not at the entry"
        )
        # the pages the book generates are there too, where the lessons link to them
        for page_path in ("book/generated/variants.md", "book/generated/sources.md"):
            r = page.request.get(f"{base}/api/contents/{page_path}?token={token}")
            assert r.status == 200 and "R0" in r.json()["content"], page_path


def test_a_lesson_opens_ready_how_to_start_and_no_code(
    lessons_lab: tuple[str, str], browser: Browser
) -> None:
    """Issue 34: a learner who never used Jupyter opens a lesson and sees first how to start
    (Run All Cells), then prose: every code cell's input collapsed (JupyterLab honours the
    cells' `jupyter.source_hidden`), no Python in sight."""
    with lab_page(browser, lessons_lab, "notebooks/05-leading.ipynb") as page:
        cells = page.locator(".jp-Notebook .jp-Cell")
        cells.first.locator(".jp-RenderedMarkdown em", has_text="Run All Cells").wait_for(timeout=90_000)
        # JupyterLab draws a long notebook's cells a few at a time: wait until every code cell
        # of the file is drawn, each collapsed to its placeholder
        nb = json.loads((ROOT / "notebooks" / "05-leading.ipynb").read_text(encoding="utf-8"))
        expected = sum(c["cell_type"] == "code" for c in nb["cells"])
        assert expected > 5
        page.wait_for_function(
            "n => document.querySelectorAll('.jp-Notebook .jp-CodeCell').length === n"
            " && document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPlaceholder').length === n",
            arg=expected,
            timeout=60_000,
        )
        code = page.locator(".jp-Notebook .jp-CodeCell")
        shown = page.evaluate(
            """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputArea-editor')]
                .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height > 0)
                .map(e => e.innerText.slice(0, 40))"""
        )
        assert shown == [], shown
        # each code cell is collapsed to JupyterLab's one-line placeholder, which holds no answer
        collapsed = page.locator(".jp-Notebook .jp-CodeCell .jp-InputPlaceholder")
        assert collapsed.count() == code.count() == expected
        picks = [t for t in collapsed.all_inner_texts() if "L.pick(" in t]
        assert picks and not [t for t in picks if "after=" in t or "prompt=" in t], picks


def test_a_lesson_is_saved_as_committed(lessons_lab: tuple[str, str], tmp_path: Path) -> None:
    """JupyterLab as `make lessons` runs it saves a run lesson without its outputs: the file
    on disk is byte for byte the committed lesson (so `git status` stays clean), while an
    edit to a cell is kept."""
    base, token = lessons_lab
    name = "03-declaring.ipynb"
    committed = (ROOT / "notebooks" / name).read_text(encoding="utf-8")
    nb = json.loads(committed)
    for n, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            cell["execution_count"] = n
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "seen\n"}]
            cell["metadata"]["execution"] = {"iopub.status.idle": "2026-01-01T00:00:00Z"}
    nb["metadata"]["language_info"] = {"name": "python", "version": "3.11.7"}

    def put(content: dict[str, object]) -> None:
        body = json.dumps({"type": "notebook", "format": "json", "content": content}).encode()
        req = urllib.request.Request(
            f"{base}/api/contents/notebooks/{name}?token={token}", data=body, method="PUT"
        )
        req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.status == 200

    on_disk = tmp_path / "root" / "notebooks" / name
    put(nb)
    assert on_disk.read_text(encoding="utf-8") == committed
    nb["cells"][0]["source"] = "# My notes\n"
    put(nb)
    saved = json.loads(on_disk.read_text(encoding="utf-8"))
    assert "".join(saved["cells"][0]["source"]) == "# My notes\n"
    assert all(c.get("outputs", []) == [] for c in saved["cells"])


def test_run_all_leaves_each_step_of_lesson_12_at_its_own_step(
    lessons_lab: tuple[str, str], browser: Browser
) -> None:
    """After "Run All Cells" on lesson 12, the learner's own table (its only play table: the
    walk-through of her deal went, issue 34) waits at the first decision, with "Start again"."""
    from loo_lessons import lessons as L

    steps = [L.play(39)]  # `game`, the learner's own table
    expected = [
        f"{len(s.data['log'])}|{','.join(c['key'] for c in s.data['choices'] or [])}" for s in steps
    ]
    with lab_page(browser, lessons_lab, "notebooks/12-play-a-hand.ipynb") as page:
        page.locator("#jp-main-statusbar").get_by_text(re.compile(r"Idle")).wait_for(timeout=90_000)
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
        last = page.locator(".jp-Notebook .jp-CodeCell").last
        page.wait_for_function(
            # the input is collapsed (issue 34: no code in sight), so its prompt shows nothing:
            # the cell's output prompt says it ran
            "el => [...el.querySelectorAll('.jp-InputPrompt, .jp-OutputPrompt')]"
            ".some(p => /\\[\\d+\\]/.test(p.textContent))",
            arg=last.element_handle(),
            timeout=180_000,
        )
        page.wait_for_function(
            "n => document.querySelectorAll('.jp-OutputArea .loo-play-prompt:not(.loo-evening *)').length >= n",
            arg=len(steps),
            timeout=60_000,
        )
        shown = page.evaluate(
            """() => [...document.querySelectorAll('.jp-OutputArea .loo-play-prompt:not(.loo-evening *)')].map(p => {
                const out = p.closest('.jp-OutputArea-output');
                const keys = [...out.querySelectorAll('.loo-choices [data-key]')].map(b => b.dataset.key);
                return `${p.dataset.moves}|${keys.join(',')}`;
            })"""
        )
        assert shown == expected
        # the engine's explanation wraps between words in a 1280-px window, never inside one
        split = page.evaluate(
            """() => {
                const box = document.querySelector('.jp-OutputArea .loo-explain');
                if (!box) return null;
                const fold = box.closest('details');  // (the lesson folds it: opened, as a reader would)
                if (fold) fold.open = true;
                box.scrollIntoView();
                const words = [], walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
                for (let text = walk.nextNode(); text; text = walk.nextNode()) {
                    const re = /\\S+/g;
                    let m;
                    while ((m = re.exec(text.data))) {
                        const r = document.createRange();
                        r.setStart(text, m.index);
                        r.setEnd(text, m.index + m[0].length);
                        const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
                        if (tops.size > 1) words.push(m[0]);
                    }
                }
                return words;
            }"""
        )
        assert split == [], f"words broken across lines: {split}"
        own = (
            page.locator(".jp-OutputArea-output").filter(has=page.locator(".loo-play-prompt")).first
        )
        assert own.locator('button[data-action="restart"]').get_attribute("data-focus") == (
            "play-restart"
        )
        assert own.locator('.loo-choices [data-key="play"]').count() == 1
        # the evening at the end of the lesson: its table and "Ask the coach", answered by the kernel
        evening = page.locator(".jp-OutputArea-output").filter(has=page.locator(".loo-evening-now"))
        assert evening.count() == 1
        assert evening.locator(".loo-evening-now").get_attribute("data-deal") == "1"
        evening.locator('button[data-action="coach"]').click()
        evening.locator(".loo-coach tbody tr").first.wait_for(timeout=60_000)
        assert "Strategy, not law" in evening.locator(".loo-coach").inner_text()


KEYS_NOTEBOOK = (
    "from loo_lessons import lessons as L\n"
    "x = L.explore('follow-under-trump-hoffmann', options=('void_trump_rule',))\nx",
    "s = L.search()\ns",
    "b = L.lab(hands=20)\nb",
)


@pytest.fixture
def keys_lab(tmp_path: Path) -> Iterator[tuple[str, str]]:
    root = tmp_path / "notebooks"
    root.mkdir()
    nb = notebook()
    nb["cells"] = [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": src}
        for src in KEYS_NOTEBOOK
    ]
    (root / "keys.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    with serve(tmp_path, root) as served:
        yield served


def test_keys_pressed_in_a_select_stay_in_the_widget(
    keys_lab: tuple[str, str], browser: Browser
) -> None:
    """Arrows, `j`/`k` and `m` typed in an explorer's, a search's or a lab's select box go to
    the box, not to JupyterLab: the cell stays a code cell with its widget, the notebook's
    active cell does not move, and the box's own value changes with the arrow."""
    with lab_page(browser, keys_lab, "keys.ipynb", 1400, 1000) as page:
        page.locator("#jp-main-statusbar").get_by_text(re.compile(r"Idle")).wait_for(timeout=90_000)
        cells = page.locator(".jp-Notebook .jp-Cell")
        for index, key in enumerate(("explore-void_trump_rule", "rules", "rules")):
            cells.nth(index).locator(".jp-InputArea-editor").click()
            page.keyboard.press("Control+Enter")  # run, and stay on this cell
            out = cells.nth(index).locator(".jp-OutputArea")
            select = out.locator(f'select[data-key="{key}"]:not([disabled])')
            select.wait_for(timeout=60_000)
            select.focus()
            before = select.input_value()
            handle = select.element_handle()
            for k in ("m", "j", "k", "ArrowDown"):
                page.keyboard.press(k)
            page.wait_for_function(
                "([el, v]) => el.isConnected ? el.value !== v"
                " : document.activeElement.value !== v",
                arg=[handle, before],
                timeout=30_000,
            )
            page.wait_for_timeout(300)
            assert cells.count() == len(KEYS_NOTEBOOK)
            assert cells.nth(index).evaluate("c => c.classList.contains('jp-CodeCell')"), (
                f"cell {index} was turned into another kind of cell"
            )
            active = page.evaluate(
                "() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')]"
                ".findIndex(c => c.classList.contains('jp-mod-active'))"
            )
            assert active == index, f"the active cell moved from {index} to {active}"
            assert out.locator(f'select[data-key="{key}"]').count() == 1
