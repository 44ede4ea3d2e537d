"""A class on one server: a real JupyterHub, real Unix users, the results service, nbgitpuller.

The hub is started once for the module from the class recipe itself
(deploy/jupyterhub/jupyterhub_config.py, driven by `loo_lessons.classroom.drive`) on
127.0.0.1 and free ports, with a class list of four (two pupils, a teacher by the hub group
`teachers` and one by being the hub's admin, each with their own password) and the pupils'
homes in a fresh folder. The tests then, in order:

- refuse a wrong password, an unknown name, and one pupil's password for another's name;
- spawn both pupils' servers at once: each runs as the pupil's own Unix user, made by the
  hub on first login, in a private home (0700) holding their own copy of the lessons, and
  runs every code cell of lesson 1;
- show that pupil A's kernel can neither read nor write B's files;
- post answers from both pupils' kernels to the results service (`quiz.post`, the
  kernel's own JUPYTERHUB_API_TOKEN); the teacher's dashboard and CSV show both; a pupil
  posting as another, or reading the dashboard or the CSV, is refused (403);
- pull a local git repository into a pupil's home with nbgitpuller, twice, without
  touching the teacher's checkout;
- stop a pupil's server: their URL answers 424 until /hub/spawn brings it back.

Afterwards every process recorded is stopped by its pid and the Unix users are removed.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import stat
import subprocess
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from loo_lessons.classroom.drive import (
    LESSON,
    REPO,
    Hub,
    Kernel,
    class_hub,
    log_in,
    log_in_status,
    run_lesson,
    server_pid,
    spawn,
    token_for,
)
from loo_lessons.quiz.classroom import questions_of
from loo_lessons.widgets.static import decoded_html

TAG = secrets.token_hex(3)
ANN, BOB, TESS, ADA = f"ann-{TAG}", f"bob-{TAG}", f"tess-{TAG}", f"ada-{TAG}"
PUPILS = (ANN, BOB)
PASSWORDS = {name: secrets.token_urlsafe(12) for name in (ANN, BOB, TESS, ADA)}
CODE = "lead-3-7"
SERVICE = "/services/class-results"


def git(*args: str, cwd: Path | str = REPO, user: str | None = None) -> str:
    """git's answer, run as `user` (a pupil's repository is theirs: git refuses root)."""
    env = {**os.environ, "HOME": pwd.getpwnam(user).pw_dir} if user else None
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, user=user, env=env
    ).stdout.strip()


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    assert os.geteuid() == 0, "the class hub makes a Unix user per pupil: run the tests as root"
    state = tmp_path_factory.mktemp("hub-state")
    # the teacher's repository, as a class would publish it: a bare copy anyone may read
    published = Path(tempfile.mkdtemp(prefix="loo-hub-git-"))
    try:
        published.chmod(0o755)
        origin = published / "loo-lessons.git"
        git("clone", "--quiet", "--bare", "--no-hardlinks", str(REPO), str(origin))
        subprocess.run(["chmod", "-R", "a+rX", str(origin)], check=True)
        env = {
            "LOO_HUB_TEACHERS": TESS,  # a teacher by the hub group `teachers`
            "LOO_HUB_ADMINS": ADA,  # a teacher by being the hub's admin
            "LOO_HUB_GIT_REPOS": str(origin),
        }
        with class_hub(PASSWORDS, env, state=state) as h:
            yield h
    finally:
        shutil.rmtree(published, ignore_errors=True)
    assert not h.survivors, f"processes of the hub survived: {h.survivors}"


@pytest.fixture(scope="module")
def sessions(hub: Hub) -> dict[str, requests.Session]:
    """Each one logged in through the form, as their browser would be."""
    return {n: log_in(hub, n, PASSWORDS[n]) for n in PASSWORDS}


@pytest.fixture(scope="module")
def tokens(hub: Hub, sessions: dict[str, requests.Session]) -> dict[str, str]:
    return {n: token_for(hub, s, n) for n, s in sessions.items()}


@pytest.fixture(scope="module")
def servers(hub: Hub, tokens: dict[str, str]) -> dict[str, int]:
    """Both pupils' servers, spawned at once; their pids."""
    with ThreadPoolExecutor(len(PUPILS)) as pool:
        list(pool.map(lambda n: spawn(hub, n, tokens[n]), PUPILS))
    pids = {name: server_pid(hub, name) for name in PUPILS}
    hub.pids |= set(pids.values())
    return pids


