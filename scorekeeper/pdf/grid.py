"""The scoresheet's grid (:class:`Grid`): its rows and columns fitted to the room the
header and the block under it leave, and the drawing of its header row (seats, names,
train markers), its rounds (the engine dominoes, the scores, zero rounds circled), its
summary rows (totals, zero rounds, lowest, places; first place starred) and its lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from reportlab.pdfgen.canvas import Canvas

from ..house_view import signed
from ..text import N_, _
from .pen import (FRAME, GRID, HEADER_FILL, INK, MUTED, STRIPE, TOTAL_FILL, WHITE, WIN_FILL,
                  ZERO_FILL, ZERO_RING, Page, Pen)
from .shapes import draw_domino, draw_star, draw_train_mark
from .sheet import Sheet


#: The rows under the rounds, each a whole message (translated when drawn).
SUMMARY_LABELS = (N_("Total"), N_("Zero rounds"), N_("Lowest non-zero"), N_("Place"))


@dataclass(frozen=True)
class Grid:
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
    def fit(cls, pen: Pen, sheet: Sheet, page: Page, top: float,
            bottom_limit: float) -> "Grid":
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
        n_rows = len(engines) + len(SUMMARY_LABELS)
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
        return self.summary_top - len(SUMMARY_LABELS) * self.rh

    def column(self, i: int) -> float:
        """The left edge of player *i*'s column."""
        return self.x + self.label_w + i * self.col_w

    def band(self, c: Canvas, top_y: float, color) -> None:
        """Fill one row of the whole grid's width."""
        c.setFillColor(color)
        c.rect(self.x, top_y - self.rh, self.width, self.rh, stroke=0, fill=1)


def draw_header_row(pen: Pen, sheet: Sheet, grid: Grid) -> None:
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


def draw_rounds(pen: Pen, sheet: Sheet, grid: Grid) -> None:
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
            elif sheet.parts and sheet.parts[k][i]:
                _draw_parts(pen, grid, grid.column(i), base, sheet.parts[k][i], value)
            else:
                pen.draw(cx, base, str(value), num_size, align="center")


def _draw_parts(pen: Pen, grid: Grid, x0: float, base: float, parts: str, value: int) -> None:
    """A house-scored cell (R11.5): the hand and its bonus or penalty small and muted on
    the left ("9 + 15 ="), the score that counts on the right."""
    shown = signed(value)
    pen.draw(x0 + grid.col_w - 3, base, shown, grid.num_size, bold=True, align="right")
    room = grid.col_w - pen.width(shown, grid.num_size, True) - 8
    text, size = pen.fit(parts, room, grid.num_size * 0.62, 4.0)
    pen.draw(x0 + 3, base, text, size, color=MUTED)


def draw_summary(pen: Pen, sheet: Sheet, grid: Grid) -> None:
    """Total, zero rounds, lowest non-zero round and place (left empty on a sheet with no
    round played); first place on a gold cell with a star once the game is finished."""
    c = pen.c
    rh, num_size, col_w = grid.rh, grid.num_size, grid.col_w
    summary = sheet.summary
    values = [summary.totals, summary.zero_rounds, summary.lowest, summary.places] \
        if summary else [None] * len(SUMMARY_LABELS)
    for k, label in enumerate(SUMMARY_LABELS):
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


def draw_grid_lines(c: Canvas, grid: Grid) -> None:
    """The thin lines between rows and columns, the frame, the double rule above the
    summary."""
    gx, y0, rh, right = grid.x, grid.top, grid.rh, grid.x + grid.width
    ry, sy, bottom = grid.rounds_top, grid.summary_top, grid.bottom
    c.setStrokeColor(GRID)
    c.setLineWidth(0.4)
    for k in range(1, grid.rounds):
        c.line(gx, ry - k * rh, right, ry - k * rh)
    for k in range(1, len(SUMMARY_LABELS)):
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
