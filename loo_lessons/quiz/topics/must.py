"""The `must` questions: singles, musts and unlimited loo (R41–R49)."""

from __future__ import annotations

from loo_lessons.quiz.asking import Gen, Reject, ask, finish, legal_question
from loo_lessons.quiz.choices import number_choices
from loo_lessons.quiz.dealing import P, counts_mapping, played_out, random_deal
from loo_lessons.quiz.model import Choice, Question
from loo_lessons.quiz.money import money_question, stakes_words, tricks_words
from loo_lessons.quiz.positions import STAKE, Wanted, declare_until, scenario_of, view_of
from loo_lessons.quiz.prompts import declarations_words, table_words
from loo_lessons.quiz.verdicts import same_verdict

# === must: singles, musts and unlimited loo, R41–R49 ==============================================

#: The largest unlimited-loo pool asked about (the table's history is replayed, not invented).
MAX_UNLIMITED_POOL = 60


def gen_must(g: Gen) -> Question:
    """A `must` question: declaring in a must, whether the next deal is a must, the next pool, how
    many were looed, unlimited loo (R41-R49)."""
    rng = g.rng
    if g.level == 1:
        what = rng.choice(["legal", "next_is_must"])
    else:
        kinds = ["next_pool", "looed_count"] + (["unlimited"] if g.may_customise else [])
        what = rng.choice(kinds)
    if what == "legal":
        rules = g.rules()
        hand = random_deal(g, rules, 3, 7, must=True)
        stop_at = rng.randrange(hand.setup.players)
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
        hand = played_out(g, rules)
        single = len(hand.players_in) == 3 and sorted(hand.winners) == sorted(hand.players_in)
        if want_single and not single:
            raise Reject("not a single")
        if not want_single and len(hand.players_in) != 3 and g.chance(0.5):
            raise Reject("prefer three in")
        mapping = counts_mapping(hand, rules)
        a = ask(g, mapping, {"ask": what}, rules)
        sc = a.sc
        s = a.j["settlement"]
        head = (
            f"{table_words(sc)} {stakes_words(sc)} Declarations: {declarations_words(sc)}. "
            f"The hand is played: {tricks_words(a)}."
        )
        if what == "next_pool":
            return money_question(g, a, "next_pool", None, head)
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
                f"{len(sc.hand.players_in)} were in and {tricks_words(a)}): the next deal is an "
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
        hand = played_out(g, rules, Wanted(must=True))
        mapping = counts_mapping(hand, rules)
        a = ask(g, mapping, {"ask": "looed_count"}, rules)
        sc = a.sc
        n = sc.hand.setup.players
        ans = int(a.answer[0])
        right = (
            f"In a must all {n} play (R43) and only three tricks are won: "
            f"here {tricks_words(a)}, so {ans} took no trick and are looed. A must always "
            f"loos at least {max(0, n - 3)} (R44)."
        )
        choices = number_choices(rng, ans, [n - 3, n - 2, n - 1, n, 0, 1, 2])
        keys = [c.key for c in choices]
        return finish(
            g,
            a,
            kind="pick_number",
            prompt=f"{table_words(sc)} The hand is played: {tricks_words(a)}. How many players are looed?",
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
    cap = rng.randint(STAKE + 1, 5 * STAKE) if capped else None
    # unlimited loos grow fast: a short history keeps the pool a table meets
    hand = played_out(g, rules, Wanted(loo_cap=cap, deals=(0, 3)))
    pool = hand.setup.stakes.pool
    if pool > MAX_UNLIMITED_POOL:
        raise Reject("a pool beyond what a quiz asks about")
    looed = [s for s in hand.players_in if s not in hand.winners and s != hand.for_pool]
    if not looed:
        raise Reject("nobody looed")
    seat = rng.choice(looed)
    a = ask(g, scenario_of(hand, rules), {"ask": "pays", "seat": seat}, rules)
    head = (
        f"{table_words(a.sc)} {stakes_words(a.sc)} Declarations: {declarations_words(a.sc)}. "
        f"The hand is played: {tricks_words(a)}."
    )
    return money_question(
        g,
        a,
        "pays",
        seat,
        head,
        wrong=[3, pool, cap or pool // 3, pool // 3, 2 * pool],
        rule_ids=("R46", "R47", "R48") + (("R49",) if capped else ()),
    )
