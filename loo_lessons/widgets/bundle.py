"""A tiny build step for the front-end components (no npm, no bundler).

Each component is one ES module in `js/`. A component may import named helpers from a
sibling module (`import { h, cardEl } from "./cards.js";`); `esm(name)` inlines those
modules, once each and dependencies first, so every component becomes ONE self-contained
module string: what anywidget's `_esm` takes and what the static export embeds.

Inlined modules lose their `export` keywords and their default export becomes a private
constant, so a module may be both a helper library and a component (cards.js, table.js).
Two modules declaring the same top-level name would clash once inlined: that is refused.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from loo_lessons.widgets.kinds import COMPONENTS as _COMPONENTS

#: The components (one ES module each), from the one list of widgets (`registry`).
COMPONENTS: tuple[str, ...] = _COMPONENTS
#: Helper modules (inlined into components); `engine` is the book's in-page engine client,
#: inlined after every live widget (static.live_html).
HELPERS: tuple[str, ...] = ("verdict", "engine")

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([a-z_]+)\.js";[ \t]*\n', re.M)
_ANY_IMPORT = re.compile(r"^\s*import\b", re.M)
_DECL = re.compile(
    r"^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)", re.M
)
_EXPORT_DECL = re.compile(r"^export\s+((?:async\s+)?(?:function\*?|const|let|var|class)\s)", re.M)
_EXPORTED = re.compile(
    r"^export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)", re.M
)
_DEFAULT = re.compile(r"^export\s+default\s+", re.M)


class BundleError(ValueError):
    """A component module cannot be bundled (unknown import, name clash, stray import)."""


def source(name: str) -> str:
    """The text of `js/<name>.js` as shipped in the package."""
    path = resources.files("loo_lessons.widgets").joinpath("js", f"{name}.js")
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BundleError(f"no front-end module js/{name}.js") from None


def imports(text: str) -> list[tuple[str, list[str]]]:
    """The `import {…} from "./x.js"` lines of a module: (module name, imported names)."""
    return [
        (m.group(2), [n.strip() for n in m.group(1).split(",") if n.strip()])
        for m in _IMPORT.finditer(text)
    ]


def _order(name: str, seen: list[str], stack: tuple[str, ...] = ()) -> None:
    if name in stack:
        raise BundleError(f"import cycle: {' -> '.join((*stack, name))}")
    if name in seen:
        return
    text = source(name)
    for dep, names in imports(text):
        exported = set(_EXPORTED.findall(source(dep)))
        missing = [n for n in names if n not in exported]
        if missing:
            raise BundleError(f"{name}.js imports {missing} which {dep}.js does not export")
        _order(dep, seen, (*stack, name))
    seen.append(name)


def _body(name: str, *, inlined: bool) -> str:
    text = _IMPORT.sub("", source(name))
    if _ANY_IMPORT.search(text):
        raise BundleError(f'{name}.js has an import other than `import {{…}} from "./x.js"`')
    if inlined:
        text = _EXPORT_DECL.sub(r"\1", text)
        text = _DEFAULT.sub(f"const __{name}_module = ", text)
    return f"// ---- {name}.js ----\n{text.strip()}\n"


@cache
def esm(name: str) -> str:
    """The component `name` as one ES module (its own exports kept, helpers inlined)."""
    order: list[str] = []
    _order(name, order)
    declared: dict[str, str] = {}
    for mod in order:
        for decl in _DECL.findall(_IMPORT.sub("", source(mod))):
            if decl in declared:
                raise BundleError(
                    f"{decl} is declared in both {declared[decl]}.js and {mod}.js: "
                    "rename one (inlined modules share one scope)"
                )
            declared[decl] = mod
    parts = [_body(mod, inlined=mod != name) for mod in order]
    return "\n".join(parts)


@cache
def script(name: str) -> str:
    """The component as the body of an inline <script type="module">:
    no `export` left, the default export bound to the constant `__component`."""
    text = _EXPORT_DECL.sub(r"\1", esm(name))
    text, n = _DEFAULT.subn("const __component = ", text)
    if n != 1:
        raise BundleError(f"{name}.js must have exactly one default export, found {n}")
    return text
