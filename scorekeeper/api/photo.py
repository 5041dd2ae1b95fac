"""API: the tiles of a hand read from a photo (docs/api.md "A hand from a photo").

Thin, as the referee's routes: the request is parsed at the edge (:class:`HandPhoto`),
the photo reader (:mod:`scorekeeper.photo`) reads and checks the tiles, the answer is
JSON.  Nothing is stored: the upload is parsed in memory (never spooled to a temporary
file, as Werkzeug does above 500 kB) and dropped with the request.

Reads take turns (:class:`ReadSlots`, one per app): at most ``PHOTO_READS`` at once (the
machine's cores less one by default, at least one, at most two) and at most ``PHOTO_QUEUE``
more waiting (two by default), so that photos never hold more than four of the server's
eight threads and other devices' pages and saves keep their speed; the reads themselves run
in processes of their own (:mod:`scorekeeper.photo.worker`), niced, so that their Python
steps never take the interpreter lock from the threads drawing pages.  A photo that finds the
queue full is answered 503 with Retry-After at once, before its form is parsed; one that
waited ``PHOTO_WAIT`` seconds (5) for its turn is answered 503 too.  The reader and OpenCV
are imported by the first read, not when the app starts.
"""

from __future__ import annotations

import io
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass

from flask import current_app, jsonify, render_template, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.formparser import FormDataParser

from ..db import get_db
from ..errors import BadInput
from ..options import RuleOptions
from ..parsing import Fields, load_json, whole_number
from ..scoring import hand_score
from ..storage import load_game
from ..text import N_, _
from ..tiles import DEFAULT_SET, Tile
from . import bp

#: The largest request this route takes (the app's limit stays 1 MB for every other one).
MAX_PHOTO_MB = 20
MAX_PHOTO_BYTES = MAX_PHOTO_MB * 1024 * 1024
#: The sets a photo may come from: any double-N of these (halves up to 18 pips).
PHOTO_SETS = range(6, 19)
#: The fields of the form, in the order docs/api.md lists them.
FIELDS = Fields(("photo", "set", "rules", "game", "round", "player"),
                N_("“%(name)s” is not a field of a hand's photo."))
#: Seconds a read waits for its turn before it is answered 503 (config PHOTO_WAIT).
PHOTO_WAIT = 5.0
#: Photos that may wait for a turn (config PHOTO_QUEUE); one more is answered 503 at once.
PHOTO_QUEUE = 2
#: Photos read at once at most by default, whatever the cores (each holds a thread, its
#: decoded pixels and a core).
MOST_READS = 2


class ReadersBusy(Exception):
    """Every reading slot stayed taken for PHOTO_WAIT seconds."""


class PhotoTooLarge(Exception):
    """The request is over MAX_PHOTO_BYTES."""


