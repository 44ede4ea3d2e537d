"""What every topic generator shares: the generation context, asking the engine, building
choices and verdicts, and assembling the `Question`.

The flow of every question: a real position is written as a scenario mapping, the mapping
is loaded with `scenario.load`, and `derive.answer_of` reads the answer from the engine's
verdict on it (`explain_json`, the settlement, the penalty records). Verdicts cite the law
the engine names (`Law.as_json()`) or, for rules that are not a `Law` (the deal, the trick
winner, the money), the digest rule itself with its verbatim quote.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from loo_lessons.engine.cards import Card, Suit
from loo_lessons.engine.declare import ALL_DECLARATIONS, Declaration
from loo_lessons.engine.errors import InputError
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.options import PRESETS
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import explain_json, words
from loo_lessons.explain.table import action_key
from loo_lessons.quiz.derive import answer_of, summary_of
from loo_lessons.quiz.model import Choice, Question, Verdict
from loo_lessons.quiz.positions import (
    ORDINARY,
    PRESET_NAMES,
    Rules,
    Wanted,
    at_move,
    card_label,
    deal,
    declare_until,
    hand_codes,
    legal_under,
    play_until,
    reach,
    scenario_of,
    table_size,
    view_of,
)
from loo_lessons.scenario import Scenario, load

#: A declaration's button: the books' words (`explain.words.action_label`).
DECLARATION_LABELS: dict[str, str] = {
    str(d): words.action_label(d, capital=True) for d in ALL_DECLARATIONS
}
DECLARED_WORDS: dict[str, str] = {
    "play": "stands",
    "take_miss": "takes the miss",
    "pass": "throws up",
    "play_miss_for_pool": "plays the miss for the pool",
}
SUIT_LABELS: dict[str, str] = {"C": "Clubs ♣", "D": "Diamonds ♦", "H": "Hearts ♥", "S": "Spades ♠"}


class Reject(Exception):
    """This random position does not make the question wanted; draw another."""


@dataclass
class Gen:
    """The context of one question being generated."""

    topic: str
    qid: str
    rng: random.Random
    level: int
    preset: str | None
    disagreement: bool
    #: how the table reached the deal asked about (`positions.Reached.history`), if it did
    table: dict[str, Any] | None = None

    def rules(self, custom: Mapping[str, str | bool] | None = None) -> Rules:
        """The rules to ask under: the preset filter, else either book at random.

        Custom options are used only without a preset filter and outside disagreement mode.
        """
        base = self.preset or self.rng.choice(PRESET_NAMES)
        if custom and self.may_customise:
            return Rules(base, dict(custom))
        return Rules(base)

    @property
    def may_customise(self) -> bool:
        """Whether a question may change a preset's options: only without a preset filter and
        outside disagreement mode, where both books must give the same position."""
        return self.preset is None and not self.disagreement

    def chance(self, p: float) -> bool:
        """True with probability `p`, from the question's own random stream (so a seed makes the
        same quiz)."""
        return self.rng.random() < p


@dataclass
class Asked:
    """A position loaded by the engine, with the engine's answer (and the other book's)."""

    mapping: dict[str, Any]
    ask: dict[str, Any]
    rules: Rules
    sc: Scenario
    j: dict[str, Any]
    answer: tuple[str, ...]
    other: str | None = None  # the other book's answer, in words (disagreement mode)


def ask(g: Gen, mapping: dict[str, Any], question: Mapping[str, Any], rules: Rules) -> Asked:
    """Load the scenario, read the answer from the engine; in disagreement mode keep the
    position only if the other book answers differently."""
    mapping = dict(mapping)
    mapping["question"] = dict(question)
    if g.table is not None:
        mapping["question"]["table"] = dict(g.table)
    try:
        sc = load(mapping)
    except InputError as e:
        if "penalties" not in mapping:
            raise  # a generator bug, not an unlucky draw
        raise Reject(f"the penalty cannot happen here: {e}") from None
    j = explain_json(sc)
    try:
        answer = answer_of(sc, question, j)
    except LookupError as e:
        raise Reject(str(e)) from None
    other = None
    if g.disagreement:
        swapped = rules.swapped()
        m2 = dict(mapping)
        m2["rules"] = swapped.mapping()
        try:
            sc2 = load(m2)
        except InputError:
            raise Reject("the position cannot arise under the other book") from None
        j2 = explain_json(sc2)
        try:
            a2 = answer_of(sc2, question, j2)
        except LookupError:
            raise Reject("the other book gives no answer") from None
        if a2 == answer:
            raise Reject("both books agree")
        other = summary_of(sc2, question, j2)
    return Asked(mapping, dict(question), rules, sc, j, answer, other)


# --- choices and verdicts --------------------------------------------------------------------


def legal_verdicts(a: Asked) -> dict[str, Verdict]:
    """One verdict per option of the seat to act, from the engine's `Hand.verdict()`."""
    v = a.sc.hand.verdict()
    out: dict[str, Verdict] = {}
    for act, law in v.allowed_by:
        out[action_key(act)] = Verdict.from_law(law, action_key(act) in a.answer)
    for act, law in v.forbidden:
        out[action_key(act)] = Verdict.from_law(law, action_key(act) in a.answer)
    return out


