"""Assets drawn by the app itself: the domino sprite every page's tiles refer to."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from flask import Blueprint, Response, g, request, url_for
from markupsafe import Markup

from .. import domino

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
