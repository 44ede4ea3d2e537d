"""Rule options (the contract's 14 keys) and the presets that name the book they follow.

Every place where the seed texts disagree (rules-digest V1–V14) or are silent (A1–A23)
is an option here or a documented default in `DEFAULTS_DECIDED`, never a hidden `if`.
Each option value and each preset value carries the rule ids and quotes it comes from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from .errors import InputError
from .sources import RULES, Quote


class TwoTrumpsLead(StrEnum):
    """V1: leading with two or three trumps: the highest (R26, [003]) or any one (R25, [000])."""

    HIGHEST = "highest"
    ONE = "one"


class TwoDeclaredRule(StrEnum):
    """V2: seed 000's rule for two declared players: lead the highest trump unless the top trumps
    are in sequence or of equal value (R27), or no such rule."""

    HIGHEST_WITH_SEQUENCE_EXCEPTION = "highest_with_sequence_exception"
    NONE = "none"


class FirstLeader(StrEnum):
    """V3: who leads first: the elder hand in play (R21) or the holder of the miss (R22)."""

    ELDER_HAND = "elder_hand"
    MISS_HOLDER = "miss_holder"


class TrumpAfterTrickTwoTrumps(StrEnum):
    """V4: after winning a trick with two trumps left, lead the highest ([004], R31) or as the
    original leader would (R29)."""

    HIGHEST = "highest"
    AS_ORIGINAL_LEAD = "as_original_lead"


class VoidTrumpRule(StrEnum):
    """V5: a player void in the suit led must trump (R35, [000]) or need only trump when the trump
    would head the trick (R36, [003])."""

    MUST_TRUMP = "must_trump"
    ONLY_IF_HEADS = "only_if_heads"


class LoneStanderRule(StrEnum):
    """V7: the dealer's choices when exactly one player stood: the seeds' (R17, R18) or Enquire
    Within's (play or give up the stakes)."""

    SEEDS = "seeds"
    ENQUIRE_WITHIN = "enquire_within"


class LooAmount(StrEnum):
    """V8: what a loo costs: a fixed amount (R39, A13), the pool (unlimited loo, R46–R48), or
    the pool up to a cap (R49)."""

    FIXED = "fixed"
    POOL = "pool"
    POOL_CAPPED = "pool_capped"


class Ante(StrEnum):
    """V9: who stakes each deal: the dealer alone (R02) or every player."""

    DEALER_ONLY = "dealer_only"
    ALL_PLAYERS = "all_players"


class PoolRemainder(StrEnum):
    """V12: counters of a pool that does not divide by three (A11): to the first and second tricks,
    or carried forward."""

    EARLY_TRICKS_PREFERENCE = "early_tricks_preference"
    CARRY_FORWARD = "carry_forward"


class MissDealPosition(StrEnum):
    """V13: where the miss is dealt in each round (R03, A19)."""

    AFTER_DEALER_EACH_ROUND = "after_dealer_each_round"
    END_OF_EACH_ROUND = "end_of_each_round"
    FIRST_EACH_ROUND = "first_each_round"


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """All 14 rule options of the contract. Build one with `preset(...)` or `options_from(...)`."""

    two_trumps_lead: TwoTrumpsLead
    two_declared_rule: TwoDeclaredRule
    equal_value_via_visible_cards: bool
    first_leader: FirstLeader
    trump_after_trick: bool
    trump_after_trick_two_trumps: TrumpAfterTrickTwoTrumps
    must_head_in_suit: bool
    void_trump_rule: VoidTrumpRule
    lone_stander_rule: LoneStanderRule
    loo_amount: LooAmount
    ante: Ante
    single_makes_must: bool
    pool_remainder: PoolRemainder
    miss_deal_position: MissDealPosition

    def to_dict(self) -> dict[str, str | bool]:
        """The options as the contract's `rules` mapping: each key with its value's text (or
        true/false); `options_from` reads it back."""
        out: dict[str, str | bool] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v if isinstance(v, bool) else str(v)
        return out

    def with_(self, **changes: Any) -> RuleOptions:
        """A copy with some options changed (values checked as in a scenario file)."""
        return options_from(changes, base=self)


