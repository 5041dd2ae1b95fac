"""The HTML pages, one blueprint per area, and what their views share.

Views stay thin: they read the request, call the domain and storage modules
(the referee, scoring, storage, livetable …) and render; a rule or a replay is
never worked out here.  What more than one blueprint needs is here, and blueprints
never import from each other: the game and round of a URL, the address another
device joins at (:func:`join_url`, :func:`game_url`), safe "next" links, and the
file names of downloads (:func:`content_disposition`, :func:`pdf_response`).
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote, urlsplit

from flask import Response, abort, current_app, request, url_for

from ..db import get_db
from ..game import Game, Round
from ..hosts import split_host
from ..netinfo import is_loopback, join_urls
from ..parsing import whole_number
from ..storage import load_game


def get_game_round(game_id: str, number: int) -> tuple[Game, Round]:
    """The game and its round *number*, or 404 (as flaskr's get_post).

    An unknown game is GameNotFound, which the app answers with its own 404 page.
    """
    game = load_game(get_db(), game_id)
    try:
        return game, game.round(number)
    except KeyError:
        abort(404)


def keeps_input(view):
    """Mark a form view that shows its form again, with what was typed and a sentence, when
    the request is refused before anything could be saved: its token expired (CSRF) or
    the database stayed busy (503).  The error answer runs the view again; its forms then
    fail with the sentence (``forms.PageForm.refusal``), so it only renders."""
    view.keeps_input = True
    return view


def this_page() -> str:
    """The address of this request, its query included, without a stray "?" when it has
    none (``request.full_path`` always ends one): for a link back to it."""
    query = request.query_string.decode("latin-1")
    return request.path + (f"?{query}" if query else "")


def safe_next(target: str | None, default: str) -> str:
    """*target* if it is a path of this app ("/games/…"), else *default*.

    A ``next`` parameter must never send a tablet to another site: only a
    relative path starting with one "/" (not "//host", no scheme, no
    backslash, which some browsers read as "/").
    """
    if not target or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target or any(ord(c) < 32 for c in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return target


def local_path(url: str) -> str:
    """The path and query of *url* (a Referer), for safe_next to judge."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


# --- the address another device joins at ----------------------------------------

def this_machine_only() -> bool:
    """True when the server answers on this machine alone (started with ``--host
    127.0.0.1``, SERVER_HOST): no other tablet can join, whatever address it types."""
    listening = current_app.config.get("SERVER_HOST")
    return bool(listening) and not current_app.config.get("PUBLIC_URL") and \
        is_loopback(listening)


def join_url() -> str:
    """The address a second tablet should open: this one, as others can reach it; on a
    server that answers on this machine only, the page's own address (issue 26: never a
    network address the server does not listen on)."""
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return configured
    if not is_loopback(split_host(request.host)) or this_machine_only():
        return request.host_url
    port = whole_number(request.host.rsplit(":", 1)[1]) if ":" in request.host else None
    urls = join_urls(port or 80)
    return urls[0] if urls else request.host_url


def game_url(game: Game) -> str:
    """The address that opens this game on another device (as a viewer)."""
    return join_url().rstrip("/") + url_for("games.game", game_id=game.id)


# --- downloads' file names -----------------------------------------------------

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