def test_a_name_opens_only_with_its_own_password(hub: Hub) -> None:
    assert log_in_status(hub, ANN, "not-" + PASSWORDS[ANN])[0] != 302, "a wrong password"
    assert log_in_status(hub, f"zed-{TAG}", PASSWORDS[ANN])[0] != 302, "an unknown name"
    assert log_in_status(hub, BOB, PASSWORDS[ANN])[0] != 302, "ann's password opened bob"
    assert log_in_status(hub, "root", PASSWORDS[ANN])[0] != 302, "root is not a pupil"
    with pytest.raises(KeyError):
        pwd.getpwnam(f"zed-{TAG}")  # a refused name is never made a user


def test_each_pupil_runs_lesson_one_as_their_own_user(
    hub: Hub, tokens: dict[str, str], servers: dict[str, int]
) -> None:
    outsider = requests.post(
        f"{hub.url}/hub/api/users/{ANN}/server",
        headers={"Authorization": f"token {tokens[BOB]}"},
        timeout=10,
    )
    assert outsider.status_code in (403, 404), "one pupil could start another's server"
    for name, pid in servers.items():
        user = pwd.getpwnam(name)  # made by the hub on first login
        assert Path(user.pw_dir) == hub.homes / name
        assert os.stat(f"/proc/{pid}").st_uid == user.pw_uid, f"{name}'s server is not theirs"
        home = os.stat(user.pw_dir)
        assert (home.st_uid, stat.S_IMODE(home.st_mode)) == (user.pw_uid, 0o700)
        own = Path(user.pw_dir) / "loo-lessons" / "notebooks" / LESSON
        assert own.exists(), f"{name} has no copy of the lessons"
        assert own.stat().st_uid == user.pw_uid
        assert (own.parent.parent / "book" / "glossary.md").exists()

    with ThreadPoolExecutor(len(PUPILS)) as pool:
        runs = dict(
            zip(PUPILS, pool.map(lambda n: run_lesson(hub, n, tokens[n]), PUPILS), strict=True)
        )
    for name, (count, outputs, cwd) in runs.items():
        assert count >= 5, f"lesson 1 has only {count} code cells"
        errors = [o for out in outputs for o in out if o["output_type"] == "error"]
        assert not errors, f"{name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
        shown = [o for out in outputs for o in out if o["output_type"] != "stream"]
        assert len(shown) >= count - 1, f"{name}: cells showed nothing"
        # a component's state travels encoded (issue 34: no answer readable in the page)
        html = decoded_html(" ".join(o.get("data", {}).get("text/html", "") for o in shown))
        assert "Hoffmann" in html, f"{name}: lesson 1 shows no book's words"
        assert Path(cwd) == hub.homes / name / "loo-lessons" / "notebooks"

    r = requests.get(
        f"{hub.url}/user/{ANN}/api/contents",
        headers={"Authorization": f"token {tokens[BOB]}"},
        allow_redirects=False,
        timeout=10,
    )
    assert r.status_code in (302, 403), f"bob read ann's files through her server: {r.status_code}"


def test_a_pupils_kernel_can_neither_read_nor_write_anothers_files(
    hub: Hub, tokens: dict[str, str], servers: dict[str, int]
) -> None:
    secret = hub.homes / BOB / "loo-lessons" / "notebooks" / LESSON
    probe = f"""
import os
for what, act in [
    ("list", lambda: os.listdir({str(hub.homes / BOB)!r})),
    ("read", lambda: open({str(secret)!r}).read()),
    ("write", lambda: open({str(hub.homes / BOB / "planted.txt")!r}, "w").write("x")),
    ("write-in", lambda: open({str(secret.parent / "planted.txt")!r}, "w").write("x")),
]:
    try:
        act()
        print(what, "ALLOWED")
    except PermissionError:
        print(what, "refused")
print("uid", os.getuid())
"""
    with Kernel(hub, ANN, tokens[ANN]) as k:
        said = k.text(probe).split("\n")
    assert said[:4] == ["list refused", "read refused", "write refused", "write-in refused"]
    assert said[4] == f"uid {pwd.getpwnam(ANN).pw_uid}"
    assert not (hub.homes / BOB / "planted.txt").exists()
    assert not (secret.parent / "planted.txt").exists()


def post_from_kernel(k: Kernel, records: list[dict[str, object]]) -> list[int]:
    """Each record posted by `quiz.post.send` in the pupil's kernel; the statuses."""
    code = (
        "import json\nfrom loo_lessons.quiz import post\n"
        f"print(json.dumps([post.send(r) for r in json.loads({json.dumps(records)!r})]))"
    )
    statuses: list[int] = json.loads(k.text(code))
    return statuses


