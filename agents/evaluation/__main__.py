"""``python -m agents.evaluation``: the command of :mod:`agents.evaluation.evaluator`."""

import sys

from .evaluator import main

sys.exit(main())
