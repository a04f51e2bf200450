"""Training with other RL libraries (Tianshou, TorchRL) on the cardenvs games."""
