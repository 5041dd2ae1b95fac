"""Start the app on a real WSGI server (waitress), reachable from other tablets."""

from __future__ import annotations

import argparse
import gc
import os
import sqlite3
import sys
import threading

from waitress import serve
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.utilities import RequestEntityTooLarge
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask

from . import configured_app, create_app, storage
from .api.photo import MAX_PHOTO_BYTES
from .bodylimits import default_limit, limit_for
from .netinfo import is_loopback, join_urls
from .text import _
from .web import SECURITY_HEADERS


class SecureErrorTask(ErrorTask):
    """Waitress's own error answers (a bad Content-Length, a header line without a colon,
    headers too large: 400, 431; a fault: 500), which never reach the app, with the
    security headers every answer of the app carries."""

    def __init__(self, channel, request):
        super().__init__(channel, request)
        self.response_headers.extend(SECURITY_HEADERS.items())


class SecureChannel(HTTPChannel):
    """A connection whose error answers are :class:`SecureErrorTask`'s."""

    error_task_class = SecureErrorTask


class LimitedParser(HTTPRequestParser):
    """A request as waitress reads it, whose body stops being read once it is over its
    route's limit (``bodylimits.limit_for``; waitress's own limit is one for every route,
    the largest): at the headers when its Content-Length says so, else (chunked) when that
    many bytes have come.  The request then goes to the app with no body and its size as
    Content-Length, so the app answers its 413 in the device's language; the connection
    closes after that answer, the rest of the body unread."""

    app = None   # set on the subclass made for one app (make_server)

    def parse_header(self, header_plus):
        super().parse_header(header_plus)
        smallest = default_limit(self.app)
        if not self.chunked and self.content_length <= smallest:
            self.body_limit = smallest   # every route takes this much: no route to match
            return
        self.body_limit = limit_for(self.app, self.command or "GET", self.path or "/")
        if self.content_length > self.body_limit:
            self._drop_body(self.content_length)

    def received(self, data):
        if self.body_rcv is None or self.completed or not self.chunked:
            return super().received(data)
        consumed = super().received(data)
        if self.body_bytes_received > self.body_limit or \
                isinstance(self.error, RequestEntityTooLarge):
            self.error = None
            self._drop_body(self.body_bytes_received)
        return consumed

    def _drop_body(self, size: int) -> None:
        if self.body_rcv is not None:
            self.body_rcv.getbuf().close()
        self.body_rcv = None
        self.content_length = 0
        self.headers["CONTENT_LENGTH"] = str(size)
        self.expect_continue = False
        self.connection_close = True
        self.headers["CONNECTION"] = "close"   # the task closes after its answer
        self.completed = True


def make_server(app, **settings):
    """Waitress serving *app* (``create_server``'s *settings*: host, port, threads …), its
    own error answers with the security headers, each body held to its route's limit
    (:class:`LimitedParser`); ``.run()`` it."""
    server = create_server(app, **settings)
    parser = type("AppParser", (LimitedParser,), {"app": app})
    channel = type("AppChannel", (SecureChannel,), {"parser_class": parser})
    dispatchers = server.map.values() if hasattr(server, "map") else [server]
    for dispatcher in dispatchers:
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = channel
    return server

#: waitress keeps a request's body in memory up to this size, and refuses a larger one
#: (413) before reading it: a photo sent to POST /api/hand-photo (at most 20 MB, answered
#: 413 with a sentence up to here) is never written to a temporary file, not even by the
#: server's buffering (512 kB by default, then a file).
BODY_IN_MEMORY = MAX_PHOTO_BYTES + 4 * 1024 * 1024


def waitress_options(app) -> dict:
    """waitress's settings beside host, port and threads: photos kept in memory; the
    largest body it takes is the largest the app does (a backup being restored,
    BACKUP_MAX_SIZE), each route held to its own limit as the body comes
    (:class:`LimitedParser`)."""
    largest = max(BODY_IN_MEMORY, app.config.get("BACKUP_MAX_SIZE", 0) + 1024 * 1024)
    return {"inbuf_overflow": BODY_IN_MEMORY, "max_request_body_size": largest}


