"""The form that starts a season."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField

from .base import PageForm


class SeasonForm(PageForm):
    """A new season: a name and its first and last days (checked by records.check_season)."""

    #: check_season's names for the days ("from", "to"), as the API takes them.
    error_fields = {"from": "start", "to": "end"}

    name = StringField(_l("Season name"))
    start = StringField(_l("From"), render_kw={"type": "date"})
    end = StringField(_l("To"), render_kw={"type": "date"})
