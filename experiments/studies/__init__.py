"""One-off studies kept so their figures can be rerun (see README.md here)."""
