# A JupyterHub for one class on one machine: every pupil logs in with their own name and the
# class password, and gets their own JupyterLab with their own copy of the lessons.
#
#   pip install -r deploy/jupyterhub/requirements.txt      # JupyterHub + the lessons
#   bash deploy/jupyterhub/install-proxy.sh                # configurable-http-proxy (npm, locked)
#   LOO_HUB_PASSWORD='a class password' jupyterhub -f deploy/jupyterhub/jupyterhub_config.py
#
# Then pupils open http://THIS-MACHINE:8000/ and log in. Everything is set by environment
# variables (all optional but the password), so the same file serves a class and the test
# (tests/test_jupyterhub.py), which runs exactly this file:
#
#   LOO_HUB_PASSWORD  the class password (8 characters or more)
#   LOO_HUB_PUPILS    "ann,bob,…": only these names may log in (default: any name)
#   LOO_HUB_IP        address pupils reach (default: every interface)
#   LOO_HUB_PORT      port pupils reach (default 8000)
#   LOO_HUB_HUB_PORT, LOO_HUB_API_PORT   the hub's and the proxy's own ports (8081, 8001)
#   LOO_HUB_STATE     folder for the hub's database, cookie secret and pid file (./hub-state)
#   LOO_HUB_HOMES     pupils' folders, "{username}" filled in (STATE/pupils/{username})
#
# The one-machine spawner ("simple") runs every pupil's server as the user who started the
# hub: right for a room of pupils you trust with each other's files, not for strangers. For
# a school-wide hub with each pupil in their own container, see deploy/z2jh/config.yaml.
# `c` is given by JupyterHub when it loads this file.
# ruff: noqa: F821

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
env = os.environ.get

state = Path(env("LOO_HUB_STATE", "hub-state")).resolve()
state.mkdir(parents=True, exist_ok=True)
sys.path.insert(0, str(REPO))  # tools/lab_root.py lays out each pupil's copy
from tools.lab_root import lay_out  # noqa: E402

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

# --- who may log in: a name and the class password ----------------------------------------
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = env("LOO_HUB_PASSWORD")
pupils = [p.strip() for p in env("LOO_HUB_PUPILS", "").split(",") if p.strip()]
if pupils:
    c.Authenticator.allowed_users = set(pupils)
else:
    c.Authenticator.allow_all = True

# --- each pupil's own JupyterLab, with their own copy of the lessons ----------------------
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = env(
    "LOO_HUB_HOMES", str(state / "pupils" / "{username}")
)
# The pupils' servers run the Python that runs the hub (where loo-lessons is installed).
c.Spawner.cmd = [str(Path(sys.executable).parent / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab/tree/loo-lessons/notebooks/01-welcome.ipynb"
# (Spawner.env_keep passes PATH, PYTHONPATH and VIRTUAL_ENV on to them by default.)
# A server started as root refuses to run without this, and the hub then only says "500".
if os.geteuid() == 0:
    c.Spawner.args = ["--allow-root"]
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 30


def copy_lessons(spawner):  # type: ignore[no-untyped-def]
    """Give a pupil their own copy of the lessons the first time they log in (later logins
    keep their work), beside the book's reference pages the lessons link to."""
    lay_out(Path(spawner.home_dir) / "loo-lessons", copy=True)


c.Spawner.pre_spawn_hook = copy_lessons
