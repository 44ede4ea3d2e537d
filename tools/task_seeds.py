"""Find seeds for the lessons' play-this-deal tasks (`L.task`): deals in which the lesson's
point comes up at the learner's own decisions when his seat is played as the sensible bot
plays it. Run: `python -m tools.task_seeds [TASK] [--first N]`; prints the first seeds.

Each lesson's test below reads the deal as played by sensible bots at every seat (the
learner's included) and looks only at the learner's decisions: their options (every card he
holds, or every declaration) against the engine's legal ones.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from loo_lessons.engine.cards import Rank
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand
from loo_lessons.explain.table import action_key
from loo_lessons.lessons.tasks import TASKS as REGISTRY
from loo_lessons.lessons.tasks import Task
from loo_lessons.quiz.pick import pick_question
from loo_lessons.sim.bots import BOTS, bot_move
from loo_lessons.sim.game import decision_kind
from loo_lessons.widgets.controllers.play import bots_around

#: One of the learner's decisions: its kind, what he could click, what is legal, the move.
Seen = tuple[str, tuple[str, ...], tuple[str, ...], str]


@dataclass(frozen=True)
class Wanted:
    players: int
    seat: int
    dealer: int
    rules: str
    must: bool
    test: Callable[[Hand, list[Seen]], bool]
    #: The other seats' bots, as `L.task(bots=...)` takes them (the learner's seat is sensible).
    bots: str | tuple[str, ...] = "sensible"


def played(seed: int, w: Wanted) -> tuple[Hand, list[Seen]]:
    """The deal as the task's bots play it, the learner's seat played by the sensible bot (the
    task's other bots draw from the same seed)."""
    h = Hand.from_seed(seed, w.players, w.dealer, w.rules, must=w.must)
    rng, seen = random.Random(seed), []
    bots = [
        b or BOTS["sensible"]
        for b in bots_around(w.bots if isinstance(w.bots, str) else list(w.bots), w.players, w.seat)
    ]
    while h.to_act is not None:
        seat, kind = h.to_act, decision_kind(h)
        a = bot_move(h, bots[seat], rng)
        if seat == w.seat:
            legal = tuple(str(getattr(x, "value", x)) for x in h.legal_actions())
            if kind == "declare":
                options = tuple(d.value for d in Declaration)
            else:
                options = tuple(str(c) for c in h.held[seat])
            seen.append((kind, options, legal, str(getattr(a, "value", a))))
        h.apply(a)
    return h, seen


def tied(seen: list[Seen], kind: str) -> bool:
    """A decision of that kind where some option the learner has is forbidden."""
    return any(k == kind and len(legal) < len(opts) for k, opts, legal, _ in seen)


def looed_someone(h: Hand) -> bool:
    return h.settlement is not None and bool(h.settlement.looed)


def alone_with_miss(h: Hand) -> bool:
    """In front of the dealer (seat 0): one took the miss, the rest threw up."""
    front = [d.value for seat, d in h.declared.items() if seat != h.setup.dealer]
    return front.count("take_miss") == 1 and front.count("play") == 0


def won_then_led(h: Hand, seat: int) -> bool:
    """He wins trick 1 or 2 and so leads the next (R29), with a trump left (R30)."""
    return any(w == seat for w in h.winners[:2])


def lone_stander(h: Hand) -> bool:
    """In front of the dealer: one stood on his own cards, nobody took the miss, the rest
    threw up (R17, R18)."""
    front = [d.value for seat, d in h.declared.items() if seat != h.setup.dealer]
    return front.count("play") == 1 and front.count("take_miss") == 0


def declined_miss(h: Hand, seat: int) -> bool:
    """Two or more declare before `seat` and none of them takes the miss: it comes round to
    him untaken (R08)."""
    n, dealer = h.setup.players, h.setup.dealer
    before = [(dealer + 1 + i) % n for i in range((seat - dealer - 1) % n)]
    said = [h.declared[b].value for b in before if b in h.declared]
    return len(said) == len(before) >= 2 and "take_miss" not in said


def led_the_best_trump(h: Hand, s: list[Seen]) -> bool:
    """His first lead is tied to one card: the ace of trumps, or the king when the ace is
    turned up (R23, R24)."""
    leads = [legal for k, _, legal, _ in s if k == "lead"]
    if not leads or len(leads[0]) != 1 or h.trumps is None:
        return False
    best = "K" if h.turn_up is not None and h.turn_up.rank is Rank.ACE else "A"
    return leads[0][0] == best + h.trumps.value


def plays_with_suit_led(h: Hand, seen: list[Seen]) -> list[tuple[Seen, str | None]]:
    """His cards played, each with the suit led to its trick (None when he led it): he plays
    one card to every trick, so his n-th card is in trick n."""
    plays = [x for x in seen if x[0] != "declare"]
    return [
        (x, h.tricks[i][0][1].suit.value if x[0] == "follow" else None)
        for i, x in enumerate(plays)
        if i < len(h.tricks)
    ]


def had_to_head(h: Hand, seen: list[Seen]) -> bool:
    """He follows a plain suit (not trumps) with two cards of it or more, and heading the
    trick forbids some of them (R33)."""
    trumps = h.trumps.value if h.trumps is not None else None
    for (kind, opts, legal, _), led in plays_with_suit_led(h, seen):
        in_suit = [c for c in opts if c[-1] == led]
        if kind == "follow" and led != trumps and len(in_suit) >= 2 and set(legal) < set(in_suit):
            return True
    return False


def bound_to_trump_after_trick(h: Hand, seen: list[Seen]) -> bool:
    """He leads after winning a trick, holding a trump and a card of another suit, and only
    his trumps are allowed (R30)."""
    trumps = h.trumps.value if h.trumps is not None else None
    return any(
        kind == "lead"
        and any(c[-1] == trumps for c in opts)
        and any(c[-1] != trumps for c in opts)
        and all(c[-1] == trumps for c in legal)
        for (kind, opts, legal, _), _led in plays_with_suit_led(h, seen)
    )


def stood(seen: list[Seen]) -> bool:
    """The learner (played as the sensible bot) stood or took the miss."""
    return bool(seen) and seen[0][0] == "declare" and seen[0][3] in ("play", "take_miss")


def first_lead_tied_to_a_trump(h: Hand, seen: list[Seen]) -> bool:
    """His first lead is tied: only trumps are legal, and he holds a card that is not."""
    leads = [(opts, legal) for k, opts, legal, _ in seen if k == "lead"]
    if not leads or h.trumps is None:
        return False
    opts, legal = leads[0]
    return len(legal) < len(opts) and all(c.endswith(h.trumps.value) for c in legal)


def threw_up(h: Hand) -> bool:
    """Someone threw up in this deal."""
    return any(d.value == "pass" for d in h.declared.values())


# --- lessons 7–10 (lessC): each task holds a real decision where its lesson's point matters ---
def chose(seen: list[Seen], kinds: tuple[str, ...]) -> bool:
    """One of his decisions of these kinds leaves him two legal choices or more."""
    return any(k in kinds and len(legal) >= 2 for k, _, legal, _ in seen)


def trumped_to_win(h: Hand, seen: list[Seen], seat: int) -> bool:
    """He has no card of the plain suit led, two trumps or more are legal, and his trump
    takes the trick (R35, R37): any trump beats any plain card."""
    trumps = h.trumps.value if h.trumps is not None else None
    return any(
        kind == "follow"
        and led != trumps
        and not any(c[-1] == led for c in opts)
        and len(legal) >= 2
        and all(c[-1] == trumps for c in legal)
        and h.winners[i] == seat
        for i, ((kind, opts, legal, _), led) in enumerate(plays_with_suit_led(h, seen))
    )


def trumped_a_plain_suit(h: Hand, seen: list[Seen], seat: int) -> bool:
    """He has no card of the plain suit led, holds a trump and a card of another plain suit,
    the law refuses the plain card (R35: void, he must trump), and his trump takes the trick
    (R37)."""
    trumps = h.trumps.value if h.trumps is not None else None
    return any(
        kind == "follow"
        and led != trumps
        and not any(c[-1] == led for c in opts)
        and any(c[-1] == trumps for c in opts)
        and any(c[-1] != trumps for c in opts)
        and all(c[-1] == trumps for c in legal)
        and h.winners[i] == seat
        for i, ((kind, opts, legal, _), led) in enumerate(plays_with_suit_led(h, seen))
    )


def highest_of_two_trumps(h: Hand, seen: list[Seen], seat: int) -> bool:
    """He wins the first trick, not having led it, and leads the second holding two trumps,
    only the higher of them allowed (Peel: R31, R60)."""
    trumps = h.trumps.value if h.trumps is not None else None
    plays = plays_with_suit_led(h, seen)
    return (
        h.winners[:1] == [seat]
        and h.leaders[0] != seat
        and len(plays) > 1
        and plays[1][0][0] == "lead"
        and len(plays[1][0][1]) == 2
        and all(c[-1] == trumps for c in plays[1][0][1])
        and len(plays[1][0][2]) == 1
    )


def two_trumps_after_winning(h: Hand, seen: list[Seen], seat: int) -> bool:
    """He wins the first trick, not having led it, and leads the second holding two trumps,
    both legal (R29, R30, and Hoffmann's "lead one of them", R25)."""
    trumps = h.trumps.value if h.trumps is not None else None
    plays = plays_with_suit_led(h, seen)
    return (
        h.winners[:1] == [seat]
        and h.leaders[0] != seat
        and len(plays) > 1
        and plays[1][0][0] == "lead"
        and len(plays[1][0][2]) >= 2
        and all(c[-1] == trumps for c in plays[1][0][2])
    )


def led_one_of_two_trumps(h: Hand, seen: list[Seen]) -> bool:
    """His first lead is tied to his trumps (two or more), and any of them will do (R25)."""
    leads = [(opts, legal) for k, opts, legal, _ in seen if k == "lead"]
    if not leads or h.trumps is None:
        return False
    opts, legal = leads[0]
    return 2 <= len(legal) < len(opts) and all(c.endswith(h.trumps.value) for c in legal)


def followed_low_or_high(h: Hand, seen: list[Seen]) -> bool:
    """He follows a plain suit with two cards of it or more, and every one of them is legal
    (no law makes him head the trick: Peel, R34)."""
    trumps = h.trumps.value if h.trumps is not None else None
    for (kind, opts, legal, _), led in plays_with_suit_led(h, seen):
        in_suit = [c for c in opts if c[-1] == led]
        if kind == "follow" and led != trumps and len(in_suit) >= 2 and set(legal) == set(in_suit):
            return True
    return False


#: Every task the lessons set (`L.task` in notebooks/03–10), by its name, with what must come up
#: in its deal. tests/test_lesson_steps.py checks each notebook's task against its entry here.
#: What must come up in each task's deal (`lessons.tasks.TASKS` holds the task itself: its
#: table, seat and seed), as a test of the deal played by sensible bots at every seat.
POINTS: dict[str, Callable[[Hand, list[Seen]], bool]] = {
    # 3: the miss taken before his turn: only stand or throw up (R09)
    "declaring-deal-1": lambda h, s: s[0][0] == "declare" and "take_miss" not in s[0][2],
    # 4: he deals, one player took the miss and all the rest threw up (R16); a lone stander
    # in front of the dealer (R17, R18) comes up with sensible bots only at a table of two
    "dealer-deal-5": lambda h, s: set(s[0][2]) == {"play", "pass"} and alone_with_miss(h),
    # 5: he stands and his lead is tied (R23–R26)
    "leading-deal-26": lambda h, s: s[0][3] == "play" and tied(s, "lead"),
    # 6: he follows, and following suit or heading forbids some of his cards (R32–R36)
    "following-deal-14": lambda h, s: s[0][3] == "play" and tied(s, "follow"),
    # 6, Following (short task): at a table of bold players who all stand, he is the elder
    # hand and only follows: he holds two cards of the plain suit led and heading the trick
    # forbids the lower (R32, R33)
    "following-head-deal-154": lambda h, s: (
            s[0][3] == "play" and had_to_head(h, s) and len(h.players_in) == 5
        ),
    # 8: he plays and someone is looed (R38–R40)
    "settling-deal-3": lambda h, s: (
            s[0][3] in ("play", "take_miss")
            and looed_someone(h)
            and 1 not in (h.settlement.looed if h.settlement else ())
        ),
    # 9: a must: no throwing up, no miss, at least n − 3 loos (R43–R45)
    "must-deal-3": lambda h, s: tied(s, "declare") and tied(s, "follow"),
    # 10: Peel's rules; his lead and a follow are tied, so a wrong card would be an offence (R55–R58)
    "penalties-deal-1": lambda h, s: s[0][3] == "play" and tied(s, "lead") and tied(s, "follow"),
    # lessons 3–5, their steps' short tasks (issue 18)
    # 3: the miss declined by those before him comes round to him untaken: he may take it (R08)
    "declaring-miss-deal-351": lambda h, s: s[0][0] == "declare" and "take_miss" in s[0][2] and declined_miss(h, 4),
    # 4: he deals to three cautious players (they never take the miss) and one of them stands
    # alone: the dealer may not throw up (R17, R18)
    "dealer-lone-deal-3": lambda h, s: set(s[0][2]) == {"play", "take_miss", "play_miss_for_pool"}
        and lone_stander(h),
    # 5: only his lead is asked, and it is tied to the best trump in play (R23, R24)
    "leading-ace-deal-89": lambda h, s: s[0][3] == "play" and led_the_best_trump(h, s),
    # --- lessons 8–10, short tasks (steps) ---
    # 8: he only declares; he stands and takes a trick (a third of the pool, R38), one who
    # stood is looed (R39), one threw up and pays nothing (A14)
    "settling-thirds-deal-4": lambda h, s: (
            stood(s) and len(s[0][2]) == 3 and 1 in h.winners and looed_someone(h) and threw_up(h)
        ),
    # 9: he only declares; he stands, and three stood and took a trick each: a single (R41, R42)
    "singles-three-tricks-deal-89": lambda h, s: stood(s) and h.settlement is not None and h.settlement.is_single,
    # --- lessons 7–10 (lessC): three short tasks each, every one with a real decision ---
    # 7: he only follows; void in the plain suit led, he may trump with either of two trumps,
    # and any trump takes the trick (R35, R37)
    "winning-trump-wins-deal-15": lambda h, s: stood(s) and trumped_a_plain_suit(h, s, 2),
    # 7: he only leads; he wins the first trick, not having led it, and leads holding two
    # trumps: under Hoffmann either (R29, R30, R25)
    "winning-two-trumps-deal-229": lambda h, s: stood(s) and highest_of_two_trumps(h, s, 3),
    # 7: the whole deal; he follows with a free choice, wins the trick and his lead is tied
    # (the king with the ace turned up, trump after trick: R24, R29, R30)
    "winning-deal-98": lambda h, s: (
            s[0][3] == "play"
            and won_then_led(h, 2)
            and h.leaders[0] != 2
            and tied(s, "lead")
            and chose(s, ("follow",))
        ),
    # 8: he only declares; he takes the miss and takes no trick: looed (R39); throwing up
    # would have cost nothing (A14)
    "settling-looed-deal-7": lambda h, s: (
            stood(s) and len(s[0][2]) == 3 and h.settlement is not None and 1 in h.settlement.looed
        ),
    # 9: a must; he follows and leads: void in the suit led he must trump, with two trumps
    # to choose from (R43, R35)
    "must-trump-deal-2": lambda h, s: s[0][2] == ("play",) and tied(s, "follow") and chose(s, ("follow",)),
    # 10: Peel's rules; he only leads: his first lead is tied to the ace of trumps (an offence
    # otherwise, R55), his second is free
    "penalties-lead-deal-70": lambda h, s: (
            stood(s)
            and h.leaders[:1] == [1]
            and first_lead_tied_to_a_trump(h, s)
            and chose(s, ("lead",))
        ),
    # 10: Peel's rules; he follows and leads: not heading in suit is no offence (A10), so he
    # may follow with either trump; then trump after trick ties his lead (R30, R60)
    "penalties-follow-deal-36": lambda h, s: s[0][3] == "play" and chose(s, ("follow",)) and tied(s, "lead"),
    # --- lessons 3–6, third short tasks (issue 23, lessB) ---
    # 3: he is the elder hand, asked first: all three choices are his, and he takes the miss
    "declaring-elder-deal-2": lambda h, s: s[0][0] == "declare" and len(s[0][2]) == 3 and s[0][3] == "take_miss",
    # 4: two at the table: the elder hand stood alone, so the dealer has Case 3's three
    # choices and may not throw up (R17, R18, A17)
    "dealer-two-deal-2": lambda h, s: set(s[0][2]) == {"play", "take_miss", "play_miss_for_pool"}
        and lone_stander(h),
    # 5: he only leads; holding two trumps or more he must lead a trump, any one (R25)
    "leading-two-trumps-deal-33": lambda h, s: stood(s) and led_one_of_two_trumps(h, s),
    # 6: Peel's rules; he only follows, with two cards or more of the suit led, and may play
    # any of them: no law makes him head (R32, R34)
    "following-peel-deal-340": lambda h, s: stood(s) and followed_low_or_high(h, s),
}


def _wanted(name: str) -> Wanted:
    t = REGISTRY[name]
    return Wanted(t.players, t.seat, t.dealer, t.rules, t.must, POINTS[name], t.bots)


#: Every task the lessons set, by its id (`lessons.tasks.TASKS`, the one list of tasks), with
#: the test its deal must pass.
TASKS: dict[str, Wanted] = {name: _wanted(name) for name in REGISTRY}


@dataclass(frozen=True)
class Asked:
    """One decision a task asked in a scripted run: its kind, whether the law refused a choice
    on offer, the coach's spread (best less worst), the rule ids of the engine's verdict on it,
    and the move made."""

    move: int
    kind: str
    law: bool
    strategy: bool
    spread: float
    rule_ids: tuple[str, ...]
    played: str


@dataclass(frozen=True)
class Run:
    """A task played by a script: the decisions asked, the score, and the lines played for her."""

    asked: tuple[Asked, ...]
    score: dict[str, Any]
    played_for: tuple[str, ...]
    #: every move of the deal, as keys (`KH`, `play`)
    moves: tuple[str, ...] = ()


def scripted(task: Task, how: str, seed: int | None = None) -> Run:
    """`task` (its seed, or `seed`) played in the widget's controller by a learner who makes,
    at every decision asked, the coach's best legal move (`how="best"`) or its worst
    (`"worst"`): the only legal move where there is one."""
    from loo_lessons.widgets.controllers.play import PlayController

    c = PlayController(
        task.seed if seed is None else seed,
        task.players,
        task.rules,
        task.seat,
        task.bots if isinstance(task.bots, str) else list(task.bots),
        dealer=task.dealer,
        must=task.must,
        task=task.id,
        asks=list(task.asks),
    )
    advisor = c.coaching.advisor
    asked: list[Asked] = []
    while not c.over:
        h = c.hand
        r = advisor.ruling(h)
        q = pick_question(h, reveal={task.seat}, qid="t", topic="t")
        kind = decision_kind(h)
        a = r.legal[0] if r.advice is None else r.advice.moves[0 if how == "best" else -1].action
        asked.append(
            Asked(len(h.actions), kind, r.law, r.strategy, r.spread, tuple(q["rule_ids"]), action_key(a))
        )
        c.choose(a)
    score = c.score()
    assert score is not None
    lines = tuple(e["text"] for e in c.moves() if e["seat"] == task.seat and e["text"].startswith(("Your last", "Played for you")))
    return Run(tuple(asked), score, lines, tuple(action_key(a) for a in c.hand.actions))


def teaches(task: Task, seed: int | None = None) -> bool:
    """Played by a script following the coach and by one making its worst move, the task asks
    at least one decision each time, and following the coach it meets the lesson's point: an
    asked decision the engine's verdict on turns on a rule in `task.teaches` (`task.by` "law"),
    or one the coach separates (`task.by` "strategy"). The worst run may throw the deal up
    before the point comes (tests/test_task_runs.py holds the shipped seeds to the same)."""
    for how in ("best", "worst"):
        run = scripted(task, how, seed)
        if not run.asked:
            return False
        if how == "best":
            if task.by == "law" and not any(set(a.rule_ids) & set(task.teaches) for a in run.asked):
                return False
            if task.by == "strategy" and not any(a.strategy for a in run.asked):
                return False
    return True


def main(argv: list[str]) -> None:
    first = 5
    if "--first" in argv:
        first = int(argv[argv.index("--first") + 1])
    names = [a for a in argv if a in TASKS] or list(TASKS)
    for name in names:
        w = TASKS[name]
        found = []
        for seed in range(1, 5000):
            h, seen = played(seed, w)
            if seen and w.test(h, seen) and teaches(REGISTRY[name], seed):
                found.append(seed)
                if len(found) == first:
                    break
        print(f"{name}: seat {w.seat}, dealer {w.dealer}, {w.rules}, must={w.must}: {found}")


if __name__ == "__main__":
    main(sys.argv[1:])
