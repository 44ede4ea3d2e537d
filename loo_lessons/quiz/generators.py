"""One generator per topic. Each builds a real position from a random deal, asks the engine,
and turns the engine's verdict into a question. None of them decides a rule.

A generator returns a `Question` or raises `Reject` when the random position does not make
the question wanted (wrong level, both books agree in disagreement mode, …); the caller then
draws another position from the same injected RNG.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from loo_lessons.engine.cards import Card, Rank, Suit, beats, parse_card, shuffled_pack
from loo_lessons.engine.deal import round_order
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.laws import Law
from loo_lessons.engine.penalties import OFFENCE_FOR_LAW, Offence, ruling_for
from loo_lessons.engine.settle import Stakes, trick_shares
from loo_lessons.quiz.common import (
    SUIT_LABELS,
    Asked,
    Gen,
    Reject,
    ask,
    declarations_words,
    finish,
    legal_question,
    loo_quote_index,
    number_choices,
    same_verdict,
    seat_choices,
    seat_label,
    table_words,
    trumps_words,
)
from loo_lessons.quiz.derive import CONSEQUENCE_LABELS, PENALTY_KEYS, PENALTY_LABELS, penalty_record
from loo_lessons.quiz.model import Choice, Question, Verdict
from loo_lessons.quiz.positions import (
    DEFAULT_WEIGHTS,
    Rules,
    at_move,
    card_label,
    cards_words,
    deal,
    declare_until,
    legal_under,
    play_until,
    scenario_of,
    seat_words,
    table_size,
    view_of,
)
from loo_lessons.scenario import Scenario

P = Declaration.PLAY
T = Declaration.TAKE_MISS
X = Declaration.PASS
M = Declaration.PLAY_MISS_FOR_POOL

#: Declarations that put many players in (for questions about the play).
PLAYERS_IN: dict[Declaration, float] = {P: 6.0, T: 2.0, X: 2.0, M: 1.0}


def in_words(sc: Scenario) -> str:
    """'Seats 2, 0 and 1 are in (3 players).' from the engine's players_in."""
    ins = [str(x) for x in sc.hand.players_in]
    listed = ", ".join(ins[:-1]) + f" and {ins[-1]}" if len(ins) > 1 else ins[0]
    return f"Seats {listed} are in ({len(ins)} players)."


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def trumps_held(cards: list[Card], trumps: Suit | None) -> int:
    return sum(1 for c in cards if c.suit is trumps)


# === deal: who receives which card, trumps from the turn-up, the stock ===========================


def gen_deal(g: Gen) -> Question:
    rng = g.rng
    custom = {"miss_deal_position": "first_each_round"} if g.level == 2 and g.chance(0.35) else None
    rules = g.rules(custom)
    n = table_size(rng, 2, 7)
    dealer = rng.randrange(n)
    must = g.level == 2 and g.chance(0.3)
    order = round_order(n, dealer, not must, rules.options().miss_deal_position)
    dealt = 3 * len(order)  # cards dealt before the turn-up
    pack = shuffled_pack(rng)
    deck = [c.code for c in pack[: dealt + 4]]
    mapping: dict[str, Any] = {"rules": rules.mapping(), "players": n, "dealer": dealer}
    if must:
        mapping["must"] = True
    mapping["deck"] = deck
    if g.level == 1:
        what = rng.choices(["deal_card", "trumps"], weights=[3, 1])[0]
    else:
        what = rng.choices(["deal_card", "stock"], weights=[3, 2])[0]

    def who(i: int) -> str:
        if i == dealt:
            return "turn_up"
        seat = order[i % len(order)]
        return "miss" if seat < 0 else str(seat)

    def who_words(k: str) -> str:
        return {"turn_up": "the turn-up", "miss": "the miss"}.get(k, f"seat {k}")

    order_words = ", ".join("the miss" if s < 0 else f"seat {s}" for s in order)
    no_miss = " (a must: no miss, R45)" if must else ""
    setting = (
        f"{n} players; seat {dealer} deals{', a must' if must else ''}. "
        f"The pack is dealt from the top."
    )
    if what == "deal_card":
        # level 1: the first round; level 2: the later rounds, or the turn-up
        first = g.level == 1
        index = rng.randrange(len(order)) if first else rng.randrange(len(order), dealt + 1)
        a = ask(g, mapping, {"ask": "deal_card", "index": index}, rules)
        sc = a.sc
        keys = [str(s) for s in range(n)] + ["miss", "turn_up"]
        choices = tuple(
            Choice(k, seat_label(sc, int(k)) if k.isdigit() else who_words(k).capitalize())
            for k in keys
        )
        ans = a.answer[0]
        if ans == "turn_up":
            right = (
                f"Three rounds of {len(order)} cards ({dealt} cards) go to "
                f"{order_words}; the next card, the {ordinal(dealt + 1)}, is turned up "
                f"and fixes trumps (R04){no_miss}."
            )
            rid, slug = "R04", "turn-up"
        else:
            rnd, place = divmod(index, len(order))
            right = (
                f"Each round gives one card to {order_words}, in that order{no_miss}. "
                f"Card {index + 1} is number {place + 1} of round {rnd + 1}: it goes to "
                f"{who_words(ans)}."
            )
            rid, slug = "R03", "deal-order"
        verdicts = same_verdict(keys, a.answer, rid, slug, right, f"No. {right}")
        if must:
            verdicts["miss"] = Verdict.from_rule(
                "R45", "no-miss-in-must", "No: there is no miss in a must.", False
            )
        card = card_label(deck[index])
        return finish(
            g,
            a,
            kind="pick_seat",
            prompt=f"{setting} Who receives the {ordinal(index + 1)} card, the {card}?",
            choices=choices,
            verdicts=verdicts,
            explanation=right,
            rule_ids=("R03", "R05", "R04") + (("R45",) if must else ()),
            view=view_of(sc, before_deal=True),
        )
    if what == "trumps":
        a = ask(g, mapping, {"ask": "trumps"}, rules)
        shown = deck[: dealt + 3]
        keys = [s.value for s in Suit]
        turn = card_label(deck[dealt])
        right = (
            f"{n} players{' and the miss' if not must else ''} take three cards each: "
            f"{dealt} cards. The {ordinal(dealt + 1)} card, the {turn}, is turned up and "
            f"fixes trumps: {SUIT_LABELS[a.answer[0]].split()[0].lower()}."
        )
        return finish(
            g,
            a,
            kind="pick_option",
            prompt=f"{setting} The top cards of the pack are: {cards_words(shown)}. "
            "Which suit is trumps?",
            choices=[Choice(k, SUIT_LABELS[k]) for k in keys],
            verdicts=same_verdict(keys, a.answer, "R04", "turn-up", right, f"No. {right}"),
            explanation=right,
            rule_ids=("R04", "R03"),
            view=view_of(a.sc, before_deal=True),
        )
    a = ask(g, mapping, {"ask": "stock"}, rules)
    count = int(a.answer[0])
    miss_words = "" if must else ", 3 to the miss"
    right = (
        f"The pack has 52 cards (R01). {n} players take 3 each ({3 * n}){miss_words}, and "
        f"one is turned up (R04): {count} are left in the stock{no_miss}."
    )
    choices = number_choices(rng, count, [count + 1, count + 3, count - 3, count + 4, count - 1])
    keys = [c.key for c in choices]
    return finish(
        g,
        a,
        kind="pick_number",
        prompt=f"{n} players; seat {dealer} deals{', a must' if must else ''}. After the deal and "
        "the turn-up, how many cards are left in the stock?",
        choices=choices,
        verdicts=same_verdict(keys, a.answer, "R03", "deal-size", right, f"No. {right}"),
        explanation=right,
        rule_ids=("R01", "R03", "R04") + (("R45",) if must else ()),
        view=view_of(a.sc, before_deal=True),
    )