def card_choices(codes: Sequence[str]) -> tuple[Choice, ...]:
    """The answer choices for these card codes, each labelled as the learner reads the card."""
    return tuple(Choice(c, card_label(c)) for c in codes)


def declaration_choices() -> tuple[Choice, ...]:
    """The choices of every declaration (stand, pass, ...), labelled in the lessons' words."""
    return tuple(Choice(str(d), DECLARATION_LABELS[str(d)]) for d in ALL_DECLARATIONS)


def seat_label(sc: Scenario, seat: int) -> str:
    """A choice's seat, as plain as "Seat 3": a label naming a role ("(the elder hand)",
    "(the dealer)") would answer the questions that ask who holds it. The prompt says who
    deals; the learner works out the rest."""
    del sc
    return f"Seat {seat}"


def seat_choices(sc: Scenario, seats: Iterable[int]) -> tuple[Choice, ...]:
    """The answer choices for these seats, each labelled plainly "Seat 3" (see `seat_label`)."""
    return tuple(Choice(str(s), seat_label(sc, s)) for s in seats)


def number_choices(rng: random.Random, answer: int, wrong: Iterable[int]) -> tuple[Choice, ...]:
    """The answer and three plausible wrong numbers (in ascending order here; `finish` puts
    every question's choices in a seeded order)."""
    pool = sorted({w for w in wrong if w >= 0 and w != answer})
    rng.shuffle(pool)
    picked = pool[:3]
    step = 1
    while len(picked) < 3:
        for cand in (answer + step, answer - step):
            if cand >= 0 and cand != answer and cand not in picked and len(picked) < 3:
                picked.append(cand)
        step += 1
    return tuple(Choice(str(n), str(n)) for n in sorted([answer, *picked]))


def loo_quote_index(rule_id: str) -> int:
    """The quote of a rule that names the penalty ('looed', 'loo', 'pool'), else the first."""
    quotes = RULES[rule_id].quotes
    for i, q in enumerate(quotes):
        if "loo" in q.text or "pool" in q.text:
            return i
    return 0


def same_verdict(
    keys: Iterable[str],
    answer: Sequence[str],
    rule_id: str,
    slug: str,
    right: str,
    wrong: str | Mapping[str, str] | None = None,
    quote_index: int = 0,
) -> dict[str, Verdict]:
    """Verdicts citing one rule for every choice: `right` for the answer, `wrong` for the rest."""
    out: dict[str, Verdict] = {}
    for k in keys:
        if k in answer:
            out[k] = Verdict.from_rule(rule_id, slug, right, True, quote_index)
        else:
            why = wrong.get(k) if isinstance(wrong, Mapping) else wrong
            out[k] = Verdict.from_rule(
                rule_id, slug, why if why is not None else f"No. {right}", False, quote_index
            )
    return out


def cite(v: Verdict) -> str:
    """The verdict's rule and the book's words as a learner reads them (markup rendered)."""
    return f"{v.rule_id}; {v.book}: “{words.quote_text(v.quote)}”"


def legal_explanation(
    subject: str, verb: str, choices: Sequence[Choice], verdicts: Mapping[str, Verdict]
) -> str:
    """'Seat 3 may lead: K♥. <reason> (R24; book: “quote”). Not 7♣, 2♦: <reason> (R24).'"""
    label = {c.key: c.label for c in choices}
    right = [c.key for c in choices if verdicts[c.key].correct]
    parts = [f"{subject} may {verb}: {', '.join(label[k] for k in right)}."]
    groups: dict[tuple[bool, str, str], list[str]] = {}
    firsts: dict[tuple[bool, str, str], Verdict] = {}
    for c in choices:
        v = verdicts[c.key]
        key = (v.correct, v.rule_id, v.reason)
        groups.setdefault(key, []).append(c.key)
        firsts.setdefault(key, v)
    for key in groups:
        v = firsts[key]
        if v.correct:
            parts.append(f"{v.reason} ({cite(v)})")
    for key, ks in groups.items():
        v = firsts[key]
        if not v.correct:
            parts.append(f"Not {', '.join(label[k] for k in ks)}: {v.reason} ({v.rule_id})")
    return " ".join(parts)


