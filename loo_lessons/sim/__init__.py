"""Simulation: bots with declared personalities, Monte Carlo tables, searches for positions,
rule-set comparisons and a keyboard game in the terminal.

Pure Python on top of the rules engine: nothing here imports Jupyter, pandas or numpy. The
tables and records it gives are shown as DataFrames by `views.frames`.
"""

from __future__ import annotations

from loo_lessons.sim.bots import BOTS, Bot, SeatView, bot_move, get_bot, seat_view

__all__ = ["BOTS", "Bot", "SeatView", "bot_move", "get_bot", "seat_view"]
