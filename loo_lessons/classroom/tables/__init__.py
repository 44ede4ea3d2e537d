"""Tables of pupils on the class hub, the engine as referee.

`referee` holds a table (its setup, its seats, deal after deal through `engine.table`),
checks every move with the engine and builds each seat's view from `engine.observation`
alone; `store` keeps every accepted move in SQLite so that a table replays, every move
checked again; `room` keeps the open tables, their codes and who sits where; `service` is the
hub service ``class-tables`` that seats pupils and carries their moves (HTTP, long-poll and
WebSocket), `pages` its teacher's pages. What a notebook on the hub calls is `loo_lessons.class_tables`
(below every layer: the pupil's seat widget calls it too). None of
them decides a rule.
"""
