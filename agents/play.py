"""``python -m agents.play``, the documented command: runs :mod:`agents.programs.play`."""

if __name__ == "__main__":
    import sys

    from agents.programs.play import main

    sys.exit(main())
