"""The project's experiment scripts: training, benchmarks, ladder checks and reports.

Not shipped (the installed packages are ``cardenvs``, ``agents`` and ``cardtable``); run
each script from the project root as a module, e.g. ``python -m experiments.train --help``.
Helpers the scripts share live here once (``reporting``, ``oracle``); one-off studies are
in ``experiments.studies`` (see its README).
"""
