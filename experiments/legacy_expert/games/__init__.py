"""Per-game strategic knowledge (heuristics, reasons, evaluation) used by the ladder and coach."""
