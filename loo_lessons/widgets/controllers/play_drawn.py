"""What the play table draws: the component's data (the table, the log, the hint, the
settlement, the task), and the static HTML notebooks and the book show."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from loo_lessons.engine.cards import in_hand_order
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Phase
from loo_lessons.explain import law_json, words
from loo_lessons.explain.table import action_key, settlement_working, table_view
from loo_lessons.widgets.controllers.play_state import _personality
from loo_lessons.widgets.controllers.play_task import PlayTask
from loo_lessons.widgets.static import Html, Static, component_html, live_html

_LIVE_NOTE = (
    '<p class="loo-live-note" style="font-size:.95em;margin:.4em 0">This is the table as it '
    "was when the book was built: the bots answer your moves, and the hint, undo and save "
    "buttons work once the engine has loaded in this page.</p>"
)


#: The learner's buttons: the books' words for each declaration (`explain.words`).
_YOUR_LABELS: dict[str, str] = {d.value: words.action_label(d, capital=True) for d in Declaration}


class _StaticPlay(Static):
    """The play widget as the book shows it (plain HTML computed from the position now)."""

    def __init__(self, body: str, state: Mapping[str, Any]) -> None:
        self.name = "play"
        self.state = dict(state)
        self._body = body

    def _repr_html_(self) -> str:
        return self._body


class Hint(dict[str, Any]):
    """The verdict on the learner's decision: `legal` (keys), `allowed` and `forbidden`
    (each with its rule id, reason and the book's words), `rule_ids`, `explanation`.
    A plain mapping that notebooks show as HTML."""

    def _repr_html_(self) -> str:
        rows = []
        for f in self["forbidden"]:
            rows.append(
                f"<li><strong>{html.escape(f['label'])}</strong>: not allowed — "
                f"<code>{html.escape(f['rule_id'])}</code> {html.escape(f['reason'])}"
                f"<blockquote style='margin:.2em 0 .4em 1em;font-style:italic'>“"
                f"{html.escape(f['quote'])}”<br><small>— {html.escape(f['book'])} "
                f"[{html.escape(f['source'])}]</small></blockquote></li>"
            )
        allowed = ", ".join(html.escape(a["label"]) for a in self["allowed"])
        why = self.get("why") or {}
        because = (
            f" (<code>{html.escape(why['rule_id'])}</code>: {html.escape(why['reason'])})"
            if why
            else ""
        )
        return (
            f"<div class='loo-hint'><p><strong>{html.escape(self['prompt'])}</strong></p>"
            f"<p>You may: <strong>{allowed}</strong>{because}</p>"
            + (f"<ul>{''.join(rows)}</ul>" if rows else "<p>Nothing else is forbidden.</p>")
            + "</div>"
        )


class PlayDrawing(PlayTask):
    """The data the play component draws, and the HTML shown without a kernel."""

    def _refresh(self, **state: Any) -> None:
        data = self._data()
        self._error = None
        self._apply({"data": data, **state})

    def moves(self) -> list[dict[str, Any]]:
        """Every move so far: seat, key, who made it ("you" or the bot's name), and words."""
        return [
            {k: e[k] for k in ("seat", "key", "who", "text", "trick_won_by")}
            for e in self._log()
            if e["key"]
        ]

    def _log(self) -> list[dict[str, Any]]:
        h = self._hand.root()
        you = self._you()
        out: list[dict[str, Any]] = []
        for i, a in enumerate(self._hand.actions):
            seat = h.to_act
            assert seat is not None
            before = len(h.winners)
            leading = not h.tricks or len(h.tricks) == len(h.winners) or not h.tricks[-1]
            me = self._game.learner_decides(h)
            stood_in = seat == self.seat and not me
            played_for = self._game.played_for(h) if stood_in else None
            h.apply_unchecked(a)
            text = words.move_words(h, seat, a, leading=leading, you=you)
            if played_for is not None:  # a decision that tests nothing: one line says so
                text = played_for
            elif stood_in:
                text += f" (made for you by the {self.stand_in.name} bot: not asked in this task)"
            won: int | None = None
            if len(h.winners) > before:
                won = h.winners[-1]
                who = "you" if won == you else words.seat_name(h, won, miss=False)
                text += (". T" if played_for is not None else "; t") + f"rick {len(h.winners)} is won by {who}"
            out.append(
                {
                    "index": i,
                    "seat": seat,
                    "key": action_key(a),
                    "who": self._who(seat),
                    "text": text + ".",
                    "trick_won_by": won,
                    "mine": me,
                    "played_for": played_for is not None,
                }
            )
        if h.award_law is not None and h.awarded_to is not None:
            out.append(
                {
                    "index": len(self._hand.actions),
                    "seat": h.awarded_to,
                    "key": "",
                    "who": "",
                    "text": f"{words.subject(h, h.awarded_to, you, miss=False)} "
                    f"{'take' if h.awarded_to == you else 'takes'} the pool without play "
                    f"({h.award_law.rule}): {h.award_law.reason}",
                    "trick_won_by": None,
                    "mine": False,
                    "played_for": False,
                }
            )
        return out

    def _prompt(self) -> str:
        h = self._hand
        if h.to_act is None:
            return "The deal is over."
        if h.phase is Phase.DECLARE:
            return f"Your turn to declare (you are seat {self.seat}). What will you do?"
        return f"Your turn to {words.task_words(h)}."

    def _hint_data(self, q: Mapping[str, Any] | None = None) -> dict[str, Any]:
        q = q if q is not None else self._question()
        v = self._hand.verdict()
        verdicts = q["verdicts"]
        labels = {c["key"]: _YOUR_LABELS.get(c["key"], c["label"]) for c in q["choices"]}
        keep = ("rule", "rule_id", "reason", "quote", "book", "source", "words")
        allowed = [
            {"key": k, "label": labels[k], **{x: verdicts[k][x] for x in keep}} for k in q["answer"]
        ]
        forbidden = [
            {"key": c["key"], "label": labels[c["key"]], **{x: verdicts[c["key"]][x] for x in keep}}
            for c in q["choices"]
            if c["key"] not in q["answer"]
        ]
        why = v.why
        return {
            "seat": self.seat,
            "phase": self._hand.phase.value,
            "prompt": self._prompt(),
            "legal": list(q["answer"]),
            "why": {x: law_json(why, self._hand.options)[x] for x in keep}
            if why is not None
            else None,
            "allowed": allowed,
            "forbidden": forbidden,
            "rule_ids": list(q["rule_ids"]),
            "explanation": q["explanation"],
        }

    def _since_my_last(self, log: list[dict[str, Any]]) -> list[str]:
        last = max((i for i, e in enumerate(log) if e["mine"]), default=-1)
        return [e["text"] for e in log[last + 1 :]]

    def _data(self) -> dict[str, Any]:
        h = self._hand
        seat = self.seat
        log = self._log()
        mine = self.my_turn
        data: dict[str, Any] = {
            "title": self._title
            or f"Seed {self.seed}: {h.setup.players} players, "
            f"{self._preset_words()}. You are seat {seat}.",
            "live": True,
            "seat": seat,
            "players": [
                {
                    "seat": s,
                    "who": self._who(s),
                    "personality": "" if b is None else _personality(b),
                }
                for s, b in enumerate(self.bots)
            ],
            "view": table_view(h, reveal={seat}, last_trick=True),
            "phase": h.phase.value if h.to_act is not None else Phase.SETTLED.value,
            "my_turn": mine,
            "over": h.to_act is None,
            "prompt": self._prompt(),
            "cards": [c.code for c in in_hand_order(h.held[seat], h.trumps)],
            "choices": [],
            "hint": None,
            "log": [e["text"] for e in log],
            "since": self._since_my_last(log),
            "can_undo": bool(self._game.decisions),
            "settlement": None,
            "message": self._message,
            "error": self._error,
            **self.coaching.data(h),
            "task": self._task_data(),
            # the lesson's words on the deal: in the data only once it is over
            "after": self._after if (self._after and h.to_act is None) else None,
        }
        if mine:
            q = self._question()
            hint = self._hint_data(q)
            legal = set(hint["legal"])
            data["choices"] = [
                {
                    "key": c["key"],
                    "label": _YOUR_LABELS.get(c["key"], c["label"]),
                    "legal": c["key"] in legal,
                }
                for c in q["choices"]
            ]
            data["kind"] = "declaration" if h.phase is Phase.DECLARE else "card"
            data["hint"] = hint
        s = h.settlement
        if s is not None:
            net = s.receives.get(seat, 0) - s.loo_pays.get(seat, 0)
            data["settlement"] = {
                "working": settlement_working(s, h, you=seat),
                "result": net,
                "receives": s.receives.get(seat, 0),
                "pays": s.loo_pays.get(seat, 0),
                "next_pool": s.next_pool,
                "looed": seat in s.looed,
            }
        return data

    def _preset_words(self) -> str:
        from loo_lessons.explain import preset_matching

        name = preset_matching(self._hand.options)
        return f"{name.capitalize()}'s rules" if name else "custom rules"

    # --- what notebooks and the book show -----------------------------------------------------
    def players(self) -> Html:
        """Who sits where: you, and each bot with its declared personality (HTML)."""
        rows = "".join(
            f"<tr><th scope='row'>Seat {p['seat']}</th><td><strong>{html.escape(p['who'])}"
            f"</strong></td><td>{html.escape(p['personality'] or 'You play this seat.')}</td></tr>"
            for p in self.data["players"]
        )
        return Html(
            "<table class='loo-players'><thead><tr><th>seat</th><th>player</th>"
            f"<th>personality</th></tr></thead><tbody>{rows}</tbody></table>"
        )

    def static_html(self) -> str:
        """The position now as static HTML: the learner's decision as a pick question (each
        option explained), or the table and the settlement once the deal is over."""
        d = self.data
        parts = [_LIVE_NOTE]
        if d["task"] is not None:
            parts.append(f"<p class='loo-task-asks'><strong>Task.</strong> {html.escape(d['task']['asked'])}</p>")
        if d["since"]:
            parts.append(
                "<div class='loo-play-since'><p>Since your last decision:</p><ul>"
                + "".join(f"<li>{html.escape(t)}</li>" for t in d["since"])
                + "</ul></div>"
            )
        if self.my_turn:
            q = self._question()
            q["prompt"] = d["prompt"] + " Click an option to see whether the rules allow it."
            parts.append(component_html("pick", {"data": {"question": q, "title": d["title"]}}))
        else:
            parts.append(
                component_html(
                    "table",
                    {"data": {"view": d["view"], "title": d["title"], "caption": d["prompt"]}},
                )
            )
        if d["log"]:
            parts.append(
                "<details class='loo-play-log'><summary>The moves so far</summary><ol>"
                + "".join(f"<li>{html.escape(t)}</li>" for t in d["log"])
                + "</ol></details>"
            )
        s = d["settlement"]
        if s is not None:
            lines = "".join(
                "<li>"
                + (f"<code>{html.escape(w['rule_id'])}</code> " if w["rule_id"] else "")
                + f"{html.escape(w['text'])}</li>"
                for w in s["working"]
            )
            parts.append(
                f"<div class='loo-play-settlement'><p><strong>The settlement</strong> "
                f"(your result: {s['result']:+d})</p><ol>{lines}</ol></div>"
            )
        return "".join(parts)

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `play` kind with the table's
        arguments and moves; None when the table was made from a position only Python holds."""
        return {"kind": "play", "args": self._spec} if self._spec is not None else None

    def book_html(self) -> str:
        """What the book shows: the static position (above), which the page's engine replaces
        with the live table once it has loaded (when the table can be made again there)."""
        if self._spec is None:
            return self.static_html()
        # the moves made so far (by `choose`, `undo` and `restart` too), so that the live
        # table starts where the static one stands
        spec = {**self._spec, "moves": [action_key(a) for a in self._hand.actions]}
        return live_html("play", "play", spec, self.static_html())

    def static(self) -> Static:
        """The table as it is now, as static HTML (drawn in Python, no kernel needed)."""
        return _StaticPlay(self.static_html(), self.state())


__all__ = ["Hint", "PlayDrawing"]
