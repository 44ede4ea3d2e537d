"""The data the front-end components draw, computed by the engine (no Jupyter import here).

Components never decide a rule: every verdict, trick winner, payment and next pool below
comes from the engine (`Hand.verdict()`, `Hand.winners`, `Settlement`, `explain.law_json`).
These functions only reshape it into JSON-ready mappings:

- `table_view(hand)`: the table view of the question schema (plus a few optional keys);
- `pick_question(position)`: one question in the quiz schema asking for the legal choices;
- `pool_data(position)`: the pool calculator's facts, fields and expected values;
- `stepper_steps(position)`: every step of a deal, each explained (`play_out(hand, seed)`
  plays a deal to the end with the sensible bots);
- `settlement_working(...)`: the settlement told line by line, each line with its rule.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from loo_lessons.engine.cards import Card, in_hand_order
from loo_lessons.engine.declare import ALL_DECLARATIONS
from loo_lessons.engine.game import Action, Hand, PenaltyRecord, Phase, Verdict
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import LooAmount, PoolRemainder, RuleOptions
from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.settle import Settlement, new_pool_stake
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import law_json, leader_note, preset_matching, rule_json, words
from loo_lessons.explain.settlement import settlement_lines
from loo_lessons.explain.words import and_list
from loo_lessons.scenario import Scenario, load, load_file, loads

Position = Scenario | Hand | Mapping[str, Any] | str | Path


def as_scenario_or_hand(position: Position) -> Scenario | Hand:
    """A Scenario or Hand as given; a mapping, YAML text or a file path is loaded."""
    if isinstance(position, Scenario | Hand):
        return position
    if isinstance(position, Mapping):
        return load(position)
    if isinstance(position, Path):
        return load_file(position)
    text = str(position)
    if "\n" not in text and text.strip().endswith((".yaml", ".yml", ".json")):
        return load_file(text.strip())
    return loads(text)


def _hand(position: Scenario | Hand) -> Hand:
    return position.hand if isinstance(position, Scenario) else position


def _words(items: list[str]) -> str:
    return and_list(items)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def card_label(card: Card) -> str:
    """`10♥`: the rank code and the suit symbol."""
    return words.card_label(card)


def action_key(a: Action) -> str:
    return a.code if isinstance(a, Card) else str(a)


def action_label(a: Action) -> str:
    """A button's label: `Stand`, `Take miss`, `Throw up`, `Play the miss for the pool`, `10♥`."""
    return words.action_label(a, capital=True)


# --- the table ---------------------------------------------------------------------------------


