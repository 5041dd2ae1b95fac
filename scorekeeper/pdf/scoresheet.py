"""The scoresheets (PDF): filled for a game, blank for a planned one.

Pure of Flask: :func:`scoresheet_pdf` takes a :class:`~scorekeeper.game.Game`
value and :func:`blank_scoresheet_pdf` plain arguments; both answer PDF bytes,
so a shell or a bot can print a sheet too.  ``views/printing.py`` serves them.
The text goes through the pen (:mod:`.pen`: fonts per script, Thai shaping); the
engine dominoes and the winner's star are :mod:`.shapes`.

The sheet is first data (:class:`_Sheet`: what is written where, from a game
or from a plan), then drawn a part at a time: the header, the footer, the block
under the grid (measured first), the grid (:class:`_Grid`: its rows and columns
fitted to the room left), its header row, rounds, summary and lines.

Decisions worth knowing:

* One page, always.  The grid is drawn straight on a reportlab canvas (no
  flowables): row height shrinks to fit the rounds, the summary rows and the
  tiebreak notes, so a 14-player double-18 game (19 rounds) fits one page.
  More than :data:`PORTRAIT_MAX_PLAYERS` players turn the page to landscape.
* Zero rounds are marked by a circled 0 on a pale green cell; first place by a
  gold cell with a star; totals are bold on a tinted row.
* Each seat's header carries its train marker in the seat's colour beside the
  seat number (the name stays: colour is never the only cue).
* A game's sheet carries its check code (``checkcode.py``) and the QR code of its
  verification page, in a box at the right of the block under the grid, the QR
  also a link; a blank sheet carries none.  The game's time (its recorded rounds'
  times added up, ``timing.py``) is a line under the status.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar, Sequence

from reportlab.lib.pagesizes import landscape
from reportlab.pdfgen.canvas import Canvas

from ..errors import BadInput
from ..game import Game, parse_game_name, parse_players
from ..options import MAX_PLAYERS, MIN_PLAYERS, RuleOptions, deal_for, parse_engines, round_engines
from ..text import N_, _, format_date, format_list, ngettext
from ..tiles import parse_set
from .pen import (FRAME, GRID, HEADER_FILL, INK, MUTED, PAPERS, STRIPE, TOTAL_FILL, WHITE,
                  WIN_FILL, ZERO_FILL, ZERO_RING, Page, Pen, draw_footer, one_page, parse_paper)
from ..timing import format_duration
from .shapes import draw_domino, draw_qr, draw_star, draw_train_mark

#: Up to this many players the sheet is portrait; more turn it to landscape.
PORTRAIT_MAX_PLAYERS = 8


# --- the sheet as data ---------------------------------------------------------

@dataclass(frozen=True)
class _Summary:
    """The rows under the rounds, as printed: one value per seat in each."""

    totals: list[str]
    zero_rounds: list[str]
    lowest: list[str]
    places: list[str]
    first: list[bool]           # players in first place (gold cell), only for a finished game


@dataclass(frozen=True)
class _Sheet:
    """What a sheet says and where, whether from a game or from a plan: drawn as it is."""

    title: str | None           # None: a line to write the game's name on
    date: str | None            # None: a line to write the date on
    set_n: int
    engines: list[int]
    options: RuleOptions
    players: list[str | None]   # None: a blank box to write a name in
    cells: list[list[int | None]]   # [round][player]; None: empty
    summary: _Summary | None    # None: summary rows left empty
    status: str | None          # the line under the grid (winner, or "in progress")
    notes: list[str]            # tiebreak sentences (R8)
    hint: str | None            # the small print for a blank sheet
    colours: list[str] | None = None   # each seat's train colour (a game's sheet)
    check: tuple[str, str] | None = None   # the check code as shown, the verify page's URL
    game_time: str | None = None    # the line saying how long the game took (so far)


@dataclass(frozen=True)
class _CheckBox:
    """The check code's box at the right of the block under the grid: the QR code and,
    left of it, the code with its label and a line on what it is for."""

    qr: ClassVar[float] = 60.0      # the QR code's side (about 21 mm: a phone reads it)
    text_w: ClassVar[float] = 112.0
    gap: ClassVar[float] = 8.0

    @classmethod
    def width(cls) -> float:
        return cls.qr + cls.gap + cls.text_w


def _game_sheet(game: Game, check: tuple[str, str] | None = None) -> _Sheet:
    standings = game.standings()
    by_player = {row.player: row for row in standings.rows}
    rows = [by_player[p] for p in game.players]
    cells = [[None if r.scores is None else r.scores.get(p) for p in game.players]
             for r in game.rounds]
    played = game.played
    summary = _Summary(
        totals=[str(r.total) for r in rows],
        zero_rounds=[str(r.zero_rounds) for r in rows],
        lowest=["–" if r.lowest_nonzero is None else str(r.lowest_nonzero) for r in rows],
        places=[str(r.place) for r in rows],
        first=[standings.complete and r.place == 1 for r in rows],
    ) if played else None
    if standings.complete:
        winners = standings.winners
        points = by_player[winners[0]].total
        if len(winners) == 1:
            status = _("Winner: %(name)s with %(points)s points (R8.1).",
                       name=winners[0], points=points)
        else:
            status = _("Shared first place: %(names)s with %(points)s points each (R8.4).",
                       names=format_list(winners), points=points)
    elif played:
        status = _("In progress: %(played)s of %(rounds)s rounds played; totals and places so far.",
                   played=played, rounds=len(game.rounds))
    else:
        # Nothing recorded yet: printed to keep score by hand, like a blank sheet.
        status = None
    game_time = None
    if game.seconds is not None:
        game_time = (_("Game time: %(time)s", time=format_duration(game.seconds))
                     if standings.complete else
                     _("Time so far: %(time)s", time=format_duration(game.seconds)))
    return _Sheet(
        title=game.display_name(), date=game.created_at[:10] or None, set_n=game.set,
        engines=[r.engine for r in game.rounds], options=game.options,
        players=list(game.players), cells=cells, summary=summary, status=status,
        # with no round played everyone "ties" at 0: no tiebreak to explain yet
        notes=list(standings.notes) if played else [],
        hint=None if played else _hand_scoring_hint(),
        colours=list(game.colours_by_player.values()), check=check, game_time=game_time)


def _hand_scoring_hint() -> str:
    """The small print of a sheet kept by hand: how to mark zero rounds and break ties (R8)."""
    return _("A zero round (the player went out) scores 0; circle it. Lowest total wins "
             "(R8.1). Equal totals: more zero rounds ranks higher (R8.2), then the lower "
             "lowest non-zero round (R8.3); still equal, they share the place (R8.4).")


def _blank_sheet(players: list[str | None], set_n: int, engines: list[int],
                 options: RuleOptions, name: str) -> _Sheet:
    return _Sheet(
        title=name or None, date=None, set_n=set_n, engines=engines, options=options,
        players=players, cells=[[None] * len(players) for _e in engines], summary=None,
        status=None, notes=[], hint=_hand_scoring_hint())


# --- drawing -----------------------------------------------------------------

@dataclass(frozen=True)
class _Line:
    """A line of text under the grid, *offset* points below the grid's bottom edge."""

    text: str
    size: float
    bold: bool
    x: float
    offset: float
    rule_to: float | None = None    # a write-in line from the text's end to this x


