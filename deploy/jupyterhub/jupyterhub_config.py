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
#   LOO_HUB_STATE       the hub's database, cookie secrets (the hub's and each service's,
#                       kept so that a restart logs nobody out), class list, answers, pid file;
#                       outside the project folder (default /var/lib/loo-hub as root,
#                       else ~/.local/state/loo-hub)
#   LOO_HUB_CLASS_LIST  the class list (default STATE/class-list)
#   LOO_HUB_HOMES       where the pupils' homes are made (default /home)
#   LOO_HUB_TEACHERS    "ann,bob": the hub group `teachers` (they see the class's results)
#   LOO_HUB_ADMINS      "tess": hub admins (teachers too; they can also stop pupils' servers)
#   LOO_HUB_GIT_REPOS   local git repositories (":"-separated) pupils may pull from with
#                       nbgitpuller (git refuses another user's repository otherwise)
#   LOO_HUB_IP          address pupils reach (default 127.0.0.1: this machine only, for a
#                       school's own HTTPS proxy in front; "" or 0.0.0.0 is every interface,
#                       which needs HTTPS below, or LOO_HUB_ALLOW_HTTP=1 on a closed network)
#   LOO_HUB_PORT        port pupils reach (default 8000)
#   LOO_HUB_SSL_CERT, LOO_HUB_SSL_KEY
#                       HTTPS: the school's certificate and its key (or a self-signed pair,
#                       deploy/README.md), both or neither
#   LOO_HUB_CULL_TIMEOUT
#                       seconds a pupil's server may sit idle before the idle culler stops it
#                       (default 3600; their work is saved, the next login starts it again)
#   LOO_HUB_MEM_LIMIT, LOO_HUB_CPU_LIMIT
#                       each pupil's memory ("1G", "512M") and CPU share (1.0 = one core),
#                       enforced by a control group of their own (default 1G and 1.0; "" for none)
#   LOO_HUB_HUB_PORT, LOO_HUB_API_PORT, LOO_HUB_RESULTS_PORT, LOO_HUB_TABLES_PORT
#                       the hub's, the proxy's, the results service's and the tables service's
#                       own ports (8081, 8001, 8002, 8003), all on 127.0.0.1
#   LOO_HUB_TABLE_AWAY  seconds a pupil at a table may be quiet before their seat's bot plays
#                       for them (default 30; they take the seat back on their next request)
# `c` is given by JupyterHub when it loads this file.
# ruff: noqa: F821

import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The project's folder (this file in deploy/jupyterhub of a checkout) or, installed from the
# release (this file in the package, loo_lessons/_hub), the hub's venv: the state stays out of both
REPO = HERE.parent.parent if (HERE.parent.parent / "pyproject.toml").is_file() else Path(sys.prefix)
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

c = get_config()  # type: ignore[name-defined]

# Pupils' servers run as the pupils, with this Python and the installed lessons: all must be
# theirs to reach (a Python under /root, or lessons in a private home, are not). The hub installs
# the project into its own venv (`pip install .`, deploy/README.md), never runs it from a checkout.
import loo_lessons  # noqa: E402
from loo_lessons.classroom.lab_root import lessons_source  # noqa: E402
from loo_lessons.classroom.pupils import PUPIL_COMMENT, unreachable  # noqa: E402

for needed, what in (
    (sys.executable, "the hub's Python"),
    (os.__file__, "the hub's Python's standard library"),
    (loo_lessons.__file__, "the loo_lessons package"),
    (lessons_source() / "notebooks", "the lessons"),
):
    blocked = unreachable(needed)
    if blocked:
        sys.exit(
            f"{what} ({needed}) is not reachable by the pupils' servers, which run as the pupils: "
            f"{blocked}. Install the project into a venv outside private folders, from a Python "
            "every user may run: /usr/bin/python3 -m venv /opt/loo-hub/venv; "
            "/opt/loo-hub/venv/bin/pip install 'loo_lessons-VERSION-py3-none-any.whl[hub]' (or, "
            "from a checkout, -r deploy/jupyterhub/requirements.txt; not `-e`, so the lessons are "
            "copied into the venv; deploy/README.md)"
        )
homes = Path(env("LOO_HUB_HOMES", "/home")).resolve()
class_list = Path(env("LOO_HUB_CLASS_LIST", str(state / "class-list"))).resolve()


# --- where the hub listens, and where it keeps its state ----------------------------------
# By default only this machine reaches the hub: a school serves it to the class over HTTPS,
# from here (the school's certificate) or from its own proxy in front. Pupils' passwords never
# cross a network in plain HTTP unless that is asked for by name.
ip = env("LOO_HUB_IP", "127.0.0.1")
cert, key = env("LOO_HUB_SSL_CERT", ""), env("LOO_HUB_SSL_KEY", "")
if bool(cert) != bool(key):
    sys.exit("LOO_HUB_SSL_CERT, LOO_HUB_SSL_KEY: give both (the certificate and its key) or neither")
for pem in (cert, key):
    if pem and not os.access(pem, os.R_OK):
        sys.exit(f"LOO_HUB_SSL_CERT/KEY: {pem} cannot be read")
if cert:
    c.JupyterHub.ssl_cert = cert
    c.JupyterHub.ssl_key = key
