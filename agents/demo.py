"""``python -m agents.demo``, the documented command: runs :mod:`agents.programs.demo`."""

if __name__ == "__main__":
    from agents.programs.demo import main

    main()
