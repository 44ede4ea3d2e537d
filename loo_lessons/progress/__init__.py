"""A learner's progress by rule: one record of every graded answer (`record`, the
`loo-progress/1` format), a scheduler per rule (`mastery`: how sure she is, what is due, her
mistakes) and practice sessions of new positions for what is due or missed (`practice`);
`store` keeps the record in a file of the learner's folder.

The standard library and the layers below (the engine, the quiz generators) only: the book's
page runs the same code in Pyodide.
"""

from __future__ import annotations