def ordered_ids(*groups: Iterable[str]) -> tuple[str, ...]:
    """The rule ids of the groups in order, each once, keeping only ids of the rules digest
    (R01-R63)."""
    out: list[str] = []
    for g in groups:
        for r in g:
            if r in RULES and r not in out:
                out.append(r)
    return tuple(out)


def declarations_words(sc: Scenario) -> str:
    """The declarations made so far in the deal, in turn order, as a sentence for a prompt."""
    h = sc.hand
    said = [f"seat {s} {DECLARED_WORDS[str(h.declared[s])]}" for s in h.rotation if s in h.declared]
    return ", ".join(said) if said else "nobody has declared yet"


def table_words(sc: Scenario) -> str:
    """The table in a sentence: how many play, who deals, who is elder hand (R05), and whether the
    deal is a must."""
    s = sc.hand.setup
    must = " This deal is a must: everyone plays and there is no miss." if s.must else ""
    return (
        f"{s.players} players; seat {s.dealer} deals, so seat {s.elder} is the elder hand." + must
    )


def trumps_words(sc: Scenario) -> str:
    """Which suit is trumps and the turned-up card that made it (R04), as a sentence; empty before
    the turn-up."""
    h = sc.hand
    if h.turn_up is None or h.trumps is None:
        return ""
    return f"Trumps are {h.trumps.plural} (the {card_label(h.turn_up.code)} is turned up)."


def in_seeded_order(rng: random.Random, choices: Sequence[Choice]) -> tuple[Choice, ...]:
    """The choices in an order drawn from the question's own RNG, so the place of the right
    answers tells a learner nothing ("click the first" scores no better than chance); the same
    seed (a class code) still deals every pupil the same order."""
    shuffled = list(choices)
    rng.shuffle(shuffled)
    return tuple(shuffled)


def borrowed_laws(preset: str | None, rule_ids: Iterable[str]) -> list[str]:
    """The laws a question cites that the stated book does not give: Peel's penalties (R50–R63,
    seed 004 alone) asked under Hoffmann's rules, which the engine plays under every preset
    (the penalty table is the only one the seeds give). Empty without a preset."""
    if preset is None:
        return []
    seeds = set(PRESETS[preset].seeds)
    return [r for r in rule_ids if r in RULES and not any(q.seed in seeds for q in RULES[r].quotes)
            and r in PENALTY_LAWS]


#: Peel's laws of penalties (seed 004), which Hoffmann's book (seed 000) does not give.
PENALTY_LAWS = frozenset(f"R{n}" for n in range(50, 64))


def stated_books(preset: str | None, words_: str, rule_ids: Iterable[str]) -> str:
    """The books a question is asked under, as its prompt states them: the preset's rules,
    and the book of any law it cites that the preset's book does not give (R53 is Peel's:
    "Under Hoffmann's rules, with Peel's penalties (R53)")."""
    borrowed = borrowed_laws(preset, rule_ids)
    if not borrowed:
        return words_
    return f"{words_}, with Peel's penalties ({', '.join(borrowed)})"


def finish(
    g: Gen,
    a: Asked,
    *,
    kind: str,
    prompt: str,
    choices: Sequence[Choice],
    verdicts: Mapping[str, Verdict],
    explanation: str,
    rule_ids: Iterable[str] = (),
    multi: bool = False,
    view: Mapping[str, Any] | None = None,
    show: Sequence[int] = (),
) -> Question:
    """Assemble the question: annotate the scenario, put the choices in a seeded order, state
    both books in disagreement mode."""
    ids = ordered_ids(rule_ids, (verdicts[c.key].rule_id for c in choices))
    if a.other is not None:
        mine = summary_of(a.sc, a.ask, a.j)
        explanation += (
            f" The books disagree here. Under {a.rules.words()}: {mine}. "
            f"Under {a.rules.swapped().words()}: {a.other}."
        )
    scenario = dict(a.mapping)
    scenario["topic"] = g.topic
    scenario["level"] = g.level
    scenario["answer"] = list(a.answer)
    scenario["rule_ids"] = list(ids)
    choices = in_seeded_order(g.rng, choices)
    order = {c.key: i for i, c in enumerate(choices)}
    answer = tuple(sorted(a.answer, key=lambda k: order.get(k, len(order))))
    return Question(
        id=g.qid,
        topic=g.topic,
        level=g.level,
        preset=a.rules.preset,
        rules=a.sc.options.to_dict(),
        prompt=f"Under {stated_books(a.rules.preset, a.rules.words(), ids)}: {prompt}",
        view=dict(view) if view is not None else view_of(a.sc, show),
        scenario=scenario,
        kind=kind,
        choices=tuple(choices),
        multi=multi,
        answer=answer,
        verdicts=dict(verdicts),
        explanation=explanation,
        rule_ids=ids,
    )


