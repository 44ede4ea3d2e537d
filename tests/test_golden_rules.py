"""Golden tests from the seed texts, by rule id: the pack, the deal and declaring (R01–R13),
and the checks that tie every golden test to the books' own words.

Every expected answer here was worked out by hand from the seed texts (quoted in
/work/shared/rules-digest.md); each test's docstring quotes the sentence it checks, and
`test_every_golden_test_quotes_its_rule` holds the docstrings to that. The other rule
groups live in tests/test_golden_dealer.py (R14–R20), test_golden_lead.py (R21–R31),
test_golden_follow.py (R32–R37), test_golden_settle.py (R38–R49) and
test_golden_penalties.py (R50–R63).
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from _golden import HANDS5, MISS5, cards, forbidding_rule, legal, make_hand, run

from loo_lessons.engine.cards import FULL_PACK, Card, Suit, beats, parse_card, shuffled_pack
from loo_lessons.engine.deal import deal, deal_from
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction
from loo_lessons.engine.game import Hand, Phase, Setup
from loo_lessons.engine.options import MissDealPosition, preset
from loo_lessons.engine.penalties import Destination, Offence, Size, ruling_for
from loo_lessons.engine.settle import Stakes, trick_shares
from loo_lessons.engine.sources import RULES, seed_text
from loo_lessons.engine.table import Table
from loo_lessons.scenario import loads
from loo_lessons.scenario.errors import ScenarioError

HERE = Path(__file__).parent
RULE_IDS = [f"R{i:02d}" for i in range(1, 64)]

# HANDS5 / MISS5 (from _golden): a five-handed deal used throughout, trumps hearts.
TURN5 = "2H"


# --- helpers ---------------------------------------------------------------------------------


def ws(text: str) -> str:
    return " ".join(text.split())


def golden_tests() -> dict[str, str | None]:
    """Every test function in tests/test_golden*.py, with its docstring."""
    out: dict[str, str | None] = {}
    for path in sorted(HERE.glob("test_golden*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out[f"{path.name}::{node.name}"] = ast.get_docstring(node)
    return out


def ids_in(name: str) -> list[str]:
    return re.findall(r"_(R\d\d)(?=_|$)", name.split("::")[-1])


# --- the checks on the golden tests themselves ---------------------------------------------------


def test_rules_catalogue_has_all_63_rule_ids() -> None:
    assert list(RULES) == RULE_IDS


def test_every_rule_id_has_a_golden_test() -> None:
    covered = {rid for name in golden_tests() for rid in ids_in(name)}
    missing = [rid for rid in RULE_IDS if rid not in covered]
    assert not missing, f"rule ids without a golden test: {missing}"
    assert covered <= set(RULE_IDS), f"unknown rule ids in test names: {covered - set(RULE_IDS)}"


def test_every_golden_test_quotes_its_rule() -> None:
    """Each test named after a rule quotes (in “curly quotes”) one of that rule's seed passages."""
    problems = []
    for name, doc in golden_tests().items():
        rids = ids_in(name)
        if not rids:
            continue
        if not doc:
            problems.append(f"{name}: no docstring")
            continue
        quoted = {ws(q) for q in re.findall(r"“(.+?)”", doc, flags=re.S)}
        wanted = {ws(q.text) for rid in rids for q in RULES[rid].quotes}
        if not quoted & wanted:
            problems.append(f"{name}: quotes none of the passages of {rids}")
        for q in quoted:
            if not any(q in ws(seed_text(s)) for s in ("000", "003", "004")):
                problems.append(f"{name}: “{q}” is not in any seed text")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("rid", RULE_IDS)
def test_every_rules_quote_is_verbatim_in_its_seed(rid: str) -> None:
    rule = RULES[rid]
    assert rule.id == rid and rule.quotes
    for q in rule.quotes:
        assert ws(q.text) in ws(seed_text(q.seed)), f"{rid}: “{q.text}” not in seed {q.seed}"
        assert len(q.text.split()) <= 25


# --- A. Pack, stakes, deal ---------------------------------------------------------------------


