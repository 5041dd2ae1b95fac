"""The form that joins another spelling of a name to a player."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField

from .base import PageForm


class AliasForm(PageForm):
    """Another spelling of this player, to be joined to them (people.add_alias)."""

    alias = StringField(_l("Another spelling of this player"))
