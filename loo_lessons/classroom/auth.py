"""The class hub's authenticator: each pupil their own password and their own Unix user.

As on The Littlest JupyterHub, a pupil's server runs as a Unix user of their own, made by the
hub on their first login, with a private home (mode 0700) under the class's homes folder.
A name gets in only with its own password from the class list (`pupils`, made by
``loo-lessons class add-pupils``); an unknown name or a wrong password is refused.

A name that is already an account of this machine the hub did not make for a pupil (root,
a service account, a person's own account: its comment is not `pupils.PUPIL_COMMENT`, or
its home is not in the class's homes) is never adopted: the login is refused.
"""

from __future__ import annotations

import asyncio
import pwd
from pathlib import Path
from typing import Any

from jupyterhub.auth import LocalAuthenticator
from traitlets import Unicode

from loo_lessons.classroom import pupils


class ClassListAuthenticator(LocalAuthenticator):  # type: ignore[misc]
    """Names and passwords from the class list; users made with private homes."""

    class_list = Unicode(help="the class list made by `loo-lessons class add-pupils`").tag(
        config=True
    )
    homes = Unicode("/home", help="the folder that holds the pupils' homes").tag(config=True)

    def home_of(self, name: str) -> Path:
        """The home folder the hub gives the pupil `name` (below `homes`)."""
        return Path(self.homes) / name

    async def authenticate(self, handler: Any, data: dict[str, Any]) -> str | None:
        """Let a pupil in whose name and password match the class list; `None` refuses, and the
        refusal is logged with the name cut short."""
        name = str(data.get("username", "")).strip().lower()
        # scrypt takes ~50 ms: in a thread, so a class logging in at once never stalls the hub
        if await asyncio.to_thread(pupils.check, Path(self.class_list), name, data.get("password")):
            return name
        self.log.warning("class list: refused a login as %r", name[:30])
        return None

    def system_user_exists(self, user: Any) -> bool:
        """Whether the pupil's system account is there already; an account of the machine that the
        hub did not make for a pupil (other comment or home) is refused, never adopted."""
        try:
            found = pwd.getpwnam(user.name)
        except KeyError:
            return False
        if found.pw_gecos != pupils.PUPIL_COMMENT or Path(found.pw_dir) != self.home_of(user.name):
            raise ValueError(
                f"{user.name} is an account of this machine (home {found.pw_dir}) that the hub"
                " did not make for a pupil: not adopted"
            )
        return True
