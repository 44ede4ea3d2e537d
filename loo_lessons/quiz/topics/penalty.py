"""The `penalty` questions: penalties (R50–R63)."""

from __future__ import annotations

from loo_lessons.engine.cards import Card, parse_card
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.penalties import OFFENCE_FOR_LAW, Offence, ruling_for
from loo_lessons.quiz.asking import Asked, Gen, Reject, ask, finish
from loo_lessons.quiz.choices import number_choices
from loo_lessons.quiz.dealing import P, X, played_out, positions_kept, random_play, reached_deal
from loo_lessons.quiz.derive import CONSEQUENCE_LABELS, PENALTY_KEYS, PENALTY_LABELS, penalty_record
from loo_lessons.quiz.model import Choice, Question, Verdict
from loo_lessons.quiz.money import money_question, tricks_words
from loo_lessons.quiz.positions import (
    DEFAULT_WEIGHTS,
    Rules,
    Wanted,
    agreed_loo,
    at_move,
    card_label,
    declare_until,
    scenario_of,
    table_size,
    view_of,
)
from loo_lessons.quiz.prompts import declarations_words, in_words, table_words, trumps_words
from loo_lessons.quiz.verdicts import loo_quote_index, same_verdict

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


def _loo_choice(g: Gen, rules: Rules) -> int | None:
    """Half of Peel's tables agree his loo of 6 (a single loo 3); other loos are the stake's."""
    return agreed_loo(rules) if g.chance(0.5) else None


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
    """A `penalty` question: what a mistake costs and what follows it (R50-R63), from a position
    where it was made."""
    rng = g.rng
    if g.level == 1:
        what = rng.choice(["penalty", "penalty_amount"])
    else:
        what = rng.choices(["card", "consequences", "withheld"], weights=[4, 2, 2])[0]
        if g.disagreement:
            what = "card"
    rules = g.rules()
    if what == "card":
        hand = random_play(g, rules)

        def keep(h: Hand, differs: bool) -> int | None:
            seat = h.to_act
            if seat is None or len(h.held[seat]) < 2:
                return None
            if g.disagreement:
                return 2 if differs else None
            return 2 if len(h.legal_actions()) < len(h.held[seat]) else None

        found = [m for m, _ in positions_kept(hand, g, keep, rules)]
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
        hand = reached_deal(g, rules, n, Wanted(loo=_loo_choice(g, rules)))
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
    hand = played_out(g, rules, Wanted(loo=_loo_choice(g, rules)))
    pool = hand.setup.stakes.pool
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
        + f"The hand is played: {tricks_words(a)}."
    )
    return money_question(g, a, "receives", seat, head)
