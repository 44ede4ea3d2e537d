"""Real positions for the quiz: random deals played by the engine, written as scenario mappings.

Nothing here decides a rule. Moves are chosen at random among `Hand.legal_actions()`, the
position is written as a contract scenario (shared/scenario-format.md), and the question is
then asked about what `scenario.load` makes of that mapping.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from loo_lessons.engine.cards import Card, in_hand_order
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.options import PRESETS, LooAmount, RuleOptions, options_from
from loo_lessons.engine.settle import Stakes
from loo_lessons.engine.table import Table, random_chooser
from loo_lessons.explain import words
from loo_lessons.explain.words import card_label
from loo_lessons.scenario import Scenario, position_mapping

PRESET_NAMES: tuple[str, ...] = ("hoffmann", "peel")
BOOK_NAMES = {"hoffmann": "Hoffmann's rules", "peel": "Peel's rules"}

#: Table sizes met in the quiz, and how often (three to six players is the usual table).
SIZES: tuple[int, ...] = (2, 3, 4, 5, 6, 7)
SIZE_WEIGHTS: tuple[int, ...] = (1, 3, 4, 4, 2, 1)


def other_preset(name: str) -> str:
    """The other book's preset: `peel` for `hoffmann` and `hoffmann` for `peel`."""
    return "peel" if name == "hoffmann" else "hoffmann"


@dataclass(frozen=True)
class Rules:
    """The rules a question is asked under: a preset, or a preset with some options changed."""

    base: str
    overrides: Mapping[str, str | bool] = field(default_factory=dict)

    @property
    def preset(self) -> str | None:
        """The preset name, or None for custom rules (as the question schema says)."""
        return self.base if not self.overrides else None

    def mapping(self) -> dict[str, Any]:
        """The rules as a scenario file's `rules:` mapping: the preset and the options changed."""
        return {"preset": self.base, **dict(self.overrides)}

    def options(self) -> RuleOptions:
        """The engine's `RuleOptions` for these rules."""
        return options_from(self.mapping())

    def words(self) -> str:
        """The rules as a learner reads them: the book's name, and any options changed ("Hoffmann
        with loo amount: pool")."""
        if not self.overrides:
            return BOOK_NAMES[self.base]
        # an option in words, as the lessons say it ("loo amount: pool")
        changed = ", ".join(
            f"{k.replace('_', ' ')}: {str(v).lower().replace('_', ' ')}" for k, v in self.overrides.items()
        )
        return f"{BOOK_NAMES[self.base]} with {changed}"

    def swapped(self) -> Rules:
        """The same question under the other book (for disagreement)."""
        return Rules(other_preset(self.base), self.overrides)


def table_size(rng: random.Random, lo: int = 2, hi: int = 7) -> int:
    """How many play at the table, from `lo` to `hi`, weighted towards the usual three to six
    (`SIZE_WEIGHTS`)."""
    sizes = [s for s in SIZES if lo <= s <= hi]
    weights = [w for s, w in zip(SIZES, SIZE_WEIGHTS, strict=True) if lo <= s <= hi]
    return rng.choices(sizes, weights=weights)[0]


#: The dealer's stake at every quiz table (R02: "either three or some multiple of three").
STAKE = 3
#: Peel's usual stakes (rules-digest V8, from pages of his book outside the seeds): 3 for the
#: deal and a loo of 6 agreed apart from it, a single loo "generally half the amount of the
#: full loo". Only a table playing Peel's rules agrees it: Hoffmann's loo is the stake (R39).
PEEL_AGREED_LOO = 6
#: How many deals a quiz table has played before the deal asked about (0: its first deal).
HISTORY = (0, 6)
#: Deals played at most while waiting for the deal wanted (a must, or an ordinary deal).
MAX_DEALS = 80


@dataclass(frozen=True, slots=True)
class Wanted:
    """The table a question wants to reach: its agreed loo and loo cap (None: the rules'),
    whether the next deal is a must (True), an ordinary deal (False) or either (None), and
    how many deals are played first (drawn from this range)."""

    loo: int | None = None
    loo_cap: int | None = None
    must: bool | None = False
    deals: tuple[int, int] = HISTORY


#: What a question wants when it names nothing: the rules' loo, an ordinary deal, after `HISTORY`.
ORDINARY = Wanted()


@dataclass(frozen=True, slots=True)
class Reached:
    """A table after the deals the engine played (`engine.table.Table`, random legal moves):
    the next deal's dealer, its stakes (the pool is the table's own) and whether it is a must.
    `history` says how to play the table again (`replay_table`)."""

    dealer: int
    stakes: Stakes
    must: bool
    history: dict[str, Any]


