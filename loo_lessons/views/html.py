"""Cards as HTML for plain notebook cells and the static book (`_repr_html_`).

Pure string building, no Jupyter import. The drawing is the one the front-end components
use (loo_lessons/widgets/js/cards.js): SVG cards with the rank and the suit symbol in two
corners and large in the middle, red hearts and diamonds, near-black clubs and spades (the
symbol is always there, so colour is never the only cue), each with a spoken label such as
"queen of hearts". The suit shapes are SVG paths, so no font is needed for them.

- `card_svg(card)`: one card (or a face-down card for None);
- `CardsView(cards)`: a row of cards, e.g. one seat's hand;
- `TrickView(plays, winner)`: a trick, each card captioned with its seat;
- `DealView(hand)`: every seat of a deal with its cards.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from loo_lessons.engine.cards import Card, Rank, Suit, parse_card
from loo_lessons.explain.words import action_label, seat_tags

if TYPE_CHECKING:
    from loo_lessons.engine.game import Hand, Trick

#: The same paths as SUIT_PATHS in widgets/js/cards.js (a test checks they agree).
SUIT_PATHS: dict[str, str] = {
    "H": "M50 94 C46 87 30 73 18 61 C6 49 0 39 0 28 C0 13 11 3 25 3 C36 3 45 10 50 20 C55 10 64 3 75 3 C89 3 100 13 100 28 C100 39 94 49 82 61 C70 73 54 87 50 94 Z",
    "D": "M50 0 L88 50 L50 100 L12 50 Z",
    "S": "M50 2 C44 14 30 26 17 37 C6 46 0 54 0 64 C0 77 10 86 23 86 C33 86 41 81 46 73 C45 84 40 92 30 98 L70 98 C60 92 55 84 54 73 C59 81 67 86 77 86 C90 86 100 77 100 64 C100 54 94 46 83 37 C70 26 56 14 50 2 Z",
    "C": "M28 27 A22 22 0 1 1 72 27 A22 22 0 1 1 28 27 Z M2 62 A22 22 0 1 1 46 62 A22 22 0 1 1 2 62 Z M54 62 A22 22 0 1 1 98 62 A22 22 0 1 1 54 62 Z M38 44 L62 44 L62 66 L38 66 Z M46 58 C45 80 40 90 30 98 L70 98 C60 90 55 80 54 58 Z",
}
RED_INK = "#c1121f"
BLACK_INK = "#111111"
FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
WIDTHS = {"small": 58, "medium": 78, "large": 108}


def card_name(card: Card | None) -> str:
    """The spoken label: 'queen of hearts', '10 of spades'… ('face-down card' for None)."""
    return card.name if card is not None else "face-down card"


def _suit(suit: Suit, x: float, y: float, size: float, ink: str) -> str:
    return (
        f'<path d="{SUIT_PATHS[suit.value]}" fill="{ink}" '
        f'transform="translate({x:g} {y:g}) scale({size / 100:g})"/>'
    )


def _text(x: float, y: float, size: float, ink: str, s: str, extra: str = "") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" fill="{ink}" font-size="{size:g}" font-family="{FONT}" '
        f'font-weight="700" text-anchor="middle"{extra}>{html.escape(s)}</text>'
    )


def card_svg(card: Card | str | None, size: str = "medium") -> str:
    """One card as an inline SVG element with role="img" and its spoken label."""
    c = parse_card(card) if isinstance(card, str) else card
    width = WIDTHS[size]
    label = html.escape(card_name(c))
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="{width}" '
        f'height="{round(width * 1.4)}" role="img" aria-label="{label}" class="loo-card-svg" '
        f'style="display:inline-block;vertical-align:top;margin:3px;'
        f'filter:drop-shadow(0 1px 2px rgba(0,0,0,.35))"><title>{label}</title>'
    )
    if c is None:
        return (
            head + '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#27408b" '
            'stroke="#0f1c45" stroke-width="2"/>'
            '<rect x="9" y="9" width="82" height="122" rx="5" fill="none" stroke="#c9d3f5" '
            'stroke-width="2.5"/>'
            '<path d="M50 30 L74 70 L50 110 L26 70 Z" fill="none" stroke="#c9d3f5" '
            'stroke-width="2.5"/><path d="M50 48 L63 70 L50 92 L37 70 Z" fill="#c9d3f5"/></svg>'
        )
    ink = RED_INK if c.suit.is_red else BLACK_INK
    rank = c.rank.code
    ten = c.rank is Rank.TEN
    court = c.rank in (Rank.KING, Rank.QUEEN, Rank.JACK)
    parts = [
        head,
        '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fffdf8" stroke="#2b2b2b" '
        'stroke-width="2"/>',
    ]
    if court:
        parts.append(
            f'<rect x="24" y="24" width="52" height="92" rx="4" '
            f'fill="{"#fdeaea" if c.suit.is_red else "#ececec"}" stroke="{ink}" stroke-width="1.5"/>'
        )
    corner = _text(
        13 if ten else 12, 25, 19 if ten else 23, ink, rank, ' letter-spacing="-1.5"' if ten else ""
    ) + _suit(c.suit, 4.5, 30, 15, ink)
    parts.append(f"<g>{corner}</g>")
    parts.append(f'<g transform="rotate(180 50 70)">{corner}</g>')
    parts.append(_text(50, 72, 38 if ten else 44, ink, rank, ' letter-spacing="-3"' if ten else ""))
    parts.append(_suit(c.suit, 31, 80, 38, ink))
    parts.append("</svg>")
    return "".join(parts)


def card_html(card: Card) -> str:
    """A card drawn large as SVG, with its name for a screen reader: what `Card._repr_html_`
    shows in a notebook."""
    return card_svg(card, "large")


def _row(items: Iterable[str], label: str) -> str:
    return (
        f'<div role="group" aria-label="{html.escape(label)}" '
        'style="display:flex;flex-wrap:wrap;gap:6px;align-items:flex-start">'
        + "".join(items)
        + "</div>"
    )


class CardsView:
    """A row of cards (one seat's hand, the miss, …) that notebooks show as pictures."""

    def __init__(
        self, cards: Iterable[Card | str | None], *, label: str = "cards", size: str = "medium"
    ) -> None:
        self.cards: tuple[Card | None, ...] = tuple(
            parse_card(c) if isinstance(c, str) else c for c in cards
        )
        self.label = label
        self.size = size

    def __repr__(self) -> str:
        return f"CardsView({' '.join(c.code if c else '??' for c in self.cards)})"

    def _repr_html_(self) -> str:
        if not self.cards:
            return f'<div aria-label="{html.escape(self.label)}"><em>no cards</em></div>'
        return _row((card_svg(c, self.size) for c in self.cards), self.label)


def _captioned(card: Card, caption: str, strong: bool, size: str) -> str:
    cap = html.escape(caption)
    return (
        '<figure style="margin:0;display:inline-flex;flex-direction:column;align-items:center">'
        f"{card_svg(card, size)}"
        f'<figcaption style="font-size:.85em;{"font-weight:700" if strong else ""}">{cap}</figcaption>'
        "</figure>"
    )


class TrickView:
    """A trick: each card with its seat; the winner (given by the engine) marked in words."""

    def __init__(
        self,
        plays: Sequence[tuple[int, Card | str]],
        winner: int | None = None,
        *,
        size: str = "medium",
    ) -> None:
        self.plays: tuple[tuple[int, Card], ...] = tuple(
            (int(s), parse_card(c) if isinstance(c, str) else c) for s, c in plays
        )
        self.winner = winner
        self.size = size

    @classmethod
    def from_trick(cls, trick: Trick, *, size: str = "medium") -> TrickView:
        """The view of an engine `Trick`: its plays and its winner."""
        return cls(trick.plays, trick.winner, size=size)

    def __repr__(self) -> str:
        plays = ", ".join(f"{s}:{c.code}" for s, c in self.plays)
        return f"TrickView({plays}; winner={self.winner})"

    def _repr_html_(self) -> str:
        items = [
            _captioned(
                c, f"seat {s}" + (" wins" if s == self.winner else ""), s == self.winner, self.size
            )
            for s, c in self.plays
        ]
        label = "trick" + (f", won by seat {self.winner}" if self.winner is not None else "")
        return _row(items, label)


class DealView:
    """Every seat of a deal with the cards it holds now (face down where unknown)."""

    def __init__(self, hand: Hand, *, size: str = "small") -> None:
        self.hand = hand
        self.size = size

    def __repr__(self) -> str:
        return f"DealView({self.hand!r})"

    def _repr_html_(self) -> str:
        h = self.hand
        rows = []
        for seat in range(h.setup.players):
            tags = seat_tags(h, seat)
            d = h.declared.get(seat)
            if d is not None:
                tags.append(action_label(d))
            name = f"Seat {seat}" + (f" ({', '.join(tags)})" if tags else "")
            cards: list[Card | None] = [None] * 3 if seat in h.partial else list(h.held[seat])
            inner = (
                _row((card_svg(c, self.size) for c in cards), f"seat {seat}'s cards")
                if cards
                else "<em>no cards</em>"
            )
            rows.append(
                f'<div style="margin:4px 0"><div style="font-weight:700">{html.escape(name)}</div>'
                f"{inner}</div>"
            )
        if h.turn_up is not None:
            rows.append(
                '<div style="margin:4px 0"><div style="font-weight:700">Turn-up '
                f"(trumps: {h.turn_up.suit.plural})</div>{card_svg(h.turn_up, self.size)}</div>"
            )
        return f'<div role="group" aria-label="the deal">{"".join(rows)}</div>'


def register() -> None:
    """Give the engine's objects their notebook pictures. The engine never imports a view, so
    its `_repr_html_` hooks are attached here, when this module is imported: by any view, and
    by the package's public names (`from loo_lessons import Hand`)."""
    from loo_lessons.engine.game import Hand, Trick

    setattr(Card, "_repr_html_", card_html)  # noqa: B010 - set on the class from outside
    setattr(Trick, "_repr_html_", lambda trick: TrickView.from_trick(trick)._repr_html_())  # noqa: B010
    setattr(Hand, "_repr_html_", lambda hand: DealView(hand)._repr_html_())  # noqa: B010


register()
