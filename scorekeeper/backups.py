"""The full backup from a page, and restoring one (issue 19, item 2).

The download (:func:`download_copy`) is SQLite's online copy of the whole database.
With a club PIN set, it is guarded by that PIN and keeps the games' PIN hashes, so a
restore brings every game back protected; without one, any device may download it, so
it leaves the hashes out (a 4-digit PIN's hash is guessed offline in minutes) and the
page says so before the download.

A restore goes through two requests: the upload is checked and staged under a token
(:func:`stage_upload`, in ``restore/`` beside the database), its summary shown; the
confirmation swaps it in whole (:func:`swap_in`), the database as it was kept in
``backups/`` beside the database (:func:`kept_folder`; in a checkout, ``instance/backups``).
Beside the database: on its disk, so the copies are quick and a full disk shows first.  The checks and the swap are
``storage.restore``'s.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
import time
from datetime import datetime

from flask import current_app

from .errors import BadInput
from .storage import BackupSummary, backup, forget_pins, stage_backup, swap_backup
from .text import _

#: How long a checked upload waits for its confirmation (seconds), then is removed.
STAGED_FOR = 3600
_TOKEN = re.compile(r"[0-9a-f]{16}")


def download_copy(keep_pins: bool):
    """An open file holding a consistent copy of the whole database (its name already
    removed: the data lives until the file is closed), with the games' PIN hashes only
    when *keep_pins*."""
    fd, path = tempfile.mkstemp(suffix=".sqlite")
    os.close(fd)
    try:
        backup(current_app.config["DATABASE"], path)
        if not keep_pins:
            forget_pins(path)   # any device may download this: no PIN hash leaves the server
        return open(path, "rb")
    finally:
        os.remove(path)


def kept_folder() -> str:
    """Where a restore keeps the database as it was before: ``backups/`` beside it."""
    return os.path.join(os.path.dirname(os.path.abspath(current_app.config["DATABASE"])),
                        "backups")


def _staging_folder() -> str:
    folder = os.path.join(os.path.dirname(os.path.abspath(current_app.config["DATABASE"])),
                          "restore")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return folder


def stage_upload(upload) -> tuple[str, BackupSummary]:
    """Check an uploaded backup (a Werkzeug FileStorage) and stage it: answers its token
    and what it holds; BadInput (field "file") when it cannot be restored, nothing kept."""
    folder = _staging_folder()
    _forget_old(folder)
    token = secrets.token_hex(8)
    raw, staged = os.path.join(folder, f"{token}.upload"), os.path.join(folder, f"{token}.sqlite")
    try:
        upload.save(raw)
        os.chmod(raw, 0o600)
        summary = stage_backup(raw, staged)
    except BaseException:
        _remove(staged)
        raise
    finally:
        _remove(raw)
    return token, summary


def swap_in(token: str) -> str:
    """Restore the backup staged under *token*, whole; answers where the database as it
    was before is kept.  BadInput when there is no such staged backup (any more)."""
    staged = os.path.join(_staging_folder(), f"{token}.sqlite") \
        if _TOKEN.fullmatch(token or "") else None
    if staged is None or not os.path.exists(staged):
        raise BadInput(_("This backup was checked too long ago, or restored already; choose "
                         "the file again."), "file")
    folder = kept_folder()
    os.makedirs(folder, mode=0o700, exist_ok=True)
    keep = os.path.join(folder, datetime.now().strftime(
        f"scorekeeper-before-restore-%Y-%m-%d-%H%M%S-{token[:6]}.sqlite"))
    swap_backup(current_app.config["DATABASE"], staged, keep)
    _remove(staged)
    return keep


def _forget_old(folder: str) -> None:
    """Remove staged uploads older than STAGED_FOR."""
    cutoff = time.time() - STAGED_FOR
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        try:
            if os.path.getmtime(path) < cutoff:
                os.remove(path)
        except OSError:
            continue


def _remove(path: str) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass
