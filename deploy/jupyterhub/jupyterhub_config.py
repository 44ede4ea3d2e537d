# A JupyterHub for one class on one machine, kept apart as The Littlest JupyterHub keeps
# its users: each pupil logs in with their own name and their own password (from the class
# list the teacher makes), and their server runs as a Unix user of their own, made by the hub
# on their first login, with a private home (0700) holding their own copy of the lessons.
# The lessons' quizzes post each answer to the class results service (run by the hub); the
# teacher reads the class's answers there, live.
#
#   (deploy/README.md has the steps; run as root, since the hub makes Unix users)
#   loo-lessons class add-pupils /var/lib/loo-hub/class-list ann bob teacher
#   LOO_HUB_TEACHERS=teacher jupyterhub -f deploy/jupyterhub/jupyterhub_config.py
#
# Everything is set by environment variables (all optional), so the same file serves a class
# and the tests (tests/test_jupyterhub.py), which run exactly this file:
#
#   LOO_HUB_STATE       the hub's database, cookie secret, class list, answers, pid file;
#                       outside the project folder (default /var/lib/loo-hub as root,
#                       else ~/.local/state/loo-hub)
#   LOO_HUB_CLASS_LIST  the class list (default STATE/class-list)
#   LOO_HUB_HOMES       where the pupils' homes are made (default /home)
#   LOO_HUB_TEACHERS    "ann,bob": the hub group `teachers` (they see the class's results)
#   LOO_HUB_ADMINS      "tess": hub admins (teachers too; they can also stop pupils' servers)
#   LOO_HUB_GIT_REPOS   local git repositories (":"-separated) pupils may pull from with
#                       nbgitpuller (git refuses another user's repository otherwise)
#   LOO_HUB_IP          address pupils reach (default: every interface)
#   LOO_HUB_PORT        port pupils reach (default 8000)
#   LOO_HUB_HUB_PORT, LOO_HUB_API_PORT, LOO_HUB_RESULTS_PORT
#                       the hub's, the proxy's and the results service's own ports
#                       (8081, 8001, 8002), all on 127.0.0.1
# `c` is given by JupyterHub when it loads this file.
# ruff: noqa: F821

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
env = os.environ.get


def _names(variable):  # type: ignore[no-untyped-def]
    return {n.strip() for n in env(variable, "").split(",") if n.strip()}


default_state = (
    Path("/var/lib/loo-hub") if os.geteuid() == 0 else Path.home() / ".local/state/loo-hub"
)
state = Path(env("LOO_HUB_STATE", str(default_state))).resolve()
if state == REPO or REPO in state.parents:
    sys.exit(
        f"LOO_HUB_STATE: {state} is inside the project folder {REPO}; keep the hub's state "
        "(database, secrets, pupils' answers) outside it, e.g. /var/lib/loo-hub"
    )
state.mkdir(parents=True, exist_ok=True, mode=0o700)

from loo_lessons.classroom.pupils import PUPIL_COMMENT, reachable_by_all  # noqa: E402

# Pupils' servers run as the pupils, with this Python and these lessons: all must be theirs
# to reach (a Python under /root, or a project in a private home, is not).
for needed in (sys.executable, os.__file__, REPO / "tools" / "lab_root.py"):
    if not reachable_by_all(needed):
        sys.exit(
            f"{needed}: the pupils' servers cannot reach it (they run as the pupils): make the "
            "hub's venv from a Python every user may run, outside private folders, e.g. "
            "/usr/bin/python3 -m venv /opt/loo-hub/venv (deploy/README.md)"
        )
homes = Path(env("LOO_HUB_HOMES", "/home")).resolve()
class_list = Path(env("LOO_HUB_CLASS_LIST", str(state / "class-list"))).resolve()


c = get_config()  # type: ignore[name-defined]

