"""The HTML pages, one blueprint per area."""

from urllib.parse import urlsplit


def keeps_input_on_csrf_error(view):
    """Mark a form view that re-shows what was typed when its CSRF token fails."""
    view.keeps_input_on_csrf_error = True
    return view


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