def test_R01_full_pack_of_52_ranked_as_at_whist() -> None:
    """[000] “The full pack of fifty-two cards is used, the cards ranking as at Whist.”"""
    assert len(FULL_PACK) == 52 == len(set(FULL_PACK))
    for suit in Suit:
        assert len([c for c in FULL_PACK if c.suit is suit]) == 13
    whist = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    for s in "CDHS":
        for i, hi in enumerate(whist):
            for lo in whist[i + 1 :]:
                high, low = parse_card(hi + s), parse_card(lo + s)
                assert beats(high, low, None) and not beats(low, high, None)
    # a shuffled pack is the same 52 cards, and a dealt hand accounts for all 52
    assert sorted(shuffled_pack(random.Random(7))) == sorted(FULL_PACK)
    hand = Hand.from_seed(7, players=5)
    assert sum(hand.accounted().values()) == 52


def test_R02_only_the_dealer_stakes_three_or_a_multiple_of_three() -> None:
    """[000] “places an agreed number of counters (either three or some multiple of three) in the pool.”"""
    table = Table.seeded(5, seed=1, rules="hoffmann", stake=3, bank=100)
    assert table.dealer == 0
    assert table.pool == 3
    assert table.balances == [97, 100, 100, 100, 100]  # only the dealer has paid
    six = Table.seeded(4, seed=1, rules="peel", stake=6, bank=100)
    assert six.pool == 6 and six.balances == [94, 100, 100, 100]
    assert Stakes.make().stake == 3 and Stakes.make().pool == 3
    # why three: a pool of three, or a multiple of three, divides into thirds with nothing over
    for k in range(1, 8):
        for rules in ("hoffmann", "peel"):
            assert trick_shares(3 * k, preset(rules)) == ((k, k, k), 0)


# Dealing FULL_PACK in its fixed order (2C 3C … AC, 2D … AD, 2H …) to five players, dealer 0:
# one card at a time from the elder hand (seat 1) round to the dealer, the miss's card
# after the dealer's (Peel, EB 9) or first in each round (Enquire Within).
DEAL_END = {
    1: "2C 8C AC",
    2: "3C 9C 2D",
    3: "4C 10C 3D",
    4: "5C JC 4D",
    0: "6C QC 5D",
    "miss": "7C KC 6D",
}
DEAL_FIRST = {
    "miss": "2C 8C AC",
    1: "3C 9C 2D",
    2: "4C 10C 3D",
    3: "5C JC 4D",
    4: "6C QC 5D",
    0: "7C KC 6D",
}


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        (MissDealPosition.END_OF_EACH_ROUND, DEAL_END),
        (MissDealPosition.AFTER_DEALER_EACH_ROUND, DEAL_END),
        (MissDealPosition.FIRST_EACH_ROUND, DEAL_FIRST),
    ],
)
def test_R03_three_cards_one_by_one_from_the_elder_hand_and_a_miss(
    position: MissDealPosition, expected: dict[object, str]
) -> None:
    """[000] “Three cards are dealt, one by one, to each player, also an extra hand, known as "miss."”"""
    d = deal_from(list(FULL_PACK), 5, 0, position=position)
    for seat in range(5):
        assert list(d.hands[seat]) == cards(expected[seat]), seat
    assert d.miss is not None and list(d.miss) == cards(expected["miss"])
    assert d.turn_up == parse_card("7D")  # the 19th card in every position
    assert len(d.stock) == 52 - 19


def test_R03_dealing_starts_left_of_any_dealer_and_scenario_deck_deals_the_same() -> None:
    """[000] “Three cards are dealt, one by one, to each player, also an extra hand, known as "miss."”"""
    # four players, dealer seat 2: the order of a round is 3, 0, 1, 2, miss
    d = deal_from(list(FULL_PACK), 4, 2, position=MissDealPosition.END_OF_EACH_ROUND)
    assert list(d.hands[3]) == cards("2C 7C QC")
    assert list(d.hands[0]) == cards("3C 8C KC")
    assert list(d.hands[1]) == cards("4C 9C AC")
    assert list(d.hands[2]) == cards("5C 10C 2D")
    assert d.miss is not None and list(d.miss) == cards("6C JC 3D")
    assert d.turn_up == parse_card("4D")
    # the same deal through a scenario's `deck`
    deck = ", ".join(c.code for c in FULL_PACK[:20])
    sc = loads(f"players: 4\ndealer: 2\ndeck: [{deck}]\n")
    assert sc.dealt is not None
    assert sc.dealt.hands == d.hands and sc.dealt.miss == d.miss
    assert sc.hand.turn_up == parse_card("4D")
    # a seeded deal is the same deal on every call
    a = deal(random.Random(42), 5, 0)
    b = deal(random.Random(42), 5, 0)
    assert a == b
    assert a == deal_from(shuffled_pack(random.Random(42)), 5, 0)