def main(argv: list[str] | None = None) -> None:
    """`scorekeeper [--host 0.0.0.0] [--port 5000] [--threads 8]`: serve and print the join
    addresses; `scorekeeper backup FILE`: a consistent copy of the database; `scorekeeper
    unlock` and `scorekeeper club-pin [--remove]`: the owner's way back in (owner.py)."""
    parser = argparse.ArgumentParser(
        description="Mexican Train Scorekeeper: with no COMMAND, start the server.")
    parser.add_argument("--host", default=os.environ.get("SCOREKEEPER_HOST", "0.0.0.0"),
                        help="address to listen on (default 0.0.0.0: every network interface)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("SCOREKEEPER_PORT", 5000)),
                        help="port to listen on (default 5000)")
    parser.add_argument("--threads", type=int, default=8,
                        help="requests answered at once (default 8)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    backup_parser = commands.add_parser(
        "backup", help="copy every game to FILE, safely, even while the server runs",
        description="Copy the whole database (every game, deleted ones included) to FILE "
                    "with SQLite's online backup API: a consistent copy, safe while the "
                    "server runs.")
    backup_parser.add_argument("file", help="where to write the copy (an .sqlite file)")
    commands.add_parser(
        "unlock", help="forget every wrong PIN counted: no game and not the club waits",
        description="Forget every wrong PIN counted by the guessing limits, so that no game "
                    "and not the club waits any more; safe while the server runs.")
    club_pin_parser = commands.add_parser(
        "club-pin", help="set a new club PIN (asked for twice), or remove it",
        description="Set a new club PIN, asked for twice without showing it, and forget "
                    "every wrong PIN counted; with --remove, remove the club PIN.")
    club_pin_parser.add_argument("--remove", action="store_true",
                                 help="remove the club PIN instead of setting one")
    args = parser.parse_args(argv)
    if args.command == "backup":
        sys.exit(backup_command(args.file))
    if args.command in ("unlock", "club-pin"):
        from .owner import club_pin_command, unlock_command
        sys.exit(unlock_command() if args.command == "unlock"
                 else club_pin_command(args.remove))
    app = create_app()
    app.config["SERVER_PORT"] = args.port
    app.config["SERVER_HOST"] = args.host   # the join address shows only where it answers
    print("Mexican Train Scorekeeper is running.")
    print(f"  Database: {app.config['DATABASE']}")
    everywhere = args.host in ("0.0.0.0", "::")
    here = "127.0.0.1" if everywhere else (f"[{args.host}]" if ":" in args.host else args.host)
    print(f"  On this machine: http://{here}:{args.port}/")
    if not everywhere and is_loopback(args.host):
        print("  Other tablets cannot join: this server answers on this machine only "
              "(start it with --host 0.0.0.0 to let them).")
    if everywhere:
        urls = join_urls(args.port)
        for url in urls:
            print(f"  Other tablets:   {url}")
        if not urls:
            print("  (No network address found: connect this machine to the network.)")
    print("Press Ctrl+C to stop.", flush=True)
    threading.Thread(target=_warm_pdf_fonts, args=(app,), daemon=True).start()
    threading.Thread(target=_warm_photo_reader, args=(app,), daemon=True).start()
    # The server's threads share one interpreter lock; Python hands it over every 5 ms by
    # default, so a quick answer (a 304 to a polling phone) could wait behind a page being
    # drawn. 1 ms keeps the quick ones quick (bench/live.py measures it).
    sys.setswitchinterval(0.001)
    # What the start made (modules, the app, its routes and templates) lives as long as
    # the server: out of the garbage collector's sight, its full passes stay short.
    gc.collect()
    gc.freeze()
    serve(app, _server=make_server, host=args.host, port=args.port, threads=args.threads,
          ident="scorekeeper", **waitress_options(app))


def backup_command(dest: str) -> int:
    """`scorekeeper backup FILE`; answers the exit status."""
    database = configured_app().config["DATABASE"]
    dest = os.path.abspath(dest)
    problem = None
    if not os.path.exists(database):
        problem = _("There is no database at %(database)s yet: nothing to back up.",
                    database=database)
    elif os.path.exists(dest) and os.path.samefile(dest, database):
        problem = _("The backup must go to another file than the database itself.")
    elif not os.path.isdir(os.path.dirname(dest)):
        problem = _("The folder %(folder)s does not exist.", folder=os.path.dirname(dest))
    else:
        try:
            games = storage.backup(database, dest)
        except (sqlite3.Error, OSError) as error:
            problem = _("The backup failed (%(error)s); nothing was written to %(dest)s.",
                        error=error, dest=dest)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    print(_("The backup of %(database)s is in %(dest)s. Games in it: %(count)s.",
            database=database, dest=dest, count=games))
    return 0


def _warm_pdf_fonts(app) -> None:
    """Register the PDF fonts now, so the first scoresheet does not wait for them."""
    from .pdf import FontsMissing, fonts
    try:
        fonts(app.config.get("PDF_FONT_DIR"))
    except FontsMissing as missing:
        print(f"Warning: {missing}", flush=True)


def _warm_photo_reader(app) -> None:
    """Load the photo reader and its models now, so that the first photo of the night
    takes no longer than the next ones (through the server, a 12 MP photo of 12 tiles
    took 2.1 s as the first photo, 0.7-0.8 s as the next: docs/photo-reader.md, round M).
    When photos are read in processes of their own (PHOTO_PROCESSES), those are started
    now, each loading the reader as it starts; each leaves within a second of the server,
    however the server stops (scorekeeper.photo.worker).  A process lost meanwhile is
    started again by the first photo."""
    processes = app.extensions["scorekeeper.photo_reads"].processes
    if processes is None:
        from .photo.reader import load
        load()
        return
    from .photo.worker import WorkerLost
    try:
        processes.start()
    except WorkerLost:
        pass


if __name__ == "__main__":
    main()
