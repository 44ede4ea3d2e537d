"""What the lesson notebooks call: one line each, no logic in the notebooks.

Everything shown here comes from the engine (verdicts, settlements, quiz banks) and is
drawn by the components in `loo_lessons.widgets`. Each object works live in JupyterLab
and, with no kernel (the built book), shows a static version that still answers clicks;
controls that need the live engine say so.

One module per kind of cell: `cards` (positions and the table), `reference` (rules, the
engine's explanation, penalties), `explore` (one position under each book, live options),
`quizzes` (pick, pool, quiz), `play` (whole hands: stepper, play, ledger, present),
`edge_cases` (searching seeded deals, one deal under each book) and `strategy` (the Monte
Carlo lab). Notebooks import this package as `from loo_lessons import lessons as L`.
"""

from __future__ import annotations

from loo_lessons.lessons.cards import (
    Position,
    cards,
    deal,
    scenario,
    scenario_names,
    scenario_text,
    table,
)
from loo_lessons.lessons.edge_cases import (
    compare_deal,
    compare_money,
    compare_seeds,
    find,
    find_yaml,
    predicates,
    search,
)
from loo_lessons.lessons.explore import compare, explore, explore_declarations
from loo_lessons.lessons.play import class_table, ledger, play, present, static, stepper, task
from loo_lessons.lessons.quizzes import (
    merge_progress,
    pick,
    pool,
    practice,
    progress,
    quiz,
    quiz_results,
)
from loo_lessons.lessons.reference import (
    check,
    explain,
    fold,
    penalty,
    penalty_table,
    rule,
    verdict,
)
from loo_lessons.lessons.strategy import (
    expected_counters,
    expected_counters_plot,
    lab,
    miss_value,
    miss_value_plot,
    session,
    session_plot,
    simulate,
    trick_rates,
    trick_rates_plot,
)

__all__ = [
    "Position",
    "cards",
    "check",
    "class_table",
    "compare",
    "compare_deal",
    "compare_money",
    "compare_seeds",
    "deal",
    "expected_counters",
    "expected_counters_plot",
    "explain",
    "explore",
    "explore_declarations",
    "find",
    "find_yaml",
    "fold",
    "lab",
    "ledger",
    "merge_progress",
    "miss_value",
    "miss_value_plot",
    "penalty",
    "penalty_table",
    "pick",
    "play",
    "pool",
    "practice",
    "predicates",
    "present",
    "progress",
    "quiz",
    "quiz_results",
    "rule",
    "scenario",
    "scenario_names",
    "scenario_text",
    "search",
    "session",
    "session_plot",
    "simulate",
    "static",
    "stepper",
    "table",
    "task",
    "trick_rates",
    "trick_rates_plot",
    "verdict",
]