def test_R04_the_next_card_is_turned_up_and_fixes_trumps() -> None:
    """[000] “The card next following is turned up, and fixes the trump suit.”"""
    pack = list(FULL_PACK)
    d = deal_from(pack, 5, 0)
    assert d.turn_up == pack[18]  # 5 hands + miss = 18 cards, then the next one
    assert d.trumps is Suit.DIAMONDS
    held = {c for h in d.hands for c in h} | set(d.miss or ())
    assert d.turn_up not in held  # nobody holds it
    setup = Setup(5, 0, preset("hoffmann"), Stakes.make())
    hand = Hand.from_pack(setup, pack)
    assert hand.turn_up == parse_card("7D") and hand.trumps is Suit.DIAMONDS
    # in a must (no miss) the turn-up is the card after the players' cards
    assert deal_from(pack, 4, 0, must=True).turn_up == pack[12]
    with pytest.raises(ScenarioError) as e:
        loads("players: 4\nturn_up: 7D\ntrumps: H\n")
    assert e.value.field == "trumps"


# --- B. Declaring ------------------------------------------------------------------------------


def test_R05_declaring_starts_with_the_elder_hand_and_goes_left() -> None:
    """[000] “The dealer then asks each player, beginning with the elder hand, whether he will play or "take miss."”
    [004] “He having decided, the player on his left does the same, and so on all round.”"""
    hand = Hand.from_seed(3, players=4, dealer=2)
    order = []
    while hand.phase is Phase.DECLARE:
        assert hand.to_act is not None
        order.append(hand.to_act)
        hand.apply(Declaration.PLAY)
    assert order == [3, 0, 1, 2]  # elder hand (dealer's left) first, the dealer last
    assert Setup(5, 4, preset("peel"), Stakes.make()).rotation() == (0, 1, 2, 3, 4)


def test_R06_the_three_choices_stand_throw_up_take_miss() -> None:
    """[004] “declares his intention to stand, throw up, or take miss.”"""
    hand = make_hand(HANDS5, MISS5, TURN5)
    assert hand.to_act == 1
    assert legal(hand) == {"play", "take_miss", "pass"}
    # playing the miss for the pool is no choice of his (only the dealer's, R18)
    assert forbidding_rule(hand, "play_miss_for_pool") == "R18"


def test_R07_a_passer_drops_out_of_the_round() -> None:
    """[000] “or of "passing," _i.e._ throwing up his hand altogether for that round.”"""
    hand = make_hand(HANDS5, MISS5, TURN5)
    run(hand, "play play play pass play")
    assert hand.players_in == (1, 2, 3, 0)
    assert hand.hand_of(4) == ()
    run(hand, "AS 5D 7D 4C  KS 6D 8D 5C  3C AC 9D 6C")
    s = hand.settlement
    assert s is not None
    assert 4 not in s.looed and 4 not in s.receives and 4 not in s.loo_pays
    assert set(s.looed) == {3, 0}


def test_R08_a_declined_miss_is_offered_to_the_next() -> None:
    """[000] “If miss be declined, the same offer is made to the next in rotation”"""
    hand = make_hand(HANDS5, MISS5, TURN5)
    run(hand, "play")  # seat 1 declines the miss by standing
    assert hand.to_act == 2 and "take_miss" in legal(hand)
    run(hand, "pass")  # seat 2 declines by throwing up
    assert hand.to_act == 3 and "take_miss" in legal(hand)
    run(hand, "take_miss")
    assert hand.miss_holder == 3
    assert hand.hand_of(3) == tuple(cards(MISS5))


