"""The training-pipeline audit (README, "training audit"): clone agreement against strength."""