def table_view(
    position: Scenario | Hand,
    *,
    reveal: bool | Collection[int] = True,
    show_miss: bool = False,
    last_trick: bool = False,
) -> dict[str, Any]:
    """The table view of the question schema for the position now.

    `reveal`: True (every known hand face up), False, or the seats shown face up. Seats whose
    cards the position does not know are always face down. `show_miss`: the untaken miss face
    up. `last_trick`: when no card of the next trick is down yet, show the trick just won
    (with its winner) as the trick on the table.
    """
    hand = _hand(position)
    s = hand.setup
    settled = position.settlement if isinstance(position, Scenario) else None
    won: dict[int, int] = {}
    if settled is not None:
        won = dict(settled.tricks_won)
    else:
        for w in hand.winners:
            won[w] = won.get(w, 0) + 1
    seats: list[dict[str, Any]] = []
    for seat in range(s.players):
        d = hand.declared.get(seat)
        if d is not None:
            status: str | None = "in" if d.plays else "out"
        elif hand.phase in (Phase.DEAL, Phase.DECLARE):
            status = "to_declare"
        else:
            status = None
        shown = reveal if isinstance(reveal, bool) else seat in reveal
        known = seat not in hand.partial
        held = hand.held[seat]
        played = sum(1 for t in hand.tricks for p, _ in t if p == seat)
        seats.append(
            {
                "seat": seat,
                "role": "dealer" if seat == s.dealer else ("elder" if seat == s.elder else None),
                "status": status,
                "declaration": str(d) if d is not None else None,
                "cards": [c.code for c in in_hand_order(held, hand.trumps)]
                if shown and known
                else None,
                "n_cards": len(held) if known else (0 if status == "out" else max(0, 3 - played)),
                "tricks_won": won.get(seat, 0),
            }
        )
    miss: list[str | None] | str | None
    if hand.miss_holder is not None:
        miss = "taken"
    elif hand.miss is not None:
        miss = [c.code for c in hand.miss] if show_miss and len(hand.miss) == 3 else [None] * 3
    else:
        miss = None
    finished = len(hand.winners)
    trick: list[list[Any]] = []
    trick_winner: int | None = None
    trick_number = min(3, finished + 1)
    if len(hand.tricks) > finished and hand.tricks[-1]:
        trick = [[p, c.code] for p, c in hand.tricks[-1]]
    elif last_trick and finished:
        trick = [[p, c.code] for p, c in hand.tricks[finished - 1]]
        trick_winner = hand.winners[finished - 1]
        trick_number = finished
    tricks = [t.as_json() for t in hand.completed_tricks() if t.winner is not None]
    if trick_winner is not None:
        tricks = tricks[:-1]
    return {
        "players": s.players,
        "dealer": s.dealer,
        "elder": s.elder,
        "turn_up": hand.turn_up.code if hand.turn_up is not None else None,
        "trumps": hand.trumps.value if hand.trumps is not None else None,
        "pool": s.stakes.pool,
        "seats": seats,
        "miss": miss,
        "trick": trick,
        "tricks": tricks,
        "to_act": hand.to_act if settled is None else None,
        # optional keys (the components use them when present)
        "phase": hand.phase.value if settled is None else Phase.SETTLED.value,
        "must": s.must,
        "miss_holder": hand.miss_holder,
        "trick_winner": trick_winner,
        "trick_number": trick_number,
    }


# --- pick a card / a declaration ---------------------------------------------------------------


def _allowed_law(v: Verdict, a: Action) -> Law | None:
    for x, law in v.allowed_by:
        if x is a:
            return law
    return v.why


def pick_question(
    position: Position,
    *,
    reveal: bool | Collection[int] = True,
    prompt: str | None = None,
    qid: str = "pick",
    topic: str = "pick",
) -> dict[str, Any]:
    """A question in the quiz schema: which of his options may the seat to act choose?

    Choices are every option of the seat to act (his cards, or the declarations); the
    answer is the engine's legal set, and each choice carries the engine's law for or
    against it. Raises ValueError when nobody is to act (the deal is over).
    """
    pos = as_scenario_or_hand(position)
    hand = _hand(pos)
    if isinstance(pos, Scenario) and pos.settlement is not None:
        raise ValueError("nobody is to act in this position: the deal is over")
    v = hand.verdict()
    seat = v.to_act
    if seat is None:
        raise ValueError("nobody is to act in this position: the deal is over")
    if v.phase is not Phase.PLAY:  # the deal shown (Phase.DEAL) is declared from too
        kind = "pick_declaration"
        offered = {a for a in v.legal} | {a for a, _ in v.forbidden}
        choices: list[Action] = [d for d in ALL_DECLARATIONS if d in offered]
        ask = prompt or f"Seat {seat} is to declare. What may he declare?"
    else:
        kind = "pick_card"
        choices = list(in_hand_order(hand.held[seat], hand.trumps))
        verb = "lead" if words.leading(hand) else "play"
        ask = prompt or f"Seat {seat} is to {words.task_words(hand)}. Which cards may he {verb}?"
    verdicts: dict[str, dict[str, Any]] = {}
    rule_ids: list[str] = []
    for a in choices:
        ok = a in v.legal
        law = _allowed_law(v, a) if ok else v.law_for(a)
        if law is None:  # the engine names a law for every option; never guess one
            raise ValueError(f"the engine gave no law for {action_key(a)}")
        verdicts[action_key(a)] = {"correct": ok, **law_json(law, hand.options)}
        if law.rule not in rule_ids:
            rule_ids.append(law.rule)
    legal = [action_key(a) for a in choices if a in v.legal]
    allowed = [action_label(a) for a in choices if a in v.legal]
    note = leader_note(hand)
    parts = [f"{note[1]} ({note[0]})"] if note is not None else []
    if note is not None and note[0] not in rule_ids:
        rule_ids.append(note[0])
    parts += [
        f"{'Only ' if len(allowed) == 1 and len(choices) > 1 else ''}{_words(allowed)} "
        f"{'is' if len(allowed) == 1 else 'are'} allowed"
        + (f" ({v.why.rule}): {_sentence(v.why.reason)}" if v.why is not None else ".")
    ]
    by_law: dict[Law, list[str]] = {}
    for a, law in v.forbidden:
        if a in choices:
            by_law.setdefault(law, []).append(action_label(a))
    for law, labels in by_law.items():
        parts.append(
            f"{_words(labels)} {'is' if len(labels) == 1 else 'are'} not ({law.rule}): "
            f"{_sentence(law.reason)}"
        )
    options = hand.options
    return {
        "id": qid,
        "topic": topic,
        "level": 1,
        "preset": preset_matching(options),
        "rules": options.to_dict(),
        "prompt": ask,
        "view": table_view(pos, reveal=reveal),
        "scenario": dict(pos.data) if isinstance(pos, Scenario) else {},
        "kind": kind,
        "choices": [{"key": action_key(a), "label": action_label(a)} for a in choices],
        "multi": len(legal) > 1,
        "answer": legal,
        "verdicts": verdicts,
        "explanation": " ".join(parts),
        "rule_ids": rule_ids,
    }


