"""One reader per field of a scenario: plain data → checked values, each refusal naming the field.

Nothing here knows the rules of play; what the fields mean together is `build`'s business.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from loo_lessons.engine.cards import Card, Suit, parse_card, parse_cards
from loo_lessons.engine.deal import check_table_size
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Setup
from loo_lessons.engine.options import LooAmount, RuleOptions, options_from
from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.settle import Stakes

from .errors import ScenarioError
from .keys import CONTRACT_KEYS, DECLARATION_ALIASES, EXTRA_KEYS, NOTE_KEYS
from .text import excerpt

#: A seat written as text: decimal digits only (not `²`, `①`, `٣` or `0x1`).
_SEAT_TEXT = re.compile(r"[0-9]{1,3}")
#: The longest text a card code, a suit, an option value or a declaration can be.
_SHORT_TEXT = 40

Play = tuple[int, Card]


def check_keys(data: Mapping[str, Any]) -> None:
    """Refuse a scenario key that is neither in the public contract, an extra, a note nor `x-`
    prefixed, naming the key and the known ones."""
    for key in data:
        if not isinstance(key, str) or (
            key not in CONTRACT_KEYS
            and key not in EXTRA_KEYS
            and key not in NOTE_KEYS
            and not key.startswith("x-")
        ):
            known = ", ".join((*CONTRACT_KEYS, *EXTRA_KEYS))
            raise ScenarioError(
                excerpt(key, 30) if not isinstance(key, str) else key[:30],
                f"unknown key (known: {known}; notes that change nothing: "
                f"{', '.join(NOTE_KEYS[:3])}, … and any x-… key)",
            )
    for key in ("title", "description"):
        if key in data and not isinstance(data[key], str | int | float | type(None)):
            raise ScenarioError(key, f"expected text, got {type(data[key]).__name__}")


def whole_number(data: Mapping[str, Any], key: str, default: int | None, lo: int = 0) -> int | None:
    """The whole number at `key` (at least `lo`), or `default` when the key is absent; an empty
    value, a non-number or one too small is refused naming the key."""
    if key in data and data[key] is None:
        raise ScenarioError(key, "is empty: give a whole number (or leave the key out)")
    v = data.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ScenarioError(key, f"expected a whole number, got {excerpt(v)}")
    if v < lo:
        raise ScenarioError(key, f"must be at least {lo}, got {v}")
    return v


def seat(key: object, players: int, field_name: str) -> int:
    """A seat number: a whole number, or its decimal digits as text."""
    if isinstance(key, str) and _SEAT_TEXT.fullmatch(key.strip()):
        key = int(key.strip())
    if isinstance(key, bool) or not isinstance(key, int):
        raise ScenarioError(
            field_name, f"{excerpt(key)} is not a seat number (write seats as 0, 1, 2, …)"
        )
    if not 0 <= key < players:
        shown = key if abs(key) < 10**6 else excerpt(key)
        raise ScenarioError(
            field_name, f"seat {shown} does not exist: seats are 0 to {players - 1}"
        )
    return key


def seat_mapping(data: Mapping[str, Any], key: str, players: int) -> dict[int, Any]:
    """A mapping of seat → value, refusing a seat given twice in two spellings (`1` and `"1"`)."""
    v = data.get(key)
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise ScenarioError(key, f"expected a mapping of seat to value, got {excerpt(v)}")
    out: dict[int, Any] = {}
    spelled: dict[int, object] = {}
    for k, value in v.items():
        s = seat(k, players, key)
        if s in out:
            raise ScenarioError(
                key,
                f"seat {s} is given twice (as {excerpt(spelled[s])} and {excerpt(k)})"
                + (
                    " (R12: 'No player may make a second declaration')"
                    if key == "declarations"
                    else ""
                ),
            )
        out[s] = value
        spelled[s] = k
    return out


def card(value: object, field_name: str) -> Card:
    """One card code ("10H", "KD") of field `field_name` as a `Card`; anything else is refused
    naming the field."""
    if isinstance(value, str) and len(value) > _SHORT_TEXT:
        raise ScenarioError(field_name, f"{excerpt(value)} is not a card code (e.g. 10H or KD)")
    return parse_card(value, field_name)


def cards(value: object, field_name: str) -> tuple[Card, ...]:
    """A list of card codes of field `field_name` (at most a pack's 52), each checked and named by
    its index when refused."""
    if not isinstance(value, list | tuple):
        raise ScenarioError(field_name, f"expected a list of card codes, got {excerpt(value)}")
    if len(value) > 52:
        raise ScenarioError(field_name, f"{len(value)} cards: a pack has 52")
    for i, c in enumerate(value):
        card(c, f"{field_name}[{i}]")
    return parse_cards(list(value), field_name)


def _short_values(raw: object, where: str) -> None:
    """Refuse long text before the engine quotes it back."""
    items = raw.items() if isinstance(raw, dict) else [("", raw)]
    for k, v in items:
        if isinstance(v, str) and len(v) > _SHORT_TEXT:
            raise ScenarioError(f"{where}.{k}".rstrip("."), f"unknown value {excerpt(v)}")
        if isinstance(k, str) and len(k) > _SHORT_TEXT:
            raise ScenarioError(where, f"unknown rule option {excerpt(k)}")
        if not isinstance(k, str):
            raise ScenarioError(where, f"{excerpt(k)} is not a rule option name")


def rules(data: Mapping[str, Any]) -> RuleOptions:
    """The `rules:` of a scenario as the engine's options: a preset name or a mapping of a preset
    and options (an absent key is the default preset)."""
    raw = data.get("rules")
    if raw is not None and not isinstance(raw, str | dict):
        raise ScenarioError("rules", f"expected a preset name or a mapping, got {excerpt(raw)}")
    _short_values(raw, "rules")
    return options_from(raw)


def table(data: Mapping[str, Any], options: RuleOptions) -> Setup:
    """Players, dealer, stakes and whether this deal is a must."""
    must = data.get("must", False)
    if not isinstance(must, bool):
        raise ScenarioError("must", f"must be true or false, got {excerpt(must)}")
    players = data.get("players")
    if players is None:
        raise ScenarioError(
            "players", "required: how many sit at the table (2 to 16, 17 in a must)"
        )
    if isinstance(players, int) and not isinstance(players, bool) and abs(players) > 10**6:
        raise ScenarioError("players", "too many players: 2 to 16 (17 in a must)")
    check_table_size(players, not must)
    dealer = whole_number(data, "dealer", 0)
    assert dealer is not None
    if dealer >= players:
        shown = dealer if dealer < 10**6 else excerpt(dealer)
        raise ScenarioError("dealer", f"seat {shown} does not exist: seats are 0 to {players - 1}")
    stake = whole_number(data, "stake", 3, lo=1)
    assert stake is not None
    if options.loo_amount is LooAmount.POOL_CAPPED and data.get("loo_cap") is None:
        raise ScenarioError(
            "loo_cap", "required with loo_amount: pool_capped (the maximum loo, R49)"
        )
    if data.get("loo_cap") is not None and options.loo_amount is not LooAmount.POOL_CAPPED:
        raise ScenarioError(
            "loo_cap",
            f"only used with loo_amount: pool_capped (this scenario has {options.loo_amount})",
        )
    stakes = Stakes.make(
        stake=stake,
        loo=whole_number(data, "loo", None, 1),
        single_loo=whole_number(data, "single_loo", None, 1),
        loo_cap=whole_number(data, "loo_cap", None, 1),
        pool=whole_number(data, "pool", None),
        players=players,
        ante=options.ante,
    )
    return Setup(players, dealer, options, stakes, must)


def turn_up_and_trumps(data: Mapping[str, Any]) -> tuple[Card | None, Suit | None]:
    """The turn-up and the trumps as given (whether they agree is the engine's to say)."""
    turn_up = card(data["turn_up"], "turn_up") if data.get("turn_up") is not None else None
    trumps: Suit | None = None
    if data.get("trumps") is not None:
        raw = data["trumps"]
        if isinstance(raw, str) and len(raw) > _SHORT_TEXT:
            raise ScenarioError("trumps", f"{excerpt(raw)} is not a suit (use C, D, H or S)")
        trumps = Suit.parse(raw, "trumps")
    return turn_up, trumps


def declarations(data: Mapping[str, Any], players: int) -> dict[int, Declaration]:
    """The `declarations:` mapping, seat to declaration (play, take_miss, pass, play_miss_for_pool
    and their aliases), checked against the table's seats."""
    out: dict[int, Declaration] = {}
    for s, v in seat_mapping(data, "declarations", players).items():
        d = DECLARATION_ALIASES.get(v.strip().lower()) if isinstance(v, str) else None
        if d is None:
            raise ScenarioError(
                f"declarations.{s}",
                f"unknown declaration {excerpt(v)} (play, take_miss, pass, play_miss_for_pool)",
            )
        out[s] = d
    return out


def tricks(data: Mapping[str, Any], players: int) -> list[list[Play]]:
    """The `tricks:` list: at most three tricks, each a list of seat and card plays; refused naming
    the trick and play at fault."""
    raw = data.get("tricks")
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ScenarioError("tricks", f"expected a list of tricks, got {excerpt(raw)}")
    if len(raw) > 3:
        raise ScenarioError("tricks", f"a deal has three tricks, not {len(raw)}")
    out: list[list[Play]] = []
    for i, trick in enumerate(raw):
        where = f"tricks[{i}]"
        if not isinstance(trick, list) or not trick:
            raise ScenarioError(where, "each trick is a non-empty list of [seat, card] plays")
        if len(trick) > players:
            raise ScenarioError(
                where, f"a trick has one card from each player in, not {len(trick)}"
            )
        plays = []
        for j, play in enumerate(trick):
            if not isinstance(play, list | tuple) or len(play) != 2:
                raise ScenarioError(
                    f"{where}[{j}]", f"each play is [seat, card], got {excerpt(play)}"
                )
            plays.append((seat(play[0], players, f"{where}[{j}]"), card(play[1], f"{where}[{j}]")))
        out.append(plays)
    return out


def tricks_won(data: Mapping[str, Any], players: int) -> dict[int, int] | None:
    """The `tricks_won:` mapping, seat to tricks taken (0 to 3), for a deal given by its outcome
    instead of its `tricks` (not both); None when absent."""
    if "tricks_won" not in data:
        return None
    if "tricks" in data:
        raise ScenarioError("tricks_won", "give either tricks or tricks_won, not both")
    out: dict[int, int] = {}
    for s, v in seat_mapping(data, "tricks_won", players).items():
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
            raise ScenarioError(f"tricks_won.{s}", f"a number of tricks 0 to 3, got {excerpt(v)}")
        out[s] = v
    if sum(out.values()) != 3:
        raise ScenarioError(
            "tricks_won", f"three tricks are played in a deal; these add up to {sum(out.values())}"
        )
    return out


def trick_winners(data: Mapping[str, Any], players: int) -> list[int] | None:
    """`trick_winners: [1, 3, 1]`: who won each trick, in order (for settling an odd pool)."""
    raw = data.get("trick_winners")
    if raw is None:
        if "trick_winners" in data:
            raise ScenarioError("trick_winners", "is empty: give the three winners, e.g. [1, 3, 1]")
        return None
    if "tricks" in data:
        raise ScenarioError(
            "trick_winners", "give either tricks or trick_winners, not both: the cards decide"
        )
    if "tricks_won" in data:
        raise ScenarioError("trick_winners", "give either tricks_won or trick_winners, not both")
    if not isinstance(raw, list) or len(raw) != 3:
        raise ScenarioError(
            "trick_winners", f"the winners of the three tricks in order, got {excerpt(raw)}"
        )
    return [seat(s, players, f"trick_winners[{i}]") for i, s in enumerate(raw)]


def penalties(data: Mapping[str, Any], players: int) -> list[tuple[int, int, Offence]]:
    """The `penalties` key: a list of {seat, offence}, as (index, seat, offence)."""
    raw = data.get("penalties")
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ScenarioError("penalties", "expected a list of {seat: N, offence: NAME}")
    out = []
    for i, item in enumerate(raw):
        where = f"penalties[{i}]"
        if not isinstance(item, dict):
            raise ScenarioError(where, "each penalty is {seat: N, offence: NAME}")
        for key in ("seat", "offence"):
            if key not in item:
                raise ScenarioError(f"{where}.{key}", "missing (each penalty is {seat, offence})")
        s = seat(item["seat"], players, f"{where}.seat")
        name = item["offence"]
        try:
            if not isinstance(name, str) or len(name) > _SHORT_TEXT:
                raise KeyError(name)
            off = Offence.parse(name)
        except KeyError:
            names = ", ".join(o.name.lower() for o in Offence)
            raise ScenarioError(
                f"{where}.offence", f"unknown offence {excerpt(name)} (known: {names})"
            ) from None
        out.append((i, s, off))
    return out