def test_R09_once_the_miss_is_taken_only_play_or_pass() -> None:
    """[000] “so soon as miss is taken, the remaining players have only two alternatives--viz. either to play the cards they hold, or to pass.”"""
    hand = make_hand(HANDS5, MISS5, TURN5)
    run(hand, "take_miss")
    for seat in (2, 3, 4):
        assert hand.to_act == seat
        assert legal(hand) == {"play", "pass"}
        assert forbidding_rule(hand, "take_miss") == "R09"
        with pytest.raises(IllegalAction):
            hand.apply("take_miss")
        run(hand, "pass")
    assert hand.to_act == 0 and "take_miss" not in legal(hand)  # the dealer too


def test_R10_the_player_who_takes_miss_is_bound_to_play() -> None:
    """[000] “A player who has taken miss is bound to play.”"""
    hand = make_hand(HANDS5, "2D 3D 4D", TURN5)
    run(hand, "play take_miss pass pass pass")
    assert hand.players_in == (1, 2) and hand.miss_holder == 2
    assert hand.hand_of(2) == tuple(cards("2D 3D 4D"))
    # in the play he has only cards to choose from: no throwing up now
    run(hand, "AS")
    assert hand.to_act == 2 and legal(hand) == {"2D", "3D", "4D"}
    run(hand, "2D KS 3D 3C 4D")
    s = hand.settlement
    assert s is not None
    assert s.receives == {1: 3}
    assert s.looed == (2,) and s.loo_pays == {2: 3}  # he played and took no trick: looed
    assert s.next_pool == 3 + 3


def test_R11_thrown_up_cards_go_face_down_unseen() -> None:
    """[000] “are thrown face downwards in the middle of the table, and no one has a right to look at them.”"""
    hand = make_hand(HANDS5, MISS5, TURN5)
    run(hand, "play take_miss pass pass pass")
    # the miss-taker's own cards and the passers' cards are out of every hand
    for seat in (3, 4, 0):
        assert hand.hand_of(seat) == ()
    for code in ("AC 5D 6D", "7D 8D 9D", "10D JD QD", "4C 5C 6C"):
        assert set(cards(code)) <= set(hand.discards)
    assert len(hand.discards) == 12
    # looking at them is an irregularity (R51): a single loo into the pool
    r = ruling_for(Offence.LOOK_AT_THROWN_UP)
    assert r.size is Size.SINGLE_LOO and r.destination is Destination.POOL_NOW


def test_R12_a_declaration_is_final() -> None:
    """[004] “No player may make a second declaration, or alter one once made”"""
    hand = make_hand(HANDS5, MISS5, TURN5)
    run(hand, "play")
    assert hand.declared == {1: Declaration.PLAY} and hand.to_act == 2  # the turn has moved on
    run(hand, "play pass pass pass")
    assert hand.phase is Phase.PLAY
    for d in Declaration:
        with pytest.raises(IllegalAction):
            hand.apply(d)
    assert hand.declared[1] is Declaration.PLAY and hand.declared[3] is Declaration.PASS


@pytest.mark.parametrize("seed", range(8))
def test_R13_who_stands_or_takes_miss_plays_every_trick(seed: int) -> None:
    """[004] “a player who decides to stand, or who takes the miss, must play his cards with the others interested in the stakes”
    [004] “he not being permitted to stand out, lest his doing so should affect the others play.”"""
    rng = random.Random(seed)
    hand = Hand.from_seed(seed, players=5)
    run(hand, "play take_miss pass play pass")
    assert hand.players_in == (1, 2, 4)
    while hand.phase is Phase.PLAY:
        acts = list(hand.legal_actions())
        assert acts and all(isinstance(a, Card) for a in acts)  # cards only: no standing out
        hand.apply(acts[rng.randrange(len(acts))])
    assert len(hand.tricks) == 3
    for trick in hand.tricks:
        assert sorted(seat for seat, _ in trick) == [1, 2, 4]  # each of them played to every trick
    assert hand.settlement is not None
