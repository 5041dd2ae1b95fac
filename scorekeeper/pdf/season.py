"""The season table printed on one page (PDF), with the scoresheet's fonts and scripts.

Pure of Flask, like the scoresheet, and written with the same pen (:mod:`.pen`: font
fallback per character, Thai shaping, ActualText for extraction), canvas and colours:
a name in any script prints here as it does on a game's sheet.  One page, always: the
rows shrink to fit every player (ranked first, then those with too few games) and the
tie sentences.

Drawn a part at a time, as the scoresheet is: the header (the season, its dates, the
order), the footer, then the table laid out in the room left (:class:`_Layout`: its
columns, its rows' height, the tie notes that fit), its column headings, its rows, its
frame, and the tie notes under it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ..records import Record, SeasonTable
from ..text import _, format_date, format_decimal, ngettext
from .pen import (FRAME, GRID, HEADER_FILL, INK, MUTED, PAPERS, STRIPE, WIN_FILL, Page, Pen,
                  draw_footer, one_page, parse_paper)


#: The least height of a row while tie notes are still printed under the table.
MIN_ROW = 12.0


def _columns() -> list[tuple[str, float, str]]:
    """(heading, share of the width, alignment) of each column, in order."""
    return [(_("Place"), 0.07, "center"), (_("Player"), 0.27, "left"),
            (_("Games"), 0.09, "right"), (_("Wins"), 0.08, "right"),
            (_("Average per round"), 0.13, "right"), (_("Zero rounds"), 0.12, "right"),
            (_("Points"), 0.10, "right"), (_("Lowest game"), 0.14, "right")]


def _cells(record: Record, place: str) -> list[str]:
    """A player's row as printed, in the order of :func:`_columns`."""
    avg = record.average_per_round
    return [place, record.name, str(record.games), str(record.wins),
            format_decimal(avg) if avg is not None else "–", str(record.zero_rounds),
            str(record.points), "–" if record.lowest_game is None else str(record.lowest_game)]


def season_pdf(table: SeasonTable, paper: str = "A4", *, printed: datetime | None = None,
               font_dir: str | None = None) -> bytes:
    """The season's standings on one page, as PDF bytes."""
    size = PAPERS[parse_paper(paper)]
    return one_page(size, lambda pen: _draw_page(pen, table, Page.of(*size, margin=36.0),
                                                 printed),
                    title=_("Season table: %(name)s", name=table.season.name),
                    font_dir=font_dir)


def _draw_page(pen: Pen, table: SeasonTable, page: Page, printed: datetime | None) -> None:
    """Every part of the page, in order: the rows take the room the others leave."""
    head_bottom = _draw_header(pen, table, page)
    footer_top = draw_footer(pen, page, printed)
    layout = _Layout.fit(pen, table, page, top=head_bottom - 8, bottom_limit=footer_top)
    _draw_column_heads(pen, layout)
    bottom = _draw_rows(pen, table, layout)
    _draw_frame(pen, layout, bottom)
    _draw_under_table(pen, layout, bottom)


def _draw_header(pen: Pen, table: SeasonTable, page: Page) -> float:
    """The season's name, its dates, the order it is ranked by and the minimum of games;
    answers the y of the rule under it."""
    c = pen.c
    season = table.season
    left, right, top = page.left, page.right, page.top
    width = page.width
    title, size = pen.fit(season.name, width, 20, 11, bold=True)
    pen.draw(left, top - 18, title, size, bold=True)
    dates = _("%(start)s to %(end)s", start=format_date(season.start),
              end=format_date(season.end))
    order = (_("Ranked by wins, then the lower average per round, then more zero rounds.")
             if table.rank_by == "wins" else
             _("Ranked by the lower average per round, then more wins, then more zero rounds."))
    pen.draw(left, top - 36, pen.fit(dates, width, 10.5, 7)[0], 10.5, color=MUTED)
    pen.draw(left, top - 50, pen.fit(order, width, 9, 6.5)[0], 9, color=MUTED)
    head_bottom = top - 60
    if table.min_games > 1:
        note = ngettext("Ranked from %(num)s game.", "Ranked from %(num)s games.",
                        table.min_games)
        pen.draw(right, top - 36, note, 9, color=MUTED, align="right")
    c.setStrokeColor(FRAME)
    c.setLineWidth(1.2)
    c.line(left, head_bottom, right, head_bottom)
    return head_bottom


