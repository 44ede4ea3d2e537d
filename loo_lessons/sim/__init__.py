"""Simulation: bots with declared personalities, Monte Carlo tables, searches for positions,
rule-set comparisons and a keyboard game in the terminal.

Pure Python on top of the rules engine. Nothing here imports Jupyter; pandas (and
matplotlib, if ever used) are imported inside the functions that return frames.
"""

from __future__ import annotations

from loo_lessons.sim.bots import BOTS, Bot, SeatView, bot_move, get_bot, seat_view

__all__ = ["BOTS", "Bot", "SeatView", "bot_move", "get_bot", "seat_view"]