@dataclass(frozen=True, slots=True)
class Reading:
    """One value of an option: what it means and where it comes from."""

    value: str | bool
    meaning: str
    rules: tuple[str, ...]
    variant: str | None = None
    ambiguity: str | None = None
    outside: str | None = None  # a reading taken from a book outside the seeds, described

    @property
    def quotes(self) -> tuple[Quote, ...]:
        """The books' words behind this reading: the first quote of each of its rules."""
        return tuple(RULES[r].quote for r in self.rules)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option as declared: its key, its type, what it decides, and each value's reading
    (meaning, rule ids, the variant or ambiguity of rules-digest.md it settles). The explorers,
    `rules --json` and the variants page read these."""

    key: str
    kind: type
    meaning: str
    readings: tuple[Reading, ...]

    @property
    def values(self) -> tuple[str | bool, ...]:
        """The values this option may take, in the order they are declared."""
        return tuple(r.value for r in self.readings)

    def reading(self, value: str | bool) -> Reading:
        """The `Reading` of `value` (its meaning and rules); `KeyError` if it is not one of
        `values`."""
        for r in self.readings:
            if r.value == value:
                return r
        raise KeyError(value)


OPTION_SPECS: dict[str, OptionSpec] = {
    s.key: s
    for s in (
        OptionSpec(
            "two_trumps_lead",
            TwoTrumpsLead,
            "Leading with two or more trumps (the ace rule R23 and the king rule R24 override both).",
            (
                Reading(
                    "highest", "Lead the highest of two or three trumps.", ("R26", "R56"), "V1"
                ),
                Reading("one", "Lead any one of your trumps.", ("R25",), "V1"),
            ),
        ),
        OptionSpec(
            "two_declared_rule",
            TwoDeclaredRule,
            "Hoffmann: with only two declared, lead the highest trump unless the top trumps are "
            "in sequence or of equal value. Applies with exactly two players in (A2, A3).",
            (
                Reading(
                    "highest_with_sequence_exception",
                    "With exactly two in, lead the highest "
                    "trump, or any trump of equal value to it.",
                    ("R27",),
                    "V2",
                    "A2",
                ),
                Reading(
                    "none", "No special rule for two declared players (Peel).", ("R26",), "V2"
                ),
            ),
        ),
        OptionSpec(
            "equal_value_via_visible_cards",
            bool,
            "Two trumps count as 'of equal value' when every rank between them is held by the "
            "leader or has been seen (the turn-up, cards played in earlier tricks).",
            (
                Reading(
                    True,
                    "Seen cards close the gap: K and J with the Q turned up are of equal value.",
                    ("R27",),
                    "V2",
                    "A1",
                ),
                Reading(
                    False,
                    "Only touching ranks held together count (K Q, not K J).",
                    ("R27",),
                    "V2",
                    "A1",
                ),
            ),
        ),
        OptionSpec(
            "first_leader",
            FirstLeader,
            "Who leads the first trick.",
            (
                Reading(
                    "elder_hand", "The player in nearest the dealer's left leads.", ("R21",), "V3"
                ),
                Reading(
                    "miss_holder",
                    "The holder of the miss leads (when the miss was taken).",
                    ("R22",),
                    "V3",
                ),
            ),
        ),
        OptionSpec(
            "trump_after_trick",
            bool,
            "The winner of a trick must lead a trump if he has one.",
            (
                Reading(True, "Trump after trick is in force.", ("R30", "R31"), None, "A6"),
                Reading(
                    False, "The winner of a trick leads under the first-lead rules only.", ("R29",)
                ),
            ),
        ),
        OptionSpec(
            "trump_after_trick_two_trumps",
            TrumpAfterTrickTwoTrumps,
            "With two trumps left after winning a trick.",
            (
                Reading("highest", "Lead the higher of the two.", ("R31", "R60"), "V4"),
                Reading(
                    "as_original_lead",
                    "Same obligations as the original leader (R29), so under "
                    "`two_trumps_lead: one` either trump.",
                    ("R29",),
                    "V4",
                    "A6",
                ),
            ),
        ),
        OptionSpec(
            "must_head_in_suit",
            bool,
            "When following suit, play a card that beats the card now winning, if able.",
            (
                Reading(
                    True, "Heading the trick in the suit led is compulsory.", ("R33",), "V6", "A10"
                ),
                Reading(
                    False,
                    "Any card of the suit led may be played.",
                    ("R32", "R34", "R57"),
                    "V6",
                    "A10",
                ),
            ),
        ),
        OptionSpec(
            "void_trump_rule",
            VoidTrumpRule,
            "A player void in the suit led.",
            (
                Reading(
                    "must_trump",
                    "Must trump, and over-trump if able; if he cannot over-trump he "
                    "must still play a trump (under-trump).",
                    ("R35",),
                    "V5",
                    "A9",
                ),
                Reading(
                    "only_if_heads",
                    "Must trump only with a trump that heads the trick; otherwise "
                    "discard anything.",
                    ("R36", "R58"),
                    "V5",
                    "A9",
                ),
            ),
        ),
        OptionSpec(
            "lone_stander_rule",
            LoneStanderRule,
            "The dealer's options when exactly one player stood on his own cards and the miss is untaken.",
            (
                Reading(
                    "seeds",
                    "Play own cards, take miss, or play the miss for the pool; no pass.",
                    ("R17", "R18", "R19"),
                    "V7",
                ),
                Reading(
                    "enquire_within",
                    "Play (own cards or the miss) or give up the stakes: "
                    "if the dealer passes, the lone stander takes the pool.",
                    ("R17",),
                    "V7",
                    outside="Enquire Within: the dealer 'may either play or give up the stakes'.",
                ),
            ),
        ),
        OptionSpec(
            "loo_amount",
            LooAmount,
            "What a loo costs.",
            (
                Reading(
                    "fixed",
                    "Limited loo: a fixed loo (the scenario's `loo`, default the stake).",
                    ("R39",),
                    "V8",
                    "A13",
                ),
                Reading(
                    "pool",
                    "Unlimited loo: a loo equals the pool contested in the hand.",
                    ("R46", "R47", "R48"),
                    "V8",
                    "A15",
                ),
                Reading(
                    "pool_capped",
                    "Unlimited with a maximum `loo_cap`.",
                    ("R49",),
                    "V8",
                    outside="Peel calls this Mixed Loo.",
                ),
            ),
        ),
        OptionSpec(
            "ante",
            Ante,
            "Who pays into a new pool.",
            (
                Reading("dealer_only", "Only the dealer stakes.", ("R02", "R40"), "V9", "A14"),
                Reading(
                    "all_players",
                    "Every player pays the stake into the new pool.",
                    ("R02",),
                    "V9",
                    "A14",
                    outside="EB 1911: 'Each player contributes to the pool a sum previously "
                    "agreed upon.'",
                ),
            ),
        ),
        OptionSpec(
            "single_makes_must",
            bool,
            "The deal after a single is a must.",
            (
                Reading(
                    True,
                    "Usual: after a single everyone must play, no miss.",
                    ("R43", "R45"),
                    "V10",
                ),
                Reading(
                    False,
                    "'not invariable': the deal after a single is an ordinary deal.",
                    ("R43",),
                    "V10",
                ),
            ),
        ),
        OptionSpec(
            "pool_remainder",
            PoolRemainder,
            "A pool that does not divide by three (A11).",
            (
                Reading(
                    "early_tricks_preference",
                    "Shares as equal as can be; the winners of the first "
                    "and second tricks take the odd counters.",
                    ("R38",),
                    "V12",
                    "A11",
                    outside="Peel: 'the winners of the first and second tricks have the preference'.",
                ),
                Reading(
                    "carry_forward",
                    "Each trick takes a third, rounded down; odd counters stay in "
                    "the pool for the next deal.",
                    ("R38",),
                    "V12",
                    "A11",
                    outside="Foster-style: 'Any odd white counters must be left for the next pool'.",
                ),
            ),
        ),
        OptionSpec(
            "miss_deal_position",
            MissDealPosition,
            "Where the miss's card falls in each round.",
            (
                Reading(
                    "after_dealer_each_round",
                    "Right after the dealer's own card each round.",
                    ("R03",),
                    "V13",
                    "A19",
                    outside="Peel: 'immediately after dealing his own card'.",
                ),
                Reading(
                    "end_of_each_round",
                    "At the end of each round (the same place: the dealer is dealt last).",
                    ("R03",),
                    "V13",
                    "A19",
                    outside="EB 9: 'at the end of each round'.",
                ),
                Reading(
                    "first_each_round",
                    "First in each round, before the elder hand.",
                    ("R03",),
                    "V13",
                    "A19",
                    outside="Enquire Within: 'the first or last card of each round'.",
                ),
            ),
        ),
    )
}


@dataclass(frozen=True, slots=True)
class Preset:
    """A book's rules as one set of options: its name, the book and the seed texts it follows, the
    options, and why it takes each value (rule ids cited)."""

    name: str
    book: str
    seeds: tuple[str, ...]
    options: RuleOptions
    why: dict[str, str]  # option key -> why this preset takes this value (rule ids cited)


# The two books side by side, option by option: what Hoffmann's book takes and why, then what
# Peel's takes and why (rule ids cited). Where they disagree is one row apart.
_READINGS: dict[str, tuple[tuple[Any, str], tuple[Any, str]]] = {
    "two_trumps_lead": (
        (TwoTrumpsLead.ONE, "R25: 'If he has two trumps he is bound to lead one of them.'"),
        (TwoTrumpsLead.HIGHEST, "R26: 'the rule to lead the highest of two or three must govern the point.'"),
    ),
    "two_declared_rule": (
        (
            TwoDeclaredRule.HIGHEST_WITH_SEQUENCE_EXCEPTION,
            "R27: 'If only two persons have declared to play ... he must lead the highest'",
        ),
        (TwoDeclaredRule.NONE, "Peel has no special rule for two declared players (R26 governs)."),
    ),
    "equal_value_via_visible_cards": (
        (
            True,
            "R27/A1: footnote [28] on 'equal value' is missing; cards "
            "already seen between two trumps are read as making them equal.",
        ),
        (False, "Unused without the two-declared rule; off."),
    ),
    "first_leader": (
        (FirstLeader.ELDER_HAND, "R21: 'The elder hand (as among those who have declared to play) now leads a card.'"),
        (
            FirstLeader.ELDER_HAND,
            "R21/R22: the elder hand leads; the miss-holder lead is 'hardly a desirable departure'.",
        ),
    ),
    "trump_after_trick": (
        (True, "R30: 'and is further bound to lead a trump, if he has one.'"),
        (
            True,
            "R31/R60: 'If the winner of the first trick remains with a trump, and fails "
            "to lead it ... he is looed.'",
        ),
    ),
    "trump_after_trick_two_trumps": (
        (TrumpAfterTrickTwoTrumps.AS_ORIGINAL_LEAD, "R29: 'He is under the same obligations as the original leader'"),
        (TrumpAfterTrickTwoTrumps.HIGHEST, "R31: 'or having two trumps left fails to lead the highest'"),
    ),
    "must_head_in_suit": (
        (True, "R33: 'he must \"head the trick,\" i.e. play a higher card to it, if able'"),
        (
            False,
            "R34/A10: Peel words heading as the player's aim, and his penalty laws list no "
            "penalty for not heading in suit.",
        ),
    ),
    "void_trump_rule": (
        (VoidTrumpRule.MUST_TRUMP, "R35: 'If unable to follow suit, he is bound to trump, or ... to over-trump'"),
        (
            VoidTrumpRule.ONLY_IF_HEADS,
            "R36: 'it is not compulsory to trump a suit when it is not possible to head the trick by doing so.'",
        ),
    ),
    "lone_stander_rule": (
        (
            LoneStanderRule.SEEDS,
            "R17/R18: 'the dealer may play either his own cards or take miss ... "
            "bound to take miss and play for the pool'",
        ),
        (LoneStanderRule.SEEDS, "R17/R18 in Peel: 'he must play the miss for the benefit of the pool'"),
    ),
    "loo_amount": (
        (
            LooAmount.FIXED,
            "R39: looed players are 'mulcted in the same amount as was originally placed in the pool'",
        ),
        (LooAmount.FIXED, "Limited loo; Peel fixes the loo separately from the deal stake (V8)."),
    ),
    "ante": (
        (Ante.DEALER_ONLY, "R02/R40: only the dealer places counters in the pool."),
        (Ante.DEALER_ONLY, "Only the dealer stakes (V9)."),
    ),
    "single_makes_must": (
        (True, "R43: 'a usual, though not invariable, rule, to make it ... a \"must\"'"),
        (True, "The usual rule (R43)."),
    ),
    "pool_remainder": (
        (
            PoolRemainder.CARRY_FORWARD,
            "Not in Hoffmann (stakes are multiples of three, R02); odd counters are carried forward (A11).",
        ),
        (
            PoolRemainder.EARLY_TRICKS_PREFERENCE,
            "Peel: 'the winners of the first and second tricks have the preference' (V12).",
        ),
    ),
    "miss_deal_position": (
        (
            MissDealPosition.END_OF_EACH_ROUND,
            "R03 names the miss after the players' cards: 'to each player, also an extra hand' (A19).",
        ),
        (
            MissDealPosition.AFTER_DEALER_EACH_ROUND,
            "Peel: the miss's card 'immediately after dealing his own card each time' (V13).",
        ),
    ),
}


def _book(name: str, book: str, seeds: tuple[str, ...], column: int) -> Preset:
    """The preset of the book in `column` of `_READINGS` (0 Hoffmann's, 1 Peel's)."""
    chosen = {option: both[column] for option, both in _READINGS.items()}
    return Preset(
        name,
        book,
        seeds,
        RuleOptions(**{option: value for option, (value, _) in chosen.items()}),
        {option: why for option, (_, why) in chosen.items()},
    )


HOFFMANN = _book("hoffmann", "Prof. Hoffmann, Hoyle's Games Modernized", ("000",), 0)
PEEL = _book(
    "peel", "W. H. Peel, Round Games with Cards (with its penalty table)", ("003", "004"), 1
)

PRESETS: dict[str, Preset] = {p.name: p for p in (HOFFMANN, PEEL)}


def preset_of(options: RuleOptions) -> Preset | None:
    """The preset whose options these are, every one of them; None for rules of a table's own
    (a preset with an option changed)."""
    return next((p for p in PRESETS.values() if p.options == options), None)


#: The preset used when a scenario names none: seed 000 is the book the lessons follow first.
DEFAULT_PRESET = "hoffmann"

#: The maximum loo of `loo_amount: pool_capped` when none is agreed (`loo_cap` not given), in
#: stakes: four stakes, 12 counters at the usual stake of 3.
#: R49 [000]: "it is customary to fix a _maximum_ beyond which no further advance shall be
#: permitted." The book fixes no figure, so one is decided here. A cap at or below the stake
#: would make capped loo play as limited loo (a pool never holds less than the stake), so it
#: must lie above it; the contract's own example (`loo_cap: 12` with `stake: 3`,
#: scenario-format.md) and the Monte Carlo comparisons (sim.montecarlo) both use four stakes.
#: A scenario file still names its cap (the loader asks for `loo_cap`), and so does `loo-lessons
#: play` (`--option loo_cap=N`); games dealt without one (`Hand.from_seed`, `simulate`, the play
#: widget, `Table`) use this default.
DEFAULT_LOO_CAP_STAKES = 4

#: Ambiguities decided as fixed defaults (not options), each with its reason.
DEFAULTS_DECIDED: dict[str, str] = {
    "A2": "Hoffmann's two-declared rule (R27) applies with exactly two players in; with three it "
    "does not ('only two persons').",
    "A3": "'the holder holds two or more trumps' in R27 is read as 'the leader'.",
    "A4": "The ace rule (R23) and the ace-turned-king rule (R24) come before every other lead rule, "
    "including the sequence exception and 'lead one'; the king rule applies even to a lone king.",
    "A5": "With three trumps the same rules apply as with two (Peel: 'two or three').",
    "A7": "The ace/king rules bind every leader, not only the first (R29: 'same obligations').",
    "A8": "'Head the trick' means beating the card now winning; once the trick is trumped, any card of "
    "the suit led follows.",
    "A12": "Every new dealer stakes, also when loos fill the pool; a dealer who takes the pool "
    "without play (R14) pays nothing more.",
    "A13": "A fixed loo defaults to the dealer's stake; a scenario may set `loo` separately (Peel: 6).",
    "A15": "Unlimited loo: a loo equals the pool contested in the hand, before division; a "
    "full-loo penalty costs what a loo costs in that game (capped like a loo under "
    "`pool_capped`); a single resets the loo by itself (the next pool is the stake alone, plus any odd counters carried forward).",
    "A16": "The dealer playing the miss for the pool is never looed; what the miss wins stays in the "
    "pool (R19); he leads only as the miss-holder under `first_leader: miss_holder`; trump after "
    "trick binds him.",
    "A17": "Two-player tables follow the same rules: every played hand is heads-up.",
    "A18": "2–16 players with a miss, up to 17 in a must (no miss).",
    "A19": "An untaken miss goes back face down, unseen.",
    "A20": "Single-loo penalties and the full loo for looking at another's hand go into the current "
    "pool at once; play-phase penalties go to the next deal's pool (R61).",
    "A21": "An offender who takes no trick in the replay is also looed; the whole hand is replayed; "
    "winnings are withheld only under R54 and R63.",
    "A23": "Penalties for looking at cards still apply in a must.",
    "A24": "R59 (Peel: 'as also is any one playing out of turn, or exposing or "
    "mentioning the value of his own, or opponents unplayed cards') binds the players in the "
    "hand. Read one way, 'any one' is every one at the table, so a player who threw up (R07) "
    "and names an opponent's card is looed too; read the other, the law speaks of one who has "
    "'opponents' and 'his own' unplayed cards, and a loo is paid by one who played, so a "
    "player out of the hand is not within it. The engine takes the second, and its refusal "
    "names R59 and this reading.",
    "A25": "A player who looks at another's cards before declaring in a must throws up (R53: 'must "
    "throw up his own cards, unexposed'), though in a must every one is bound to play (R43). "
    "Read one way, R53's specific penalty prevails over R43's general rule (the engine's "
    "reading: he may only throw up, and the explanation cites both); read the other, a must "
    "binds him as a declared stander is bound (R54: he pays the full loo, plays on, and any "
    "winnings stay in the pool).",
    "R49": "`loo_amount: pool_capped` with no agreed `loo_cap`: the maximum loo is four stakes "
    "(12 counters at a stake of 3). The book says only 'it is customary to fix a _maximum_ "
    "beyond which no further advance shall be permitted', with no figure; a cap at the stake "
    "would be limited loo again, and the contract's example caps at 12. Scenario files still "
    "name their cap.",
}


def preset(name: str) -> RuleOptions:
    """The `RuleOptions` of the preset `name` (`hoffmann`, `peel`, …, see `PRESETS`). Raises
    `InputError` naming `rules.preset` for an unknown name."""
    try:
        return PRESETS[name].options
    except KeyError:
        raise InputError(
            "rules.preset", f"unknown preset {name!r} (known: {', '.join(sorted(PRESETS))})"
        ) from None


def _coerce(key: str, value: object) -> Any:
    spec = OPTION_SPECS[key]
    if spec.kind is bool:
        if not isinstance(value, bool):
            raise InputError(f"rules.{key}", f"must be true or false, got {value!r}")
        return value
    if not isinstance(value, str) or value not in spec.values:
        allowed = " | ".join(str(v) for v in spec.values)
        raise InputError(f"rules.{key}", f"unknown value {value!r} (allowed: {allowed})")
    return spec.kind(value)


def options_from(mapping: object, base: RuleOptions | None = None) -> RuleOptions:
    """Options from a scenario's `rules:` (a preset name, or a mapping with optional `preset`)."""
    if mapping is None:
        return base or preset(DEFAULT_PRESET)
    if isinstance(mapping, str):
        return preset(mapping)
    if not isinstance(mapping, dict):
        raise InputError("rules", f"expected a preset name or a mapping, got {mapping!r}")
    opts = base
    if "preset" in mapping:
        name = mapping["preset"]
        if not isinstance(name, str):
            raise InputError("rules.preset", f"expected a preset name, got {name!r}")
        opts = preset(name)
    if opts is None:
        opts = preset(DEFAULT_PRESET)
    changes: dict[str, Any] = {}
    for key, value in mapping.items():
        if key == "preset":
            continue
        if key not in OPTION_SPECS:
            raise InputError(
                f"rules.{key}", f"unknown rule option (known: {', '.join(OPTION_SPECS)})"
            )
        changes[key] = _coerce(key, value)
    return replace(opts, **changes)


def rule_options(rules: RuleOptions | str | Mapping[str, Any] | None) -> RuleOptions:
    """The options a caller's `rules=` names: options as they are, a preset's name, or a
    mapping read as a scenario's `rules:` (`options_from`); None is the default preset."""
    if isinstance(rules, RuleOptions):
        return rules
    return options_from(dict(rules) if isinstance(rules, Mapping) else rules)