# --- where the hub listens, and where it keeps its state ----------------------------------
c.JupyterHub.ip = env("LOO_HUB_IP", "")
c.JupyterHub.port = int(env("LOO_HUB_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(env("LOO_HUB_HUB_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{env('LOO_HUB_API_PORT', '8001')}"
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(state / "jupyterhub-proxy.pid")
# The proxy installed from deploy/jupyterhub/package-lock.json, if it is there.
proxy = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
if proxy.exists():
    c.ConfigurableHTTPProxy.command = [str(proxy)]

# --- who may log in: a name on the class list, with that name's own password --------------
c.JupyterHub.authenticator_class = "loo_lessons.classroom.auth.ClassListAuthenticator"
c.ClassListAuthenticator.class_list = str(class_list)
c.ClassListAuthenticator.homes = str(homes)
c.ClassListAuthenticator.create_system_users = True
# A new pupil: a Unix user with a private home (0700) under LOO_HUB_HOMES, no password of
# its own (they log in through the hub only). The hub adds the name at the end.
c.ClassListAuthenticator.add_user_cmd = [
    "useradd",
    "--create-home",
    "--home-dir",
    f"{homes}/USERNAME",
    "--key",
    "UMASK=0077",
    "--shell",
    "/bin/bash",
    "--comment",
    PUPIL_COMMENT,  # only users with this comment are ever taken as pupils
]
c.Authenticator.allow_all = True  # the class list is the list: authenticate() checks it
c.Authenticator.admin_users = _names("LOO_HUB_ADMINS")
c.JupyterHub.load_groups = {"teachers": {"users": sorted(_names("LOO_HUB_TEACHERS"))}}

# --- each pupil's own JupyterLab, as their own Unix user ----------------------------------
c.JupyterHub.spawner_class = "localprocess"
# pupil-server.py lays out the pupil's copy of the lessons (as the pupil), then becomes
# jupyterhub-singleuser, from the Python that runs the hub (where loo-lessons is installed).
c.Spawner.cmd = [sys.executable, str(HERE / "pupil-server.py")]
c.Spawner.default_url = "/lab/tree/loo-lessons/notebooks/01-welcome.ipynb"
c.Spawner.notebook_dir = "~"
# Measured with `python -m loo_lessons.classroom.bench` (deploy/README.md): 25 pupils asking
# at once on a busy 2-core machine were all running after 83 s and 61 s in two runs.
# The timeouts leave twice that: a spawn that times out is a pupil told to try again.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 120
# Spawns at once: more queue rather than fail ("too many users trying to log in").
c.JupyterHub.concurrent_spawn_limit = 30

# --- the class results service -------------------------------------------------------------
results_port = int(env("LOO_HUB_RESULTS_PORT", "8002"))
results_url = f"http://127.0.0.1:{results_port}"
c.JupyterHub.services = [
    {
        "name": "class-results",
        "url": results_url,
        "command": [
            sys.executable,
            "-m",
            "loo_lessons.classroom.service",
            "--db",
            str(state / "class-results.sqlite"),
        ],
        "oauth_no_confirm": True,
        "display": True,
    }
]
c.JupyterHub.load_roles = [
    # every pupil may use the service (it lets each post and read only their own)
    {"name": "user", "scopes": ["self", "access:services!service=class-results"]},
    # the service asks the hub who is an admin or a teacher
    {
        "name": "class-results",
        "services": ["class-results"],
        "scopes": ["read:users", "read:groups"],
    },
]
# A pupil's kernel posts answers with the pupil's own token (JUPYTERHUB_API_TOKEN), which
# may reach the service, and to the service directly (LOO_CLASS_RESULTS_URL).
c.Spawner.server_token_scopes = [
    "users:activity!user",
    "access:servers!server",
    "access:services!service=class-results",
]
c.Spawner.environment = {
    "LOO_CLASS_RESULTS_URL": f"{results_url}/services/class-results/",
    "LOO_HUB_GIT_REPOS": env("LOO_HUB_GIT_REPOS", ""),
}