#: The rows under the rounds, each a whole message (translated when drawn).
_SUMMARY_LABELS = (N_("Total"), N_("Zero rounds"), N_("Lowest non-zero"), N_("Place"))


@dataclass(frozen=True)
class _Grid:
    """Where the grid's rows and columns go, computed once from the room left."""

    x: float            # left edge
    top: float          # top edge (the header row's top)
    head_h: float       # the header row (seats and names)
    label_w: float      # the label column (round, engine)
    col_w: float        # one player's column
    players: int
    rounds: int
    rh: float           # every row under the header
    num_size: float     # the scores
    half: float         # one end of an engine domino
    engine_size: float  # the engine's name beside its domino
    gap: ClassVar[float] = 3.0   # the double rule between the rounds and the summary

    @classmethod
    def fit(cls, pen: Pen, sheet: _Sheet, page: Page, top: float,
            bottom_limit: float) -> "_Grid":
        """The grid between *top* and *bottom_limit*: rows shrink (or grow) to fill it."""
        n = len(sheet.players)
        # The header row grows (up to 64 pt) when a long name needs more than three lines.
        head_h = 34.0
        col_w_est = min(118.0, (page.width - 90.0) / n)    # the label column is at most ~90 pt
        for name in sheet.players:
            if name:
                lines = pen.wrap(name, col_w_est - 8, 6.5, bold=True)
                head_h = max(head_h, min(64.0, len(lines) * 6.5 * 1.15 + 12))
        engines = sheet.engines
        n_rows = len(engines) + len(_SUMMARY_LABELS)
        gap = cls.gap
        rh = (top - bottom_limit - head_h - gap) / n_rows
        # Taller rows on a blank sheet leave room to write by hand.
        rh = max(11.0, min(30.0 if sheet.summary is None else 26.0, rh))
        num_size = min(10.5, rh * 0.62)
        # The label column: round number, the engine as a domino, its name ("12-12").
        half = min(rh * 0.72, 15.0)
        engine_size = min(8.0, num_size)
        engine_w = max(pen.width(f"{e}-{e}", engine_size) for e in engines)
        label_w = max(72.0, 22 + 2 * half + 4 + engine_w + 5)
        col_w = min(118.0, (page.width - label_w) / n)
        x = page.left + (page.width - (label_w + col_w * n)) / 2
        return cls(x=x, top=top, head_h=head_h, label_w=label_w, col_w=col_w, players=n,
                   rounds=len(engines), rh=rh, num_size=num_size, half=half,
                   engine_size=engine_size)

    @property
    def width(self) -> float:
        return self.label_w + self.col_w * self.players

    @property
    def rounds_top(self) -> float:
        return self.top - self.head_h

    @property
    def summary_top(self) -> float:
        return self.rounds_top - self.rounds * self.rh - self.gap

    @property
    def bottom(self) -> float:
        return self.summary_top - len(_SUMMARY_LABELS) * self.rh

    def column(self, i: int) -> float:
        """The left edge of player *i*'s column."""
        return self.x + self.label_w + i * self.col_w

    def band(self, c: Canvas, top_y: float, color) -> None:
        """Fill one row of the whole grid's width."""
        c.setFillColor(color)
        c.rect(self.x, top_y - self.rh, self.width, self.rh, stroke=0, fill=1)


