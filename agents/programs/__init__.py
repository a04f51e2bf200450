"""The programs: ``cardenvs-play`` (:mod:`agents.programs.play`) and ``cardenvs-demo``
(:mod:`agents.programs.demo`).  Nothing else in :mod:`agents` imports them."""
