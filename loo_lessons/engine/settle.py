"""Settlement (R38–R49): thirds of the pool, loos, the next pool, singles and musts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .options import Ante, LooAmount, PoolRemainder, RuleOptions


@dataclass(frozen=True, slots=True)
class Stakes:
    """The money of one deal. `loo` is the fixed loo of limited loo (A13)."""

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
        full = stake if loo is None else loo
        return Stakes(
            stake=stake,
            loo=full,
            single_loo=max(1, full // 2) if single_loo is None else single_loo,
            loo_cap=loo_cap,
            pool=new_pool_stake(stake, players, ante) if pool is None else pool,
        )


def new_pool_stake(stake: int, players: int, ante: Ante) -> int:
    """What a new dealer's pool receives besides loos (R02, R40; V9 `ante`)."""
    return stake * players if ante is Ante.ALL_PLAYERS else stake


def loo_amount(stakes: Stakes, pool: int, options: RuleOptions) -> int:
    """What one loo costs (R39; unlimited R46; capped R49)."""
    if options.loo_amount is LooAmount.FIXED:
        return stakes.loo
    if options.loo_amount is LooAmount.POOL:
        return pool
    assert stakes.loo_cap is not None
    return min(pool, stakes.loo_cap)


def trick_shares(pool: int, options: RuleOptions) -> tuple[tuple[int, int, int], int]:
    """Counters won by tricks one, two and three (R38), and any remainder left in the pool (A11)."""
    third, odd = divmod(pool, 3)
    if odd == 0:
        return (third, third, third), 0
    if options.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE:
        return (third + 1, third + (1 if odd == 2 else 0), third), 0
    return (third, third, third), odd


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a deal: who receives, who is looed, and the next pool."""

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

    def as_json(self) -> dict[str, object]:
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
) -> Settlement:
    """Divide the pool and collect the loos.

    `trick_winners` (in trick order) or `tricks_won` (counts) says who won what.
    `for_pool` is the dealer's seat when he played the miss for the pool (R19): what it wins
    stays in the pool, and he is not looed (A16). `withheld_seats` are offenders whose
    winnings stay in the pool (R54, R63). `penalties_now` were paid into this pool at once
    (R50, R51, R53); `penalties_next` go to the next deal's pool (R61).
    """
    pool = stakes.pool + penalties_now
    next_stake = new_pool_stake(stakes.stake, players, options.ante)
    if awarded_to is not None:  # R14, R15, R16: the pool goes whole, without play
        return Settlement(
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
            ("R14", "R15", "R16", "R40"),
        )
    shares, left = trick_shares(pool, options)
    won: dict[int, int] = {}
    receives: dict[int, int] = {}
    if trick_winners is not None:
        for i, seat in enumerate(trick_winners):
            won[seat] = won.get(seat, 0) + 1
            receives[seat] = receives.get(seat, 0) + shares[i]
    else:
        assert tricks_won is not None
        if shares[0] != shares[2] and sorted(tricks_won.values()) != [3]:
            raise ValueError("the order of tricks is needed to share an odd pool")
        for seat, n in tricks_won.items():
            if n:
                won[seat] = n
                receives[seat] = shares[0] * n if n < 3 else pool - left
    withheld: dict[int, int] = {}
    for seat in [*([for_pool] if for_pool is not None else []), *withheld_seats]:
        if seat in receives:
            withheld[seat] = receives.pop(seat)
            left += withheld[seat]
    loo = loo_amount(stakes, pool, options)
    looed = tuple(s for s in players_in if won.get(s, 0) == 0 and s != for_pool)
    loo_pays = {s: loo for s in looed}
    is_single = len(players_in) == 3 and all(won.get(s, 0) == 1 for s in players_in)
    rules = ["R38", *(["R39"] if looed else []), "R40"]
    if for_pool is not None:
        rules.append("R19")
    if is_single:
        rules += ["R41", "R42", "R43"]
    if options.loo_amount is not LooAmount.FIXED:
        rules += ["R46", "R47"] + (["R49"] if options.loo_amount is LooAmount.POOL_CAPPED else [])
    return Settlement(
        pool=pool,
        pool_awarded_to=None,
        tricks_won=won,
        receives=receives,
        looed=looed,
        loo_pays=loo_pays,
        left_in_pool=left,
        withheld=withheld,
        penalties_now=penalties_now,
        penalties_next=penalties_next,
        next_pool=sum(loo_pays.values()) + left + next_stake + penalties_next,
        is_single=is_single,
        next_is_must=is_single and options.single_makes_must,
        rules=tuple(rules),
    )