def test_the_teacher_sees_every_pupils_answers_live(
    hub: Hub,
    sessions: dict[str, requests.Session],
    tokens: dict[str, str],
    servers: dict[str, int],
) -> None:
    dealt = questions_of(CODE)
    q0, q1 = dealt[0], dealt[1]
    right = list(q0.answer)
    wrong = [k.key for k in q1.choices if k.key not in q1.answer][:1] or list(q1.answer)
    with Kernel(hub, ANN, tokens[ANN]) as k:
        statuses = post_from_kernel(
            k,
            [
                {
                    "class_code": CODE,
                    "question_id": q0.id,
                    "answer": right,
                    "seconds": 4.5,
                    "attempt": 1,
                },
                {
                    "class_code": CODE,
                    "question_id": q1.id,
                    "answer": wrong,
                    "seconds": 7,
                    "attempt": 1,
                },
                # posting as bob is refused, and so is what the code cannot have dealt
                {
                    "class_code": CODE,
                    "question_id": q0.id,
                    "answer": right,
                    "attempt": 1,
                    "pupil": BOB,
                },
                {"class_code": CODE, "question_id": "lead-99-0", "answer": right, "attempt": 1},
                {"class_code": CODE, "question_id": q0.id, "answer": ["=cmd|calc"], "attempt": 1},
                # an answer is final once posted, and attempt 3 is not ann's next (issue 24)
                {"class_code": CODE, "question_id": q1.id, "answer": list(q1.answer), "attempt": 1},
                {"class_code": CODE, "question_id": q1.id, "answer": list(q1.answer), "attempt": 3},
            ],
        )
        assert statuses == [201, 201, 403, 400, 400, 409, 409], statuses
        # a pupil cannot read the class's dashboard or CSV, even from their kernel
        reads = k.text(
            "import os, urllib.request, urllib.error\n"
            "base = os.environ['LOO_CLASS_RESULTS_URL']\n"
            "h = {'Authorization': 'token ' + os.environ['JUPYTERHUB_API_TOKEN']}\n"
            f"for page in ('dashboard?code={CODE}', 'csv?code={CODE}'):\n"
            "    try:\n"
            "        urllib.request.urlopen(urllib.request.Request(base + page, headers=h))\n"
            "        print(200)\n"
            "    except urllib.error.HTTPError as e:\n"
            "        print(e.code)\n"
        )
        assert reads.split() == ["403", "403"]
    with Kernel(hub, BOB, tokens[BOB]) as k:
        assert post_from_kernel(
            k,
            [
                {
                    "class_code": CODE,
                    "question_id": q0.id,
                    "answer": right,
                    "seconds": 3,
                    "attempt": 1,
                }
            ],
        ) == [201]

    def get(who: str, page: str) -> requests.Response:
        return requests.get(
            f"{hub.url}{SERVICE}/{page}",
            headers={"Authorization": f"token {tokens[who]}"},
            allow_redirects=False,
            timeout=30,
        )

    assert get(ADA, f"dashboard?code={CODE}").status_code == 200  # an admin is a teacher
    board = get(TESS, f"dashboard?code={CODE}")
    assert board.status_code == 200, board.text[:300]
    for name in PUPILS:
        assert f"<th>{name}</th>" in board.text
    assert f"<th>{ANN}</th><td>1</td><td>1/2</td>" in board.text
    assert f"<th>{BOB}</th><td>1</td><td>1/1</td>" in board.text
    assert f"<b>{q0.rule_ids[0]}</b>" in board.text  # the per-rule mastery, by rule id
    table = get(TESS, f"csv?code={CODE}")
    assert table.status_code == 200
    rows = table.text.strip().split("\n")
    assert rows[0].startswith("name,class_code,attempt,right,answered")
    assert sorted(r.split(",")[0] for r in rows[1:]) == sorted([ANN, BOB])
    assert "=cmd" not in table.text
    for page in (f"dashboard?code={CODE}", f"csv?code={CODE}", ""):
        r = get(ANN, page)
        assert r.status_code in (403, 302), f"ann read {page or 'the home page'}: {r.status_code}"
        assert BOB not in r.text
    mine = get(ANN, "mine")
    assert mine.status_code == 200 and "attempt 1: 1 right of 2 answered" in mine.text
    assert BOB not in mine.text
    # in a browser: the hub's OAuth (login cookie -> authorize -> the service's callback)
    browser = sessions[TESS].get(f"{hub.url}{SERVICE}/dashboard?code={CODE}", timeout=60)
    assert browser.status_code == 200 and f"<th>{ANN}</th><td>1</td><td>1/2</td>" in browser.text
    assert browser.url.endswith(f"{SERVICE}/dashboard?code={CODE}")
    refused = sessions[BOB].get(f"{hub.url}{SERVICE}/dashboard?code={CODE}", timeout=60)
    assert refused.status_code == 403 and ANN not in refused.text
    # without a token or cookie: sent to the hub's login, never shown the table
    anonymous = requests.get(f"{hub.url}{SERVICE}/dashboard?code={CODE}", allow_redirects=False)
    assert anonymous.status_code == 302 and ANN not in anonymous.text


