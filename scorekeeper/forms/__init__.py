"""The forms (flask-wtf), one module per page area: :mod:`.games` (new game, rename,
import), :mod:`.rounds` (round scores), :mod:`.live` (the live table), :mod:`.pins` (the game PIN), :mod:`.club` (the
club PIN, a backup's restore), :mod:`.seasons`, :mod:`.players`; :mod:`.base` what they
share.

Every page form is a :class:`PageForm`: refused as a whole (its token expired, the
database stayed busy, a refusal that belongs to no field) it says so in one sentence,
``form.refusal``, shown above it; a refusal that belongs to a field is put on that
field by :func:`attach`.
"""

from .base import ConfirmForm, PageForm, attach, refuse_forms
from .club import ClubPinEntryForm, ClubPinForm, RestoreConfirmForm, RestoreForm
from .games import ImportForm, NewGameForm, RenameForm
from .live import LiveActionForm, LiveForm, LiveStartForm
from .pins import ChangePinForm, PinForm
from .players import AliasForm, SeparateForm
from .rounds import RoundForm, SeatForm, hand_text
from .seasons import SeasonForm

__all__ = ["PageForm", "ConfirmForm", "attach", "refuse_forms", "NewGameForm", "RenameForm",
           "ImportForm", "PinForm", "ChangePinForm", "ClubPinForm", "ClubPinEntryForm",
           "RestoreForm", "RestoreConfirmForm", "RoundForm", "SeatForm", "hand_text",
           "SeasonForm", "AliasForm", "SeparateForm", "LiveForm", "LiveStartForm", "LiveActionForm"]
