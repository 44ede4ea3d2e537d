"""JupyterLab smoke test: a live component's click reaches Python.

A temporary copy of a two-cell notebook is served by `jupyter lab` (its own process group,
a temporary config dir with the announcements pop-up disabled, a random token, a free
port). Chromium opens it, waits for the kernel to be idle (the status bar, not the
toolbar), runs the first cell (a PickCard), clicks a card, and runs the second cell, which
prints what Python saw. See design.md, "Traps measured".
"""

from __future__ import annotations

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
from collections.abc import Iterator
from pathlib import Path

import pytest
from _browser import SHOTS
from playwright.sync_api import Browser, Page, Route

import loo_lessons

SCENARIO = Path(loo_lessons.__file__).parent / "scenarios" / "trump-after-trick-lead-a-trump.yaml"
JUPYTER = Path(sys.executable).parent / "jupyter"


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


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[tuple[str, str]]:
    root = tmp_path / "notebooks"
    root.mkdir()
    (root / "smoke.ipynb").write_text(json.dumps(notebook()), encoding="utf-8")
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


def run_cell(page: Page, index: int) -> None:
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")


def test_a_click_in_jupyterlab_reaches_python(lab: tuple[str, str], browser: Browser) -> None:
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
        # the status bar says Idle only once the kernel exists (the toolbar says it before)
        page.locator("#jp-main-statusbar").get_by_text(re.compile(r"Idle")).wait_for(timeout=90_000)
        run_cell(page, 0)
        card = page.locator(".jp-OutputArea .loo-choices").get_by_role(
            "button", name=re.compile("queen of diamonds")
        )
        card.wait_for(timeout=60_000)
        card.click()
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
        page.locator('.jp-OutputArea .loo-explore-verdict:not([data-answer="5S"])').wait_for(timeout=30_000)
        run_cell(page, 5)
        ex_out = page.locator(".jp-OutputArea-output").filter(has_text="EXPLORE NOW")
        ex_out.wait_for(timeout=60_000)
        assert "EXPLORE NOW" in ex_out.inner_text() and "['5S']" not in ex_out.inner_text()
    finally:
        page.close()
    assert external == []
