"""Assets drawn by the app itself: the domino sprite every page's tiles refer to, and the
web app manifest that puts the app on a tablet's home screen."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from flask import Blueprint, Response, g, request, url_for
from flask_babel import force_locale, gettext
from markupsafe import Markup

from .. import domino
from ..i18n import LANGUAGES, current_language

bp = Blueprint("assets", __name__)

#: A year: the sprite's address carries its content hash, so a new drawing is a new address.
FOREVER = 365 * 24 * 3600


@lru_cache(maxsize=1)
def _sprite() -> tuple[bytes, str]:
    body = domino.sprite().encode()
    return body, hashlib.sha256(body).hexdigest()[:12]


@bp.get("/dominoes.svg")
def dominoes():
    """The domino sprite every page's tiles draw from, cached for a year (304 when unchanged)."""
    body, version = _sprite()
    if request.if_none_match.contains(version):
        return Response(status=304)
    response = Response(body, mimetype="image/svg+xml")
    response.set_etag(version)
    response.cache_control.public = True
    response.cache_control.max_age = FOREVER
    response.cache_control.immutable = True
    return response


def sprite_url() -> str:
    """The sprite's address, versioned by its content (worked out once per request)."""
    url = g.get("sprite_url")
    if url is None:
        url = g.sprite_url = url_for("assets.dominoes", v=_sprite()[1])
    return url


def domino_svg(a: int, b: int, size: int = 48, vertical: bool = False,
               label: str | None = None, css_class: str = "domino") -> Markup:
    """Templates' domino: three <use> references into the cached sprite."""
    return domino.domino_svg(a, b, size, vertical, label, css_class, sprite_url=sprite_url())


#: The top bar's colour (static/app.css), the colour a home-screen app's bar takes.
THEME_COLOUR = "#223333"
#: The page's colour, behind the app while it opens.
BACKGROUND_COLOUR = "#faf7f0"

#: The manifest's icons (drawn by scripts/make_icons.py): file, size, purpose.
ICONS = (("icons/icon-192.png", 192, "any"), ("icons/icon-512.png", 512, "any"),
         ("icons/icon-maskable-192.png", 192, "maskable"),
         ("icons/icon-maskable-512.png", 512, "maskable"))


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: "Add to Home Screen" gives the app's name and icon, and opens
    it full screen at the home page.  In the language of ``?lang=`` (the pages link it so;
    a browser fetches a manifest without the device's cookies), else the device's."""
    asked = request.args.get("lang", "")
    with force_locale(asked if asked in LANGUAGES else current_language()):
        body = {
            "name": gettext("Mexican Train Scorekeeper"),
            "short_name": gettext("Scorekeeper"),
            "lang": asked if asked in LANGUAGES else current_language(),
            "dir": "ltr",
            "id": "/",
            "start_url": url_for("games.index"),
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOUR,
            "background_color": BACKGROUND_COLOUR,
            "icons": [{"src": url_for("static", filename=path), "sizes": f"{size}x{size}",
                       "type": "image/png", "purpose": purpose}
                      for path, size, purpose in ICONS],
        }
    response = Response(json.dumps(body, ensure_ascii=False, indent=1),
                        mimetype="application/manifest+json")
    response.cache_control.max_age = 24 * 3600
    return response
