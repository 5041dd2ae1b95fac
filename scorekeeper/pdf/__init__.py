"""The printed pages (PDF): a game's scoresheet, blank sheets, a season's table.

Pure of Flask: each document is a function answering PDF bytes, which the views
serve (``views/printing.py``, ``views/seasons.py``) and a shell or a bot can call.

* :mod:`.pen` — what both documents write with: the fonts (per-character
  fallback, :class:`FontsMissing` naming the Debian package), Thai shaping and
  ``/ActualText``, the canvas, the page and its footer, the palette, and
  ``one_page`` (the PDF under the drawing lock).
* :mod:`.scoresheet` — :func:`scoresheet_pdf` (a game, in progress or finished)
  and :func:`blank_scoresheet_pdf` (a planned game, to fill in by hand); the sheet as
  data is :mod:`.sheet`, its grid (rows, columns, scores, summary) :mod:`.grid`.
* :mod:`.season` — :func:`season_pdf`, a season's table on one page.
* :mod:`.shapes` — the figures the scoresheet draws: the engine domino, the star.

Import from ``scorekeeper.pdf``, which re-exports the names below.
"""

from .pen import APP_NAME, FONT_FILES, PAPERS, ZERO_FILL, FontsMissing, fonts, parse_paper
from .scoresheet import PORTRAIT_MAX_PLAYERS, blank_scoresheet_pdf, scoresheet_pdf
from .season import season_pdf

__all__ = ["scoresheet_pdf", "blank_scoresheet_pdf", "season_pdf", "parse_paper", "fonts",
           "FontsMissing", "FONT_FILES", "PAPERS", "PORTRAIT_MAX_PLAYERS", "APP_NAME",
           "ZERO_FILL"]
