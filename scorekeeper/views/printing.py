"""Printable scoresheets: a game's filled sheet and blank sheets for a planned game.

Thin adapter over :mod:`scorekeeper.pdf`: reads the query, loads the game and
answers ``application/pdf`` inline, so a tablet opens it in its PDF viewer.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask_babel import gettext

from ..checkcode import game_code, shown
from ..db import get_db
from ..errors import BadInput
from ..options import RuleOptions
from ..pdf import FontsMissing, blank_scoresheet_pdf, parse_paper, scoresheet_pdf
from ..storage import load_game
from .devices import join_url

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


@bp.errorhandler(BadInput)
def bad_input(error: BadInput):
    """A scoresheet that cannot be printed as asked: a page with the sentence (400)."""
    return render_template("error.html", title=gettext("This scoresheet cannot be printed"),
                           message=error.message), 400


@bp.errorhandler(FontsMissing)
def fonts_missing(error: FontsMissing):
    """The PDF fonts are not installed: logged, and a page that says so (500)."""
    current_app.logger.error("%s", error)
    return render_template("error.html", title=gettext("The scoresheet cannot be made"),
                           message=str(error)), 500


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


def pdf_response(data: bytes, stem: str, fallback: str, prefix: str = "scoresheet") -> Response:
    """PDF bytes shown inline, with an ASCII filename and an RFC 5987 UTF-8 one."""
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = content_disposition(stem, fallback, prefix=prefix)
    response.headers["Cache-Control"] = "no-store"   # an unfinished game's sheet changes
    return response


#: Latin letters that Unicode does not decompose into a base letter and a mark (NFKD
#: leaves "đ" as it is): written as a reader of the language writes them in plain ASCII.
LATIN_FOLDS = str.maketrans({"đ": "d", "Đ": "D", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe",
                             "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "þ": "th",
                             "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i", "ħ": "h", "Ħ": "H"})


def ascii_words(text: str) -> str | None:
    """*text* in plain ASCII with every word still readable ("Mùa thu" → "Mua thu",
    "Đêm" → "Dem"), or None when a word would lose letters (Thai, Greek, Chinese …):
    half a word is never a file's name."""
    folded = unicodedata.normalize("NFKD", text.translate(LATIN_FOLDS))
    if any(not ch.isascii() and unicodedata.category(ch)[0] in "LN" for ch in folded):
        return None
    return "".join(ch for ch in folded if ch.isascii())   # accents, "’", "…" dropped


def content_disposition(stem: str, fallback: str, *, prefix: str = "scoresheet",
                        ext: str = "pdf", disposition: str = "inline") -> str:
    """`inline; filename="…"` (ASCII) plus `filename*=UTF-8''…` (RFC 5987) when the name is
    not ASCII.

    *stem* is "<prefix>-<name>"; the ASCII filename is the name with its accents dropped
    when every word survives that (:func:`ascii_words`), else "<prefix>-<fallback>" (the
    id, or a season's dates): never a name with words missing ("season-Winter-2026-").
    """
    cleaned = "".join(ch for ch in unicodedata.normalize("NFC", stem)
                      if unicodedata.category(ch)[0] != "C" and ch not in '/\\"')
    cleaned = re.sub(r"\s+", "-", cleaned.strip()) + f".{ext}"
    words = ascii_words(cleaned)
    ascii_name = None if words is None else re.sub(r"-{2,}", "-",
                                                   re.sub(r"[^A-Za-z0-9._-]+", "", words))
    if ascii_name is None or not re.search(
            r"[A-Za-z0-9]", ascii_name.removeprefix(prefix).removesuffix(f".{ext}")):
        ascii_name = f"{prefix}-{re.sub(r'[^A-Za-z0-9_-]+', '', fallback) or 'sheet'}.{ext}"
    value = f'{disposition}; filename="{ascii_name}"'
    if cleaned != ascii_name:
        value += f"; filename*=UTF-8''{quote(cleaned, safe='')}"
    return value


__all__ = ["bp", "content_disposition", "pdf_response"]