# === declare: legal declarations given earlier declarations ======================================


def gen_declare(g: Gen) -> Question:
    rng = g.rng
    rules = g.rules()
    n = table_size(rng, 3, 7) if g.level == 2 else table_size(rng, 2, 6)
    dealer = rng.randrange(n)
    hand = deal(rng, rules, n, dealer)
    # level 1: whose turn, or the declarations while the miss is untaken (R05–R08);
    # level 2: after the miss was taken (R09), or after looking at another's cards (R53)
    what = rng.choices(["legal", "to_act"], weights=[3, 1])[0] if g.level == 1 else "legal"
    forced = g.level == 2 and g.chance(0.5)
    stop_at = rng.randrange(0, n - 1)  # a seat before the dealer
    if g.level == 2 and not forced:
        stop_at = rng.randrange(1, n - 1)
    weights = dict(DEFAULT_WEIGHTS)
    weights[T] = 4.0 if g.level == 2 and not forced else (0.0 if g.level == 1 else 2.0)
    declare_until(hand, rng, weights, stop=lambda h: len(h.declared) >= stop_at)
    if hand.phase is not Phase.DECLARE or hand.to_act is None or hand.to_act == dealer:
        raise Reject("not a non-dealer to declare")
    seat = hand.to_act
    if g.level == 2 and not forced and hand.miss_holder is None:
        raise Reject("level 2: the miss should be taken already")
    extra: dict[str, Any] = {}
    if forced:
        extra["penalties"] = [{"seat": seat, "offence": "look_at_anothers_hand"}]
    mapping = scenario_of(hand, rules, hands=[seat], extra=extra)
    if what == "to_act":
        a = ask(g, mapping, {"ask": "to_act"}, rules)
        sc = a.sc
        ans = a.answer[0]
        right = (
            f"Declaring starts with the elder hand, seat {sc.hand.setup.elder}, and goes round "
            f"to the left; the dealer, seat {dealer}, declares last (R05). "
            f"{len(sc.hand.declared)} have declared, so seat {ans} is next."
        )
        keys = [str(s) for s in range(n)]
        verdicts = {
            k: Verdict.from_law(
                Law.DECLARE_IN_TURN, k == ans, right if k == ans else f"No. {right}"
            )
            for k in keys
        }
        return finish(
            g,
            a,
            kind="pick_seat",
            prompt=f"{table_words(sc)} Declarations so far: {declarations_words(sc)}. "
            "Whose turn is it to declare?",
            choices=seat_choices(sc, range(n)),
            verdicts=verdicts,
            explanation=right,
            rule_ids=("R05",),
            view=view_of(sc, ()),
        )
    a = ask(g, mapping, {"ask": "legal"}, rules)
    sc = a.sc
    peek = f" Seat {seat} has looked at another player's cards." if forced else ""
    return legal_question(
        g,
        a,
        prompt=f"{table_words(sc)} Declarations so far: {declarations_words(sc)}.{peek} "
        f"Seat {seat} is to declare. Which declarations may he make? Select all that are allowed.",
        subject=f"Seat {seat}",
        verb="declare",
    )


# === dealer: the dealer's special cases R14–R19 ==================================================


def _dealer_pattern(g: Gen, hand: Hand, pattern: str) -> None:
    """Declare the non-dealers so that `pattern` arises: R16 (only the miss-holder is in),
    R17 (exactly one stood on his own cards), R14 (everyone threw up) or plain."""
    rot = hand.rotation[:-1]
    k = g.rng.choice(rot)

    def w(h: Hand, seat: int) -> Mapping[Declaration, float]:
        if pattern == "plain":
            return {P: 5.0, T: 3.0, X: 2.0}
        if pattern == "R14":
            return {X: 1.0}
        if seat == k:
            return {T: 1.0} if pattern == "R16" else {P: 1.0}
        return {X: 1.0}

    declare_until(hand, g.rng, w, stop=lambda h: h.to_act == h.setup.dealer)


