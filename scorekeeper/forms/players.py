"""The form that joins another spelling of a name to a player."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField

from .base import PageForm


class AliasForm(PageForm):
    """Another spelling of this player, to be joined to them (people.add_alias)."""

    alias = StringField(_l("Another spelling of this player"))
    of = StringField()       # the player it is joined to: the page's own name


class SeparateForm(PageForm):
    """A joined spelling made its own player again (people.remove_alias), from the page of
    the player it was joined to."""

    alias = StringField()
    player = StringField()
