"""The HTML pages, one blueprint per area."""


def keeps_input_on_csrf_error(view):
    """Mark a form view that re-shows what was typed when its CSRF token fails."""
    view.keeps_input_on_csrf_error = True
    return view