def gen_dealer(g: Gen) -> Question:
    rng = g.rng
    if g.level == 1:
        pattern = rng.choices(["R16", "R17", "plain"], weights=[35, 45, 20])[0]
        custom = (
            {"lone_stander_rule": "enquire_within"} if pattern == "R17" and g.chance(0.25) else None
        )
        rules = g.rules(custom)
        n = table_size(rng, 2, 6)
        hand = deal(rng, rules, n, rng.randrange(n))
        _dealer_pattern(g, hand, pattern)
        dealer = hand.setup.dealer
        if hand.to_act != dealer:
            raise Reject("the dealer is not to declare")
        mapping = scenario_of(hand, rules, hands=[dealer])
        a = ask(g, mapping, {"ask": "legal"}, rules)
        sc = a.sc
        return legal_question(
            g,
            a,
            prompt=f"{table_words(sc)} Declarations: {declarations_words(sc)}. The dealer, "
            f"seat {dealer}, is to declare. Which declarations may he make? Select all that "
            "are allowed.",
            subject=f"The dealer (seat {dealer})",
            verb="declare",
        )
    what = rng.choices(["outcome", "miss_for_pool"], weights=[3, 2])[0]
    if what == "outcome":
        pattern = rng.choices(["R14", "R16", "R17", "plain"], weights=[25, 30, 30, 15])[0]
        custom = (
            {"lone_stander_rule": "enquire_within"} if pattern == "R17" and g.chance(0.3) else None
        )
        rules = g.rules(custom)
        n = table_size(rng, 2, 6)
        hand = deal(rng, rules, n, rng.randrange(n))
        _dealer_pattern(g, hand, pattern)
        dealer = hand.setup.dealer
        if hand.to_act == dealer:
            legal = [d for d in hand.legal_actions() if isinstance(d, Declaration)]
            hand.apply(rng.choices(legal, weights=[3.0 if d is X else 1.0 for d in legal])[0])
        mapping = scenario_of(hand, rules)
        a = ask(g, mapping, {"ask": "outcome"}, rules)
        sc = a.sc
        h = sc.hand
        contenders = [
            s for s in h.rotation if s == dealer or (s in h.declared and h.declared[s].plays)
        ]
        keys = ["play", *[str(s) for s in contenders]]
        choices = (
            Choice("play", "Nobody: the hand is played out"),
            *[
                Choice(str(s), f"{seat_label(sc, s)} takes the pool without play")
                for s in contenders
            ],
        )
        ans = a.answer[0]
        if h.award_law is not None:
            law = h.award_law
            right = f"{law.reason} Seat {ans} takes the whole pool ({law.rule})."
            verdicts = {
                k: Verdict.from_law(law, k == ans, right if k == ans else f"No. {right}")
                for k in keys
            }
        else:
            right = (
                f"{len(h.players_in)} players are in (seats "
                f"{', '.join(str(s) for s in h.players_in)}): nobody takes the pool without play; "
                "the elder hand among them leads (R21) and the pool is divided by tricks (R38)."
            )
            verdicts = same_verdict(keys, a.answer, "R21", "hand-is-played", right, f"No. {right}")
        return finish(
            g,
            a,
            kind="pick_option",
            prompt=f"{table_words(sc)} Declarations: {declarations_words(sc)}. "
            "What happens to the pool?",
            choices=choices,
            verdicts=verdicts,
            explanation=right,
            rule_ids=("R14", "R15", "R16", "R17", "R18"),
            view=view_of(sc, ()),
        )
    # R19: the dealer plays the miss for the pool against a lone stander
    rules = g.rules()
    n = table_size(rng, 2, 6)
    pool = rng.choice([3, 6, 9, 12])
    hand = deal(rng, rules, n, rng.randrange(n), stakes=Stakes.make(pool=pool, players=n))
    _dealer_pattern(g, hand, "R17")
    if hand.to_act != hand.setup.dealer or M not in hand.legal_actions():
        raise Reject("the dealer cannot play the miss for the pool")
    hand.apply(M)
    play_until(hand, rng)
    mapping = scenario_of(hand, rules)
    sub = rng.choices(["left_in_pool", "pays"], weights=[3, 1])[0]
    dealer = hand.setup.dealer
    question: dict[str, Any] = {"ask": sub}
    if sub == "pays":
        question["seat"] = dealer
    a = ask(g, mapping, question, rules)
    sc = a.sc
    s = a.j["settlement"]
    count = int(a.answer[0])
    won = s["tricks_won"].get(str(dealer), 0)
    if sub == "left_in_pool":
        right = (
            f"The miss, played for the pool by the dealer, won {won} trick(s). What it wins "
            f"stays in the pool for the next deal (R19): {count} counter{'' if count == 1 else 's'} stay{'s' if count == 1 else ''} in the pool."
        )
        prompt = "How many counters stay in the pool for the next deal?"
        wrong = [0, pool, pool // 3, 2 * pool // 3, count + pool // 3]
        rid = "R19"
    else:
        right = (
            f"The dealer played the miss for the pool, not on his own account: he is never "
            f"looed for it, and what the miss wins stays in the pool (R19; A16). He pays {count}."
        )
        prompt = f"How much does the dealer, seat {dealer}, pay?"
        wrong = [sc.hand.setup.stakes.loo, pool, pool // 3, 3]
        rid = "R19"
    choices = number_choices(rng, count, wrong)
    keys = [c.key for c in choices]
    tricks = "; ".join(
        f"trick {i + 1} won by seat {t['winner']}" for i, t in enumerate(a.j["tricks"])
    )
    return finish(
        g,
        a,
        kind="pick_number",
        prompt=f"{table_words(sc)} The pool holds {pool}. Declarations: "
        f"{declarations_words(sc)}. The hand is played: {tricks}. {prompt}",
        choices=choices,
        verdicts=same_verdict(keys, a.answer, rid, "miss-for-pool", right, f"No. {right}", 1),
        explanation=right,
        rule_ids=("R18", "R19", "R38"),
        view=view_of(sc, ()),
    )


# === lead: which card may be led, R23–R28 =========================================================


def gen_lead(g: Gen) -> Question:
    rng = g.rng
    rules = g.rules()
    variant = "many" if g.level == 1 else rng.choice(["two_in", "ace_turned"])
    n = table_size(rng, 3, 7) if variant == "many" else table_size(rng, 2, 6)
    dealer = rng.randrange(n)
    hand = deal(rng, rules, n, dealer)
    if variant == "ace_turned":
        for _ in range(40):
            if hand.turn_up is not None and hand.turn_up.rank == Rank.ACE:
                break
            hand = deal(rng, rules, n, dealer)
        else:
            raise Reject("no ace turned up")
    trumps = hand.trumps
    rot = hand.rotation[:-1]  # the leader is never the dealer (R14 would end the deal)

    def weight(seat: int) -> float:
        cards = list(hand.held[seat])
        t = trumps_held(cards, trumps)
        if g.disagreement:
            return 1.0 + 20.0 * (t >= 2)
        king = any(c.suit is trumps and c.rank == Rank.KING for c in cards)
        return 1.0 + 3.0 * t + (6.0 if variant == "ace_turned" and king else 0.0)

    leader = rng.choices(rot, weights=[weight(s) for s in rot])[0]

    def w(h: Hand, seat: int) -> Mapping[Declaration, float]:
        before = h.rotation.index(seat) < h.rotation.index(leader)
        if before:
            return {X: 1.0}
        if seat == leader:
            return {P: 6.0, T: 1.0}
        if variant == "two_in":
            return {X: 1.0} if seat != h.setup.dealer else {P: 5.0, T: 2.0, M: 1.0}
        return PLAYERS_IN

    declare_until(hand, rng, w)
    if hand.phase is not Phase.PLAY or hand.to_act != leader:
        raise Reject("the chosen seat does not lead")
    k = len(hand.players_in)
    if variant == "many" and (
        k < 3 or (hand.turn_up is not None and hand.turn_up.rank == Rank.ACE)
    ):
        raise Reject("level 1 wants three or more players in, and no ace turned up")
    if variant == "two_in" and k != 2:
        raise Reject("level 2 wants exactly two in")
    t = trumps_held(list(hand.held[leader]), trumps)
    if not g.disagreement and (
        (t == 0 and not g.chance(0.25)) or (variant == "two_in" and t < 2 and not g.chance(0.3))
    ):
        raise Reject("an uninstructive lead")
    mapping = scenario_of(hand, rules, extra={"tricks": []})
    a = ask(g, mapping, {"ask": "legal"}, rules)
    sc = a.sc
    ins = ", ".join(str(s) for s in sc.hand.players_in)
    return legal_question(
        g,
        a,
        prompt=f"{table_words(sc)} {trumps_words(sc)} Declarations: {declarations_words(sc)}; "
        f"so {k} players are in (seats {ins}). {seat_words(sc, leader).capitalize()} leads to the "
        "first trick. Which cards may he lead? Select every card he may lead.",
        subject=f"Seat {leader}",
        verb="lead",
    )


# === follow: following and trumping, R32–R36 ======================================================


def _random_play(g: Gen, rules: Rules, lo: int = 2, hi: int = 7, **kw: Any) -> Hand:
    n = table_size(g.rng, lo, hi)
    hand = deal(g.rng, rules, n, g.rng.randrange(n), **kw)
    declare_until(hand, g.rng, PLAYERS_IN)
    if hand.phase is not Phase.PLAY:
        raise Reject("nobody plays")
    return hand


def _positions(
    hand: Hand, g: Gen, keep: Callable[[Hand, bool], int | None], rules: Rules
) -> list[tuple[int, int]]:
    """Play out at random; collect (moves, level) of the positions `keep` accepts.

    `keep(hand, differs)` is told whether the other book would allow other cards here. In
    disagreement mode only cards legal under both books are played, so the position can
    arise under either."""
    other = rules.swapped().options() if g.disagreement else None
    found: list[tuple[int, int]] = []
    while hand.phase is Phase.PLAY and hand.to_act is not None:
        legal = list(hand.legal_actions())
        moves = legal
        differs = False
        if other is not None:
            theirs = legal_under(hand, other)
            differs = set(theirs) != set(legal)
            moves = [c for c in legal if c in theirs]
        lvl = keep(hand, differs)
        if lvl is not None:
            found.append((len(hand.actions), lvl))
        if not moves:
            break
        hand.apply(moves[g.rng.randrange(len(moves))])
    return found


def _follow_level(h: Hand) -> int | None:
    trick = h.current_trick if len(h.tricks) > len(h.winners) else []
    seat = h.to_act
    if not trick or seat is None or len(h.held[seat]) < 2:
        return None
    led = trick[0][1].suit
    held = h.held[seat]
    if any(c.suit is led for c in held):
        return 1
    return 2 if any(c.suit is h.trumps for c in held) else 1


def gen_follow(g: Gen) -> Question:
    rules = g.rules()
    hand = _random_play(g, rules)
    found = [
        m
        for m, lvl in _positions(
            hand, g, lambda h, d: _follow_level(h) if d or not g.disagreement else None, rules
        )
        if lvl == g.level
    ]
    if not found:
        raise Reject("no following position of this level")
    pos = at_move(hand, g.rng.choice(found))
    seat = pos.to_act
    assert seat is not None
    a = ask(g, scenario_of(pos, rules), {"ask": "legal"}, rules)
    sc = a.sc
    trick = sc.hand.current_trick
    played = ", ".join(f"seat {s} {card_label(c.code)}" for s, c in trick)
    number = len(sc.hand.winners) + 1
    return legal_question(
        g,
        a,
        prompt=f"{table_words(sc)} {trumps_words(sc)} {in_words(sc)} Trick {number}: {played}. "
        f"Seat {seat} is to play. Which cards may he play? Select every legal card.",
        subject=f"Seat {seat}",
        verb="play",
    )


# === trick: who wins the trick (R37), and trump after trick (R29–R31) =============================


def _winner_reasons(plays: list[tuple[int, Card]], trumps: Suit, winner: int) -> dict[str, str]:
    best = dict(plays)[winner]
    led = plays[0][1].suit
    out: dict[str, str] = {}
    for seat, c in plays:
        lc, lb = card_label(c.code), card_label(best.code)
        if seat == winner:
            out[str(seat)] = (
                f"{lb} is the highest trump in the trick."
                if best.suit is trumps
                else f"{lb} is the highest card of the suit led ({led.plural}), and no trump "
                "was played."
            )
        elif c.suit is trumps:
            out[str(seat)] = f"No: {lc} is a trump, but {lb} is a higher trump."
        elif c.suit is led:
            out[str(seat)] = (
                f"No: {lc} follows suit, but the trick is trumped by {lb}."
                if best.suit is trumps
                else f"No: {lc} follows suit, but {lb} is higher."
            )
        else:
            out[str(seat)] = (
                f"No: {lc} neither follows the suit led ({led.plural}) nor is a trump: "
                "it cannot win the trick."
            )
        # the engine's own comparison must agree with these words
        assert seat == winner or beats(best, c, trumps) or c.suit not in (led, trumps)
    return out


def _after_trick_level(h: Hand) -> int | None:
    if (
        h.winners
        and h.to_act is not None
        and not (len(h.tricks) > len(h.winners) and h.current_trick)
    ):
        return 2
    return None


def gen_trick(g: Gen) -> Question:
    rules = g.rules()
    hand = _random_play(g, rules)
    if g.level == 1:
        marks: list[int] = []
        while hand.phase is Phase.PLAY and hand.to_act is not None:
            legal = hand.legal_actions()
            done = len(hand.winners)
            hand.apply(legal[g.rng.randrange(len(legal))])
            if len(hand.winners) > done:  # this card finished a trick
                marks.append(len(hand.actions))
        pos = at_move(hand, g.rng.choice(marks)) if marks else hand
        i = len(pos.winners) - 1
        if i < 0:
            raise Reject("no finished trick")
        a = ask(g, scenario_of(pos, rules), {"ask": "trick_winner", "trick": i}, rules)
        sc = a.sc
        plays = list(sc.hand.tricks[i])
        assert sc.hand.trumps is not None
        reasons = _winner_reasons(plays, sc.hand.trumps, int(a.answer[0]))
        keys = [str(s) for s, _ in plays]
        verdicts = {
            k: Verdict.from_rule("R37", "trick-winner", reasons[k], k in a.answer) for k in keys
        }
        played = ", ".join(f"seat {s} {card_label(c.code)}" for s, c in plays)
        right = reasons[a.answer[0]] + (
            " The trick goes to the highest trump, else to the highest card of the suit led "
            "(R37: cards rank as at whist, R01)."
        )
        return finish(
            g,
            a,
            kind="pick_seat",
            prompt=f"{table_words(sc)} {trumps_words(sc)} {in_words(sc)} Trick {i + 1}: {played}. "
            "Who wins the trick?",
            choices=[
                Choice(str(s), f"{seat_label(sc, s)}: {card_label(c.code)}") for s, c in plays
            ],
            verdicts=verdicts,
            explanation=right,
            rule_ids=("R37", "R01"),
            view=view_of(sc, (), last_trick_open=True),
        )

    def keep(h: Hand, differs: bool) -> int | None:
        lvl = _after_trick_level(h)
        if lvl is None or h.to_act is None or (g.disagreement and not differs):
            return None
        if len(h.held[h.to_act]) < 2:
            return None  # a last card is no question
        t = trumps_held(list(h.held[h.to_act]), h.trumps)
        want = 2 if g.disagreement else 1
        if t < want and not (not g.disagreement and g.chance(0.15)):
            return None
        return lvl

    found = [m for m, _ in _positions(hand, g, keep, rules)]
    if not found:
        raise Reject("no lead after a trick")
    pos = at_move(hand, g.rng.choice(found))
    seat = pos.to_act
    assert seat is not None
    a = ask(g, scenario_of(pos, rules), {"ask": "legal"}, rules)
    sc = a.sc
    last = sc.hand.tricks[len(sc.hand.winners) - 1]
    won_with = card_label(dict(last)[seat].code)
    played = ", ".join(f"seat {s} {card_label(c.code)}" for s, c in last)
    n_trick = len(sc.hand.winners)
    return legal_question(
        g,
        a,
        prompt=f"{table_words(sc)} {trumps_words(sc)} {in_words(sc)} Trick {n_trick}: {played}. Seat {seat} "
        f"won it with the {won_with} and now leads to trick {n_trick + 1}. Which cards may he "
        "lead? Select every card he may lead.",
        subject=f"Seat {seat}",
        verb="lead",
    )


# === pool: dividing the pool and the loos, R38–R40 ================================================


def _played_out(
    g: Gen, rules: Rules, stakes_of: Callable[[int], Stakes], *, must: bool = False
) -> Hand:
    n = table_size(g.rng, 3, 7)
    hand = deal(g.rng, rules, n, g.rng.randrange(n), stakes=stakes_of(n), must=must)
    declare_until(hand, g.rng, PLAYERS_IN)
    if hand.phase is not Phase.PLAY:
        raise Reject("the deal ended without play")
    play_until(hand, g.rng)
    return hand


def _counts_mapping(
    hand: Hand, rules: Rules, extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A finished deal written with `tricks_won` (the counts) instead of the tricks."""
    won = {str(s): hand.winners.count(s) for s in hand.players_in}
    m = scenario_of(hand, rules, hands=(), tricks=False, extra={"tricks_won": won})
    if extra:
        m.update(extra)
    return m


def _share_words(pool: int, rules: Rules) -> str:
    shares, odd = trick_shares(pool, rules.options())
    if shares[0] == shares[2] and not odd:
        return f"the pool of {pool} is divided one third to each trick: {shares[0]} a trick (R38)"
    if odd:
        return (
            f"the pool of {pool} does not divide by three: each trick takes {shares[0]} and the odd "
            f"{odd} stay in the pool for the next deal (R38; A11)"
        )
    return (
        f"the pool of {pool} does not divide by three: the first and second tricks take the odd "
        f"counters, so the tricks take {shares[0]}, {shares[1]} and {shares[2]} (R38; A11)"
    )


def _withheld_rule(sc: Scenario, seat: int) -> str:
    """Why a seat's winnings stay in the pool: R19 (miss for the pool), R54 or R63."""
    if sc.hand.for_pool == seat:
        return "R19"
    offences = {p.offence for p in sc.hand.penalties if p.seat == seat}
    return "R54" if Offence.LOOK_AT_ANOTHERS_HAND in offences else "R63"


def _money_question(g: Gen, a: Asked, what: str, seat: int | None, prompt_head: str) -> Question:
    """receives / pays / next_pool / left_in_pool, with the settlement's own figures."""
    sc = a.sc
    s = a.j["settlement"]
    pool = int(s["pool"])
    stakes = sc.hand.setup.stakes
    ans = int(a.answer[0])
    loos = sum(s["loo_pays"].values())
    left = int(s["left_in_pool"])
    pen_next = int(s["penalties_to_next_pool"])
    share = _share_words(pool, a.rules)
    tricks_of = s["tricks_won"]
    if what == "receives":
        assert seat is not None
        won = tricks_of.get(str(seat), 0)
        withheld = s["withheld"].get(str(seat), 0)
        right = f"Seat {seat} took {won} trick(s); {share}."
        if withheld:
            right += (
                f" But his winnings of {withheld} stay in the pool for the next deal "
                f"({_withheld_rule(sc, seat)})."
            )
        right += f" He receives {ans}."
        rid, slug = "R38", "pool-thirds"
        third = pool // 3
        wrong = [0, third, 2 * third, pool, third + 1, ans + 1, withheld]
        prompt = f"How many counters does seat {seat} receive from the pool?"
    elif what == "pays":
        assert seat is not None
        looed = str(seat) in s["loo_pays"]
        if looed:
            right = (
                f"Seat {seat} played and took no trick: he is looed and pays {ans} (R39"
                + (
                    ", unlimited loo: a loo is the pool, R46"
                    if a.sc.options.loo_amount != "fixed"
                    else ""
                )
                + ")."
            )
        elif sc.hand.for_pool == seat:
            right = f"Seat {seat} played the miss for the pool: he is never looed (R19; A16). He pays 0."
        else:
            right = f"Seat {seat} took a trick: he is not looed and pays 0 (R39)."
        rid, slug = (
            ("R46", "unlimited-loo")
            if a.sc.options.loo_amount != "fixed" and looed
            else ("R39", "looed")
        )
        wrong = [0, stakes.loo, stakes.stake, pool, stakes.single_loo, 2 * stakes.loo]
        prompt = f"How many counters does seat {seat} pay?"
    elif what == "next_pool":
        stake = ans - loos - left - pen_next
        bits = [f"loos {loos}"]
        if left:
            bits.append(f"{left} left in the pool")
        if pen_next:
            bits.append(f"penalties {pen_next}")
        bits.append(f"the new dealer's stake {stake}")
        right = (
            f"{share[0].upper()}{share[1:]}. The next pool is "
            f"{' + '.join(bits)} = {ans} (R40"
            + (", a single: the stake alone, R41" if s["is_single"] else "")
            + ")."
        )
        rid, slug = ("R41", "single") if s["is_single"] else ("R40", "next-pool")
        wrong = [
            stake,
            loos,
            loos + stake + 1,
            ans + stakes.loo,
            pool,
            ans - left if left else ans + 3,
        ]
        prompt = "How many counters will the next deal's pool hold?"
    else:  # left_in_pool
        right = f"{share[0].upper()}{share[1:]}. {ans} counter{'' if ans == 1 else 's'} stay{'s' if ans == 1 else ''} in the pool."
        rid, slug = "R38", "pool-thirds"
        wrong = [0, 1, 2, pool // 3, pool]
        prompt = "How many counters stay in the pool for the next deal?"
    choices = number_choices(g.rng, ans, wrong)
    keys = [c.key for c in choices]
    return finish(
        g,
        a,
        kind="pick_number",
        prompt=f"{prompt_head} {prompt}",
        choices=choices,
        verdicts=same_verdict(
            keys, a.answer, rid, slug, right, f"No. {right}", loo_quote_index(rid)
        ),
        explanation=right,
        rule_ids=("R38", "R39", "R40"),
        view=view_of(sc, ()),
    )


def _tricks_words(a: Asked) -> str:
    s = a.j.get("settlement") or {}
    if a.j["tricks"]:
        return "; ".join(
            f"trick {i + 1} won by seat {t['winner']}" for i, t in enumerate(a.j["tricks"])
        )
    won = s.get("tricks_won", {})
    return ", ".join(f"seat {k} took {v}" for k, v in won.items()) or "no tricks"


def gen_pool(g: Gen) -> Question:
    rng = g.rng
    rules = g.rules()
    if g.level == 1:
        pool = 3 * rng.randint(1, 5)
        hand = _played_out(g, rules, lambda n: Stakes.make(pool=pool, players=n))
        mapping = _counts_mapping(hand, rules)
    else:
        peel_loo = g.chance(0.3)
        pool = (
            rng.choice([p for p in range(4, 22) if p % 3])
            if g.disagreement or not peel_loo or g.chance(0.5)
            else 3 * rng.randint(1, 6)
        )
        loo = 6 if peel_loo else None
        hand = _played_out(g, rules, lambda n: Stakes.make(pool=pool, loo=loo, players=n))
        mapping = scenario_of(hand, rules)
    ins = list(hand.players_in)
    if g.level == 1:
        what = rng.choice(["receives", "pays", "next_pool"])
    else:
        what = rng.choices(["receives", "next_pool", "left_in_pool", "pays"], weights=[4, 3, 1, 1])[
            0
        ]
    seat: int | None = None
    if what == "receives":
        seat = rng.choice(hand.winners[:2] if g.level == 2 and g.chance(0.7) else ins)
    elif what == "pays":
        looed = [s for s in ins if s not in hand.winners]
        seat = rng.choice(looed if looed and g.chance(0.7) else ins)
    question: dict[str, Any] = {"ask": what}
    if seat is not None:
        question["seat"] = seat
    a = ask(g, mapping, question, rules)
    head = (
        f"{table_words(a.sc)} The pool holds {pool}"
        + (
            f"; a loo costs {a.sc.hand.setup.stakes.loo}"
            if a.sc.hand.setup.stakes.loo != a.sc.hand.setup.stakes.stake
            else ""
        )
        + f". Declarations: {declarations_words(a.sc)}. The hand is played: {_tricks_words(a)}."
    )
    return _money_question(g, a, what, seat, head)


# === must: singles, musts and unlimited loo, R41–R49 ==============================================


def gen_must(g: Gen) -> Question:
    rng = g.rng
    if g.level == 1:
        what = rng.choice(["legal", "next_is_must"])
    else:
        kinds = ["next_pool", "looed_count"] + (["unlimited"] if g.may_customise else [])
        what = rng.choice(kinds)
    if what == "legal":
        rules = g.rules()
        n = table_size(rng, 3, 7)
        hand = deal(rng, rules, n, rng.randrange(n), must=True)
        stop_at = rng.randrange(n)
        declare_until(hand, rng, {P: 1.0}, stop=lambda h: len(h.declared) >= stop_at)
        seat = hand.to_act
        assert seat is not None
        a = ask(g, scenario_of(hand, rules, hands=[seat]), {"ask": "legal"}, rules)
        return legal_question(
            g,
            a,
            prompt=f"{table_words(a.sc)} Declarations so far: {declarations_words(a.sc)}. Seat "
            f"{seat} is to declare. Which declarations may he make? Select all that are allowed.",
            subject=f"Seat {seat}",
            verb="declare",
        )
    if what in ("next_is_must", "next_pool"):
        custom = {"single_makes_must": False} if what == "next_is_must" and g.chance(0.3) else None
        rules = g.rules(custom)
        want_single = g.chance(0.6)
        pool = 3 * rng.randint(1, 5)
        hand = _played_out(g, rules, lambda n: Stakes.make(pool=pool, players=n))
        single = len(hand.players_in) == 3 and sorted(hand.winners) == sorted(hand.players_in)
        if want_single and not single:
            raise Reject("not a single")
        if not want_single and len(hand.players_in) != 3 and g.chance(0.5):
            raise Reject("prefer three in")
        mapping = _counts_mapping(hand, rules)
        a = ask(g, mapping, {"ask": what}, rules)
        sc = a.sc
        s = a.j["settlement"]
        head = (
            f"{table_words(sc)} The pool holds {pool}. Declarations: {declarations_words(sc)}. "
            f"The hand is played: {_tricks_words(a)}."
        )
        if what == "next_pool":
            return _money_question(g, a, "next_pool", None, head)
        if s["is_single"]:
            right = (
                "Exactly three played and each took one trick: nobody is looed and the next deal "
                "is a single (R41, R42). "
                + (
                    "As is usual, a single is played as a must: everyone plays (R43)."
                    if s["next_is_must"]
                    else "These rules do not make a single a must ('not invariable', R43)."
                )
            )
            rid = "R43" if s["next_is_must"] else "R41"
        else:
            right = (
                f"This was not a single (R41 needs exactly three players in, one trick each; here "
                f"{len(sc.hand.players_in)} were in and {_tricks_words(a)}): the next deal is an "
                "ordinary one."
            )
            rid = "R41"
        keys = ["yes", "no"]
        return finish(
            g,
            a,
            kind="pick_option",
            prompt=f"{head} Is the next deal a must?",
            choices=[
                Choice("yes", "Yes: the next deal is a must"),
                Choice("no", "No: an ordinary deal"),
            ],
            verdicts=same_verdict(keys, a.answer, rid, "single-must", right, f"No. {right}"),
            explanation=right,
            rule_ids=("R41", "R42", "R43"),
            view=view_of(sc, ()),
        )
    if what == "looed_count":
        rules = g.rules()
        pool = 3 * rng.randint(1, 5)
        hand = _played_out(g, rules, lambda n: Stakes.make(pool=pool, players=n), must=True)
        mapping = _counts_mapping(hand, rules)
        a = ask(g, mapping, {"ask": "looed_count"}, rules)
        sc = a.sc
        n = sc.hand.setup.players
        ans = int(a.answer[0])
        right = (
            f"In a must all {n} play (R43) and only three tricks are won: "
            f"here {_tricks_words(a)}, so {ans} took no trick and are looed. A must always "
            f"loos at least {max(0, n - 3)} (R44)."
        )
        choices = number_choices(rng, ans, [n - 3, n - 2, n - 1, n, 0, 1, 2])
        keys = [c.key for c in choices]
        return finish(
            g,
            a,
            kind="pick_number",
            prompt=f"{table_words(sc)} The hand is played: {_tricks_words(a)}. How many players are looed?",
            choices=choices,
            verdicts=same_verdict(keys, a.answer, "R44", "must-loos", right, f"No. {right}"),
            explanation=right,
            rule_ids=("R44", "R43", "R39"),
            view=view_of(sc, ()),
        )
    # unlimited loo (custom rules: only without a preset filter)
    capped = g.chance(0.4)
    unlimited: dict[str, str | bool] = {"loo_amount": "pool_capped" if capped else "pool"}
    rules = g.rules(unlimited)
    pool = rng.randint(4, 30)
    cap = rng.randint(3, 12) if capped else None
    hand = _played_out(g, rules, lambda n: Stakes.make(pool=pool, loo_cap=cap, players=n))
    looed = [s for s in hand.players_in if s not in hand.winners and s != hand.for_pool]
    if not looed:
        raise Reject("nobody looed")
    seat = rng.choice(looed)
    a = ask(g, scenario_of(hand, rules), {"ask": "pays", "seat": seat}, rules)
    sc = a.sc
    ans = int(a.answer[0])
    right = (
        f"Seat {seat} played and took no trick: he is looed (R39). In unlimited loo a loo is the "
        f"amount in the pool (R46), here {pool}"
        + (f", up to the agreed maximum of {cap} (R49)" if capped else "")
        + f": he pays {ans}."
    )
    choices = number_choices(rng, ans, [3, pool, cap or pool // 3, pool // 3, 2 * pool])
    keys = [c.key for c in choices]
    head = (
        f"{table_words(sc)} Unlimited loo{f' with a maximum loo of {cap}' if capped else ''}; "
        f"the pool holds {pool}. Declarations: {declarations_words(sc)}. The hand is played: "
        f"{_tricks_words(a)}."
    )
    return finish(
        g,
        a,
        kind="pick_number",
        prompt=f"{head} How many counters does seat {seat} pay?",
        choices=choices,
        verdicts=same_verdict(
            keys, a.answer, "R49" if capped else "R46", "unlimited-loo", right, f"No. {right}"
        ),
        explanation=right,
        rule_ids=("R46", "R47", "R48") + (("R49",) if capped else ()),
        view=view_of(sc, ()),
    )


# === penalty: R50–R63 =============================================================================

DECLARE_OFFENCES: tuple[Offence, ...] = tuple(o for o in Offence if not o.info.play_phase)
#: Play-phase offences that cost a full loo (not the engine's take-back-only ones).
PLAY_OFFENCES: tuple[Offence, ...] = tuple(
    o for o in Offence if o.info.play_phase and ruling_for(o).size != "none"
)


def _penalty_verdicts(
    keys: list[str], answer: tuple[str, ...], offence: Offence, declared: bool
) -> dict[str, Verdict]:
    r = ruling_for(offence, declared=declared)
    rid = r.rules[0]
    return same_verdict(
        keys,
        answer,
        rid,
        offence.name.lower().replace("_", "-"),
        r.note,
        f"No. {r.note}",
        loo_quote_index(rid),
    )


def _stakes_choice(g: Gen, n: int, pool: int | None = None) -> Stakes:
    if g.chance(0.5):
        return Stakes.make(stake=3, loo=6, single_loo=3, pool=pool, players=n)  # Peel: 3 and 6
    return Stakes.make(pool=pool, players=n)


def _offenders(hand: Hand, off: Offence) -> list[int]:
    """Seats that can commit `off` in this declaring position (never a seat that threw up)."""
    rot = hand.rotation
    to_act = hand.to_act
    assert to_act is not None
    later = rot[rot.index(to_act) + 1 :]
    live = [s for s in rot if s not in hand.declared or hand.declared[s].plays]
    if off in (Offence.LOOK_AT_OWN_CARDS_EARLY, Offence.DECLARE_OUT_OF_TURN):
        return list(later)  # "before it is his turn"
    if off is Offence.LOOK_AT_MISS and hand.miss_holder is not None:
        return []  # the miss is taken: looking at it is looking at another's cards
    if off is Offence.LOOK_AT_THROWN_UP and X not in hand.declared.values():
        return []
    return live


def gen_penalty(g: Gen) -> Question:
    rng = g.rng
    if g.level == 1:
        what = rng.choice(["penalty", "penalty_amount"])
    else:
        what = rng.choices(["card", "consequences", "withheld"], weights=[4, 2, 2])[0]
        if g.disagreement:
            what = "card"
    rules = g.rules()
    if what == "card":
        hand = _random_play(g, rules)

        def keep(h: Hand, differs: bool) -> int | None:
            seat = h.to_act
            if seat is None or len(h.held[seat]) < 2:
                return None
            if g.disagreement:
                return 2 if differs else None
            return 2 if len(h.legal_actions()) < len(h.held[seat]) else None

        found = [m for m, _ in _positions(hand, g, keep, rules)]
        if not found:
            raise Reject("no position with a forbidden card")
        pos = at_move(hand, rng.choice(found))
        seat = pos.to_act
        assert seat is not None
        v = pos.verdict()
        forbidden = [c.code for c, _ in v.forbidden if isinstance(c, Card)]
        legal = [c.code for c in v.legal if isinstance(c, Card)]
        if g.disagreement:
            candidates = [c.code for c in pos.held[seat]]
            rng.shuffle(candidates)
        else:
            pick_legal = legal and (not forbidden or g.chance(0.2))
            candidates = [rng.choice(legal if pick_legal else forbidden)]
        mapping = scenario_of(pos, rules)
        a: Asked | None = None
        for code in candidates:
            try:
                a = ask(g, mapping, {"ask": "penalty", "seat": seat, "card": code}, rules)
                break
            except Reject:
                continue
        if a is None:
            raise Reject("no card on which the books disagree")
        sc = a.sc
        code = a.ask["card"]
        keys = ["legal", *PENALTY_KEYS]
        verdict = sc.hand.verdict()
        card = parse_card(code)
        allowed = dict(verdict.allowed_by).get(card)
        law = verdict.law_for(card)
        if allowed is not None:
            right = f"{card_label(code)} is legal here: {allowed.reason}"
            verdicts = {
                k: Verdict.from_law(
                    allowed, k == "legal", right if k == "legal" else f"No: {right}"
                )
                for k in keys
            }
            offence_rules: tuple[str, ...] = (allowed.rule,)
        else:
            assert law is not None
            off = OFFENCE_FOR_LAW[law]
            r = ruling_for(off)
            verdicts = _penalty_verdicts(keys, a.answer, off, True)
            verdicts["legal"] = Verdict.from_law(law, False, f"No: {law.reason}")
            right = (
                f"{card_label(code)} is not allowed: {law.reason} ({law.rule}). That is "
                f"{off.info.words}: {r.note}"
            )
            offence_rules = (law.rule, *r.rules)
        trick = sc.hand.current_trick if len(sc.hand.tricks) > len(sc.hand.winners) else []
        where = (
            f"Trick {len(sc.hand.winners) + 1}: {', '.join(f'seat {s} {card_label(c.code)}' for s, c in trick)}. "
            if trick
            else (
                f"Seat {seat} won trick {len(sc.hand.winners)} and leads to trick "
                f"{len(sc.hand.winners) + 1}. "
                if sc.hand.winners
                else f"Seat {seat} leads to the first trick. "
            )
        )
        return finish(
            g,
            a,
            kind="pick_option",
            prompt=f"{table_words(sc)} {trumps_words(sc)} {in_words(sc)} {where}Seat {seat} plays the "
            f"{card_label(code)}. What follows?",
            choices=[Choice(k, PENALTY_LABELS[k]) for k in keys],
            verdicts=verdicts,
            explanation=right,
            rule_ids=offence_rules,
            show=[seat],
        )
    if what in ("penalty", "consequences"):
        n = table_size(rng, 3, 7)
        hand = deal(rng, rules, n, rng.randrange(n), stakes=_stakes_choice(g, n))
        stop_at = rng.randrange(0, n - 1)
        declare_until(hand, rng, DEFAULT_WEIGHTS, stop=lambda h: len(h.declared) >= stop_at)
        if hand.phase is not Phase.DECLARE or hand.to_act is None:
            raise Reject("not in the declaring")
        weights = [3.0 if o is Offence.LOOK_AT_ANOTHERS_HAND else 1.0 for o in DECLARE_OFFENCES]
        off = rng.choices(DECLARE_OFFENCES, weights=weights)[0]
        seats = _offenders(hand, off)
        if not seats:
            raise Reject(f"nobody can be caught {off.info.words} here")
        seat = rng.choice(seats)
        mapping = scenario_of(
            hand,
            rules,
            hands=[hand.to_act],
            extra={"penalties": [{"seat": seat, "offence": off.name.lower()}]},
        )
        a = ask(g, mapping, {"ask": what, "seat": seat}, rules)
        sc = a.sc
        rec = penalty_record(sc, seat)
        declared = seat in sc.hand.declared and sc.hand.declared[seat].plays
        status = (
            f"seat {seat} has already {'stood' if sc.hand.declared[seat] is P else 'taken the miss'}"
            if declared
            else (
                f"seat {seat} has thrown up"
                if seat in sc.hand.declared
                else f"seat {seat} has not declared yet"
            )
        )
        said = declarations_words(sc)
        so_far = f"Declarations so far: {said}; {status}." if sc.hand.declared else f"{said}."
        head = (
            f"{table_words(sc)} A single loo is {sc.hand.setup.stakes.single_loo} and a full loo "
            f"{sc.hand.setup.stakes.loo}. {so_far[0].upper()}{so_far[1:]} Seat {seat} is caught "
            f"{off.info.words}."
        )
        if what == "penalty":
            keys = list(PENALTY_KEYS)
            return finish(
                g,
                a,
                kind="pick_option",
                prompt=f"{head} What is the penalty?",
                choices=[Choice(k, PENALTY_LABELS[k]) for k in keys],
                verdicts=_penalty_verdicts(keys, a.answer, off, declared),
                explanation=f"{rec.ruling.note} ({', '.join(rec.ruling.rules)})",
                rule_ids=rec.ruling.rules,
                view=view_of(sc, [sc.hand.to_act] if sc.hand.to_act is not None else []),
            )
        keys = list(CONSEQUENCE_LABELS)
        r = rec.ruling
        rid = r.rules[0]
        verdicts = {
            k: Verdict.from_rule(
                rid,
                off.name.lower().replace("_", "-"),
                (f"Yes. {r.note}" if k in a.answer else f"No. {r.note}"),
                k in a.answer,
                loo_quote_index(rid),
            )
            for k in keys
        }
        return finish(
            g,
            a,
            kind="pick_option",
            prompt=f"{head} Besides paying, what follows for him? Select all that apply.",
            choices=[Choice(k, CONSEQUENCE_LABELS[k]) for k in keys],
            verdicts=verdicts,
            explanation=f"{r.note} ({', '.join(r.rules)})",
            rule_ids=r.rules,
            multi=True,
            view=view_of(sc, [sc.hand.to_act] if sc.hand.to_act is not None else []),
        )
    # penalty_amount (level 1) and withheld winnings (level 2): a finished deal
    pool = 3 * rng.randint(1, 5)
    st: list[Stakes] = []

    def stakes_of(n: int) -> Stakes:
        st.append(_stakes_choice(g, n, pool))
        return st[-1]

    hand = _played_out(g, rules, stakes_of)
    if what == "penalty_amount":
        seat = rng.randrange(hand.setup.players)
        pool_offs = DECLARE_OFFENCES + (PLAY_OFFENCES if seat in hand.players_in else ())
        off = rng.choice(pool_offs)
        mapping = scenario_of(
            hand, rules, extra={"penalties": [{"seat": seat, "offence": off.name.lower()}]}
        )
        a = ask(g, mapping, {"ask": "penalty_amount", "seat": seat}, rules)
        sc = a.sc
        rec = penalty_record(sc, seat)
        stakes = sc.hand.setup.stakes
        ans = int(a.answer[0])
        right = f"{off.info.words.capitalize()}: {rec.ruling.note} Here that is {ans} counter{'' if ans == 1 else 's'}."
        choices = number_choices(rng, ans, [stakes.single_loo, stakes.loo, stakes.stake, pool, 0])
        keys = [c.key for c in choices]
        rid = rec.ruling.rules[0]
        return finish(
            g,
            a,
            kind="pick_number",
            prompt=f"{table_words(sc)} The pool holds {pool}; a single loo is {stakes.single_loo} "
            f"and a full loo {stakes.loo}. Declarations: {declarations_words(sc)}. Seat {seat} was "
            f"caught {off.info.words}. How many counters does the penalty cost him?",
            choices=choices,
            verdicts=same_verdict(
                keys,
                a.answer,
                rid,
                off.name.lower().replace("_", "-"),
                right,
                f"No. {right}",
                loo_quote_index(rid),
            ),
            explanation=right,
            rule_ids=rec.ruling.rules,
            view=view_of(sc, ()),
        )
    # withheld: the offender won a trick
    if not hand.winners:
        raise Reject("no tricks")
    seat = rng.choice(hand.winners)
    off = rng.choice([Offence.LOOK_AT_ANOTHERS_HAND, *PLAY_OFFENCES])
    mapping = scenario_of(
        hand, rules, extra={"penalties": [{"seat": seat, "offence": off.name.lower()}]}
    )
    a = ask(g, mapping, {"ask": "receives", "seat": seat}, rules)
    head = (
        f"{table_words(a.sc)} The pool holds {pool}. Declarations: {declarations_words(a.sc)}. "
        + (
            f"After declaring, seat {seat} was caught {off.info.words} and paid his penalty. "
            if off is Offence.LOOK_AT_ANOTHERS_HAND
            else f"During the play seat {seat} was caught {off.info.words}; he paid his penalty "
            "and the cards were played again in proper order. "
        )
        + f"The hand is played: {_tricks_words(a)}."
    )
    return _money_question(g, a, "receives", seat, head)


GENERATORS: dict[str, Callable[[Gen], Question]] = {
    "deal": gen_deal,
    "declare": gen_declare,
    "dealer": gen_dealer,
    "lead": gen_lead,
    "follow": gen_follow,
    "trick": gen_trick,
    "pool": gen_pool,
    "must": gen_must,
    "penalty": gen_penalty,
}

#: Levels at which Hoffmann's and Peel's rules can give different verdicts, per topic.
DISAGREEMENT_LEVELS: dict[str, tuple[int, ...]] = {
    "lead": (1, 2),
    "follow": (1, 2),
    "trick": (2,),
    "pool": (2,),
    "penalty": (2,),
}
