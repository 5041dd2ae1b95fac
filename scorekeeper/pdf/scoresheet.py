"""The scoresheets (PDF): filled for a game, blank for a planned one.

Pure of Flask: :func:`scoresheet_pdf` takes a :class:`~scorekeeper.game.Game`
value and :func:`blank_scoresheet_pdf` plain arguments; both answer PDF bytes,
so a shell or a bot can print a sheet too.  ``views/printing.py`` serves them.
The text goes through the pen (:mod:`.pen`: fonts per script, Thai shaping); the
engine dominoes and the winner's star are :mod:`.shapes`.

The sheet is first data (:class:`Sheet`: what is written where, from a game
or from a plan), then drawn a part at a time: the header, the footer, the block
under the grid (measured first), the grid (:class:`Grid`: its rows and columns
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

from ..errors import BadInput
from ..game import Game, parse_game_name, parse_players
from ..options import MAX_PLAYERS, MIN_PLAYERS, RuleOptions, deal_for, parse_engines, round_engines
from ..text import _, format_date, ngettext
from ..tiles import parse_set
from .grid import Grid, draw_grid_lines, draw_header_row, draw_rounds, draw_summary
from .pen import FRAME, INK, MUTED, PAPERS, Page, Pen, draw_footer, one_page, parse_paper
from .shapes import draw_qr
from .sheet import Sheet, blank_sheet, game_sheet

#: Up to this many players the sheet is portrait; more turn it to landscape.
PORTRAIT_MAX_PLAYERS = 8


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


def _render(sheet: Sheet, paper: str, printed: datetime | None, font_dir: str | None) -> bytes:
    """The sheet on one page of *paper* (landscape above PORTRAIT_MAX_PLAYERS), as PDF bytes."""
    size = PAPERS[paper]
    if len(sheet.players) > PORTRAIT_MAX_PLAYERS:
        size = landscape(size)
    title_for_meta = sheet.title or _("Blank scoresheet")
    return one_page(size, lambda pen: _draw_sheet(pen, sheet, Page.of(*size), printed),
                    title=_("Scoresheet: %(title)s", title=title_for_meta),
                    subject=_("Mexican Train scoresheet"), font_dir=font_dir)


def _draw_sheet(pen: Pen, sheet: Sheet, page: Page, printed: datetime | None) -> None:
    """Every part of the sheet, in order: the grid's rows take the room the others leave."""
    c = pen.c
    header_bottom = _draw_header(pen, sheet, page)
    footer_top = draw_footer(pen, page, printed)
    # The block under the grid is measured first, so the grid's rows take what is left.
    block, block_h = _under_grid(pen, sheet, page)
    grid = Grid.fit(pen, sheet, page, top=header_bottom - 10,
                     bottom_limit=footer_top + block_h + (10 if block_h else 0))
    draw_header_row(pen, sheet, grid)
    draw_rounds(pen, sheet, grid)
    draw_summary(pen, sheet, grid)
    draw_grid_lines(c, grid)
    _draw_lines(pen, block, grid.bottom - 10)
    if sheet.check is not None:
        _draw_check(pen, sheet.check, page, grid.bottom - 10)


def _draw_header(pen: Pen, sheet: Sheet, page: Page) -> float:
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


def _under_grid(pen: Pen, sheet: Sheet, page: Page) -> tuple[list[_Line], float]:
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
    return _render(game_sheet(game, check), paper, printed, font_dir)


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
    sheet = blank_sheet(seats, set_n, round_engines(set_n, start, end), options, title)
    return _render(sheet, paper, printed, font_dir)


__all__ = ["scoresheet_pdf", "blank_scoresheet_pdf", "PORTRAIT_MAX_PLAYERS"]