def legal_question(g: Gen, a: Asked, *, prompt: str, subject: str, verb: str) -> Question:
    """'Which cards/declarations may he …?': every option of the seat to act, select all legal."""
    h = a.sc.hand
    seat = h.to_act
    if seat is None:
        raise Reject("nobody is to act")
    verdicts = legal_verdicts(a)
    if a.j["phase"] == "declare":
        choices = declaration_choices()
        kind = "pick_declaration"
    else:
        choices = card_choices(hand_codes(h.held[seat], h))
        kind = "pick_card"
    return finish(
        g,
        a,
        kind=kind,
        prompt=prompt,
        choices=choices,
        verdicts=verdicts,
        explanation=legal_explanation(subject, verb, choices, verdicts),
        multi=True,
        show=[seat],
    )


# --- words and positions shared by the topics ------------------------------------------------

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
    """`n` as an English ordinal: 1st, 2nd, 3rd, 11th, 22nd."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def trumps_held(cards: list[Card], trumps: Suit | None) -> int:
    """How many of `cards` are trumps (none when there are no trumps yet)."""
    return sum(1 for c in cards if c.suit is trumps)


def random_deal(g: Gen, rules: Rules, lo: int = 2, hi: int = 7, *, must: bool = False) -> Hand:
    """A fresh deal at a table of `lo` to `hi` players (sizes weighted as `table_size`
    weights them), the dealer drawn at random."""
    n = table_size(g.rng, lo, hi)
    return deal(g.rng, rules, n, g.rng.randrange(n), must=must)


def random_play(g: Gen, rules: Rules, lo: int = 2, hi: int = 7) -> Hand:
    """A fresh deal (`random_deal`) with the players declared at random, brought to its play."""
    hand = random_deal(g, rules, lo, hi)
    declare_until(hand, g.rng, PLAYERS_IN)
    if hand.phase is not Phase.PLAY:
        raise Reject("nobody plays")
    return hand


def ask_legal_at(g: Gen, hand: Hand, found: Sequence[int], rules: Rules) -> tuple[Asked, int]:
    """The question "which cards may he play?" at one of the positions `found` (moves into
    the play, as `positions_kept` collects them), picked at random: the engine's answer and
    the seat to act."""
    pos = at_move(hand, g.rng.choice(found))
    seat = pos.to_act
    assert seat is not None
    return ask(g, scenario_of(pos, rules), {"ask": "legal"}, rules), seat


def positions_kept(
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


def reached_deal(g: Gen, rules: Rules, players: int, wanted: Wanted = ORDINARY) -> Hand:
    """A fresh deal at a table that has played some deals first (`positions.reach`), so
    the pool, the dealer and a must are what the rules make of real deals."""
    try:
        r = reach(g.rng, rules, players, wanted)
    except LookupError as e:
        raise Reject(str(e)) from None
    g.table = r.history
    return deal(g.rng, rules, players, r.dealer, stakes=r.stakes, must=r.must)


def played_out(g: Gen, rules: Rules, wanted: Wanted = ORDINARY) -> Hand:
    """A deal played out at random, at a table the engine brought to it (`reached_deal`)."""
    n = table_size(g.rng, 3, 7)
    hand = reached_deal(g, rules, n, wanted)
    declare_until(hand, g.rng, PLAYERS_IN)
    if hand.phase is not Phase.PLAY:
        raise Reject("the deal ended without play")
    play_until(hand, g.rng)
    return hand


def counts_mapping(
    hand: Hand, rules: Rules, extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A finished deal written with `tricks_won` (the counts) instead of the tricks; with
    the tricks when some book's shares follow their order (an odd pool among two or three
    hands: Peel's preference, `engine.settle.trick_shares`). One hand's three tricks take
    the same under every reading, so its counts say all."""
    if hand.setup.stakes.pool % 3 and len(set(hand.winners)) > 1:
        return scenario_of(hand, rules, extra=extra)
    won = {str(s): hand.winners.count(s) for s in hand.players_in}
    m = scenario_of(hand, rules, hands=(), tricks=False, extra={"tricks_won": won})
    if extra:
        m.update(extra)
    return m
