"""The owner's way back in, from the server machine (issue 26, item 8).

The guessing limits (``pins.py``) can keep every device waiting: 20 wrong PINs in an
hour from anyone, and one more every three minutes keeps it so.  Whoever can type on the
machine the server runs on is the owner, and a guesser on the network is not:

- ``scorekeeper unlock`` forgets every wrong PIN counted, so no game and not the club
  waits any more (a running server sees it at once: the counts are in the database);
- ``scorekeeper club-pin`` sets a new club PIN (asked for twice, never on the command
  line, where the shell's history would keep it), or with ``--remove`` removes it; the
  club's wrong PINs are forgotten with it.

A device that holds the club PIN is also let through a game's wait (``pins.check``).
"""

from __future__ import annotations

import getpass
import os
import sys

from . import configured_app, storage
from .errors import BadInput
from .pins import hash_pin, parse_pin
from .text import _


def _database() -> str | None:
    """The database's path; None (and the reason printed) when there is none yet."""
    database = configured_app().config["DATABASE"]
    if not os.path.exists(database):
        print(_("There is no database at %(database)s yet: nothing to change.",
                database=database), file=sys.stderr)
        return None
    storage.migrate(database)   # a database of an earlier version: its tables first
    return database


def unlock_command() -> int:
    """`scorekeeper unlock`; answers the exit status."""
    database = _database()
    if database is None:
        return 1
    db = storage.connect(database)
    try:
        count = storage.forget_guesses(db)
    finally:
        db.close()
    print(_("Every wrong PIN counted is forgotten (%(count)s): no game and not the club "
            "waits any more.", count=count))
    return 0


def club_pin_command(remove: bool, ask=getpass.getpass) -> int:
    """`scorekeeper club-pin [--remove]`; *ask* reads a PIN without showing it (a test
    answers for the person).  Answers the exit status."""
    database = _database()
    if database is None:
        return 1
    new_hash = None
    if not remove:
        pin = ask(_("New club PIN (4 to 8 digits): ")).strip()
        try:
            parse_pin(pin)
        except BadInput as bad:
            print(bad.message, file=sys.stderr)
            return 1
        if ask(_("The same PIN again: ")).strip() != pin:
            print(_("The two PINs differ; nothing was changed."), file=sys.stderr)
            return 1
        new_hash = hash_pin(pin)
    db = storage.connect(database)
    try:
        storage.set_club_pin(db, new_hash, storage.club_pin_hash(db))
        storage.forget_guesses(db)
    finally:
        db.close()
    if remove:
        print(_("The club PIN is removed: every device can change the club's data again."))
    else:
        print(_("The club PIN is set, and every wrong PIN counted is forgotten. Devices "
                "that held the old one enter the new one."))
    return 0
