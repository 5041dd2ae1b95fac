"""The HTML pages, one blueprint per area."""

from babel.lists import format_list
from flask_babel import get_locale


def names_list(names) -> str:
    """Names joined the way the page's language joins a list ("Ann, Bob and Chi")."""
    return format_list(list(names), locale=get_locale())


def keeps_input_on_csrf_error(view):
    """Mark a form view that re-shows what was typed when its CSRF token fails."""
    view.keeps_input_on_csrf_error = True
    return view
