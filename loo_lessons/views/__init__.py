"""The views: what a position or a deal looks like as HTML, terminal text, prose and DataFrames.
A view draws what the engine decided and never decides a rule."""
