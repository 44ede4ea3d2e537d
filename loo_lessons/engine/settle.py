"""Settlement (R38–R49): thirds of the pool, loos, the next pool, singles and musts.

`settle` decides the money of a deal once, and says why line by line: every
`SettlementLine` (a trick's share, a loo, winnings withheld, a penalty, odd counters, the next
pool) carries its rule id, a plain reason and the book's words, so every view cites the same
event the same way (the words with seat names and figures are `explain.settlement`'s).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Protocol, cast

from .laws import Law
from .options import DEFAULT_LOO_CAP_STAKES, Ante, LooAmount, PoolRemainder, RuleOptions
from .penalties import Destination, PenaltyRuling
from .sources import RULES, Quote


@dataclass(frozen=True, slots=True)
class Stakes:
    """The money of one deal. `loo` is the fixed loo of limited loo (A13); `loo_cap` the
    maximum loo of `loo_amount: pool_capped` (R49; None: `DEFAULT_LOO_CAP_STAKES` stakes)."""

    stake: int = 3
    loo: int = 3
    single_loo: int = 1
    loo_cap: int | None = None
    pool: int = 3

    @staticmethod
    def make(
        stake: int = 3,
        loo: int | None = None,
        single_loo: int | None = None,
        loo_cap: int | None = None,
        pool: int | None = None,
        *,
        players: int = 1,
        ante: Ante = Ante.DEALER_ONLY,
    ) -> Stakes:
        """The stakes of a deal from the few figures a table agrees: the loo defaults to the stake
        (R39, A13), the single loo to half the loo (at least 1, R50), the pool to what a new
        dealer's pool receives (the dealer's stake, R02, or every player's ante, V9)."""
        full = stake if loo is None else loo
        return Stakes(
            stake=stake,
            loo=full,
            single_loo=max(1, full // 2) if single_loo is None else single_loo,
            loo_cap=loo_cap,
            pool=new_pool_stake(stake, players, ante) if pool is None else pool,
        )

    @property
    def cap(self) -> int:
        """The maximum loo under `pool_capped`: the one given, else the decided default (R49)."""
        return self.loo_cap if self.loo_cap is not None else DEFAULT_LOO_CAP_STAKES * self.stake


def new_pool_stake(stake: int, players: int, ante: Ante) -> int:
    """What a new dealer's pool receives besides loos (R02, R40; V9 `ante`)."""
    return stake * players if ante is Ante.ALL_PLAYERS else stake


def loo_amount(stakes: Stakes, pool: int, options: RuleOptions) -> int:
    """What one loo costs (R39; unlimited R46; capped R49)."""
    if options.loo_amount is LooAmount.FIXED:
        return stakes.loo
    if options.loo_amount is LooAmount.POOL:
        return pool
    return min(pool, stakes.cap)


def trick_shares(pool: int, options: RuleOptions) -> tuple[tuple[int, int, int], int]:
    """Counters won by tricks one, two and three (R38), and any remainder left in the pool (A11).

    One rule whoever takes the tricks: under `carry_forward` each trick takes a third,
    rounded down, and the odd counters stay, also when one hand takes all three (13: 12
    taken, 1 stays), as the option's words say (V12's Foster text: "Any odd white counters
    must be left for the next pool"; the book, R38, gives only "one-third to each trick").
    Under `early_tricks_preference` the shares make the whole pool."""
    third, odd = divmod(pool, 3)
    if odd == 0:
        return (third, third, third), 0
    if options.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE:
        return (third + 1, third + (1 if odd == 2 else 0), third), 0
    return (third, third, third), odd


class LineKind(StrEnum):
    """What a line of the settlement records."""

    AWARD = "award"  # the pool taken whole without play (R14–R17, R53)
    PENALTY_NOW = "penalty_now"  # paid into this pool at once (R50, R51, R53, R54)
    POOL = "pool"  # the pool divided, and how it divides (R38; odd pools A11)
    TRICKS = "tricks"  # what one seat's tricks take (R38)
    FOR_POOL = "for_pool"  # what the miss won for the pool stays there (R19)
    WITHHELD = "withheld"  # an offender's winnings stay in the pool (R54, R63)
    LOO = "loo"  # a seat that played and took no trick pays (R39, R46, R49)
    NOBODY_LOOED = "nobody_looed"  # every one who played took a trick (R39)
    SINGLE = "single"  # three played, a trick each: a single (R41, R42)
    ODD = "odd"  # odd counters stay in the pool (pool_remainder: carry_forward, A11)
    PENALTY_NEXT = "penalty_next"  # added to the next deal's pool (R61)
    NEXT_POOL = "next_pool"  # what forms the next pool (R40)
    MUST = "must"  # the next deal is a must (R43)


@dataclass(frozen=True, slots=True)
class SettlementLine:
    """One event of a settlement: who, how many counters, the rule, a plain reason, the words.

    `tricks` are the trick numbers (1–3) behind a TRICKS, FOR_POOL or WITHHELD line when the
    order is known, `tricks_taken` how many; `shares` what tricks one, two and three take (on
    the POOL line); `offence` names a penalty's offence in words."""

    kind: LineKind
    rule: str
    reason: str
    seat: int | None = None
    amount: int = 0
    tricks: tuple[int, ...] = ()
    tricks_taken: int = 0
    shares: tuple[int, ...] = ()
    offence: str | None = None
    quote_index: int = 0
    # a line a variant makes cites the variant's book, outside the seeds (as `LawInfo` does)
    outside: Quote | None = None

    @property
    def quote(self) -> Quote:
        """The book's words for this line: the quote of its rule (`rule`, `quote_index`), or
        the outside book's for a variant's line."""
        if self.outside is not None:
            return self.outside
        return RULES[self.rule].quotes[self.quote_index]


class Charged(Protocol):
    """A penalty as the hand records it (`game.PenaltyRecord`)."""

    @property
    def seat(self) -> int:
        """The seat that pays."""
        ...

    @property
    def ruling(self) -> PenaltyRuling:
        """The laws' ruling on the offence (R50–R63)."""
        ...

    @property
    def amount(self) -> int:
        """The counters it costs."""
        ...


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a deal: who receives, who is looed, and the next pool; `lines` say why."""

    pool: int
    pool_awarded_to: int | None
    tricks_won: dict[int, int]
    receives: dict[int, int]
    looed: tuple[int, ...]
    loo_pays: dict[int, int]
    left_in_pool: int
    withheld: dict[int, int]
    penalties_now: int
    penalties_next: int
    next_pool: int
    is_single: bool
    next_is_must: bool
    rules: tuple[str, ...] = field(default=())
    # what `why` is made of, kept as a plain tuple: the `Why` is made when asked (a frozen
    # dataclass costs a settlement of a simulated deal more than its tuple does)
    why_parts: WhyParts | None = field(default=None, compare=False, repr=False)

    @property
    def why(self) -> Why | None:
        """What the lines need besides the figures."""
        return None if self.why_parts is None else Why(*self.why_parts)

    @property
    def lines(self) -> tuple[SettlementLine, ...]:
        """Every line of the settlement, in order, each with its rule (built when asked, so a
        simulation that only needs the figures does not pay for the words)."""
        why = self.why
        return () if why is None else _lines(self, why)

    def as_json(self) -> dict[str, object]:
        """The settlement as the contract's JSON writes it: the pool, who took it whole, tricks
        won, receipts, loos, the next pool and whether it is a must (R38–R49), and every line
        with its rule id and quote."""
        return {
            "pool": self.pool,
            "pool_awarded_to": self.pool_awarded_to,
            "tricks_won": {str(k): v for k, v in sorted(self.tricks_won.items())},
            "receives": {str(k): v for k, v in sorted(self.receives.items())},
            "looed": list(self.looed),
            "loo_pays": {str(k): v for k, v in sorted(self.loo_pays.items())},
            "left_in_pool": self.left_in_pool,
            "withheld": {str(k): v for k, v in sorted(self.withheld.items())},
            "penalties_paid_now": self.penalties_now,
            "penalties_to_next_pool": self.penalties_next,
            "next_pool": self.next_pool,
            "is_single": self.is_single,
            "next_is_must": self.next_is_must,
            "rules": list(self.rules),
        }


class _Unsealed:
    """A `Settlement` being made: the same slots, in the same order, set as any object's are
    (no frozen `__setattr__`); `_settlement` then makes it a `Settlement` by its class. A
    frozen dataclass's `__init__` sets every field through `object.__setattr__`, and setting
    the slots through their descriptors costs several times what a plain slot store does;
    every deal of a simulation makes a settlement."""

    __slots__ = tuple(f.name for f in fields(Settlement))


def _settlement(
    pool: int,
    pool_awarded_to: int | None,
    tricks_won: dict[int, int],
    receives: dict[int, int],
    looed: tuple[int, ...],
    loo_pays: dict[int, int],
    left_in_pool: int,
    withheld: dict[int, int],
    penalties_now: int,
    penalties_next: int,
    next_pool: int,
    is_single: bool,
    next_is_must: bool,
    rules: tuple[str, ...],
    why_parts: WhyParts | None,
) -> Settlement:
    """`Settlement(...)` with these fields, in their order (made as an `_Unsealed`, then
    sealed: from then on it is a frozen `Settlement` like any other)."""
    s = _Unsealed()
    s.pool = pool  # type: ignore[attr-defined]
    s.pool_awarded_to = pool_awarded_to  # type: ignore[attr-defined]
    s.tricks_won = tricks_won  # type: ignore[attr-defined]
    s.receives = receives  # type: ignore[attr-defined]
    s.looed = looed  # type: ignore[attr-defined]
    s.loo_pays = loo_pays  # type: ignore[attr-defined]
    s.left_in_pool = left_in_pool  # type: ignore[attr-defined]
    s.withheld = withheld  # type: ignore[attr-defined]
    s.penalties_now = penalties_now  # type: ignore[attr-defined]
    s.penalties_next = penalties_next  # type: ignore[attr-defined]
    s.next_pool = next_pool  # type: ignore[attr-defined]
    s.is_single = is_single  # type: ignore[attr-defined]
    s.next_is_must = next_is_must  # type: ignore[attr-defined]
    s.rules = rules  # type: ignore[attr-defined]
    s.why_parts = why_parts  # type: ignore[attr-defined]
    s.__class__ = Settlement  # type: ignore[assignment]
    return cast(Settlement, s)


def resettled(s: Settlement) -> Settlement:
    """A settlement equal to `s`, with dicts of its own (a table settles the same deal the
    same way every time: the hand keeps one and hands out such copies)."""
    return _settlement(
        s.pool,
        s.pool_awarded_to,
        s.tricks_won.copy(),
        s.receives.copy(),
        s.looed,
        s.loo_pays.copy(),
        s.left_in_pool,
        s.withheld.copy(),
        s.penalties_now,
        s.penalties_next,
        s.next_pool,
        s.is_single,
        s.next_is_must,
        s.rules,
        s.why_parts,
    )


# --- the reasons, once -------------------------------------------------------------------------


def _quote_with(rule: str, *words: str) -> int:
    """The index of the rule's first quote containing one of `words` (else 0)."""
    for i, q in enumerate(RULES[rule].quotes):
        if any(w in q.text for w in words):
            return i
    return 0


#: What a fixed loo set apart from the stake cites: R39's loo as the table agreed it, variant
#: V8 (Peel's loo of 6 on a stake of 3, from a page outside the seeds), in Peel's words for a
#: full loo as an amount of its own (cited as `LawInfo` cites a variant's book). Never R39's
#: own "the same amount as was originally placed in the pool", which a loo of 6 on a stake
#: of 3 is not, nor R02, which is the dealer's stake.
AGREED_LOO_RULE = "R39"
AGREED_LOO_QUOTE = Quote("V8", "generally half the amount of the full loo")
#: Every quote of a book outside the seeds that the engine cites: the variants' laws' and lines'.
OUTSIDE_QUOTES: frozenset[Quote] = frozenset(
    {law.quote for law in Law if law.quote.outside} | {AGREED_LOO_QUOTE}
)


def _loo_line(
    seat: int, paid: int, stakes: Stakes, pool: int, options: RuleOptions
) -> SettlementLine:
    """A loo, worded for the loo actually charged (R39 only when it is the stake)."""
    if options.loo_amount is LooAmount.FIXED:
        if paid == stakes.stake:
            reason = (
                "He played and took no trick: he is looed, and pays the same amount as was "
                "originally placed in the pool (the stake)."
            )
        else:  # the table's agreement, not R39's "the same amount as was originally placed"
            return SettlementLine(
                LineKind.LOO,
                AGREED_LOO_RULE,
                f"He played and took no trick: he is looed, and pays the fixed loo the table "
                f"agreed ({paid}), set apart from the stake of {stakes.stake}: the counters a "
                "table plays for are its agreement (limited loo as Peel plays it, V8, A13).",
                seat,
                paid,
                outside=AGREED_LOO_QUOTE,
            )
        return SettlementLine(LineKind.LOO, "R39", reason, seat, paid)
    if options.loo_amount is LooAmount.POOL_CAPPED and paid < pool:
        return SettlementLine(
            LineKind.LOO,
            "R49",
            f"He played and took no trick: he is looed; a loo would be what the pool holds "
            f"({pool}), but no more than the maximum of {stakes.cap} is paid.",
            seat,
            paid,
        )
    return SettlementLine(
        LineKind.LOO,
        "R46",
        "He played and took no trick: he is looed, and pays what the pool held (unlimited loo).",
        seat,
        paid,
    )


def _penalty_line(p: Charged) -> SettlementLine:
    r = p.ruling
    words = r.offence.info.words
    size = r.size.words
    if r.destination is Destination.NEXT_POOL:
        return SettlementLine(
            LineKind.PENALTY_NEXT,
            "R61",
            f"Penalty for {words}: {size}, added to the pool for the next deal.",
            p.seat,
            p.amount,
            offence=words,
        )
    rule = r.rules[0]
    return SettlementLine(
        LineKind.PENALTY_NOW,
        rule,
        f"Penalty for {words}: {size}, paid into the pool at once.",
        p.seat,
        p.amount,
        offence=words,
        quote_index=_quote_with(rule, "pool", "loo"),
    )


def _withheld_rule(seat: int, penalties: Sequence[Charged]) -> str:
    """R54 keeps the winnings of a player who looked at another's cards after standing; R63
    those of a player who transgressed in the play (replayed). A seat under both: R54 first."""
    ids = {rid for p in penalties if p.seat == seat for rid in p.ruling.rules}
    return "R54" if "R54" in ids else "R63"


_WITHHELD_REASON = {
    "R54": "He looked at another player's cards after standing: he paid first and played, and "
    "what his cards win is left in the pool for the next deal.",
    "R63": "He transgressed in the play and the cards were replayed: what he wins stays in "
    "the pool for the next deal.",
}


@dataclass(frozen=True, slots=True)
class Why:
    """What the lines of a settlement need besides its figures."""

    stakes: Stakes
    options: RuleOptions
    trick_winners: tuple[int, ...] | None
    for_pool: int | None
    penalties: tuple[Charged, ...]
    award_law: Law | None
    shares: tuple[int, int, int]
    odd: int


#: `Why`'s fields in order (see `Settlement.why_parts`)
WhyParts = tuple[
    Stakes,
    RuleOptions,
    tuple[int, ...] | None,
    int | None,
    tuple[Charged, ...],
    Law | None,
    tuple[int, int, int],
    int,
]


def settle(
    *,
    players: int,
    stakes: Stakes,
    options: RuleOptions,
    players_in: Sequence[int],
    trick_winners: Sequence[int] | None = None,
    tricks_won: Mapping[int, int] | None = None,
    for_pool: int | None = None,
    withheld_seats: Sequence[int] = (),
    penalties_now: int = 0,
    penalties_next: int = 0,
    awarded_to: int | None = None,
    award_law: Law | None = None,
    penalties: Sequence[Charged] = (),
) -> Settlement:
    """Divide the pool and collect the loos.

    `trick_winners` (in trick order) or `tricks_won` (counts) says who won what.
    `for_pool` is the dealer's seat when he played the miss for the pool (R19): what it wins
    stays in the pool, and he is not looed (A16). `withheld_seats` are offenders whose
    winnings stay in the pool (R54, R63). `penalties_now` were paid into this pool at once
    (R50, R51, R53); `penalties_next` go to the next deal's pool (R61). `penalties` (the
    hand's records) give each penalty its own line and each withheld seat its rule;
    `award_law` the rule of a pool taken without play.
    """
    return settle_in_order(
        players,
        stakes,
        options,
        players_in,
        trick_winners,
        tricks_won,
        for_pool,
        withheld_seats,
        penalties_now,
        penalties_next,
        awarded_to,
        award_law,
        penalties,
    )


def settle_in_order(
    players: int,
    stakes: Stakes,
    options: RuleOptions,
    players_in: Sequence[int],
    trick_winners: Sequence[int] | None,
    tricks_won: Mapping[int, int] | None,
    for_pool: int | None,
    withheld_seats: Sequence[int],
    penalties_now: int,
    penalties_next: int,
    awarded_to: int | None,
    award_law: Law | None,
    penalties: Sequence[Charged],
    /,
) -> Settlement:
    """`settle`, its arguments given in order (the hand settles every deal this way: thirteen
    keywords cost a simulated deal more than the settling does)."""
    pool = stakes.pool + penalties_now
    stake = stakes.stake
    next_stake = stake * players if options.ante is _ALL_PLAYERS else stake  # new_pool_stake
    shares, left = trick_shares(pool, options)
    winners = None if trick_winners is None else tuple(trick_winners)
    charged = tuple(penalties)
    # (the figures are passed in field order: a frozen dataclass's keywords cost a deal more)
    if awarded_to is not None:  # R14, R15, R16: the pool goes whole, without play
        why: WhyParts = (stakes, options, winners, for_pool, charged, award_law, shares, left)
        return _settlement(
            pool,
            awarded_to,
            {},
            {awarded_to: pool},
            (),
            {},
            0,
            {},
            penalties_now,
            penalties_next,
            next_stake + penalties_next,
            False,
            False,
            _AWARD_RULES,
            why,
        )
    won: dict[int, int] = {}
    receives: dict[int, int] = {}
    if winners is not None:
        for i, seat in enumerate(winners):
            if seat in won:
                won[seat] += 1
                receives[seat] += shares[i]
            else:
                won[seat] = 1
                receives[seat] = shares[i]
    else:
        assert tricks_won is not None
        if shares[0] != shares[2] and sorted(tricks_won.values()) != [3]:
            raise ValueError("the order of tricks is needed to share an odd pool")
        for seat, n in tricks_won.items():
            if n:  # equal shares, or one hand's three (the order is then no matter)
                won[seat] = n
                receives[seat] = sum(shares[:n])
    why = (stakes, options, winners, for_pool, charged, award_law, shares, left)
    withheld: dict[int, int] = {}
    if for_pool is not None or withheld_seats:
        for seat in [*([for_pool] if for_pool is not None else []), *withheld_seats]:
            if seat in receives:
                withheld[seat] = receives.pop(seat)
                left += withheld[seat]
    kind = options.loo_amount
    # loo_amount: R39, unlimited R46, capped R49
    loo = stakes.loo if kind is _FIXED else pool if kind is _POOL else min(pool, stakes.cap)
    # `won` holds only seats that took a trick (a loop: cheaper than a comprehension here)
    out: list[int] = []
    for seat in players_in:
        if seat not in won and seat != for_pool:
            out.append(seat)
    looed = tuple(out)
    # R41: exactly three played and each took one trick
    is_single = len(players_in) == 3 and len(won) == 3 and all(s in won for s in players_in)
    rules: tuple[str, ...] = _LOO_RULES if looed else _NO_LOO_RULES
    if for_pool is not None or is_single or kind is not _FIXED:
        more = list(rules)
        if for_pool is not None:
            more.append("R19")
        if is_single:
            more += ["R41", "R42", "R43"]
        if kind is not _FIXED:
            more += ["R46", "R47"] + (["R49"] if kind is _POOL_CAPPED else [])
        rules = tuple(more)
    return _settlement(
        pool,
        None,
        won,
        receives,
        looed,
        dict.fromkeys(looed, loo),
        left,
        withheld,
        penalties_now,
        penalties_next,
        loo * len(looed) + left + next_stake + penalties_next,
        is_single,
        is_single and options.single_makes_must,
        rules,
        why,
    )


_ALL_PLAYERS = Ante.ALL_PLAYERS
_FIXED, _POOL, _POOL_CAPPED = LooAmount.FIXED, LooAmount.POOL, LooAmount.POOL_CAPPED
_AWARD_RULES = ("R14", "R15", "R16", "R40")
_LOO_RULES = ("R38", "R39", "R40")
_NO_LOO_RULES = ("R38", "R40")


def _lines(s: Settlement, w: Why) -> tuple[SettlementLine, ...]:
    """The lines of a settlement, from its figures and `Why` (see `Settlement.lines`)."""
    options = w.options
    now = [_penalty_line(p) for p in w.penalties if p.ruling.destination is Destination.POOL_NOW]
    after = [_penalty_line(p) for p in w.penalties if p.ruling.destination is Destination.NEXT_POOL]
    lines = list(now)
    if s.pool_awarded_to is not None:
        law = w.award_law or Law.DEALER_TAKES_POOL
        lines.append(
            SettlementLine(
                LineKind.AWARD,
                law.rule,
                law.reason,
                s.pool_awarded_to,
                s.pool,
                quote_index=law.info.quote_index,
            )
        )
        return (*lines, *after, _next_pool_line(s.next_pool, options))
    sweep = next((seat for seat, n in s.tricks_won.items() if n == 3), None)
    lines.append(_pool_line(s.pool, w.shares, options))
    which: dict[int, list[int]] = {}
    for i, seat in enumerate(w.trick_winners or ()):
        which.setdefault(seat, []).append(i + 1)
    for seat in sorted(s.tricks_won):
        lines.append(
            SettlementLine(
                LineKind.TRICKS,
                "R38",
                ("He took all three tricks: three thirds are the whole pool." if not w.odd else
                 "He took all three tricks: three thirds, each rounded down.")
                if seat == sweep
                else "Each trick takes one third of the pool.",
                seat,
                s.receives.get(seat, s.withheld.get(seat, 0)),
                tuple(which.get(seat, ())),
                s.tricks_won[seat],
            )
        )
    for seat, amount in s.withheld.items():
        tricks = tuple(which.get(seat, ()))
        n = s.tricks_won.get(seat, 0)
        if seat == w.for_pool:
            lines.append(
                SettlementLine(
                    LineKind.FOR_POOL,
                    "R19",
                    "The dealer played the miss for the pool: what it wins stays in the pool "
                    "for the next deal, and he is not looed.",
                    seat,
                    amount,
                    tricks,
                    n,
                )
            )
        else:
            rid = _withheld_rule(seat, w.penalties)
            lines.append(
                SettlementLine(
                    LineKind.WITHHELD,
                    rid,
                    _WITHHELD_REASON[rid],
                    seat,
                    amount,
                    tricks,
                    n,
                    quote_index=1 if rid == "R54" else 0,
                )
            )
    lines += [_loo_line(x, s.loo_pays[x], w.stakes, s.pool, options) for x in s.looed]
    if s.is_single:
        lines.append(
            SettlementLine(
                LineKind.SINGLE,
                "R41",
                "Only three played and each took one trick: no one is looed, and the next hand "
                "is a single.",
            )
        )
    elif not s.looed and w.for_pool is not None and w.for_pool not in s.tricks_won:
        # the miss played for the pool took no trick: not "every one ... took a trick"
        lines.append(
            SettlementLine(
                LineKind.NOBODY_LOOED,
                "R19",
                "Every one who played his own cards took a trick, and the miss the dealer played "
                "for the pool took none but is never looed (A16): nobody is looed.",
                w.for_pool,
            )
        )
    elif not s.looed:
        lines.append(
            SettlementLine(
                LineKind.NOBODY_LOOED, "R39", "Every one who played took a trick: nobody is looed."
            )
        )
    if w.odd:
        lines.append(
            SettlementLine(
                LineKind.ODD,
                "R38",
                "The pool does not divide by three: each trick takes a third, rounded down, and "
                "the odd counters stay in the pool for the next deal (pool_remainder: "
                "carry_forward, A11).",
                amount=w.odd,
            )
        )
    lines += after
    lines.append(_next_pool_line(s.next_pool, options))
    if s.next_is_must:
        lines.append(
            SettlementLine(
                LineKind.MUST,
                "R43",
                "After a single the next deal is a must: every one is bound to play, and there "
                "is no miss.",
                quote_index=1,
            )
        )
    return tuple(lines)


def _pool_line(pool: int, shares: tuple[int, int, int], options: RuleOptions) -> SettlementLine:
    if pool % 3 == 0:
        reason = "The pool is divided, one third to each trick."
    elif options.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE:
        reason = (
            "The pool does not divide by three: the shares are as equal as can be, and the "
            "winners of the first and second tricks take the odd counters (Peel's preference; "
            "pool_remainder: early_tricks_preference, A11)."
        )
    else:
        reason = (
            "The pool does not divide by three: each trick takes a third, rounded down "
            "(pool_remainder: carry_forward, A11)."
        )
    return SettlementLine(LineKind.POOL, "R38", reason, amount=pool, shares=shares)


def _next_pool_line(next_pool: int, options: RuleOptions) -> SettlementLine:
    if options.ante is Ante.ALL_PLAYERS:
        return SettlementLine(
            LineKind.NEXT_POOL,
            "R40",
            "The loos, what stays in the pool and any penalties for the next deal, with every "
            "player's ante (ante: all_players, V9), form the pool for the next hand.",
            amount=next_pool,
        )
    return SettlementLine(
        LineKind.NEXT_POOL,
        "R40",
        "The loos, what stays in the pool and any penalties for the next deal, with a like "
        "contribution from the new dealer, form the pool for the next hand.",
        amount=next_pool,
    )