# --- the settlement ----------------------------------------------------------------------------


def _award_rule(hand: Hand | None) -> str:
    if hand is not None and hand.award_law is not None:
        return hand.award_law.rule
    return "R14"


def settlement_working(
    s: Settlement,
    hand: Hand | None = None,
    *,
    winners: list[int] | None = None,
    you: int | None = None,
) -> list[dict[str, Any]]:
    """The settlement line by line, each line with the rule it applies: the engine's
    `Settlement.lines` in `explain.settlement`'s words (text, rule_id, reason, quote, book).
    `winners` is kept for callers; the lines already know the tricks' order."""
    del winners
    return settlement_lines(s, hand, you=you)


def pool_data(position: Position | Settlement, *, title: str | None = None) -> dict[str, Any]:
    """The pool calculator's data: facts, one row per player in the deal, expected values."""
    hand: Hand | None = None
    sc: Scenario | None = None
    if isinstance(position, Settlement):
        s = position
    else:
        pos = as_scenario_or_hand(position)
        hand = _hand(pos)
        sc = pos if isinstance(pos, Scenario) else None
        s_or_none = sc.final_settlement if sc is not None else hand.settlement
        if s_or_none is None:
            raise ValueError("the deal is not over: there is no settlement to calculate")
        s = s_or_none
    if hand is not None:
        seats = list(hand.players_in)
        if s.pool_awarded_to is not None and s.pool_awarded_to not in seats:
            seats.append(s.pool_awarded_to)
        winners = list(hand.winners) if len(hand.winners) == 3 else []
    else:
        seats = sorted(set(s.tricks_won) | set(s.looed) | set(s.receives) | set(s.withheld))
        winners = []
    facts: list[str] = []
    if sc is not None and sc.title:
        facts.append(sc.title)
    facts.append(f"The pool holds {words.counters(s.pool)}.")
    if hand is not None:
        st = hand.setup.stakes
        o = hand.options
        if o.loo_amount is LooAmount.FIXED:
            facts.append(f"Limited loo: a loo costs {words.counters(st.loo)}.")
        elif o.loo_amount is LooAmount.POOL:
            facts.append("Unlimited loo: a loo costs what the pool holds.")
        else:
            facts.append(
                f"Unlimited loo with a limit: a loo costs what the pool holds, at most {st.loo_cap}."
            )
        if s.pool % 3 and o.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE:
            facts.append(
                "The pool does not divide by three: the odd counters go to the earlier tricks."
            )
        elif s.pool % 3:
            facts.append("The pool does not divide by three: the odd counters stay in the pool.")
        ante = new_pool_stake(st.stake, hand.setup.players, o.ante)
        facts.append(
            f"The next dealer stakes {words.counters(st.stake)}."
            if ante == st.stake
            else f"Every player antes {st.stake}: the next pool gets {ante} from the ante."
        )
        if hand.for_pool is not None:
            facts.append(f"The dealer, seat {hand.for_pool}, played the miss for the pool.")
        for p in hand.penalties:
            facts.append(
                f"Seat {p.seat} was penalised {p.amount} for {p.offence.info.words}, "
                f"{_DESTINATION_WORDS.get(str(p.ruling.destination), str(p.ruling.destination))} "
                f"({', '.join(p.ruling.rules[:2])})."
            )
        if s.pool_awarded_to is not None and hand.award_law is not None:
            facts.append(hand.award_law.reason)
    rows = []
    fields: list[dict[str, Any]] = []
    expected: dict[str, int] = {}
    for seat in seats:
        label = words.seat_name(hand, seat, capital=True) if hand is not None else f"Seat {seat}"
        n = s.tricks_won.get(seat, 0)
        which = [i + 1 for i, w in enumerate(winners) if w == seat]
        rows.append(
            {
                "seat": seat,
                "label": label,
                "tricks": (
                    "the pool, without play"
                    if s.pool_awarded_to == seat
                    else f"{n}"
                    + (
                        f" (trick{'s' if n > 1 else ''} {', '.join(map(str, which))})"
                        if which
                        else ""
                    )
                ),
            }
        )
        for kind, value in (
            ("receives", s.receives.get(seat, 0)),
            ("pays", s.loo_pays.get(seat, 0)),
        ):
            fid = f"{kind}.{seat}"
            fields.append(
                {
                    "id": fid,
                    "label": f"Seat {seat} {'receives' if kind == 'receives' else 'pays'}",
                    "seat": seat,
                    "kind": kind,
                }
            )
            expected[fid] = value
    fields.append(
        {"id": "left", "label": "Left in the pool for the next deal", "seat": None, "kind": "left"}
    )
    expected["left"] = s.left_in_pool
    fields.append({"id": "next_pool", "label": "The next pool", "seat": None, "kind": "next_pool"})
    expected["next_pool"] = s.next_pool
    return {
        "title": title,
        "facts": facts,
        "seats": rows,
        "fields": fields,
        "expected": expected,
        "working": settlement_working(s, hand, winners=winners),
        "settlement": s.as_json(),
    }


