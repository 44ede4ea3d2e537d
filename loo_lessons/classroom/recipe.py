"""Where the class hub's recipe is: `deploy/jupyterhub` in a checkout, `loo_lessons/_hub` in an
installed package (the wheel carries it, pyproject.toml), so a school installs a hub from the
release with no checkout. `loo-lessons class recipe` prints the folder.

The recipe: `jupyterhub_config.py` (the hub's config), `install-proxy.sh` with `package.json`
and `package-lock.json` (JupyterHub's proxy from npm, installed beside them in
`node_modules/`), `loo-hub.service` (systemd) and `self-signed-cert.sh`. Standard library only.
"""

from __future__ import annotations

from pathlib import Path

#: The checkout this package was imported from, when it was (an editable install, the tests).
CHECKOUT = Path(__file__).resolve().parent.parent.parent
#: The recipe an installed wheel carries.
PACKAGED = Path(__file__).resolve().parent.parent / "_hub"


def in_checkout() -> bool:
    """Whether this package runs from a checkout of the project (not from an installed wheel)."""
    return (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "deploy" / "jupyterhub").is_dir()


def folder() -> Path:
    """The recipe's folder: the checkout's `deploy/jupyterhub`, else the installed copy."""
    return CHECKOUT / "deploy" / "jupyterhub" if in_checkout() else PACKAGED


def proxy() -> Path:
    """configurable-http-proxy as `install-proxy.sh` installs it beside the recipe."""
    return folder() / "node_modules" / ".bin" / "configurable-http-proxy"