@dataclass(frozen=True)
class HandPhoto:
    """What a request asks: the photo's bytes, the set and rules it is read and scored
    with, and what the round already knows (its engine, the tiles in other hands)."""

    photo: bytes
    set_n: int = DEFAULT_SET
    options: RuleOptions = RuleOptions()
    engine: int | None = None
    counted: frozenset[Tile] = frozenset()

    @classmethod
    def from_request(cls) -> "HandPhoto":
        """The request's multipart form, parsed in memory and checked field by field."""
        form, files = _in_memory_form()
        FIELDS.check(dict.fromkeys([*form, *files]))
        photos = files.getlist("photo")
        if not photos:
            raise _no_photo()
        if len(photos) > 1:
            raise BadInput(_("Send one photo at a time."), "photo")
        asked = {name: form[name] for name in FIELDS.names[1:] if name in form}
        photo = photos[0].stream.read()
        if "game" not in asked:
            if "round" in asked or "player" in asked:
                raise _game_and_round("game")
            return cls(photo, _set(asked.get("set")), _rules(asked.get("rules")))
        for name in ("set", "rules"):
            if name in asked:
                raise BadInput(_("A game plays with its own set and rules: give the game and "
                                 "round, or the set and rules, not both."), name)
        if "round" not in asked:
            raise _game_and_round("round")
        game = load_game(get_db(), asked["game"])
        number = whole_number(asked["round"])
        try:
            rnd = game.round(number)
        except KeyError:
            raise BadInput(_("This game has no round %(n)s; its rounds are 1 to %(last)s.",
                             n=asked["round"][:20], last=len(game.rounds)), "round") from None
        player = asked.get("player")
        if player is not None and player not in game.players:
            raise BadInput(_("%(name)s is not a player in this game.", name=player[:40]),
                           "player")
        return cls(photo, game.set, game.options, rnd.engine, rnd.counted_tiles(but=player))

    @property
    def out_of_hand(self) -> frozenset[Tile]:
        """The tiles that cannot be in this hand (R3.3): the round's engine, on the table,
        and the tiles counted in its other hands; the reader offers none of them."""
        engine = frozenset() if self.engine is None else frozenset({Tile.double(self.engine)})
        return engine | frozenset(self.counted)

    def read(self, slots: "ReadSlots"):
        """The photo read (scorekeeper.photo.reader), in a reading process when the app has
        them; a photo it cannot decode is refused."""
        from ..photo.decode import PhotoError
        from ..photo.reader import read_hand
        from ..photo.worker import WorkerLost
        try:
            if slots.processes is not None:
                return slots.processes.read(self.photo, self.set_n, self.out_of_hand)
            return read_hand(self.photo, self.set_n, self.out_of_hand)
        except PhotoError as error:     # translated here: it may come from another process
            raise BadInput(_(error.msgid, **error.values), "photo") from None
        except WorkerLost:
            raise ReadersBusy() from None

    def answer(self, reading) -> dict:
        """The reading as docs/api.md shows it: tiles, unsure, problems and the R7.3 score."""
        from ..photo.checks import problems
        data = reading.to_json()
        found = problems(reading, self.set_n, self.engine, self.counted)
        return {"tiles": data["tiles"], "unsure": data["unsure"],
                "problems": [{"code": p.code, "tile": p.tile.to_json(), "message": p.message}
                             for p in found],
                "score": hand_score((f.tile for f in reading.tiles), self.options),
                "width": data["width"], "height": data["height"]}


@bp.post("/hand-photo")
def hand_photo():
    """Read the tiles of a hand from a photo: each tile outlined, the unsure ones with their
    candidates, the likely misreadings and the score; nothing is stored."""
    slots = read_slots()
    with slots.place():                  # a full queue: 503 at once, the body not parsed
        asked = HandPhoto.from_request()
        with slots.turn():
            reading = asked.read(slots)
    return jsonify(asked.answer(reading))


@bp.get("/hand-photo/dialog")
def hand_photo_dialog():
    """The photo part of the round page's "Count tiles" dialog (its buttons and sentences,
    templates/_photo_dialog.html), fetched by static/js/photo.js when the dialog first opens:
    the round page carries only a placeholder (issue 26: the page's weight back).  The same
    for every game; in the request's language."""
    return render_template("_photo_dialog.html"), 200, {
        "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache"}


def _set(text: str | None) -> int:
    """The set a photo comes from: any double-6 to double-18 (default double-12)."""
    if text is None:
        return DEFAULT_SET
    value = whole_number(text)
    if value not in PHOTO_SETS:
        raise BadInput(_("The set is a whole number from 6 to 18: double-6 to double-18."),
                       "set")
    return value


def _rules(text: str | None) -> RuleOptions:
    """The rule options sent as JSON text (for R7.3's double_blank); the defaults if none."""
    if text is None:
        return RuleOptions()
    try:
        data = load_json(text, "rules")
    except BadInput:
        raise BadInput(_('The rules must be JSON text of rule options, like '
                         '{"double_blank": 50}.'), "rules") from None
    return RuleOptions.from_dict(data)


def _in_memory_form():
    """The request's form fields and files, parsed in memory, with this route's limit.

    Decision: a request that is not multipart/form-data has no photo (400), rather than
    415: the route's one content type is named in the sentence.
    """
    request.max_content_length = MAX_PHOTO_BYTES     # Flask >= 3.1: for this request only
    request.max_form_parts = 4 * len(FIELDS.names)
    request.form_data_parser_class = InMemoryFormParser
    try:
        return request.form, request.files
    except RequestEntityTooLarge:
        size = request.content_length
        if size is not None and size <= MAX_PHOTO_BYTES:
            # not the size: too many parts, or a text part over 500 kB (a photo sent as
            # text rather than as a file)
            raise _no_photo() from None
        raise PhotoTooLarge() from None


