"""The rules of three-card Loo: standard library only, no I/O, no HTML, no YAML.

`game.Hand` is one deal as a state machine (legal actions, verdicts citing rule ids, checked
and unchecked moves, settlement); `table.Table` runs deal after deal. The laws (`laws`), their
sources (`sources`), the rule options (`options`) and each stage of a deal (`cards`, `deal`,
`declare`, `play`, `settle`, `penalties`) are modules of their own; `observation` says what a
seat may know; `errors` says what went wrong. Importing this package imports nothing else.
"""
