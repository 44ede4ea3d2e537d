"""The lessons' pick questions, kept here rather than in the learner's cell (issue 34: no answer
in sight): each has its position, its title and prompt, and the lesson's words on the answer
(`after`), which reach the page only once the learner has checked.

A notebook asks one by its id, `L.pick("05-king-when-ace-turned")`: the cell shows nothing the
learner could read the answer from. A pick whose position the lesson builds in its cells (lesson
11 writes scenario files) keeps only its words here, asked for with `L.pick(position,
words="11-three-in")`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PickDef:
    """One pick of a lesson: `position` (a shipped scenario's name or scenario YAML; None when the
    lesson builds it), its `title` and `prompt` (None: the component's own), and `after`, the
    lesson's words on the answer, shown once the learner has checked."""

    position: str | None
    after: str | None = None
    title: str | None = None
    prompt: str | None = None


_FOLLOW_SUIT = """
title: Follow suit
rules: peel
players: 4
dealer: 0
turn_up: 7S
declarations: {1: play, 2: play, 3: play, 0: pass}
hands:
  3: [QC, 5C, AH]
tricks:
  - [[1, 9C], [2, 10C]]
"""

_FOLLOW_AND_HEAD = """
title: Follow suit, and head the trick?
rules: hoffmann
players: 5
dealer: 0
turn_up: 4D
declarations: {1: play, 2: play, 3: play, 4: pass, 0: pass}
hands:
  3: [QH, 3H, 9D]
tricks:
  - [[1, 10H], [2, JH]]
"""

_VOID_TRUMPED_HIGH = """
title: Void in the suit led, and the trick is trumped high
rules: peel
players: 4
dealer: 0
turn_up: 2C
declarations: {1: play, 2: play, 3: play, 0: play}
hands:
  0: [6C, 8S, 4H]
tricks:
  - [[1, KD], [2, 5D], [3, JC]]
"""

_ACE_KING_TWO_DECLARED = """
title: Ace and king of trumps, only two declared
rules: hoffmann
players: 4
dealer: 3
turn_up: 6S
declarations: {0: pass, 1: play, 2: pass, 3: play}
hands:
  1: [AS, KS, 8D]
"""

_WINNER_LEADS = """
title: The ace turned up, and you won the first trick
rules: hoffmann
players: 4
dealer: 0
turn_up: AH
declarations: {1: play, 2: play, 3: play, 0: pass}
hands:
  2: [KH, 4H]
tricks:
  - [[1, 10S], [2, QS], [3, 5S]]
"""

_MISS_TAKEN_SIX = """
title: Six at the table - the miss has been taken
players: 6
dealer: 3
turn_up: 10C
declarations: {4: pass, 5: play, 0: take_miss}
"""

_HOFFMANN_AFTER_FIRST_TRICK = """
title: Hoffmann's example after the first trick
rules: hoffmann
players: 5
dealer: 0
stake: 3
pool: 9
turn_up: 2H
declarations: {1: play, 2: play, 3: play, 4: play, 0: play}
hands: {1: [KH, 5C], 2: [6D, 8S], 3: [9S, QC], 4: [3S, JC], 0: [5S, 10C]}
tricks:
  - [[1, AH], [2, 4D], [3, 7D], [4, 2D], [0, 3D]]
"""

_ACE_TURNED_KING_HELD = """
title: Seed 268, three stand
rules: hoffmann
players: 5
dealer: 0
turn_up: AS
declarations: {1: play, 2: pass, 3: play, 4: play, 0: pass}
hands:
  1: [KS, QD, 2S]
  3: [7H, QC, 8C]
  4: [8H, 6S, KH]
"""

#: Every pick of the lessons, by id: the lesson's number, then what it asks.
PICKS: dict[str, PickDef] = {
    # lesson 1
    "01-elder-declares": PickDef(
        "declare-elder-hand-first",
        title="Your first question: the elder hand declares",
        after="Nobody has declared yet, so all three are open to him: he may stand, take the "
        "miss or throw up (R06, lesson 3).",
    ),
    "01-two-trumps": PickDef(
        "lead-two-trumps-hoffmann-lead-one",
        title="Two trumps to lead",
        after="Hoffmann: “If he has two trumps he is bound to lead one of them”, so either trump "
        "will do (R25). Peel: “he must lead the highest” (R26). Lesson 5 is about leading; in "
        "JupyterLab, or once the book's engine runs, you can switch the books on any position.",
    ),
    # lesson 2
    "02-must-no-miss": PickDef(
        "deal-must-no-miss",
        title="A must: dealt with no miss",
        after="In a must every one is bound to play (R43), and there is no miss to take (R45): "
        "he stands.",
    ),
    # lesson 3
    "03-elder-declares": PickDef(
        "declare-elder-hand-first",
        prompt="Nobody has declared yet. What may the elder hand declare?",
        after="All three: asked first, nobody before him can have taken the miss (R05, R06).",
    ),
    "03-miss-taken": PickDef(
        _MISS_TAKEN_SIX,
        prompt="Seat 0 has taken the miss. What may seat 1 declare?",
        after="Once the miss is taken the rest may only stand or throw up (R09).",
    ),
    # lesson 4
    "04-miss-holder-alone": PickDef(
        "dealer-miss-holder-alone-dealer-to-declare",
        after="The miss is taken (R09), and playing the miss on behalf of the pool belongs to "
        "Case 3.",
    ),
    "04-two-players": PickDef(
        "dealer-two-player-table",
        after="The elder hand is a lone stander: Case 3. The dealer may stand or take the miss "
        "(R17), or play the miss for the pool, but not throw up (R18).",
    ),
    # lesson 5
    "05-elder-among-players": PickDef(
        "lead-elder-among-players",
        prompt="Seats 1 and 2 threw up. Which cards may the leader lead?",
        after="Seat 3 is the first player in from the dealer's left, so he leads (R21). He holds "
        "no trump, so nothing ties his lead (R28).",
    ),
    "05-king-when-ace-turned": PickDef(
        "lead-king-when-ace-turned",
        after="With the ace out of play the king is the best trump, so R24 binds him, though the "
        "king is his only trump (A4).",
    ),
    "05-two-trumps": PickDef(
        "lead-two-trumps-hoffmann-lead-one",
        after="Either trump, not the club (R25). Under Peel only the queen would do (R26).",
    ),
    "05-two-declared": PickDef(
        "lead-two-declared-highest",
        after="The queen: only two are in, and the queen and eight are not in sequence (R27). "
        "Peel wants the highest too (R26).",
    ),
    "05-king-ace-turned-two-declared": PickDef(
        "lead-king-ace-turned-two-declared",
        after="R27 alone would let him lead the king or the queen, but he holds the king with "
        "the ace turned up: R24 binds him, and it comes first (A4).",
    ),
    "05-ace-and-king": PickDef(
        _ACE_KING_TWO_DECLARED,
        title="Your turn: two declared, ace and king",
        prompt="Only seats 1 and 3 play; spades are trumps. Seat 1 holds the ace and king of "
        "spades and the eight of diamonds. Which cards may he lead?",
        after="The ace of trumps must be led first (R23): it comes before the rule for two in "
        "(R27).",
    ),
    # lesson 6
    "06-follow-suit": PickDef(
        _FOLLOW_SUIT,
        title="Your turn (Peel): follow suit",
        prompt="Spades are trumps. Seat 1 led the nine of clubs and seat 2 played the ten. Seat 3 "
        "holds the queen and five of clubs and the ace of hearts. Which cards may he play?",
        after="His best card, the ace of hearts, is refused (R32). Under Peel either club will "
        "do; under Hoffmann one of them is refused as well (R33, below).",
    ),
    "06-follow-and-head": PickDef(
        _FOLLOW_AND_HEAD,
        title="Your turn (Hoffmann): follow, and head?",
        prompt="Diamonds are trumps. Seat 1 led the ten of hearts and seat 2 played the jack. "
        "Seat 3 is to play. Which cards may he play?",
        after="The three of hearts beats neither the ten nor the jack; the queen beats the jack, "
        "the card now winning (R33).",
    ),
    "06-trick-trumped": PickDef(
        "follow-suit-after-trick-trumped",
        title="Your turn (Hoffmann): the trick is trumped",
        prompt="Spades are trumps. Seat 1 led the nine of clubs and seat 2 trumped with the three "
        "of spades. Seat 3 holds the king and four of clubs and the eight of hearts. Which cards "
        "may he play?",
        after="He must still follow suit, but either club will do: neither can head a trumped "
        "trick (A8).",
    ),
    "06-must-trump": PickDef(
        "follow-must-trump",
        title="Case 1: the trick is not trumped",
        prompt="Spades are trumps. Seat 1 led the nine of clubs and seat 2 played the king. "
        "Seat 3 holds the five of spades, eight of hearts and two of diamonds, and no club. "
        "Which cards may he play?",
        after="The five of spades, his only trump: it heads an untrumped trick (R35, R36).",
    ),
    "06-over-trump": PickDef(
        "follow-over-trump",
        title="Case 2: the trick is trumped, and he can over-trump",
        prompt="Spades are trumps. Seat 1 led the nine of clubs and seat 2 trumped with the seven "
        "of spades. Seat 3 holds the nine and three of spades and the eight of hearts. Which "
        "cards may he play?",
        after="Only the nine of spades: it over-trumps the seven (R35), and under Peel it is the "
        "only trump that heads the trick (R36).",
    ),
    "06-void-trumped-high": PickDef(
        _VOID_TRUMPED_HIGH,
        title="Your turn (Peel): void, and the trick trumped high",
        prompt="Clubs are trumps. Seat 1 led the king of diamonds, seat 2 played the five and "
        "seat 3 trumped with the jack of clubs. The dealer holds no diamond. Which cards may he "
        "play?",
        after="The six of clubs cannot beat the jack, so Peel lets the dealer play any card. "
        "Hoffmann would bind him to play it all the same: an under-trump (A9).",
    ),
    # lesson 7
    "07-winner-leads": PickDef(
        _WINNER_LEADS,
        title="Your turn: the winner leads",
        prompt="Hearts are trumps; the ace of hearts is turned up. Seat 2 won the first trick "
        "with the Q♠ and holds the K♥ and 4♥. Which cards may he lead?",
        after="Only the king: the first leader's rule, the king when the ace is turned up "
        "(R24), binds the winner too (R29). Without it, Hoffmann's two-trump rule, “lead one "
        "of them” (R25), would have allowed either.",
    ),
    "07-trump-after-trick": PickDef(
        "trump-after-trick-lead-a-trump",
        title="Your turn: the trick's winner leads",
        prompt="Spades are trumps. Seat 1 led the 9♣, seat 2 played the K♣ and seat 3 trumped "
        "with the 5♠. The winner holds the 6♠ and Q♦. Which cards may he lead?",
        after="The trump won the trick (R37), so seat 3 leads (R29). With no ace, no king and "
        "one trump the first lead's rules leave him free, but trump after trick binds him to the "
        "six of spades (R30).",
    ),
    # lesson 8
    "08-after-first-trick": PickDef(
        _HOFFMANN_AFTER_FIRST_TRICK,
        after="Only the king of hearts: trump after trick (R30). He wins the second trick with "
        "it too, and in the third seat 3's queen of clubs heads his five. The pool of 9 is 3 a "
        "trick: seat 1 receives 6, seat 3 receives 3, and seats 2, 4 and 0 are looed 3 each, the "
        "stake and not the 9 (A13). Their 9 and the new dealer's 3 make a next pool of 12.",
    ),
    # lesson 9
    "09-must-nobody-may-pass": PickDef(
        "must-nobody-may-pass",
        after="Only stand: nobody may throw up in a must (R43), and with no miss nobody can take "
        "it (R45).",
    ),
    # lesson 10
    "10-out-of-turn": PickDef(
        "penalty-declared-out-of-turn-may-still-play",
        after="He may stand, take the miss or throw up, as if he had not offended: Peel's "
        "offender “is not debarred by any of these irregularities” (R52). Only the dealer's "
        "choice, playing the miss for the pool, is not his (R18).",
    ),
    "10-looked-at-anothers-hand": PickDef(
        "penalty-looked-at-anothers-hand-must-throw-up",
        after="Only throw up: he has seen another player's cards before declaring, so Peel's law "
        "makes him pay a full loo and “throw up his own cards, unexposed” (R53).",
    ),
    "10-must-trump": PickDef(
        "follow-must-trump-peel",
        after="Only the five of spades: it heads the trick, so he must trump (R36). The 8♥ or "
        "the 2♦ would be an offence, looed a full loo: he did not trump (R58).",
    ),
    # lesson 11 (the lesson writes these positions in its cells)
    "11-three-in": PickDef(
        None,
        after="Either trump. Hoffmann's stricter rule (R27) speaks of “only two persons”, and he "
        "switches it off when “more than three” declared: three falls in neither (ambiguity "
        "A2). The engine applies R27 with exactly two in, so his base rule, “lead one of them” "
        "(R25), governs here.",
    ),
    "11-two-in": PickDef(
        None,
        after="With only two in, Hoffmann's stricter rule (R27) comes into force: the highest "
        "trump, the queen.",
    ),
    # lesson 12
    "12-miss-taken": PickDef("declare-miss-taken-play-or-pass"),
    "12-two-trumps": PickDef("lead-two-trumps-hoffmann-lead-one"),
    "12-trump-after-trick": PickDef("trump-after-trick-lead-a-trump"),
    "12-must-trump": PickDef("follow-must-trump"),
    # lesson 13
    "13-ace-turned-king-held": PickDef(
        _ACE_TURNED_KING_HELD,
        title="Seed 268: the ace turned up",
        prompt="Spades are trumps and the ace of spades is turned up. Seat 1 leads. Which cards "
        "may he lead?",
        after="With the ace turned up, the king is the best trump in play: he must lead it "
        "(R24), as he would lead the ace itself (R23).",
    ),
    # lesson 14
    "14-miss-is-gone": PickDef(
        "declare-miss-taken-play-or-pass",
        title="The miss is gone",
        prompt="Seat 2 has taken the miss. Which declarations may seat 3 make?",
    ),
}


def pick_def(name: str) -> PickDef | None:
    """The lesson pick called `name`, or None when `name` is not one (a scenario's name, YAML)."""
    return PICKS.get(name)


def words_for(name: str) -> str:
    """The lesson's words kept under `name` (`L.pick(position, words=name)`); an unknown name is
    refused in one line naming `words`."""
    from loo_lessons.engine.errors import InputError

    found = PICKS.get(name)
    if found is None or found.after is None:
        raise InputError("words", f"no lesson words are kept under {name!r}")
    return found.after