def _no_photo() -> BadInput:
    return BadInput(_("Send the photo as a file in the field photo of a multipart/form-data "
                      "request."), "photo")


def _game_and_round(missing: str) -> BadInput:
    return BadInput(_("Give both the game and the round (its number in that game)."), missing)


def in_memory(total_content_length, content_type, filename, content_length=None):
    """Where an uploaded file's bytes go while the form is parsed: memory, never a temporary
    file on disk (the photo is never stored)."""
    return io.BytesIO()


class InMemoryFormParser(FormDataParser):
    """Werkzeug's form parser with every file kept in memory (:func:`in_memory`)."""

    def __init__(self, stream_factory=None, *args, **kwargs):
        super().__init__(in_memory, *args, **kwargs)


class ReadSlots:
    """At most *n* photos read at once and *queue* more waiting for a turn: a photo that
    finds every place taken is refused at once (ReadersBusy, 503), one that waits *wait*
    seconds for its turn too, so photos never hold more than ``n + queue`` server threads."""

    def __init__(self, n: int, wait: float, queue: int = PHOTO_QUEUE, processes=None):
        self.n, self.wait, self.queue = n, wait, queue
        #: the reading processes (scorekeeper.photo.worker), or None: read in the thread
        self.processes = processes
        self._free = threading.BoundedSemaphore(n)
        self._places = threading.BoundedSemaphore(n + queue)

    @contextmanager
    def place(self):
        """Hold a place (reading or waiting) for the block; ReadersBusy at once if none."""
        if not self._places.acquire(blocking=False):
            raise ReadersBusy()
        try:
            yield
        finally:
            self._places.release()

    @contextmanager
    def turn(self):
        """Hold one reading slot for the block; ReadersBusy if none came free in time."""
        if not self._free.acquire(timeout=self.wait):
            raise ReadersBusy()
        try:
            yield
        finally:
            self._free.release()


@bp.record_once
def _make_read_slots(state) -> None:
    """Each app its own slots (config PHOTO_READS, default the machine's cores less one:
    one is kept for the other devices' pages and saves, bench/photo_load.py; PHOTO_QUEUE
    waiting; PHOTO_PROCESSES, default on but in tests: reads in processes of their own,
    scorekeeper.photo.worker); the
    templates know the size limit (templates/_photo.html says it before sending)."""
    config = state.app.config
    state.app.jinja_env.globals["photo_max_mb"] = MAX_PHOTO_MB    # the page's own sentence
    reads = int(config.get("PHOTO_READS") or default_reads())
    processes = None
    if config.get("PHOTO_PROCESSES", not state.app.testing):
        from ..photo.worker import ReadingProcesses     # imports no OpenCV: started lazily
        threads = max(1, int(config.get("PHOTO_THREADS") or default_threads(reads)))
        processes = ReadingProcesses(reads, threads)
    state.app.extensions["scorekeeper.photo_reads"] = ReadSlots(
        reads, float(config.get("PHOTO_WAIT", PHOTO_WAIT)),
        int(config.get("PHOTO_QUEUE", PHOTO_QUEUE)), processes)


def default_reads() -> int:
    """Photos read at once by default: every core but one, at least one, at most
    MOST_READS."""
    return max(1, min(MOST_READS, (os.cpu_count() or 1) - 1))


def default_threads(reads: int) -> int:
    """The segmenter's threads in each reading process by default: the machine's cores
    shared among the reads at once, 1 to 4 (the process is niced, so the pages still come
    first: bench/photo_load.py)."""
    return max(1, min(4, (os.cpu_count() or 1) // max(1, reads)))


def read_slots() -> ReadSlots:
    """This app's reading slots."""
    return current_app.extensions["scorekeeper.photo_reads"]


@bp.errorhandler(PhotoTooLarge)
def photo_too_large(_error):
    """413: the request is over this route's 20 MB."""
    return jsonify(error=_("The photo is over %(mb)s MB, the most that is accepted: send a "
                           "smaller picture.", mb=MAX_PHOTO_MB), field="photo"), 413


@bp.errorhandler(ReadersBusy)
def readers_busy(_error):
    """503 (Retry-After): every reading slot stayed taken; nothing was read."""
    return (jsonify(error=_("Other photos are being read: send this one again in a few "
                            "seconds."), field=""), 503, {"Retry-After": "2"})