def _render(sheet: _Sheet, paper: str, printed: datetime | None, font_dir: str | None) -> bytes:
    """The sheet on one page of *paper* (landscape above PORTRAIT_MAX_PLAYERS), as PDF bytes."""
    size = PAPERS[paper]
    if len(sheet.players) > PORTRAIT_MAX_PLAYERS:
        size = landscape(size)
    title_for_meta = sheet.title or _("Blank scoresheet")
    return one_page(size, lambda pen: _draw_sheet(pen, sheet, Page.of(*size), printed),
                    title=_("Scoresheet: %(title)s", title=title_for_meta),
                    subject=_("Mexican Train scoresheet"), font_dir=font_dir)


def _draw_sheet(pen: Pen, sheet: _Sheet, page: Page, printed: datetime | None) -> None:
    """Every part of the sheet, in order: the grid's rows take the room the others leave."""
    c = pen.c
    header_bottom = _draw_header(pen, sheet, page)
    footer_top = draw_footer(pen, page, printed)
    # The block under the grid is measured first, so the grid's rows take what is left.
    block, block_h = _under_grid(pen, sheet, page)
    grid = _Grid.fit(pen, sheet, page, top=header_bottom - 10,
                     bottom_limit=footer_top + block_h + (10 if block_h else 0))
    _draw_header_row(pen, sheet, grid)
    _draw_rounds(pen, sheet, grid)
    _draw_summary(pen, sheet, grid)
    _draw_grid_lines(c, grid)
    _draw_lines(pen, block, grid.bottom - 10)
    if sheet.check is not None:
        _draw_check(pen, sheet.check, page, grid.bottom - 10)