@dataclass(frozen=True)
class _Layout:
    """Where the table's columns and rows go, and which tie notes fit under it, computed
    once from the room left."""

    page: Page
    top: float                  # the top edge of the column headings
    columns: list[tuple[str, float, str]]
    xs: list[float]             # the columns' edges, left to right (one more than columns)
    rows: list[list[str]]       # the ranked players' rows, then the unranked ones'
    row_h: float
    text_size: float
    note_lines: list[str]       # the tie sentences wrapped, cut to what fits
    header_h: ClassVar[float] = 30.0      # the column headings
    notes_size: ClassVar[float] = 8.5     # the tie notes

    @classmethod
    def fit(cls, pen: Pen, table: SeasonTable, page: Page, top: float,
            bottom_limit: float) -> "_Layout":
        """The table between *top* and *bottom_limit*: rows shrink to fit every player."""
        rows = [_cells(r, str(r.place)) for r in table.rows]
        rows += [_cells(r, "–") for r in table.unranked]
        header_h = cls.header_h
        room = top - header_h - bottom_limit - (14 if table.unranked else 0)
        # The tie sentences at the foot of the table, wrapped, as many as leave every row at
        # least MIN_ROW high (the rest are on the season's page).
        notes_size, lead = cls.notes_size, cls.notes_size * 1.3
        note_lines = [line for n in table.notes for line in pen.wrap(n, page.width, notes_size)]
        fits = int(max(0.0, room - 8 - len(rows) * MIN_ROW - lead) // lead)
        if len(note_lines) > fits:
            left_out = len(note_lines) - fits
            note_lines = note_lines[:fits] + [ngettext(
                "… and %(num)s more line of tie notes on the season's page.",
                "… and %(num)s more lines of tie notes on the season's page.", left_out)]
        notes_h = len(note_lines) * lead + (8 if note_lines else 0)
        # Rows shrink to fit one page (a club of 100 still fits, in small print).
        row_h = min(22.0, (room - notes_h) / max(len(rows), 1))
        text_size = max(3.5, min(11.0, row_h * 0.55, row_h * 0.8))
        columns = _columns()
        xs = [page.left]
        for _h, share, _a in columns:
            xs.append(xs[-1] + share * page.width)
        return cls(page=page, top=top, columns=columns, xs=xs, rows=rows, row_h=row_h,
                   text_size=text_size, note_lines=note_lines)


def _draw_column_heads(pen: Pen, layout: _Layout) -> None:
    """The headings on a tinted band, each wrapped to its column."""
    c = pen.c
    y, header_h, xs = layout.top, layout.header_h, layout.xs
    c.setFillColor(HEADER_FILL)
    c.rect(layout.page.left, y - header_h, layout.page.width, header_h, stroke=0, fill=1)
    for k, (heading, _share, align) in enumerate(layout.columns):
        # A heading wraps between words, never inside one: the longest word sets the size.
        room = xs[k + 1] - xs[k] - 6
        widest = max(pen.width(word, 8.5, True) for word in heading.split())
        fitted = max(5.0, min(8.5, 8.5 * room / widest))
        lines, hsize = pen.name_lines(heading, room, header_h - 4, size=fitted,
                                      min_size=min(5.5, fitted))
        for i, line in enumerate(lines):
            ly = y - header_h / 2 + (len(lines) / 2 - i - 0.8) * hsize * 1.15
            _cell_text(pen, xs[k], xs[k + 1], ly, line, hsize, align, bold=True)


def _draw_rows(pen: Pen, table: SeasonTable, layout: _Layout) -> float:
    """A row per player: first place on gold, every other row striped, the unranked under
    their own line in grey; answers the y of the last row's bottom."""
    c = pen.c
    left, right, width = layout.page.left, layout.page.right, layout.page.width
    row_h, text_size, xs = layout.row_h, layout.text_size, layout.xs
    y = layout.top - layout.header_h
    for i, cells in enumerate(layout.rows):
        if i == len(table.rows) and table.unranked:
            y -= 14
            pen.draw(left, y + 4, ngettext("Not ranked yet: fewer than %(num)s game.",
                                           "Not ranked yet: fewer than %(num)s games.",
                                           table.min_games), 8.5, color=MUTED)
        ranked = i < len(table.rows)
        fill = WIN_FILL if ranked and table.rows[i].place == 1 else (
            STRIPE if i % 2 else None)
        if fill is not None:
            c.setFillColor(fill)
            c.rect(left, y - row_h, width, row_h, stroke=0, fill=1)
        base = y - row_h / 2 - text_size * 0.35
        for k, value in enumerate(cells):
            align = layout.columns[k][2]
            bold = k in (0, 1) and ranked
            shown = pen.fit(value, xs[k + 1] - xs[k] - 8, text_size, 5, bold=bold)
            _cell_text(pen, xs[k], xs[k + 1], base, shown[0], shown[1], align, bold=bold,
                       color=INK if ranked else MUTED)
        c.setStrokeColor(GRID)
        c.setLineWidth(0.4)
        c.line(left, y - row_h, right, y - row_h)
        y -= row_h
    return y


def _draw_frame(pen: Pen, layout: _Layout, bottom: float) -> None:
    """The frame round the headings and the rows, down to *bottom*."""
    c = pen.c
    c.setStrokeColor(FRAME)
    c.setLineWidth(1)
    c.rect(layout.page.left, bottom, layout.page.width, layout.top - bottom, stroke=1, fill=0)


def _draw_under_table(pen: Pen, layout: _Layout, bottom: float) -> None:
    """Under the table from *bottom*: a sentence when no game counts yet, then the tie notes
    that fit (:meth:`_Layout.fit` chose them)."""
    left, y = layout.page.left, bottom
    if not layout.rows:
        y -= 20
        pen.draw(left, y, _("No complete game was played in these dates yet."), 10,
                 color=MUTED)
    y -= 8
    for line in layout.note_lines:
        y -= layout.notes_size * 1.3
        pen.draw(left, y, line, layout.notes_size, color=INK)


def _cell_text(pen: Pen, x0: float, x1: float, y: float, text: str, size: float,
               align: str, *, bold: bool = False, color=INK) -> None:
    """*text* in the column from *x0* to *x1*, aligned as the column is, 4 pt from its edge."""
    pad = 4
    if align == "right":
        pen.draw(x1 - pad, y, text, size, bold=bold, color=color, align="right")
    elif align == "center":
        pen.draw((x0 + x1) / 2, y, text, size, bold=bold, color=color, align="center")
    else:
        pen.draw(x0 + pad, y, text, size, bold=bold, color=color)


__all__ = ["season_pdf", "MIN_ROW"]
