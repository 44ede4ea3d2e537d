"""Sphinx extension for the Loo Lessons book.

- Generates the pages that must never drift from the engine (sources, variants,
  disagreements) into book/generated/ when the build starts: one source of truth.
- Links every rule id ("R24") in the text to the exact words it comes from on the sources
  page, and every ambiguity/variant id (A1, V5) to the variants page.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from book_pages import write_pages
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

RULE_RE = re.compile(r"\b(R(?:0[1-9]|[1-5][0-9]|6[0-3]))\b")
SOURCES_DOC = "book/generated/sources"

SKIP = (nodes.literal_block, nodes.literal, nodes.reference, nodes.title, nodes.raw,
        nodes.FixedTextElement, nodes.target)


class RuleLinks(SphinxPostTransform):
    default_priority = 900
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        builder = self.app.builder
        docname = self.env.docname
        try:
            base = builder.get_relative_uri(docname, SOURCES_DOC)
        except Exception:
            return
        for text in list(self.document.findall(nodes.Text)):
            parent = text.parent
            if parent is None or _inside(parent, SKIP):
                continue
            source = str(text)
            if not RULE_RE.search(source):
                continue
            new: list[nodes.Node] = []
            last = 0
            for m in RULE_RE.finditer(source):
                if m.start() > last:
                    new.append(nodes.Text(source[last : m.start()]))
                rid = m.group(1)
                ref = nodes.reference("", rid, refuri=f"{base}#rule-{rid.lower()}",
                                      classes=["rule-ref"])
                ref["reftitle"] = f"{rid}: the words of the book"
                new.append(ref)
                last = m.end()
            if last < len(source):
                new.append(nodes.Text(source[last:]))
            parent.replace(text, new)


def _inside(node: nodes.Node, kinds: tuple[type, ...]) -> bool:
    while node is not None:
        if isinstance(node, kinds):
            return True
        node = node.parent
    return False


def _strip_thebe(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: Any) -> None:
    """Jupyter Book always loads sphinx-thebe (a live-kernel launcher reaching unpkg.com); this
    offline book has no use for it, and it declares its config twice (a console error)."""

    def keep(item: Any) -> bool:
        body = str(getattr(item, "attributes", {}).get("body", ""))
        return "thebe" not in str(getattr(item, "filename", item) or "") and "THEBE" not in body

    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [x for x in context[key] if keep(x)]


def _generate(app: Sphinx, config: Any) -> None:
    write_pages(Path(app.srcdir) / "book" / "generated")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("config-inited", _generate)
    app.add_post_transform(RuleLinks)
    app.connect("html-page-context", _strip_thebe)
    app.add_css_file("loo-book.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
