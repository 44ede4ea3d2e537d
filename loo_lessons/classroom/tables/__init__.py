"""Tables of pupils on the class hub, the engine as referee.

`referee` holds a table (its setup, its seats, deal after deal through `engine.table`),
checks every move with the engine and builds each seat's view from `engine.observation`
alone; `store` keeps every accepted move in SQLite so that a table replays, every move
checked again. None of them decides a rule. The hub service that will seat pupils and carry
their moves (HTTP, long-poll and WebSocket) is not written yet: nothing starts a table today.
"""