def _draw_header(pen: Pen, sheet: _Sheet, page: Page) -> float:
    """The game's name (or a line to write it on), set and rounds, date, rules; answers
    the y of the rule under it."""
    c = pen.c
    left, right, top = page.left, page.right, page.top
    right_w = 190.0
    y = top - 17
    if sheet.title is not None:
        title, tsize = pen.fit(sheet.title, page.width - right_w - 10, 18, 11, bold=True)
        pen.draw(left, y, title, tsize, bold=True)
    else:
        label = _("Game:")
        lw = pen.draw(left, y, label, 14, bold=True)
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.6)
        c.line(left + lw + 6, y - 3, right - right_w - 10, y - 3)
    # right block: set and rounds, then the date
    set_line = ngettext("Double-%(n)s set · %(num)s round", "Double-%(n)s set · %(num)s rounds",
                        len(sheet.engines), n=sheet.set_n)
    pen.draw(right, top - 11, pen.fit(set_line, right_w, 10, 7, bold=True)[0], 10, bold=True,
             align="right")
    if sheet.date is not None:
        pen.draw(right, top - 25, _("Played %(date)s", date=format_date(sheet.date)), 9, color=MUTED,
                 align="right")
    else:
        dl = _("Date:")
        c.setStrokeColor(MUTED)
        c.setLineWidth(0.6)
        c.line(right - 95, top - 28, right, top - 28)
        pen.draw(right - 100, top - 26, dl, 9, color=MUTED, align="right")
    engines = sheet.engines
    deal = deal_for(sheet.set_n, len(sheet.players), sheet.options)
    # Short labels side by side, each a whole message (the order of labels is no grammar).
    labels = sheet.options.summary_items()
    labels.append(ngettext("%(num)s tile each", "%(num)s tiles each", deal.tiles_each))
    if engines[0] == engines[-1]:
        labels.append(_("engine %(first)s-%(first)s", first=engines[0]))
    else:
        labels.append(_("engines %(first)s-%(first)s down to %(last)s-%(last)s",
                         first=engines[0], last=engines[-1]))
    rules = " · ".join(labels)
    rules, rsize = pen.fit(rules, page.width - right_w - 10, 9, 6.5)
    pen.draw(left, top - 34, rules, rsize, color=MUTED)
    header_bottom = top - 44
    c.setStrokeColor(FRAME)
    c.setLineWidth(1.2)
    c.line(left, header_bottom, right, header_bottom)
    return header_bottom