def test_nbgitpuller_pulls_into_the_pupils_home_only(
    hub: Hub, tokens: dict[str, str], servers: dict[str, int]
) -> None:
    origin = Path(hub.env["LOO_HUB_GIT_REPOS"])
    branch = git("rev-parse", "--abbrev-ref", "HEAD")
    git_dir = Path(git("rev-parse", "--absolute-git-dir"))
    before = (
        git("rev-parse", "HEAD"),
        git("status", "--porcelain"),
        sorted(os.listdir(git_dir)),
    )

    def pull() -> str:
        query = urllib.parse.urlencode(
            {"repo": f"file://{origin}", "branch": branch, "targetpath": "lessons-git"}
        )
        r = requests.get(
            f"{hub.url}/user/{ANN}/git-pull/api?{query}",
            headers={"Authorization": f"token {tokens[ANN]}"},
            stream=True,
            timeout=120,
        )
        assert r.status_code == 200, r.text[:300]
        return r.text  # the event stream, read to its end

    first = pull()
    clone = hub.homes / ANN / "lessons-git"
    assert (clone / "notebooks" / LESSON).exists(), first[-1000:]
    assert clone.stat().st_uid == pwd.getpwnam(ANN).pw_uid
    assert git("rev-parse", "HEAD", cwd=clone, user=ANN) == git("rev-parse", branch, cwd=origin)
    # the pupil's change is kept by a later pull
    # (a file of the pupil's own pull: the teacher's checkout may be private to the pupils)
    subprocess.run(["cp", "README.md", "mine.md"], cwd=clone, check=True, user=ANN)
    second = pull()
    assert '"phase": "finished"' in second or "finished" in second, second[-1000:]
    assert (clone / "mine.md").read_text() == (REPO / "README.md").read_text()
    after = (
        git("rev-parse", "HEAD"),
        git("status", "--porcelain"),
        sorted(os.listdir(git_dir)),
    )
    assert after == before, "nbgitpuller touched the teacher's checkout"
    assert not (hub.homes / BOB / "lessons-git").exists()


def test_a_stopped_server_comes_back_through_spawn(
    hub: Hub, tokens: dict[str, str], servers: dict[str, int]
) -> None:
    auth = {"Authorization": f"token {tokens[BOB]}"}
    r = requests.delete(f"{hub.url}/hub/api/users/{BOB}/server", headers=auth, timeout=30)
    assert r.status_code in (202, 204), r.status_code
    deadline = time.monotonic() + 30
    while requests.get(f"{hub.url}/hub/api/user", headers=auth, timeout=10).json()["servers"]:
        assert time.monotonic() < deadline, "bob's server did not stop"
        time.sleep(0.3)
    r = requests.get(f"{hub.url}/user/{BOB}/api/status", headers=auth, timeout=10)
    assert r.status_code == 424, r.status_code
    session = log_in(hub, BOB, PASSWORDS[BOB])
    asked = session.get(f"{hub.url}/hub/spawn", timeout=60)  # follows spawn-pending
    deadline = time.monotonic() + 90
    while (
        requests.get(f"{hub.url}/user/{BOB}/api/status", headers=auth, timeout=10).status_code
        != 200
    ):
        # on failure: what the hub, the spawner and bob's server said (not the status polls)
        assert time.monotonic() < deadline, (
            f"/hub/spawn did not bring bob back (it answered {asked.status_code} at {asked.url}); "
            f"the hub's state of bob: "
            f"{requests.get(f'{hub.url}/hub/api/user', headers=auth, timeout=10).json().get('servers')}\n"
            f"{hub.log_about(BOB)}"
        )
        time.sleep(0.3)
    hub.pids.add(server_pid(hub, BOB))
    assert (hub.homes / BOB / "loo-lessons" / "notebooks" / LESSON).exists()
