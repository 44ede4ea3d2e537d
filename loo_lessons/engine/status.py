"""Why a position is not a position of the game (cf. python-chess's `Board.status()`).

A `Hand` may be built from any cards (a teacher's scenario, a test), so the engine says what
is wrong instead of trusting them: `Status` flags, one per kind of fault, and for each fault
found one `Problem` naming the field (the contract's key, e.g. `hands.3`) and the reason.

`position_problems(...)` checks a position as given (hands as they are NOW, the contract's
reading); `Hand.status()` and `Hand.problems()` check the position a `Hand` holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntFlag

from .cards import Card, Suit
from .deal import check_table_size
from .declare import Declaration
from .errors import InputError


class Status(IntFlag):
    """What is wrong with a position; `Status.VALID` (0) when nothing is."""

    VALID = 0
    BAD_TABLE_SIZE = 1 << 0  # A18: 2 to 16 players with a miss, 17 in a must
    BAD_DEALER = 1 << 1  # the dealer's seat is not at the table
    BAD_SEAT = 1 << 2  # a hand, declaration or play for a seat not at the table
    DUPLICATE_CARD = 1 << 3  # one card in two places (R01: one pack)
    WRONG_HAND_SIZE = 1 << 4  # a given hand is not 3 less the cards its seat has played (R03)
    CARDS_FOR_THROWN_UP_SEAT = 1 << 5  # R11: a thrown-up hand goes face down, unseen
    WRONG_MISS_SIZE = 1 << 6  # R03: the miss has three cards
    MISS_IN_A_MUST = 1 << 7  # R45: no miss in a must
    TRUMPS_DISAGREE_WITH_TURN_UP = 1 << 8  # R04: the turn-up fixes trumps
    TOO_MANY_CARDS = 1 << 9  # a trick with two cards from one seat, more than three tricks
    NO_TRUMPS_FOR_PLAY = 1 << 10  # cards are played but trumps are not known


@dataclass(frozen=True, slots=True)
class Problem:
    """One fault: its flag, the field it is in (the contract's key) and why."""

    flag: Status
    field: str
    reason: str

    def __str__(self) -> str:
        return f"{self.field}: {self.reason}"

    def error(self) -> InputError:
        """The fault as the engine's bad-input error (field and problem)."""
        return InputError(self.field, self.reason)


def size_problem(seat: int, now: int, played: int) -> str:
    """Why a hand of `now` cards is the wrong size for a seat that has played `played`."""
    if played:
        return (
            f"seat {seat} holds {now} and has played {played}: that makes {now + played} "
            "cards, not three (R03)"
        )
    return f"a hand has three cards (R03), seat {seat} has {now}"


def position_problems(
    *,
    players: int,
    dealer: int,
    must: bool,
    hands: Mapping[int, Sequence[Card]],
    miss: Sequence[Card] | None = None,
    turn_up: Card | None = None,
    trumps: Suit | None = None,
    declarations: Mapping[int, Declaration] | None = None,
    tricks: Sequence[Sequence[tuple[int, Card]]] = (),
    elsewhere: Sequence[tuple[str, Sequence[Card]]] = (),
) -> tuple[Problem, ...]:
    """Every fault of a position given as the contract gives it.

    `hands` are the hands given, as they are now (leave out the seats not known); `miss` the
    miss (untaken, or the cards of the seat that took it: the taker's hand and plays may
    repeat it); `elsewhere` other places cards lie, e.g. `("stock", cards)`.
    """
    out: list[Problem] = []
    declared = dict(declarations or {})
    try:
        check_table_size(players, not must)
    except InputError as e:
        out.append(Problem(Status.BAD_TABLE_SIZE, e.field, e.problem))
        return tuple(out)  # nothing else can be read at a table that cannot sit down
    if not 0 <= dealer < players:
        out.append(
            Problem(
                Status.BAD_DEALER,
                "dealer",
                f"seat {dealer} does not exist: seats are 0 to {players - 1}",
            )
        )

    def seat_ok(seat: int, where: str) -> bool:
        if 0 <= seat < players:
            return True
        out.append(
            Problem(
                Status.BAD_SEAT, where, f"seat {seat} does not exist: seats are 0 to {players - 1}"
            )
        )
        return False

    for seat in sorted(hands):
        seat_ok(seat, f"hands.{seat}")
    for seat in sorted(declared):
        seat_ok(seat, f"declarations.{seat}")

    if turn_up is not None and trumps is not None and turn_up.suit is not trumps:
        out.append(
            Problem(
                Status.TRUMPS_DISAGREE_WITH_TURN_UP,
                "trumps",
                f"trumps {trumps.value} disagree with the turn-up {turn_up.code}: "
                "the turn-up fixes trumps (R04)",
            )
        )
    if miss and must:
        out.append(
            Problem(
                Status.MISS_IN_A_MUST,
                "miss",
                "there is no miss in a must (R45: 'In the case of a \"must\" there is no miss.')",
            )
        )
    elif miss and len(miss) != 3:
        out.append(
            Problem(
                Status.WRONG_MISS_SIZE, "miss", f"the miss has three cards (R03), not {len(miss)}"
            )
        )

    # the tricks: at most three, each with at most one card from each seat
    if len(tricks) > 3:
        out.append(
            Problem(Status.TOO_MANY_CARDS, "tricks", f"a deal has three tricks, not {len(tricks)}")
        )
    played: dict[int, int] = {}
    for i, trick in enumerate(tricks):
        seats_in_trick: set[int] = set()
        for j, (seat, _) in enumerate(trick):
            if not seat_ok(seat, f"tricks[{i}][{j}]"):
                continue
            if seat in seats_in_trick:
                out.append(
                    Problem(
                        Status.TOO_MANY_CARDS,
                        f"tricks[{i}][{j}]",
                        f"seat {seat} plays a second card to one trick: each player plays one",
                    )
                )
            seats_in_trick.add(seat)
            played[seat] = played.get(seat, 0) + 1
    if any(tricks) and trumps is None and turn_up is None:
        out.append(
            Problem(
                Status.NO_TRUMPS_FOR_PLAY,
                "turn_up",
                "needed: the play cannot be ruled without trumps",
            )
        )

    # hand sizes, for the moment described: three, less what the seat has played
    for seat in sorted(hands):
        if not 0 <= seat < players:
            continue
        n = len(hands[seat])
        if declared.get(seat) is Declaration.PASS:
            if n:
                out.append(
                    Problem(
                        Status.CARDS_FOR_THROWN_UP_SEAT,
                        f"hands.{seat}",
                        f"seat {seat} threw up: its cards went face down, unseen (R11), "
                        "so it holds nothing now",
                    )
                )
            continue
        gone = played.get(seat, 0)
        if n + gone != 3:
            out.append(
                Problem(Status.WRONG_HAND_SIZE, f"hands.{seat}", size_problem(seat, n, gone))
            )

    # one pack: every card in one place (the taker's cards are the miss's)
    taker = next(
        (
            s
            for s, d in declared.items()
            if d in (Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL)
        ),
        None,
    )
    where: dict[Card, str] = {}
    duplicated: set[str] = set()

    def put(card: Card, place: str, field: str) -> None:
        if card in where:
            if field not in duplicated:  # one problem a field is enough
                duplicated.add(field)
                out.append(
                    Problem(
                        Status.DUPLICATE_CARD,
                        field,
                        f"duplicated card {card.code}: it is also in {where[card]}",
                    )
                )
            return
        where[card] = place

    if turn_up is not None:
        put(turn_up, "the turn-up", "turn_up")
    taker_cards: set[Card] = set()
    for seat in sorted(hands):
        for c in hands[seat]:
            put(c, f"hands.{seat}", f"hands.{seat}")
            if seat == taker:
                taker_cards.add(c)
    for i, trick in enumerate(tricks):
        for seat, c in trick:
            put(c, f"tricks[{i}]", f"tricks[{i}]")
            if seat == taker:
                taker_cards.add(c)
    for c in miss or ():
        if c in taker_cards:
            continue  # the taker holds or has played the miss
        put(c, "miss", "miss")
    for field, cards in elsewhere:
        for c in cards:
            put(c, field, field)
    return tuple(out)


def status_of(problems: Sequence[Problem]) -> Status:
    """The flags of a list of problems, together."""
    flags = Status.VALID
    for p in problems:
        flags |= p.flag
    return flags


def reasons(problems: Sequence[Problem]) -> dict[Status, str]:
    """One readable reason per flag, naming the field (`hands.2: duplicated card AS: ...`):
    the first problem of each kind, in the order found."""
    out: dict[Status, str] = {}
    for p in problems:
        out.setdefault(p.flag, str(p))
    return out