def agreed_loo(rules: Rules) -> int | None:
    """The loo a table under these rules may agree apart from the stake: Peel's 6 under
    Peel's rules with a fixed loo (V8, A13); None: the loo is what the options make it."""
    if rules.base != "peel" or rules.options().loo_amount is not LooAmount.FIXED:
        return None
    return PEEL_AGREED_LOO


def replay_table(options: RuleOptions, history: Mapping[str, Any]) -> Table:
    """The table of `history` (a question's `question.table`) after its deals, played again
    by the engine under `options`: random legal moves drawn from the table's own seed."""
    table = Table(
        int(history["players"]),
        options,
        random.Random(int(history["seed"])),
        stake=int(history["stake"]),
        loo=history["loo"],
        loo_cap=history["loo_cap"],
        dealer=int(history["first_dealer"]),
    )
    choose = random_chooser(table.rng)
    for _ in range(int(history["deals"])):
        table.play_deal(choose)
    return table


def reach(rng: random.Random, rules: Rules, players: int, wanted: Wanted = ORDINARY) -> Reached:
    """Play deals at a table from its first dealer's stake until the next deal is one the
    question wants: so its pool is one the named rules reach (built from stakes, the loos
    the rules charge and what a deal leaves in the pool), never a number made up.

    `wanted.must`: True wants the deal after a single (a must where the rules make one), False
    an ordinary deal, None either. LookupError when the table does not get there."""
    loo, loo_cap, must = wanted.loo, wanted.loo_cap, wanted.must
    history: dict[str, Any] = {
        "seed": rng.getrandbits(32),
        "players": players,
        "first_dealer": rng.randrange(players),
        "deals": 0,
        "stake": STAKE,
        "loo": loo,
        "loo_cap": loo_cap,
    }
    options = rules.options()
    table = replay_table(options, history)
    choose = random_chooser(table.rng)
    for _ in range(rng.randint(*wanted.deals)):
        table.play_deal(choose)
    for _ in range(MAX_DEALS):
        if must is None or table.next_must is must:
            break
        table.play_deal(choose)
    else:
        raise LookupError(f"no {'must' if must else 'ordinary deal'} in {MAX_DEALS} deals")
    history["deals"] = len(table.history)
    stakes = Stakes.make(STAKE, loo, None, loo_cap, table.pool, players=players, ante=options.ante)
    return Reached(table.dealer, stakes, table.next_must, history)


def deal(
    rng: random.Random,
    rules: Rules,
    players: int,
    dealer: int,
    *,
    must: bool = False,
    stakes: Stakes | None = None,
) -> Hand:
    """A fresh random deal (`Hand.from_seed`), its seed drawn from the injected RNG."""
    return Hand.from_seed(
        rng.getrandbits(32), players, dealer, rules.options(), must=must, stakes=stakes
    )


DEFAULT_WEIGHTS: dict[Declaration, float] = {
    Declaration.PLAY: 5.0,
    Declaration.TAKE_MISS: 2.0,
    Declaration.PASS: 3.0,
    Declaration.PLAY_MISS_FOR_POOL: 1.0,
}


def pick(
    rng: random.Random, legal: Sequence[Declaration], weights: Mapping[Declaration, float]
) -> Declaration:
    """One of the legal declarations, weighted; a legal one is always returned."""
    opts = [d for d in legal if weights.get(d, 0.0) > 0] or list(legal)
    w = [weights.get(d, 0.0) or 1.0 for d in opts]
    return rng.choices(opts, weights=w)[0]


def declare_until(
    hand: Hand,
    rng: random.Random,
    weights: Mapping[Declaration, float] | Callable[[Hand, int], Mapping[Declaration, float]],
    stop: Callable[[Hand], bool] | None = None,
) -> None:
    """Declare in rotation with legal random choices until `stop` says so or play begins."""
    while hand.phase is Phase.DECLARE and hand.to_act is not None:
        if stop is not None and stop(hand):
            return
        seat = hand.to_act
        w = weights(hand, seat) if callable(weights) else weights
        legal = [a for a in hand.legal_actions() if isinstance(a, Declaration)]
        hand.apply(pick(rng, legal, w))


def play_until(hand: Hand, rng: random.Random, stop: Callable[[Hand], bool] | None = None) -> None:
    """Play uniformly random legal cards until `stop` says so or the deal is over."""
    while hand.phase is Phase.PLAY and hand.to_act is not None:
        if stop is not None and stop(hand):
            return
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])