elif ip not in ("127.0.0.1", "localhost", "::1") and env("LOO_HUB_ALLOW_HTTP", "") != "1":
    sys.exit(
        f"LOO_HUB_IP={ip or 'every interface'}: the pupils' passwords would cross the network in "
        "plain HTTP. Give LOO_HUB_SSL_CERT and LOO_HUB_SSL_KEY (the school's certificate, or a "
        "self-signed one: deploy/README.md), or keep the hub on 127.0.0.1 behind the school's "
        "HTTPS proxy (LOO_HUB_ALLOW_HTTP=1 only on a closed classroom network)"
    )
c.JupyterHub.ip = ip
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
# LocalProcessSpawner, with each pupil's server (and their kernels) in a control group of their
# own that holds the class's memory and CPU limits (classroom/limits.py)
c.JupyterHub.spawner_class = "loo_lessons.classroom.limits.PupilSpawner"
mem_limit = env("LOO_HUB_MEM_LIMIT", "1G")
if mem_limit and not re.fullmatch(r"[0-9]+(\.[0-9]+)?[KMGT]?", mem_limit):
    sys.exit(f"LOO_HUB_MEM_LIMIT={mem_limit}: give bytes, or a number with K, M, G or T (1G)")
c.Spawner.mem_limit = (int(mem_limit) if mem_limit.isdigit() else mem_limit) if mem_limit else None
cpu_limit = env("LOO_HUB_CPU_LIMIT", "1.0")
if cpu_limit and (not re.fullmatch(r"[0-9]+(\.[0-9]+)?", cpu_limit) or float(cpu_limit) <= 0):
    sys.exit(f"LOO_HUB_CPU_LIMIT={cpu_limit}: give a share of cores above 0 (1.0 is one core)")
c.Spawner.cpu_limit = float(cpu_limit) if cpu_limit else None
# classroom/pupil_server.py lays out the pupil's copy of the lessons (as the pupil), then becomes
# jupyterhub-singleuser, from the Python that runs the hub (where loo-lessons is installed).
c.Spawner.cmd = [sys.executable, "-m", "loo_lessons.classroom.pupil_server"]
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
cull_timeout = int(env("LOO_HUB_CULL_TIMEOUT", "3600"))
if cull_timeout < 10:
    sys.exit(f"LOO_HUB_CULL_TIMEOUT={cull_timeout}: give at least 10 seconds")
results_url = f"http://127.0.0.1:{results_port}"
# the class tables service: tables of pupils and bots, the engine as referee (classroom/tables)
tables_port = int(env("LOO_HUB_TABLES_PORT", "8003"))
tables_url = f"http://127.0.0.1:{tables_port}"
table_away = env("LOO_HUB_TABLE_AWAY", "30")
if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", table_away) or float(table_away) <= 0:
    sys.exit(f"LOO_HUB_TABLE_AWAY={table_away}: give a number of seconds above 0")
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
    },
    {
        "name": "class-tables",
        "url": tables_url,
        "command": [
            sys.executable,
            "-m",
            "loo_lessons.classroom.tables.service",
            "--db",
            str(state / "class-tables.sqlite"),
            "--away-seconds",
            table_away,
        ],
        "oauth_no_confirm": True,
        "display": True,
    },
    # a pupil's server left idle is stopped (their work is saved; the next login starts it)
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={cull_timeout}",
            f"--cull-every={max(5, min(cull_timeout // 4, 300))}",
        ],
    },
]
# JupyterHub's periodic check of the services only logs a service it cannot reach (the hub
# restarts a managed service that ends by itself), and one that fires while the hub is stopping
# them prints a traceback (jupyterhub 5: it reads the server of a service already stopped):
# the services are the hub's own, so it is off.
c.JupyterHub.service_check_interval = 0
c.JupyterHub.load_roles = [
    # every pupil may use the service (it lets each post and read only their own)
    {
        "name": "user",
        "scopes": [
            "self",
            "access:services!service=class-results",
            "access:services!service=class-tables",
        ],
    },
    # the service asks the hub who is an admin or a teacher
    {
        "name": "class-results",
        "services": ["class-results"],
        "scopes": ["read:users", "read:groups"],
    },
    {
        "name": "class-tables",
        "services": ["class-tables"],
        "scopes": ["read:users", "read:groups"],
    },
    {
        "name": "idle-culler",
        "services": ["idle-culler"],
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    },
]
# The hub learns of a server's activity from the proxy and from the server itself, every
# last_activity_interval seconds (default 300): a short cull timeout needs them more often.
c.JupyterHub.last_activity_interval = min(300, max(5, cull_timeout // 4))
# A pupil's kernel posts answers with the pupil's own token (JUPYTERHUB_API_TOKEN), which
# may reach the service, and to the service directly (LOO_CLASS_RESULTS_URL).
c.Spawner.server_token_scopes = [
    "users:activity!user",
    "access:servers!server",
    "access:services!service=class-results",
    "access:services!service=class-tables",
]
c.Spawner.environment = {
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(min(300, max(5, cull_timeout // 4))),
    "LOO_CLASS_RESULTS_URL": f"{results_url}/services/class-results/",
    "LOO_CLASS_TABLES_URL": f"{tables_url}/services/class-tables/",
    "LOO_HUB_GIT_REPOS": env("LOO_HUB_GIT_REPOS", ""),
}
