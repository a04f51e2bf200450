"""Sphinx configuration of the cardenvs documentation site (Sphinx + furo + MyST).

Build it with ``python3 dev.py docs`` (builds, then serves it on http://127.0.0.1:8001/;
``--no-serve`` only builds).  The build is strict: any warning (a broken link, a
reference to nothing, a page in no table of contents) fails it; ``docs/contributing-docs.md``
says how to add pages and results files.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))

import cardenvs  # noqa: E402

project = "cardenvs"
author = "the cardenvs contributors"
copyright = "2026, the cardenvs contributors"  # noqa: A001
release = cardenvs.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "cardenvs_docs",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "_generated",  # included by the game pages, not pages of their own
    "rules/*",  # included by the game pages (games/*.md)
    "**/.ipynb_checkpoints",
    "Thumbs.db",
    ".DS_Store",
]

# ----------------------------------------------------------------------------- MyST
myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline"]
myst_heading_anchors = 3  # [text](page.md#a-heading) links to headings up to level 3

# ------------------------------------------------------------------ strictness
# Every warning fails the build (`-W`, set by dev.py); with `-n` (nitpicky) a reference
# to a Python object the API reference does not document is a warning too.  References
# to other libraries' objects (numpy, gymnasium, torch, ...) are left as plain text:
# there is no network for intersphinx here.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(?!(cardenvs|agents|cardtable)\b).*"),  # other libraries' objects
    (r"py:.*", r".*\.(State|View|Action|S|V|M|R|T)$"),  # type variables (the Game protocol's, generics')
    (r"py:.*", r".*\._\w+$"),  # private helpers named in signatures
]
suppress_warnings = [
    "myst.xref_ambiguous",
    # protocol examples written as JSON with "..." and alternatives ("a" | "b") in them
    "misc.highlighting_failure",
]

# --------------------------------------------------------------------- autodoc
autodoc_default_options = {
    "members": True,
    "undoc-members": False,
    "show-inheritance": True,
    "member-order": "bysource",
}
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_preserve_defaults = True
autodoc_class_signature = "separated"
autodoc_inherit_docstrings = False  # other libraries' docstrings (gymnasium.Env.step) are not ours
# heavy or optional packages are stood in for, so the reference builds with the `docs` extra alone
autodoc_mock_imports = [
    "torch",
    "stable_baselines3",
    "sb3_contrib",
    "ray",
    "pyspiel",
    "open_spiel",
    "tianshou",
    "torchrl",
]
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# ------------------------------------------------------------------------ HTML
html_theme = "furo"
html_title = f"cardenvs {release}"
html_static_path: list[str] = []
html_theme_options = {
    "source_directory": "docs/",
    "navigation_with_keys": True,
}
html_show_sourcelink = False

# the env spec pages are written from the modules' docstrings into _generated/ (cardenvs_docs)
os.environ.setdefault("CARDENVS_DOCS", "1")
