"""The class list: each pupil's name and a hash of their own password, in one text file.

The teacher makes it with ``loo-lessons class add-pupils FILE ann bob …``, which prints each
new pupil's password once (to hand out on a slip) and keeps only its hash:

    # loo-lessons class list: NAME scrypt$N$r$p$SALT$HASH (hex), one pupil a line
    ann scrypt$16384$8$1$5f0c…$9a1e…

The hub's authenticator (`classroom.auth`) lets a name in only with that name's password, so
no password opens another pupil's name. Names are what the hub makes Unix users of: lower
case letters, digits, ``-`` and ``_``, starting with a letter, at most 24 characters.
Standard library only; the file is never evaluated, and a file that is not a class list is
refused in one line naming the line.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Iterable, Mapping
from pathlib import Path

from loo_lessons.regular_file import NotAFile, read_regular

HEADER = "# loo-lessons class list: NAME scrypt$N$r$p$SALT$HASH (hex), one pupil a line\n"
NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}")
#: scrypt's cost: about 50 ms a login on a laptop (fine for a class, slow for guessing).
N, R, P = 2**14, 8, 1
#: The comment the hub gives each Unix user it makes for a pupil: only such a user is ever
#: taken as a pupil (never root, a service account or a person's own account).
PUPIL_COMMENT = "loo-lessons pupil"
#: A class list is small: refuse anything larger (a wrong file, not a class).
MAX_BYTES = 1_000_000
#: Words for passwords a pupil can type: three words and two digits, ~ 36 bits.
WORDS = (
    "ace",
    "king",
    "queen",
    "knave",
    "trump",
    "trick",
    "pool",
    "loo",
    "club",
    "heart",
    "spade",
    "diamond",
    "deal",
    "lead",
    "follow",
    "miss",
    "stand",
    "pass",
    "flush",
    "table",
    "card",
    "seat",
    "stake",
    "game",
    "book",
    "rule",
    "hand",
    "suit",
    "win",
    "play",
    "round",
    "bold",
)


class ClassListError(ValueError):
    """A class list or a name that is not right, in one line."""


def check_name(name: str) -> str:
    """`name` if a hub can make a pupil of it; ClassListError naming the problem otherwise."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        shown = repr(name[:30]) if isinstance(name, str) else type(name).__name__
        raise ClassListError(
            f"pupil name {shown}: use 1 to 24 lower-case letters, digits, - or _, "
            "starting with a letter"
        )
    return name


def hash_password(password: str, salt: bytes | None = None) -> str:
    """The scrypt hash of a pupil's password as kept in the class list
    (`scrypt$N$r$p$salt$digest`), with a new random salt unless one is given."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode(), salt=salt, n=N, r=R, p=P, maxmem=64 * 2**20)
    return f"scrypt${N}${R}${P}${salt.hex()}${digest.hex()}"


def _verify(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt" or (int(n), int(r), int(p)) != (N, R, P):
            return False
        mine = hashlib.scrypt(
            password.encode(), salt=bytes.fromhex(salt), n=N, r=R, p=P, maxmem=64 * 2**20
        )
        return hmac.compare_digest(mine, bytes.fromhex(digest))
    except (ValueError, UnicodeEncodeError):
        return False


def new_password() -> str:
    """A password a pupil can type from a slip: three card words and two digits."""
    words = [secrets.choice(WORDS) for _ in range(3)]
    return "-".join(words) + f"-{secrets.randbelow(100):02d}"


def read(path: Path) -> dict[str, str]:
    """name -> stored hash; a missing file is an empty class. Read as the scenario reader
    reads (`regular_file.read_regular`): a pipe, device or directory is refused before
    it is opened (opening a FIFO would wait for a writer for ever), and no more than the
    limit is read."""
    if not os.path.lexists(path):
        return {}
    try:
        text = read_regular(path, MAX_BYTES, str(path), f"{MAX_BYTES:,} bytes").decode("utf-8", "replace")
    except NotAFile as e:
        raise ClassListError(str(e)) from None
    found: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[1].startswith("scrypt$"):
            raise ClassListError(f"{path}, line {number}: not NAME scrypt$…")
        try:
            name = check_name(parts[0])
        except ClassListError as e:
            raise ClassListError(f"{path}, line {number}: {e}") from None
        if name in found:
            raise ClassListError(f"{path}, line {number}: {name} is listed twice")
        found[name] = parts[1]
    return found


def write(path: Path, pupils: Mapping[str, str]) -> None:
    """The class list, readable by its owner only (it holds hashes), replaced atomically."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(HEADER)
        for name in sorted(pupils):
            f.write(f"{name} {pupils[name]}\n")
    os.replace(tmp, path)


def other_account(name: str) -> str | None:
    """The home of `name` when it is an account of this machine that the hub did not make
    for a pupil (root, a service, a person); None otherwise."""
    try:
        import pwd
    except ImportError:  # not Unix: no hub here
        return None
    try:
        found = pwd.getpwnam(name)
    except KeyError:
        return None
    return None if found.pw_gecos == PUPIL_COMMENT else found.pw_dir


def reachable_by_all(path: str | Path) -> bool:
    """True when every user of the machine may reach and read `path`: a pupil's server runs
    as the pupil, with the hub's Python and the project's lessons."""
    return not unreachable(path)


def unreachable(path: str | Path) -> str:
    """Why not every user may reach and read `path`, in words naming the folder or file that
    stops them ("/home/tess is private (mode 0700)"); "" when they may."""
    p = Path(path).resolve()
    for d in reversed(p.parents):  # from / down: the first closed folder is the cause
        mode = os.stat(d).st_mode
        if not mode & 0o001:
            return f"the folder {d} is private (mode {mode & 0o777:04o}): other users cannot pass it"
    mode = os.stat(p).st_mode
    if not mode & 0o004:
        return f"{p} is not readable by other users (mode {mode & 0o777:04o})"
    return ""


def add_pupils(
    path: Path, names: Iterable[str], *, passwords: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Add (or give a new password to) each name; returns name -> the new password, the only
    time it is seen in clear. `passwords` sets them (tests, or a teacher's own)."""
    wanted = [check_name(n) for n in names]
    for name in wanted:
        home = other_account(name)
        if home is not None:
            raise ClassListError(
                f"pupil {name}: already an account of this machine (home {home}), "
                "not a pupil; choose another name"
            )
    if not wanted:
        raise ClassListError("add-pupils: name at least one pupil")
    pupils = read(path)
    given = dict(passwords or {})
    issued: dict[str, str] = {}
    for name in wanted:
        password = given.get(name) or new_password()
        if len(password) < 8:
            raise ClassListError(f"pupil {name}: a password needs 8 characters or more")
        issued[name] = password
        pupils[name] = hash_password(password)
    write(path, pupils)
    return issued


def check(path: Path, name: object, password: object) -> bool:
    """True when `name` is on the class list at `path` and `password` is that name's own."""
    if not isinstance(name, str) or not isinstance(password, str) or not NAME.fullmatch(name):
        return False
    try:
        stored = read(path).get(name)
    except (ClassListError, OSError):
        return False
    return stored is not None and _verify(password, stored)
