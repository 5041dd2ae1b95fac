"""The club's forms: the club PIN (set, change, enter) and a backup's restore."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField
from wtforms import HiddenField, StringField

from .base import PageForm


class ClubPinForm(PageForm):
    """Set the club PIN (none yet), or change or remove it with the current one."""

    current = StringField(_l("Current club PIN"))
    new = StringField(_l("New club PIN (4 to 8 digits)"))
    action = StringField()   # the button pressed: "set", or "remove"

    @property
    def removing(self) -> bool:
        """True when "Remove the club PIN" was pressed."""
        return self.action.data == "remove"


class ClubPinEntryForm(PageForm):
    """A device enters the club PIN before a change to the club's data."""

    expired = _l("The page expired; enter the club PIN again.")
    club_pin = StringField(_l("Club PIN"))


class RestoreForm(PageForm):
    """A backup file to check (then, confirmed, to restore)."""

    expired = _l("The page expired; choose the backup file again.")
    file = FileField(_l("Backup file (.sqlite)"))


class RestoreConfirmForm(PageForm):
    """The confirmation of a checked backup, by the token it was staged under."""

    expired = _l("The page expired; nothing was restored. Choose the backup file again.")
    staged = HiddenField()