def _under_grid(pen: Pen, sheet: _Sheet, page: Page) -> tuple[list[_Line], float]:
    """The block under the grid, measured, not drawn: the status line (or a winner line
    to fill in), the tiebreak notes, the rules reminder of a blank sheet; and its height."""
    left, inner_w = page.left, page.width
    if sheet.check is not None:   # the check code's box takes the right of the block
        inner_w -= _CheckBox.width() + 12
    wide = inner_w >= 620
    note_size = 8.0
    note_lead = note_size * 1.3
    block: list[_Line] = []
    block_h = 0.0
    if sheet.status:
        status, size = pen.fit(sheet.status, inner_w, 10.5, 7, bold=True)
        block.append(_Line(status, size, True, left, block_h + 11))
        block_h += 16
    elif sheet.summary is None:
        block.append(_Line(_("Winner:"), 10.5, True, left, block_h + 11,
                           rule_to=left + min(inner_w, 360)))
        block_h += 20
    if sheet.game_time:
        block.append(_Line(sheet.game_time, 9, False, left, block_h + 9))
        block_h += 13
    if sheet.notes:
        block.append(_Line(_("Tiebreaks (R8):"), note_size, True, left,
                           block_h + note_size + 2))
        block_h += note_lead + 2
        cols = 2 if wide and len(sheet.notes) > 3 else 1
        col_w = (inner_w - 12 * (cols - 1)) / cols
        per_col = -(-len(sheet.notes) // cols)
        col_heights = []
        for ci in range(cols):
            h = 0.0
            for note in sheet.notes[ci * per_col:(ci + 1) * per_col]:
                for line in pen.wrap("• " + note, col_w, note_size):
                    block.append(_Line(line, note_size, False, left + ci * (col_w + 12),
                                       block_h + h + note_size + 1))
                    h += note_lead
            col_heights.append(h)
        block_h += max(col_heights) + 2
    if sheet.hint:
        for line in pen.wrap(sheet.hint, inner_w, note_size):
            block.append(_Line(line, note_size, False, left, block_h + note_size + 1))
            block_h += note_lead
        block_h += 2
    if sheet.check is not None:
        block_h = max(block_h, _CheckBox.qr + 2)
    return block, block_h


def _draw_header_row(pen: Pen, sheet: _Sheet, grid: _Grid) -> None:
    """The grid's first row: the label column's title, then each seat's number and name
    (or a box to write the name in)."""
    c = pen.c
    y0, head_h, col_w = grid.top, grid.head_h, grid.col_w
    c.setFillColor(HEADER_FILL)
    c.rect(grid.x, y0 - head_h, grid.width, head_h, stroke=0, fill=1)
    # One label, wrapped to the column: "Round and engine" stays one sentence to translate.
    head = pen.wrap(_("Round and engine"), grid.label_w - 8, 7.5, bold=True)[:3]
    lead = 7.5 * 1.15
    first_base = y0 - head_h / 2 + (len(head) - 1) * lead / 2 - 2.5
    for k, line in enumerate(head):
        pen.draw(grid.x + 5, first_base - k * lead, line, 7.5, bold=True, color=MUTED)
    for i, name in enumerate(sheet.players):
        cx = grid.column(i)
        seat_w = pen.draw(cx + 3, y0 - 8, str(i + 1), 6.5, color=MUTED)
        if sheet.colours:
            draw_train_mark(c, cx + 3 + seat_w + 2.5, y0 - 9, 10.5, sheet.colours[i])
        if name is None:
            c.setFillColor(WHITE)
            c.setStrokeColor(GRID)
            c.setLineWidth(0.5)
            c.roundRect(cx + 4, y0 - head_h + 4, col_w - 8, head_h - 14, 2, stroke=1, fill=1)
            continue
        lines, nsize = pen.name_lines(name, col_w - 8, head_h - 10, min_size=6.0)
        lead = nsize * 1.15
        block_top = y0 - 9 - (head_h - 10 - lead * len(lines)) / 2
        for k, line in enumerate(lines):
            pen.draw(cx + col_w / 2, block_top - lead * (k + 1) + nsize * 0.28, line, nsize,
                     bold=True, align="center")


def _draw_rounds(pen: Pen, sheet: _Sheet, grid: _Grid) -> None:
    """A row per round: its number, the engine as a domino and by name, the scores (a zero
    round on a pale green cell, circled)."""
    c = pen.c
    rh, num_size, half, col_w = grid.rh, grid.num_size, grid.half, grid.col_w
    for k, engine in enumerate(sheet.engines):
        top_y = grid.rounds_top - k * rh
        if k % 2 == 1:
            grid.band(c, top_y, STRIPE)
        base = top_y - rh / 2 - num_size * 0.35
        pen.draw(grid.x + 16, base, str(k + 1), num_size, bold=True, align="right")
        dx = grid.x + 22
        draw_domino(c, dx, top_y - rh / 2 - half / 2, half, engine)
        pen.draw(dx + 2 * half + 4, top_y - rh / 2 - grid.engine_size * 0.35,
                 f"{engine}-{engine}", grid.engine_size, color=MUTED)
        for i, value in enumerate(sheet.cells[k]):
            if value is None:
                continue
            cx = grid.column(i) + col_w / 2
            if value == 0:
                c.setFillColor(ZERO_FILL)
                c.rect(grid.column(i), top_y - rh, col_w, rh, stroke=0, fill=1)
                c.setStrokeColor(ZERO_RING)
                c.setLineWidth(0.9)
                c.circle(cx, top_y - rh / 2, min(rh * 0.4, num_size * 0.85), stroke=1, fill=0)
                pen.draw(cx, base, "0", num_size, bold=True, color=ZERO_RING, align="center")
            else:
                pen.draw(cx, base, str(value), num_size, align="center")


def _draw_summary(pen: Pen, sheet: _Sheet, grid: _Grid) -> None:
    """Total, zero rounds, lowest non-zero round and place (left empty on a sheet with no
    round played); first place on a gold cell with a star once the game is finished."""
    c = pen.c
    rh, num_size, col_w = grid.rh, grid.num_size, grid.col_w
    summary = sheet.summary
    values = [summary.totals, summary.zero_rounds, summary.lowest, summary.places] \
        if summary else [None] * len(_SUMMARY_LABELS)
    for k, label in enumerate(_SUMMARY_LABELS):
        top_y = grid.summary_top - k * rh
        bold = k in (0, 3)   # the total and the place
        if k == 0:
            grid.band(c, top_y, TOTAL_FILL)
        elif k % 2 == 0:
            grid.band(c, top_y, STRIPE)
        lsize = min(8.5, rh * 0.58)
        text, lsize = pen.fit(_(label), grid.label_w - 8, lsize, 5.5, bold=bold)
        pen.draw(grid.x + 5, top_y - rh / 2 - lsize * 0.35, text, lsize, bold=bold)
        row = values[k]
        if row is None:
            continue
        for i, value in enumerate(row):
            x0 = grid.column(i)
            cx = x0 + col_w / 2
            if k == 3 and summary.first[i]:
                c.setFillColor(WIN_FILL)
                c.rect(x0, top_y - rh, col_w, rh, stroke=0, fill=1)
                w = pen.width(value, num_size, True)
                draw_star(c, cx - w / 2 - num_size * 0.75, top_y - rh / 2, num_size * 0.45, INK)
            pen.draw(cx, top_y - rh / 2 - num_size * 0.35, value, num_size, bold=bold,
                     align="center")


def _draw_grid_lines(c: Canvas, grid: _Grid) -> None:
    """The thin lines between rows and columns, the frame, the double rule above the
    summary."""
    gx, y0, rh, right = grid.x, grid.top, grid.rh, grid.x + grid.width
    ry, sy, bottom = grid.rounds_top, grid.summary_top, grid.bottom
    c.setStrokeColor(GRID)
    c.setLineWidth(0.4)
    for k in range(1, grid.rounds):
        c.line(gx, ry - k * rh, right, ry - k * rh)
    for k in range(1, len(_SUMMARY_LABELS)):
        c.line(gx, sy - k * rh, right, sy - k * rh)
    for i in range(1, grid.players):
        c.line(grid.column(i), y0, grid.column(i), bottom)
    c.setStrokeColor(FRAME)
    c.setLineWidth(0.9)
    c.line(grid.column(0), y0, grid.column(0), bottom)
    c.line(gx, ry, right, ry)
    # the double rule between the rounds and the summary
    c.line(gx, ry - grid.rounds * rh, right, ry - grid.rounds * rh)
    c.line(gx, sy, right, sy)
    c.setLineWidth(1.3)
    c.rect(gx, bottom, grid.width, y0 - bottom, stroke=1, fill=0)


def _draw_check(pen: Pen, check: tuple[str, str], page: Page, top: float) -> None:
    """The check code's box (:class:`_CheckBox`), its top at *top*, against the right
    margin: the QR code of the verification page (a link too), the code beside it."""
    code, url = check
    c = pen.c
    qr_x, qr_y = page.right - _CheckBox.qr, top - _CheckBox.qr
    draw_qr(c, qr_x, qr_y, _CheckBox.qr, url)
    c.linkURL(url, (qr_x, qr_y, qr_x + _CheckBox.qr, top), relative=0)
    right = qr_x - _CheckBox.gap
    label, lsize = pen.fit(_("Check code"), _CheckBox.text_w, 7.5, 6, bold=True)
    pen.draw(right, top - 9, label, lsize, bold=True, color=MUTED, align="right")
    pen.draw(right, top - 25, code, 13, bold=True, align="right")
    for k, line in enumerate(pen.wrap(_("Scan the QR code to check that this sheet still "
                                        "matches the game."), _CheckBox.text_w, 6.5)[:4]):
        pen.draw(right, top - 36 - k * 8, line, 6.5, color=MUTED, align="right")


def _draw_lines(pen: Pen, block: list[_Line], top: float) -> None:
    """The block under the grid (from :func:`_under_grid`), starting at *top*."""
    c = pen.c
    for line in block:
        y_line = top - line.offset
        w = pen.draw(line.x, y_line, line.text, line.size, bold=line.bold,
                     color=INK if line.bold else MUTED)
        if line.rule_to is not None:
            c.setStrokeColor(MUTED)
            c.setLineWidth(0.6)
            c.line(line.x + w + 6, y_line - 3, line.rule_to, y_line - 3)


# --- the public functions --------------------------------------------------------

def scoresheet_pdf(game: Game, paper: str = "A4", *, printed: datetime | None = None,
                   font_dir: str | None = None, check: tuple[str, str] | None = None) -> bytes:
    """The filled scoresheet of *game* (in progress or finished), one page, as PDF bytes;
    *check* is its check code as shown and the address of its verification page (the
    QR code's), printed in a box under the grid."""
    paper = parse_paper(paper)
    return _render(_game_sheet(game, check), paper, printed, font_dir)


def blank_scoresheet_pdf(players: Sequence[str] | None = None, count: int | None = None,
                         set_n: int = 12, start_engine: int | None = None,
                         end_engine: int | None = None, options: RuleOptions | None = None,
                         paper: str = "A4", *, name: str | None = None,
                         printed: datetime | None = None, font_dir: str | None = None) -> bytes:
    """A blank scoresheet for a planned game, as PDF bytes.

    Give either *players* (names in seating order, printed in the header) or
    *count* (2–14 blank name boxes to write in).  Engines and options are
    printed as the game will be played; every score cell is empty.  Bad input
    raises BadInput with a sentence and the field.
    """
    if players is not None and count is not None:
        raise BadInput(_("Give either the players' names or a number of players, not both."),
                       "count")
    if players is not None:
        seats: list[str | None] = list(parse_players(list(players)))
    elif count is None:
        raise BadInput(_("Give the players' names or the number of players (2 to 14)."), "count")
    elif isinstance(count, bool) or not isinstance(count, int) \
            or not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise BadInput(_("The number of players must be a whole number from %(min)s to %(max)s "
                         "(R1.1).", min=MIN_PLAYERS, max=MAX_PLAYERS), "count")
    else:
        seats = [None] * count
    set_n = parse_set(set_n)
    start, end = parse_engines(set_n, start_engine, end_engine)
    options = options or RuleOptions()
    paper = parse_paper(paper)
    title = parse_game_name(name)
    sheet = _blank_sheet(seats, set_n, round_engines(set_n, start, end), options, title)
    return _render(sheet, paper, printed, font_dir)


__all__ = ["scoresheet_pdf", "blank_scoresheet_pdf", "PORTRAIT_MAX_PLAYERS"]
