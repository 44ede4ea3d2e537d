"""The game's words, written once: seat names, card and action labels, counts, the books' words.

Every view (CLI text, quizzes, widgets, the terminal game, the lessons) names a seat, a card,
a declaration or a number of counters through these functions, so that the same thing reads
the same everywhere. Quotes are shown to learners with the book's name and the seeds' markup
rendered (`_i.e._` in italics, page marks `{87}` and footnote marks `[28]` dropped); the JSON
keeps the verbatim text and the seed file (`source`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from loo_lessons.engine.cards import Card, parse_card
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Action, Hand, Phase
from loo_lessons.engine.options import RuleOptions, preset_of
from loo_lessons.engine.sources import RULES, Quote
from loo_lessons.explain.quotes import uncut

# --- counting ----------------------------------------------------------------------------------


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 counter`, `2 counters`, `1 trick`; `many` for irregular plurals."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def counters(n: int) -> str:
    """A number of counters in words: "1 counter", "3 counters"."""
    return plural(n, "counter")


def and_list(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def tricks_words(numbers: Sequence[int]) -> str:
    """`trick 1`, `tricks 1 and 3`."""
    return ("trick " if len(numbers) == 1 else "tricks ") + and_list([str(n) for n in numbers])


# --- seats ------------------------------------------------------------------------------------


def seat_tags(hand: Hand, seat: int, *, you: int | None = None, miss: bool = True) -> list[str]:
    """What a seat is at this table: you, the dealer, the elder hand, holding the miss."""
    s = hand.setup
    tags = []
    if you is not None and seat == you:
        tags.append("you")
    if seat == s.dealer:
        tags.append("the dealer")
    if seat == s.elder:
        tags.append("the elder hand")
    if miss and hand.for_pool == seat:
        tags.append("playing the miss for the pool")
    elif miss and hand.miss_holder == seat:
        tags.append("holding the miss")
    return tags


def seat_name(
    hand: Hand,
    seat: int,
    *,
    you: int | None = None,
    miss: bool = True,
    capital: bool = False,
) -> str:
    """`seat 3 (the dealer)`, `seat 1 (you, the elder hand)`, `seat 2 (holding the miss)`."""
    tags = seat_tags(hand, seat, you=you, miss=miss)
    name = f"{'Seat' if capital else 'seat'} {seat}"
    return name + (f" ({', '.join(tags)})" if tags else "")


def subject(hand: Hand, seat: int, you: int | None = None, *, miss: bool = True) -> str:
    """The seat as the subject of a sentence: `You (the dealer)` or `Seat 2 (the elder hand)`."""
    if you is not None and seat == you:
        tags = seat_tags(hand, seat, miss=miss)
        return "You" + (f" ({', '.join(tags)})" if tags else "")
    return seat_name(hand, seat, miss=miss, capital=True)


# --- cards and actions ------------------------------------------------------------------------


def card_label(card: Card | str, *, the: bool = False) -> str:
    """`10♥` (the rank code and the suit symbol); `the 10♥` with `the`."""
    c = card if isinstance(card, Card) else parse_card(card)
    label = f"{c.rank.code}{c.suit.symbol}"
    return f"the {label}" if the else label


def cards_words(cards: Iterable[Card | str]) -> str:
    """`10♥, K♠` (or `none`)."""
    labels = [card_label(c) for c in cards]
    return ", ".join(labels) if labels else "none"


# what a declaration does, said of him (third person) and of you
_DECLARED = {
    Declaration.PLAY: ("stands on his own cards", "stand on your own cards"),
    Declaration.TAKE_MISS: ("takes the miss", "take the miss"),
    Declaration.PASS: ("throws up", "throw up"),
    Declaration.PLAY_MISS_FOR_POOL: ("plays the miss for the pool", "play the miss for the pool"),
}


def declaration_of(key: str | Declaration) -> Declaration:
    """The `Declaration` a key names (a `Declaration` is returned as it is)."""
    return key if isinstance(key, Declaration) else Declaration(key)


def action_label(a: Action | str, *, capital: bool = False) -> str:
    """The books' word for a declaration (`stand`, `take miss`, `throw up`, `play the miss for
    the pool`), or a card's label (`10♥`); `capital` for a button."""
    if isinstance(a, str):
        try:
            a = Declaration(a)
        except ValueError:
            return card_label(a)
    if isinstance(a, Card):
        return card_label(a)
    word = a.words  # the books' words, kept with the declaration (R06, R18)
    return word[0].upper() + word[1:] if capital else word


def declared_words(d: Declaration, *, you: bool = False) -> str:
    """What a declaration does: `stands on his own cards` (or `stand on your own cards`)."""
    return _DECLARED[d][1 if you else 0]


def leading(hand: Hand) -> bool:
    """Is the seat to act leading a trick (no card of it played yet)?"""
    return hand.phase is Phase.PLAY and (
        len(hand.tricks) == len(hand.winners) or not hand.tricks[-1]
    )


def task_words(hand: Hand) -> str:
    """What the seat to act is to do: `declare`, `lead to trick 2`, `play to trick 1`."""
    if hand.phase is not Phase.PLAY:  # declaring starts from the deal shown (Phase.DEAL)
        return "declare"
    n = min(3, len(hand.winners) + 1)
    return f"{'lead' if leading(hand) else 'play'} to trick {n}"


def move_words(hand: Hand, seat: int, a: Action, *, leading: bool, you: int | None = None) -> str:
    """`Seat 2 (the dealer) leads the 10♥`, `You stand on your own cards`."""
    me = you is not None and seat == you
    who = subject(hand, seat, you, miss=False)
    if isinstance(a, Card):
        verb = ("lead" if me else "leads") if leading else ("play" if me else "plays")
        return f"{who} {verb} {card_label(a, the=True)}"
    return f"{who} {declared_words(a, you=me)}"


# --- the books' words -------------------------------------------------------------------------

_PAGE = re.compile(r"\s*\{\d+\}\s*")  # page marks of the seed texts: {87}
_NOTE = re.compile(r"\[\d+\]")  # footnote marks: [28]
_ITALIC = re.compile(r"_([^_]+)_")  # italics: _i.e._


def _unmark(text: str) -> str:
    return _NOTE.sub("", _PAGE.sub(" ", text)).replace("--", "—")


def quote_text(q: Quote | str) -> str:
    """A quote as plain words: italics marks, page marks and footnote marks removed."""
    text = q.text if isinstance(q, Quote) else q
    return _ITALIC.sub(r"\1", _unmark(text))


def quote_html(q: Quote | str) -> str:
    """A quote as HTML: italics as <em>, page and footnote marks removed, the rest escaped."""
    text = q.text if isinstance(q, Quote) else q
    return _ITALIC.sub(r"<em>\1</em>", html.escape(_unmark(text), quote=False))


#: Every mark of the seed texts at once: a page mark, a footnote mark, italics, a dash.
_MARKS = re.compile("|".join((r"\{\d+\}", _NOTE.pattern, _ITALIC.pattern, "--")))


def seed_html(text: str) -> str:
    """A passage of a seed text as the sources page shows it whole: the words escaped and
    unchanged, the transcriber's marks rendered (a page mark `{87}` as a small "[p. 87]", a
    footnote mark `[28]` as a superscript, `_i.e._` in italics, `--` as a dash)."""
    out: list[str] = []
    pos = 0
    for m in _MARKS.finditer(text):
        out.append(html.escape(text[pos : m.start()], quote=False))
        mark = m.group(0)
        number = re.sub(r"\D", "", mark)
        if mark.startswith("{"):
            out.append(f'<span class="seed-page" title="page {number} of the printed book">[p.&#8239;{number}]</span>')
        elif mark.startswith("["):
            out.append(f'<sup class="seed-note" title="footnote {number} of the book (not in the seed)">{number}</sup>')
        elif mark.startswith("_"):
            out.append(f"<em>{html.escape(mark[1:-1], quote=False)}</em>")
        else:
            out.append("\u2014")
        pos = m.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


def book_name(q: Quote) -> str:
    """The book a quote comes from, as a learner reads it (never the seed's file name)."""
    return q.book


def preset_seeds(options: RuleOptions | None) -> tuple[str, ...]:
    """The seeds of the preset these options are (none for custom options)."""
    found = preset_of(options) if options is not None else None
    return found.seeds if found else ()


def book_quote(rule_id: str, default: Quote, options: RuleOptions | None = None) -> Quote:
    """The quote to show for a rule: under a preset, that preset's own book where it states the
    rule (the rules carry quotes from several seeds); else `default`. Never cut before a clause
    of the same sentence (`explain.quotes.uncut`: R27's "he must lead the highest" goes on
    "unless his highest trumps are in sequence…")."""
    seeds = preset_seeds(options)
    if not seeds or default.seed in seeds or default.outside:  # a variant's book stays cited
        return uncut(rule_id, default)
    for q in RULES[rule_id].quotes:
        if q.seed in seeds:
            return uncut(rule_id, q)
    return uncut(rule_id, default)


def citation(rule_id: str, q: Quote) -> str:
    """`R23, Prof. Hoffmann, Hoyle's Games Modernized, "Loo": “If he holds …”` (plain text)."""
    return f"{rule_id}, {book_name(q)}: “{quote_text(q)}”"
