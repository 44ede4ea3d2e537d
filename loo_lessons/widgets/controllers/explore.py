"""The explorers' controllers: one position under rules the learner chooses
(`ExploreController`), or with the declarations before him chosen by the learner
(`DeclarationsController`). The position is loaded again by the engine at every change, and
the verdict and its reasons change with it. Both are drawn by js/explore.js.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import InputError, LooError
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.options import OPTION_SPECS, PRESETS, options_from
from loo_lessons.explain import preset_matching
from loo_lessons.explain.table import as_scenario_or_hand
from loo_lessons.quiz.pick import pick_question
from loo_lessons.quiz.pool_sum import pool_data
from loo_lessons.widgets.controllers.base import RequestController, one_of

EXPLORE_OPTIONS: tuple[str, ...] = (
    "two_trumps_lead",
    "two_declared_rule",
    "must_head_in_suit",
    "void_trump_rule",
    "trump_after_trick_two_trumps",
    "lone_stander_rule",
    "pool_remainder",
)

#: The most settings of the options shown that the explorer tries, to find a box that does nothing.
MAX_SETTINGS = 32

#: A declaration as the learner reads it, and as a scenario file writes it.
DECLARATION_WORDS: dict[str, str] = {
    d.words: d.value for d in (Declaration.PLAY, Declaration.TAKE_MISS, Declaration.PASS)
}


def preset_of(rules: Mapping[str, Any], shown: Iterable[str] = (), chosen: str | None = None) -> str | None:
    """The preset these options are: every option equal to it; or, failing that, the preset
    the learner chose (or the only one) that every option shown agrees with."""
    try:
        exact = preset_matching(options_from(dict(rules)))
    except LooError:
        exact = None
    if exact is not None:
        return exact
    keys = list(shown)
    if not keys:
        return None
    agree = [n for n, p in PRESETS.items() if all(p.options.to_dict().get(k) == rules.get(k) for k in keys)]
    if chosen in agree:
        return chosen
    return agree[0] if len(agree) == 1 else None


def _scenario_data(scenario: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario under other rules: its expected verdict is for the rules it was written
    with, and a cap on the loo goes with a capped loo only."""
    data = dict(scenario)
    data.pop("expect", None)
    if rules.get("loo_amount") != "pool_capped":
        data.pop("loo_cap", None)
    data["rules"] = dict(rules)
    return data



def in_words(e: LooError) -> str:
    """A declaration refused as the learner reads it: the game's words ("Seat 2 cannot take
    miss: …"), not the scenario file's (`declarations.2`, `take_miss`; issue 34)."""
    text = e.problem if isinstance(e, InputError) and e.field.startswith("declarations.") else str(e)
    text = re.sub(r" \([a-z]+(?:_[a-z]+)+\)", "", text)
    return text[:1].upper() + text[1:]

