"""Rule ids R01–R63 of rules-digest.md: each with its summary and the verbatim source quotes.

Generated once from the digest; every quote is checked against the seed texts by the tests
(tests/test_sources.py), so a citation shown to a learner is always the book's own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

SEED_FILES: dict[str, str] = {
    "000": "000_37195d60acffb26a.txt",
    "003": "003_55b817d2accecc63.txt",
    "004": "004_5503ac02ae718bdb.txt",
}

BOOKS: dict[str, str] = {
    "000": 'Prof. Hoffmann, Hoyle\'s Games Modernized, "Loo"',
    "003": 'W. H. Peel, Round Games with Cards, "Loo" (the dealer\'s cases, the lead, following)',
    "004": 'W. H. Peel, Round Games with Cards, "Loo" (Declaring; Playing the Hands: the penalties)',
}

#: Books outside the seed texts that a variant of the digest (V1-V14) reads from, keyed by
#: the variant: a quote of one is the digest's quotation of that book, and its name says it
#: is not one of the seed texts, so a learner never takes it for the seeds' own rule.
OUTSIDE_BOOKS: dict[str, str] = {
    "V7": "Enquire Within upon Everything (outside the seed texts: variant V7)",
    "V8": 'W. H. Peel, Round Games with Cards, "Loo" (a page outside the seed texts: variant V8)',
}


@dataclass(frozen=True, slots=True)
class Quote:
    """A verbatim passage of one seed text (`seed` "000", "003", "004"); or, with `seed` a
    variant of `OUTSIDE_BOOKS` ("V7"), of the book outside the seeds that the variant reads."""

    seed: str
    text: str

    @property
    def outside(self) -> bool:
        """Not from the seed texts (see `OUTSIDE_BOOKS`)."""
        return self.seed in OUTSIDE_BOOKS

    @property
    def source(self) -> str:
        """The seed file quoted, or `outside:V7` for a book outside the seeds."""
        return f"outside:{self.seed}" if self.outside else SEED_FILES[self.seed]

    @property
    def book(self) -> str:
        """The title of the book the words are from (`BOOKS` for the seeds, `OUTSIDE_BOOKS` for a
        variant's)."""
        return OUTSIDE_BOOKS[self.seed] if self.outside else BOOKS[self.seed]


@dataclass(frozen=True, slots=True)
class Rule:
    """One numbered rule of the digest."""

    id: str
    summary: str
    quotes: tuple[Quote, ...]

    @property
    def quote(self) -> Quote:
        """The rule's first quote: the words cited when a law applies it."""
        return self.quotes[0]


#: The digest's rules, each once: its id, its summary and its quotes (rules-digest.md).
_RULES: tuple[Rule, ...] = (
    Rule(
        "R01",
        "52-card pack, whist ranking (A K Q J 10 … 2).",
        (Quote("000", "The full pack of fifty-two cards is used, the cards ranking as at Whist."),),
    ),
    Rule(
        "R02",
        "Only the dealer stakes: an agreed 3 counters or a multiple of 3.",
        (
            Quote(
                "000",
                "places an agreed number of counters (either three or some multiple of three) in the pool.",
            ),
        ),
    ),
    Rule(
        "R03",
        "Three cards each, dealt singly, plus a spare three-card hand called the miss.",
        (
            Quote(
                "000",
                'Three cards are dealt, one by one, to each player, also an extra hand, known as "miss."',
            ),
        ),
    ),
    Rule(
        "R04",
        "The next card is turned up and fixes trumps. Nobody holds it.",
        (Quote("000", "The card next following is turned up, and fixes the trump suit."),),
    ),
    Rule(
        "R05",
        "Declaring starts with the elder hand (dealer's left) and goes round to the left. The dealer declares last.",
        (
            Quote(
                "000",
                'The dealer then asks each player, beginning with the elder hand, whether he will play or "take miss."',
            ),
            Quote(
                "004",
                "He having decided, the player on his left does the same, and so on all round.",
            ),
        ),
    ),
    Rule(
        "R06",
        "There are three choices: stand (play), take miss, or throw up (pass).",
        (Quote("004", "declares his intention to stand, throw up, or take miss."),),
    ),
    Rule(
        "R07",
        "Passing means dropping out of the round.",
        (Quote("000", 'or of "passing," _i.e._ throwing up his hand altogether for that round.'),),
    ),
    Rule(
        "R08",
        "A declined miss is offered to the next player.",
        (Quote("000", "If miss be declined, the same offer is made to the next in rotation"),),
    ),
    Rule(
        "R09",
        "Once the miss is taken, later players may only play or pass.",
        (
            Quote(
                "000",
                "so soon as miss is taken, the remaining players have only two alternatives--viz. either to play the cards they hold, or to pass.",
            ),
        ),
    ),
    Rule(
        "R10",
        "The player who takes miss must play it.",
        (Quote("000", "A player who has taken miss is bound to play."),),
    ),
    Rule(
        "R11",
        "Discarded hands go face down and nobody may look at them.",
        (
            Quote(
                "000",
                "are thrown face downwards in the middle of the table, and no one has a right to look at them.",
            ),
        ),
    ),
    Rule(
        "R12",
        "A declaration is final.",
        (Quote("004", "No player may make a second declaration, or alter one once made"),),
    ),
    Rule(
        "R13",
        "A player who stands or takes miss must play his cards out.",
        (
            Quote(
                "004",
                "a player who decides to stand, or who takes the miss, must play his cards with the others interested in the stakes",
            ),
            Quote(
                "004",
                "he not being permitted to stand out, lest his doing so should affect the others play.",
            ),
        ),
    ),
    Rule(
        "R14",
        "If everyone before the dealer throws up and nobody took miss, the dealer takes the pool without play.",
        (
            Quote(
                "003",
                "each of the players in front of the dealer has thrown up his own cards, and neither has taken the miss",
            ),
            Quote(
                "003",
                "then the dealer is entitled to the amount in the pool, no matter what his cards are.",
            ),
            Quote(
                "000",
                'In the event of all save the dealer "passing," the dealer is entitled to the pool.',
            ),
        ),
    ),
    Rule(
        "R15",
        "If one player took miss and all the rest throw up, the miss-holder takes the pool.",
        (
            Quote(
                "000",
                "Should one player take miss, and all the rest throw up their cards, he is entitled to the pool.",
            ),
        ),
    ),
    Rule(
        "R16",
        "If the only player before the dealer who stood is the miss-holder, the dealer may stand or throw up. If the dealer throws up, the miss-holder takes the whole pool.",
        (
            Quote(
                "003",
                "the dealer may stand, or not, as he chooses; but if he also throws up his cards, then the holder of miss",
            ),
            Quote("003", "being the only standing hand, takes the whole amount of the pool."),
        ),
    ),
    Rule(
        "R17",
        "If exactly one player stood on his own cards (miss untaken), the dealer may play his own cards or take miss on his own account.",
        (
            Quote(
                "000",
                "Should only one player have declared to play, and not have taken miss, the dealer may play either his own cards or take miss",
            ),
            Quote(
                "003", "then the dealer, if he cannot stand on his own cards, may take the miss."
            ),
        ),
    ),
    Rule(
        "R18",
        "If he wants neither, he must play the miss *for the pool* against the lone stander. The dealer cannot pass in this situation.",
        (
            Quote(
                "000",
                "if he does not care to do either, he is bound to take miss and play for the pool",
            ),
            Quote(
                "003",
                "he must play the miss for the benefit of the pool, against the single player who declared to play on his own cards",
            ),
        ),
    ),
    Rule(
        "R19",
        "Whatever the miss wins when played for the pool stays in the pool for the next deal.",
        (
            Quote(
                "000",
                "the proceeds of any tricks he may make remain in the pool, to abide the result of the next round.",
            ),
            Quote(
                "003",
                "anything he may then win with the miss is left in the pool for the next deal.",
            ),
        ),
    ),
    Rule(
        "R20",
        "(Remark) These cases are rare, but rules are still needed for them.",
        (Quote("003", "These contingencies are seldom, if ever, met with in actual play"),),
    ),
    Rule(
        "R21",
        "First lead: the elder hand among those playing, i.e. the player in play nearest the dealer's left.",
        (
            Quote(
                "000", "The elder hand (as among those who have declared to play) now leads a card."
            ),
            Quote("003", "the one nearest the dealer's left having to lead."),
        ),
    ),
    Rule(
        "R22",
        "Option: the holder of miss leads. Peel advises against it.",
        (
            Quote(
                "003",
                "It is, however, sometimes agreed that the holder of miss for the time being shall lead",
            ),
        ),
    ),
    Rule(
        "R23",
        "A leader holding the ace of trumps must lead it.",
        (
            Quote("000", "If he holds the ace of trumps he is bound to lead it"),
            Quote("003", "If the leader holds the ace of trumps he must lead it"),
        ),
    ),
    Rule(
        "R24",
        "If the ace of trumps is turned up, a leader holding the king must lead it.",
        (
            Quote(
                "000",
                "if an ace be turned up, and he holds the king of the same suit, he is bound to lead the latter.",
            ),
            Quote(
                "003",
                "if the ace is turned up, and he holds the king, he must start off with that card.",
            ),
        ),
    ),
    Rule(
        "R25",
        "Hoffmann's base rule: with two trumps, lead one of them.",
        (Quote("000", "If he has two trumps he is bound to lead one of them."),),
    ),
    Rule(
        "R26",
        "Peel's default: with two or three trumps, lead the highest. \"Lead one\" applies only if the table agreed it beforehand.",
        (
            Quote(
                "003",
                "If he has two or three trumps (of any denomination) he must lead the highest.",
            ),
            Quote("003", '"Two or more trumps, lead _one_," is the rule of some players'),
            Quote("003", "the rule to lead the _highest_ of two or three must govern the point."),
        ),
    ),
    Rule(
        "R27",
        "Hoffmann, only two declared: with two or more trumps, lead the highest. If the top trumps are in sequence or of equal value, either may be led. The rule does not apply with more than three declared.",
        (
            Quote(
                "000",
                "If only two persons have declared to play, and the holder holds two or more trumps, he must lead the _highest_",
            ),
            Quote(
                "000",
                "unless his highest trumps are in sequence or of equal value,[28] when he may lead either of them.",
            ),
            Quote(
                "000", "(With {88} more than three declared players the last rule does not apply.)"
            ),
        ),
    ),
    Rule(
        "R28",
        "In every other case the lead is free.",
        (
            Quote(
                "003", "In all other cases the leader may start off with whichever card he chooses."
            ),
        ),
    ),
    Rule(
        "R29",
        "The winner of a trick leads to the next, with the same obligations as the first leader.",
        (
            Quote(
                "000",
                "The winner of each trick leads to the next. He is under the same obligations as the original leader",
            ),
        ),
    ),
    Rule(
        "R30",
        '"Trump after trick": that winner must lead a trump if he has one.',
        (
            Quote(
                "000",
                'and is further bound to lead a trump, if he has one. This latter obligation is briefly stated as "trump after trick."',
            ),
        ),
    ),
    Rule(
        "R31",
        "Peel's laws state this for the winner of the first trick, with the highest of two trumps.",
        (
            Quote(
                "004", "If the winner of the first trick remains with a trump, and fails to lead it"
            ),
            Quote("004", "or having two trumps left fails to lead the highest, he is looed."),
        ),
    ),
    Rule(
        "R32",
        "Play goes round to the left and players must follow suit.",
        (
            Quote(
                "003",
                "The play proceeds from left to right, and each player, in turn, has to follow suit if he can",
            ),
        ),
    ),
    Rule(
        "R33",
        "Hoffmann: follow suit, and head the trick (play a higher card) if able.",
        (
            Quote(
                "000",
                'each player must follow suit, if possible, and he must "head the trick," _i.e._ play a higher card to it, if able to do so.',
            ),
        ),
    ),
    Rule(
        "R34",
        "Peel words heading as the player's aim, not as an explicit law (his footnote [21] is not in our text).",
        (
            Quote(
                "003",
                "he will play as high as possible [21] if he has the power to head the trick.",
            ),
        ),
    ),
    Rule(
        "R35",
        'Hoffmann, void in the led suit: trump, or over-trump if already trumped, "if practicable".',
        (
            Quote(
                "000",
                "If unable to follow suit, he is bound to trump, or if the trick be already trumped, to over-trump, if practicable.",
            ),
        ),
    ),
    Rule(
        "R36",
        "Peel, void in the led suit: trump only if the trump heads the trick; otherwise discard anything.",
        (
            Quote(
                "003",
                "he must play a trump if he has one, provided his trump is higher than any previously played to the trick",
            ),
            Quote(
                "003",
                "it is not compulsory to trump a suit when it is not possible to head the trick by doing so.",
            ),
            Quote("003", "Failing the ability to head the trick, he may discard as he chooses."),
        ),
    ),
    Rule(
        "R37",
        'No seed states who wins a trick; it follows from whist ranking plus "head the trick". The standard rule: highest trump, else highest card of the led suit (EB 1911: "The trick is won by the highest card of the suit led, or, if trumped, by the highest trump").',
        (Quote("000", "The full pack of fifty-two cards is used, the cards ranking as at Whist."),),
    ),
    Rule(
        "R38",
        "Each trick takes one third of the pool.",
        (
            Quote("000", "the pool is divided, in the proportion of one-third to each trick."),
            Quote("000", "The first takes two-thirds, and the second one-third."),
        ),
    ),
    Rule(
        "R39",
        "A player who played and took no trick is looed: he pays the amount originally staked.",
        (
            Quote(
                "000",
                'The remaining three players are "looed," _i.e._ mulcted in the same amount as was originally placed in the pool',
            ),
        ),
    ),
    Rule(
        "R40",
        "Next pool = the loos + the new dealer's stake.",
        (
            Quote(
                "000",
                'these "loos," as they are called, with alike contribution from the new dealer, form the pool for the next hand.',
            ),
        ),
    ),
    Rule(
        "R41",
        "If exactly three declared and each took one trick, nobody is looed and the next pool is the dealer's stake alone.",
        (
            Quote(
                "000",
                "that only three players declare to play, and that each of them takes one trick. In such case no one is looed",
            ),
            Quote(
                "000",
                "the only fund to form the pool for the next round is the contribution of the dealer.",
            ),
        ),
    ),
    Rule(
        "R42",
        "That next hand is called a single.",
        (Quote("000", 'The next hand in such case is known as a "single,"'),),
    ),
    Rule(
        "R43",
        "Usually, though not always, a single is played as a must: everyone has to play.",
        (
            Quote(
                "000",
                'it is a usual, though not invariable, rule, to make it what is called a "must,"',
            ),
            Quote("000", "meaning that every one, whatever his cards, is bound to play."),
        ),
    ),
    Rule(
        "R44",
        "A must produces at least n − 3 loos.",
        (Quote("000", "This necessarily produces as many loos (less three) as there are players"),),
    ),
    Rule(
        "R45",
        "There is no miss in a must.",
        (Quote("000", 'In the case of a "must" there is no miss.'),),
    ),
    Rule(
        "R46",
        "A loo equals the amount in the pool.",
        (
            Quote(
                "000",
                "the payment for a loo is sometimes made equal to the amount which may chance to be in the pool for the time being.",
            ),
        ),
    ),
    Rule(
        "R47",
        "The loo grows until a single brings it back.",
        (
            Quote(
                "000",
                "until the occurrence of a single (_i.e._ three players only declaring to play, and each taking one trick) brings it back to its normal proportions.",
            ),
        ),
    ),
    Rule(
        "R48",
        "This form is called unlimited loo.",
        (Quote("000", 'Loo in this shape is known as "unlimited."'),),
    ),
    Rule(
        "R49",
        "A maximum is customary.",
        (
            Quote(
                "000",
                "it is customary to fix a _maximum_ beyond which no further advance shall be permitted.",
            ),
        ),
    ),
    Rule(
        "R50",
        "Looking at your own cards before your turn, or declaring out of turn: looed a single, paid into the pool at once.",
        (
            Quote(
                "004",
                "Any player looking at his cards before it is his turn to do so, or declaring out of turn",
            ),
            Quote(
                "004",
                "or at any part of the undealt portion of the pack, is looed a single, and pays the penalty into the pool at once",
            ),
        ),
    ),
    Rule(
        "R51",
        "Looking at the miss without taking it, at thrown-up cards, or at the undealt pack: the same penalty.",
        (
            Quote(
                "004",
                "or looking at the miss without taking it, or looking at either of the thrown up cards",
            ),
        ),
    ),
    Rule(
        "R52",
        "These offences do not stop the player from playing, except looking at an opponent's hand.",
        (
            Quote(
                "004",
                "he is not debarred by any of these irregularities (except when he looks at either of the opponents hands) from taking part in the play",
            ),
        ),
    ),
    Rule(
        "R53",
        "Looking at another player's cards: a full loo, and he must throw up unexposed…",
        (
            Quote(
                "004",
                "If he looks at the cards of any other player he is looed the full loo, and must throw up his own cards, unexposed",
            ),
        ),
    ),
    Rule(
        "R54",
        "…unless he has already stood or taken miss. Then he pays first and must play, and anything his cards win stays in the pool for the next deal.",
        (
            Quote(
                "004",
                "in which case he has to play to the tricks, having first paid his loo into the pool",
            ),
            Quote(
                "004",
                "in the event of his cards securing either of the tricks the amount won is left in the pool for the next deal.",
            ),
        ),
    ),
    Rule(
        "R55",
        "The leader does not lead the ace of trumps, or the king when the ace is turned up: looed.",
        (
            Quote(
                "004",
                "If he holds ace, or with ace turned up holds king, and fails to lead it, he is looed",
            ),
        ),
    ),
    Rule(
        "R56",
        "The leader holds two or more trumps and does not lead the highest: looed.",
        (
            Quote(
                "004",
                "similarly, with two or more trumps if he fails to lead the highest he is looed.",
            ),
        ),
    ),
    Rule(
        "R57",
        "Not following suit when able: looed.",
        (Quote("004", "Any player neglecting to follow the suit led, when he is able to do so"),),
    ),
    Rule(
        "R58",
        "Not trumping when a trump would head the trick: looed.",
        (
            Quote(
                "004",
                "or omitting to trump a suit, when by so doing he can head the trick, is likewise looed",
            ),
        ),
    ),
    Rule(
        "R59",
        "Playing out of turn, or exposing or naming unplayed cards (your own, an opponent's, the miss's, the stock's): looed.",
        (
            Quote(
                "004",
                "as also is any one playing out of turn, or exposing or mentioning the value of his own, or opponents unplayed cards",
            ),
            Quote(
                "004",
                "or of either of those in the miss, or among the undealt portion of the pack.",
            ),
        ),
    ),
    Rule(
        "R60",
        'The winner of the first trick breaks "trump after trick" (R31): looed.',
        (
            Quote(
                "004", "If the winner of the first trick remains with a trump, and fails to lead it"
            ),
            Quote("004", "or having two trumps left fails to lead the highest, he is looed."),
        ),
    ),
    Rule(
        "R61",
        "Every play-phase penalty is a full loo added to the *next* deal's pool.",
        (
            Quote(
                "004",
                "In all these cases the penalty is the amount of a full loo, and it is added to the pool for the next deal.",
            ),
        ),
    ),
    Rule(
        "R62",
        "The cards are replayed correctly.",
        (Quote("004", "The cards must he replayed in proper order"),),
    ),
    Rule(
        "R63",
        "Whatever the offender wins in the replay stays in the pool for the next deal.",
        (
            Quote(
                "004",
                "if the player who transgressed wins either of the tricks his winnings must be left in the pool for the next deal.",
            ),
        ),
    ),
)
#: Every rule of the digest by its id (R01–R63).
RULES: dict[str, Rule] = {r.id: r for r in _RULES}


def rule(rule_id: str) -> Rule:
    """The rule with this id; KeyError names the id when it does not exist."""
    return RULES[rule_id]


@cache
def seed_text(seed: str) -> str:
    """The full text of a seed (shipped as package data)."""
    return (
        resources.files("loo_lessons")
        .joinpath("seeds", SEED_FILES[seed])
        .read_text(encoding="utf-8")
    )
