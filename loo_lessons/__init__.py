"""Three-card Loo: rules engine and lessons."""