def play_positions(hand: Hand, rng: random.Random) -> list[int]:
    """Play the deal out at random; return the move counts at which someone was to play."""
    marks: list[int] = []
    while hand.phase is Phase.PLAY and hand.to_act is not None:
        marks.append(len(hand.actions))
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    return marks


def legal_under(hand: Hand, options: RuleOptions) -> tuple[Card, ...]:
    """The cards the seat to play could play if `options` were the rules (the engine's
    `Hand.legal_with`, asked about the same position under the other book)."""
    if hand.to_act is None or hand.trumps is None:
        return ()
    return hand.legal_with(hand.held[hand.to_act], options)


def at_move(hand: Hand, moves: int) -> Hand:
    """The same deal replayed from its transcript up to `moves` moves."""
    t = hand.transcript()
    return replace(t, actions=t.actions[:moves]).replay()


def hand_codes(cards: Sequence[Card], hand: Hand) -> list[str]:
    """The codes of `cards` in the order a player holds them: trumps first, then by suit, high
    to low."""
    return [c.code for c in in_hand_order(cards, hand.trumps)]


def scenario_of(
    hand: Hand,
    rules: Rules,
    *,
    hands: Collection[int] | None = None,
    tricks: bool = True,
    turn_up: bool = True,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The position of `hand` as a contract scenario mapping (JSON-ready: string seat keys).

    `hands` are the seats whose current cards are written (default: every seat still holding
    cards in the play, so the replay checks every card played against the whole hand).
    """
    out = position_mapping(
        hand,
        rules.mapping(),
        seats=hand.players_in if hands is None else hands,
        tricks=tricks,
        turn_up=turn_up,
        miss=False,
    )
    if extra:
        out.update(extra)
    return out


def seat_words(sc: Scenario, seat: int) -> str:
    """'seat 3 (the elder hand)', naming the dealer, the elder hand and the miss-holder."""
    return words.seat_name(sc.hand, seat)


def view_of(
    sc: Scenario,
    show: Collection[int] = (),
    *,
    last_trick_open: bool = False,
    to_act: bool = True,
    before_deal: bool = False,
) -> dict[str, Any]:
    """The table view of the question schema, built from the loaded scenario.

    `show` are the seats whose cards are face up. With `last_trick_open` the last finished
    trick is shown as the trick on the table, its winner not given away.
    """
    h = sc.hand
    s = h.setup
    finished = [t for t in h.completed_tricks() if t.plays and t.winner is not None]
    open_plays: list[list[Any]] = []
    for t in h.completed_tricks():
        if t.plays and t.winner is None:
            open_plays = [[seat, c.code] for seat, c in t.plays]
    if last_trick_open and finished:
        last = finished.pop()
        open_plays = [[seat, c.code] for seat, c in last.plays]
    won: dict[int, int] = {}
    settled = sc.settlement
    if settled is not None:
        won = dict(settled.tricks_won)
    else:
        for t in finished:
            assert t.winner is not None
            won[t.winner] = won.get(t.winner, 0) + 1
    seats = []
    for seat in range(s.players):
        role = "dealer" if seat == s.dealer else ("elder" if seat == s.elder else None)
        d = h.declared.get(seat)
        if before_deal:
            status = None
        elif d is not None:
            status = "in" if d.plays else "out"
        elif h.phase is Phase.DECLARE:
            status = "to_declare"
        else:
            status = None
        cards = hand_codes(h.held[seat], h) if seat in show and not before_deal else None
        seats.append(
            {
                "seat": seat,
                "role": role,
                "status": status,
                "declaration": str(d) if d is not None else None,
                "cards": cards,
                "tricks_won": won.get(seat, 0),
            }
        )
    miss: str | None = "taken" if h.miss_holder is not None else None
    return {
        "players": s.players,
        "dealer": s.dealer,
        "elder": s.elder,
        "turn_up": h.turn_up.code if h.turn_up is not None and not before_deal else None,
        "trumps": h.trumps.value if h.trumps is not None and not before_deal else None,
        # the stake, as the prompts give it: a penalty paid into the pool at once is what a
        # penalty question asks, so the table must not add it in
        "pool": s.stakes.pool,
        "seats": seats,
        "miss": miss,
        "trick": open_plays,
        "tricks": [t.as_json() for t in finished],
        # nobody acts before the deal, nor once the deal is settled (tricks_won given)
        "to_act": h.to_act
        if to_act and not last_trick_open and not before_deal and settled is None
        else None,
    }


__all__ = [
    "PRESETS",
    "PRESET_NAMES",
    "Rules",
    "at_move",
    "card_label",
    "deal",
    "declare_until",
    "play_positions",
    "play_until",
    "scenario_of",
    "view_of",
]
