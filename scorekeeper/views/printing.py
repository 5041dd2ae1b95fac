"""Printable scoresheets: a game's filled sheet and blank sheets for a planned game.

Thin adapter over :mod:`scorekeeper.pdf`: reads the query, loads the game and
answers ``application/pdf`` inline, so a tablet opens it in its PDF viewer.
"""

from __future__ import annotations

import re

from flask import Blueprint, current_app, request, url_for

from ..checkcode import game_code, shown
from ..db import get_db
from ..options import RuleOptions
from ..pdf import blank_scoresheet_pdf, parse_paper, scoresheet_pdf
from ..storage import load_game
from . import join_url, pdf_response

bp = Blueprint("printing", __name__)

@bp.get("/games/<game_id>/scoresheet.pdf")
def game_scoresheet(game_id: str):
    """The game's scoresheet, filled as far as it is played, with its check code and the QR
    code of its verification page (API.md, "Games and scores")."""
    paper = _paper()
    game = load_game(get_db(), game_id)   # GameNotFound: the app's 404 page
    code = game_code(game, current_app.secret_key)
    # The address another device reaches this server at, as the join code shows it.
    url = join_url().rstrip("/") + url_for("verify.verify_page", game_id=game.id, code=code)
    data = scoresheet_pdf(game, paper, font_dir=current_app.config.get("PDF_FONT_DIR"),
                          check=(shown(code), url))
    return pdf_response(data, f"scoresheet-{game.display_name()}", fallback=game.id)


@bp.get("/scoresheets/blank.pdf")
def blank_scoresheet():
    """A blank sheet for a planned game: `players` repeated (names) or `count=N` (blank names).

    Also `set`, `start_engine`, `end_engine`, `name`, `paper` and the rule
    options of R9 by name (`double_blank=25`, `deal=B`, …).  Empty values count
    as not given; unknown parameters are ignored.
    """
    args = request.args
    names = [n for n in args.getlist("players") if n.strip()]
    options = RuleOptions.from_text(args)
    data = blank_scoresheet_pdf(
        players=names or None,
        count=_number(args.get("count")),
        set_n=_number(args.get("set")) if args.get("set", "").strip() else 12,
        start_engine=_number(args.get("start_engine")),
        end_engine=_number(args.get("end_engine")),
        options=options,
        paper=_paper(),
        name=args.get("name") or None,
        font_dir=current_app.config.get("PDF_FONT_DIR"),
    )
    return pdf_response(data, f"scoresheet-{args.get('name') or 'blank'}", fallback="blank")


def _paper() -> str:
    """`?paper=a4|letter`, else the app's PAPER_SIZE (A4 by default)."""
    raw = request.args.get("paper", "").strip()
    return parse_paper(raw or current_app.config.get("PAPER_SIZE", "A4"))


def _number(raw: str | None):
    """A whole number from the query; None when absent or empty; other text is passed
    on unchanged so the validator refuses it with its own sentence."""
    if raw is None or not raw.strip():
        return None
    raw = raw.strip()
    return int(raw) if re.fullmatch(r"-?[0-9]{1,6}", raw) else raw   # ASCII digits only