class ExploreController(RequestController, component="explore"):
    """`Explorer(scenario, options=EXPLORE_OPTIONS, before="")`: change the preset or an
    option of a scenario and see the verdict, and its reason, change. An option that changes
    nothing in this position is not offered (`data["inert"]` lists it)."""

    EVENTS: ClassVar[tuple[str, ...]] = ("preset", "option")
    rules: dict[str, Any]

    def __init__(
        self,
        scenario: Mapping[str, Any] | None = None,
        options: Iterable[str] = EXPLORE_OPTIONS,
        *,
        before: str = "",
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        self._before = before  # shown above it in the book (e.g. the verdict under each book)
        self._chosen: str | None = None
        self._args: dict[str, Any] = {}
        self._inert: frozenset[str] = frozenset()
        if scenario is not None:
            keys = [str(one_of(k, list(OPTION_SPECS), "options")) for k in options]
            self._args = {"scenario": dict(scenario), "options": keys}
            self.data = {"scenario": dict(scenario), "keys": keys}
            sc = as_scenario_or_hand(dict(scenario))
            opts = sc.options.to_dict() if not isinstance(sc, Hand) else {}
            self._inert = self._find_inert(dict(opts), keys)
            self._load(dict(opts))
            self.take_changes()

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `explore` kind with the position's
        arguments; None when made from a position only Python holds."""
        return {"kind": "explore", "args": self._args} if self._args else None

    def book_html(self) -> str:
        """What the book shows: the text before the widget, then the static component the page's
        engine takes over."""
        return self._before + super().book_html()

    def _outcome(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        from loo_lessons.scenario import load

        try:
            sc = load(_scenario_data(self.data["scenario"], rules))
            if sc.final_settlement is not None or sc.hand.to_act is None:
                return {"kind": "pool", "pool": pool_data(sc)}
            return {"kind": "pick", "question": pick_question(sc)}
        except LooError as e:
            return {"kind": "refused", "verdict_refused": in_words(e)}

    @staticmethod
    def _fingerprint(out: Mapping[str, Any]) -> str:
        q = out.get("question") or {}
        pool = out.get("pool") or {}
        return json.dumps(
            [out.get("kind"), q.get("answer"), q.get("view"), pool.get("expected"), out.get("verdict_refused")],
            sort_keys=True,
            default=str,
        )

    def _find_inert(self, rules: dict[str, Any], keys: list[str]) -> frozenset[str]:
        """The options shown that change nothing in this position, whatever the others shown
        are set to (so the explorer does not offer a box that does nothing). Every setting of
        the options shown is tried when there are at most `MAX_SETTINGS` of them."""
        settings: list[dict[str, Any]] = [{}]
        for k in keys:
            settings = [{**s, k: v} for s in settings for v in OPTION_SPECS[k].values]
            if len(settings) > MAX_SETTINGS:
                return frozenset()
        seen = {json.dumps(s, sort_keys=True, default=str): self._fingerprint(self._outcome({**rules, **s})) for s in settings}
        inert = set()
        for k in keys:
            groups: dict[str, set[str]] = {}
            for s in settings:
                rest = json.dumps({x: v for x, v in s.items() if x != k}, sort_keys=True, default=str)
                groups.setdefault(rest, set()).add(seen[json.dumps(s, sort_keys=True, default=str)])
            if all(len(g) == 1 for g in groups.values()):
                inert.add(k)
        return frozenset(inert)

    def _load(self, rules: dict[str, Any]) -> None:
        d = self.data
        keys = list(d.get("keys") or [])
        now = self._outcome(rules)
        inert = [k for k in keys if k in self._inert]
        out: dict[str, Any] = {
            "scenario": d["scenario"],
            "keys": keys,
            "preset": preset_of(rules, keys, self._chosen),
            "presets": list(PRESETS),
            "options": [
                {
                    "key": k,
                    "values": list(OPTION_SPECS[k].values),
                    "value": rules.get(k),
                    "meaning": OPTION_SPECS[k].meaning,
                }
                for k in keys
                if k not in inert
            ],
            "inert": inert,
            "title": d["scenario"].get("title"),
            "verdict_refused": None,
            **now,
            "live": True,
        }
        self._apply({"data": out, "rules": rules})

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "preset":
            name = str(one_of(ev.get("preset"), list(PRESETS), "preset"))
            # the preset's rules, but the options the scenario sets itself and the learner
            # cannot change here stay (a loo_cap of its own stays with its loo_amount)
            own = self.data["scenario"].get("rules")
            keys = list(self.data.get("keys") or [])
            kept = {k: v for k, v in own.items() if k in OPTION_SPECS and k not in keys} if isinstance(own, Mapping) else {}
            self._chosen = name
            self._load({**PRESETS[name].options.to_dict(), **kept})
            return
        key = one_of(ev.get("key"), list(self.data.get("keys") or []), "key")
        value = one_of(ev.get("value"), list(OPTION_SPECS[key].values), f"rules.{key}")
        self._load({**self.rules, key: value})

    # --- Python's twins of the selects -----------------------------------------------------------
    def choose_preset(self, name: str) -> None:
        """Choose a book's preset (`hoffmann`, `peel`) as the Preset select does: the options
        shown take that book's reading and the verdict is asked again."""
        self._ask("preset", preset=name)

    def set_option(self, key: str, value: Any) -> None:
        """Set one of the rule options shown (`key`, e.g. `two_trumps_lead`) to `value` as its
        select does; the verdict is asked again under the changed rules."""
        self._ask("option", key=key, value=value)

    @property
    def verdict(self) -> dict[str, Any]:
        """What the component shows: {kind: pick, question} | {kind: pool, pool} | refused."""
        return {k: self.data.get(k) for k in ("kind", "question", "pool", "verdict_refused")}


class DeclarationsController(RequestController, component="explore"):
    """`DeclarationsExplorer(scenario, before="")`: change what the players before have
    declared and see what the one to act may declare now, and why. A position the rules
    refuse (two players taking the one miss) is shown as the refusal with its rule; when
    nobody is left to declare, the engine's explanation of what happens instead. Drawn by the
    explore component (`data["mode"] == "declarations"`)."""

    EVENTS: ClassVar[tuple[str, ...]] = ("declare",)

    def __init__(self, scenario: Mapping[str, Any] | None = None, *, before: str = "", **traits: Any) -> None:
        super().__init__(**traits)
        self._before = before
        self._args: dict[str, Any] = {}
        if scenario is not None:
            from loo_lessons.scenario import load

            self._args = {"scenario": dict(scenario)}
            sc = load(dict(scenario))
            hand = sc.hand
            if hand.phase is not Phase.DECLARE or hand.to_act is None:
                raise LooError("explore_declarations() takes a scenario in which someone is to declare")
            declared = {int(k): str(v) for k, v in (scenario.get("declarations") or {}).items()}
            if not declared:
                raise LooError("explore_declarations() needs players who have declared already")
            n, elder = hand.setup.players, hand.setup.elder
            order = sorted(declared, key=lambda s: (s - elder) % n)
            self.data = {"scenario": dict(scenario), "seats": order, "title": scenario.get("title")}
            self._load({seat: declared[seat] for seat in order})
            self.take_changes()

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `declarations` kind with the
        position's arguments; None when made from a position only Python holds."""
        return {"kind": "declarations", "args": self._args} if self._args else None

    def book_html(self) -> str:
        """What the book shows: the text before the widget, then the static component the page's
        engine takes over."""
        return self._before + super().book_html()

    def _load(self, declared: Mapping[int, str]) -> None:
        from loo_lessons.explain import explain_text
        from loo_lessons.scenario import load

        d = self.data
        said = {v: k for k, v in DECLARATION_WORDS.items()}
        out: dict[str, Any] = {
            "scenario": d["scenario"],
            "seats": d["seats"],
            "title": d.get("title"),
            "mode": "declarations",
            "declarations": [
                {"seat": seat, "values": list(DECLARATION_WORDS), "value": said.get(declared[seat], "stand")}
                for seat in d["seats"]
            ],
        }
        data = dict(d["scenario"])
        data.pop("expect", None)  # the file's expected verdict is for the position as written
        data["declarations"] = dict(declared)
        try:
            sc = load(data)
        except LooError as e:
            out["kind"], out["verdict_refused"] = "refused", in_words(e)
        else:
            out["verdict_refused"] = None
            if sc.hand.to_act is None or sc.hand.phase is not Phase.DECLARE:
                out["kind"], out["explained"] = "explained", explain_text(sc)
            else:
                out["kind"], out["question"] = "pick", pick_question(sc)
        out["live"] = True
        self._apply({"data": out})

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        seat = one_of(ev.get("seat"), list(self.data.get("seats") or []), "seat")
        word = one_of(ev.get("value"), list(DECLARATION_WORDS), "value")
        declared = {int(x["seat"]): DECLARATION_WORDS[x["value"]] for x in self.data.get("declarations") or []}
        declared[seat] = DECLARATION_WORDS[word]
        self._load(declared)

    def declare(self, seat: int, word: str) -> None:
        """A seat's select: "stand", "take miss" or "throw up"."""
        self._ask("declare", seat=seat, value=word)

    @property
    def verdict(self) -> dict[str, Any]:
        """What the component shows: {kind: pick, question} | refused | explained."""
        return {k: self.data.get(k) for k in ("kind", "question", "verdict_refused", "explained")}
