"""The printed pages (PDF): a game's scoresheet, blank sheets, a season's table."""

from .pen import APP_NAME, FONT_FILES, PAPERS, ZERO_FILL, FontsMissing, fonts, parse_paper
from .scoresheet import PORTRAIT_MAX_PLAYERS, blank_scoresheet_pdf, scoresheet_pdf
from .season import season_pdf

__all__ = ["scoresheet_pdf", "blank_scoresheet_pdf", "season_pdf", "parse_paper", "fonts",
           "FontsMissing", "FONT_FILES", "PAPERS", "PORTRAIT_MAX_PLAYERS", "APP_NAME",
           "ZERO_FILL"]