# --- stepping through a deal ---------------------------------------------------------------------


_SIZE_WORDS = {"single_loo": "a single loo", "full_loo": "a full loo", "none": "nothing"}
_DESTINATION_WORDS = {
    "pool_now": "paid into this deal's pool at once",
    "next_pool": "added to the pool for the next deal",
    "nowhere": "to nobody",
}


def _forbidden(v: Verdict, options: RuleOptions | None = None) -> list[dict[str, Any]]:
    return [
        {"key": action_key(a), "label": action_label(a), "law": law_json(law, options)}
        for a, law in v.forbidden
    ]


def stepper_steps(
    position: Position, *, reveal: bool | Collection[int] = True
) -> list[dict[str, Any]]:
    """Every step of the deal: the deal, each declaration, each card (a trick's last card
    also names its winner), each penalty, and the settlement; each explained by the engine."""
    pos = as_scenario_or_hand(position)
    hand = _hand(pos)
    pens = list(hand.transcript().penalties)
    h = hand.root()
    steps: list[dict[str, Any]] = []

    def view(**kw: Any) -> dict[str, Any]:
        return table_view(h, reveal=reveal, **kw)

    trumps = h.trumps
    opts = h.options
    deal_laws = [rule_json("R03", options=opts)]
    text = (
        f"{h.setup.players} players; seat {h.setup.dealer} deals three cards to each, one at a time"
    )
    if h.setup.must:
        text += ". This deal is a must: there is no miss and everyone must play."
        deal_laws.append(rule_json("R45", options=opts))
    else:
        text += ", and three to the miss."
    if h.turn_up is not None and trumps is not None:
        text += (
            f" The next card, {card_label(h.turn_up)}, is turned up: {trumps.plural} are trumps."
        )
        deal_laws.append(rule_json("R04", options=opts))
    text += f" The pool holds {h.setup.stakes.pool}."
    steps.append(
        {
            "kind": "deal",
            "title": "The deal",
            "text": text,
            "laws": deal_laws,
            "forbidden": [],
            "working": [],
            "view": view(show_miss=True),
        }
    )

    def penalty_step(rec: PenaltyRecord) -> None:
        r = rec.ruling
        size = _SIZE_WORDS.get(str(r.size), str(r.size))
        where = _DESTINATION_WORDS.get(str(r.destination), str(r.destination))
        steps.append(
            {
                "kind": "penalty",
                "title": f"Seat {rec.seat} is penalised for {rec.offence.info.words}",
                "text": f"He pays {size} ({words.counters(rec.amount)}), {where}.",
                "laws": [rule_json(x, options=opts) for x in r.rules if x in RULES],
                "forbidden": [],
                "working": [],
                "view": view(),
            }
        )

    first = [p for p in pens if p[0] == 0]
    for rec in h.penalties[: len(first)]:
        penalty_step(rec)  # already in force: undo() replays them before the first move
    for i, a in enumerate(hand.actions):
        if i > 0:
            for _, seat, off in [p for p in pens if p[0] == i]:
                penalty_step(h.penalise(seat, Offence.parse(off)))
        v = h.verdict()
        seat_now = v.to_act
        assert seat_now is not None
        before = len(h.winners)
        leading = not h.tricks or not h.tricks[-1] or len(h.tricks) == len(h.winners)
        law = _allowed_law(v, a)
        note = leader_note(h)
        title = words.move_words(h, seat_now, a, leading=leading)
        h.apply_unchecked(a)
        laws = [law_json(law, opts)] if law is not None else []
        if note is not None:  # after the law that decided the lead: R29 says why it binds him
            laws.append(rule_json(note[0], reason=note[1], options=opts))
        if isinstance(a, Card):
            text = (f"{note[1]} " if note is not None else "") + (
                law.reason if law is not None else ""
            )
            if len(h.winners) > before:
                w = h.winners[-1]
                text += f" Trick {len(h.winners)} is complete: seat {w} wins it (R37)."
                laws.append(rule_json("R37", options=opts))
            step_view = view(last_trick=True)
        else:
            text = law.reason if law is not None else ""
            step_view = view()
        steps.append(
            {
                "kind": "play" if isinstance(a, Card) else "declare",
                "title": title,
                "text": text,
                "laws": laws,
                "forbidden": _forbidden(v, opts),
                "working": [],
                "view": step_view,
            }
        )
    n = len(hand.actions)
    for _, seat, off in [p for p in pens if p[0] == n and n > 0]:
        penalty_step(h.penalise(seat, Offence.parse(off)))
    s = pos.final_settlement if isinstance(pos, Scenario) else h.settlement
    if s is not None:
        laws = [law_json(h.award_law, opts)] if h.award_law is not None else []
        steps.append(
            {
                "kind": "settle",
                "title": "The settlement",
                "text": f"The deal is over. Next pool: {s.next_pool}.",
                "laws": laws,
                "forbidden": [],
                "working": settlement_working(
                    s, h, winners=list(h.winners) if len(h.winners) == 3 else None
                ),
                "view": table_view(
                    pos if isinstance(pos, Scenario) and pos.settlement is not None else h,
                    reveal=reveal,
                ),
            }
        )
    return steps
