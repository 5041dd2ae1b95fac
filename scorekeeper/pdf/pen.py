"""The pen: what the printed pages share to write in any script on one PDF page.

Both documents, the scoresheet (:mod:`.scoresheet`) and the season table
(:mod:`.season`), draw through these public names, so a name in any script prints
the same on each:

* :func:`fonts` registers the TrueType fonts once per process (:class:`FontSet`);
  :class:`FontsMissing` names the Debian package of a missing one.
* :class:`Pen` draws and measures text: each character in the first font that has
  it, Thai shaped, ``/ActualText`` where shaping changed the glyphs; it also fits,
  wraps and breaks names into lines.
* :class:`SheetCanvas` is the canvas, :class:`Page` the printable area,
  :func:`draw_footer` the footer every page carries, the colours the palette.
* :func:`one_page` makes the PDF: the canvas, its metadata, the drawing lock.

Decisions worth knowing:

* Fonts are TrueType (reportlab embeds only TrueType outlines): Noto Sans for
  Latin, Vietnamese and Greek, Noto Sans Thai for Thai, Droid Sans Fallback for
  CJK.  Each character takes the first font that has it, so one name may mix
  scripts.  Droid has no bold: bold CJK is drawn filled and stroked.
* Thai is shaped with HarfBuzz through reportlab's own ``shapeStr`` (the
  marks must stack: ปั้น, ศักดิ์).  ``canvas.drawString(shaping=True)`` is not
  used: it silently does nothing unless the optional ``rlbidi`` package is
  installed; a ShapedStr handed to drawString is drawn shaped either way.
  Shaping swaps some glyphs for variants that have no Unicode value, which
  would spoil copy and text extraction, so only Thai runs are shaped, and a
  shaped run that changed is wrapped in an ``/ActualText`` span carrying the
  real text (poppler's pdftotext honours it).
* One page is drawn at a time (:func:`one_page` holds the lock): reportlab's font
  objects are shared between threads and shaping changes them.
"""

from __future__ import annotations

import os
import threading
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from io import BytesIO
from typing import Callable

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

try:  # reportlab's HarfBuzz shaping (tested with reportlab 5.1 and uharfbuzz 0.57)
    from reportlab.pdfbase.ttfonts import ShapedStr, shapeStr
except ImportError:  # pragma: no cover - an older reportlab: Thai drawn unshaped
    ShapedStr = shapeStr = None
from reportlab.pdfgen.canvas import Canvas

from ..errors import BadInput
from ..text import N_, _, format_date

APP_NAME = N_("Mexican Train Scorekeeper")   # translated in the footer; metadata in English

#: Paper sizes by their config / query name (portrait, in points).
PAPERS = {"A4": A4, "Letter": letter}


def parse_paper(value, field: str = "paper") -> str:
    """A paper size from config or a query: "A4" or "Letter", in any case."""
    if isinstance(value, str):
        for name in PAPERS:
            if value.strip().lower() == name.lower():
                return name
    raise BadInput(_("The paper size must be A4 or Letter."), field)


# --- fonts -----------------------------------------------------------------

#: Where Debian's packages put the fonts, and the package that brings each.
FONT_FILES = {
    "latin": ("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "fonts-noto-core"),
    "latin-bold": ("/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", "fonts-noto-core"),
    "thai": ("/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf", "fonts-noto-core"),
    "thai-bold": ("/usr/share/fonts/truetype/noto/NotoSansThai-Bold.ttf", "fonts-noto-core"),
    "cjk": ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", "fonts-droid-fallback"),
}

# Fallback order: the first font holding a character draws it.
_FAMILIES = ("latin", "thai", "cjk")
LATIN, THAI, CJK = range(3)


class FontsMissing(RuntimeError):
    """A font the printed pages need is not installed; the message says which package brings it."""


@dataclass(frozen=True, eq=False)
class FontSet:
    """The registered fonts: reportlab names per family, regular and bold, and their cmaps."""

    regular: tuple[str, str, str]
    bold: tuple[str, str, str | None]   # None: no bold face, drawn as stroked regular
    cmaps: tuple[frozenset, frozenset, frozenset]

    def font(self, family: int, bold: bool) -> tuple[str, bool]:
        """The font name for *family*, and whether bold must be faked by stroking."""
        if bold and self.bold[family] is not None:
            return self.bold[family], False
        return self.regular[family], bold


_fonts: dict[str | None, FontSet] = {}
_fonts_lock = threading.Lock()
#: reportlab's font objects are shared and not meant for concurrent use (shaping
#: adds glyph mappings as it goes), so one page is drawn at a time (:func:`one_page`).
_draw_lock = threading.Lock()


def _find_font(key: str, font_dir: str | None) -> str:
    path, package = FONT_FILES[key]
    candidates = [os.path.join(font_dir, os.path.basename(path))] if font_dir else []
    candidates.append(path)
    for candidate in candidates:
        if os.path.isfile(candidate):
            return candidate
    where = " or ".join(candidates)
    raise FontsMissing(
        f"The scoresheet needs the font {os.path.basename(path)} ({where}). Install the "
        f"Debian package {package} (scripts/system-deps.sh does), or put the file in the "
        f"directory named by PDF_FONT_DIR.")


def fonts(font_dir: str | None = None) -> FontSet:
    """Register the fonts once per process (per font directory) and answer them.

    Raises FontsMissing, naming the Debian package, when a font file is absent.
    """
    with _fonts_lock:
        found = _fonts.get(font_dir)
        if found is not None:
            return found
        paths = {key: _find_font(key, font_dir) for key in FONT_FILES}
        tag = f"{len(_fonts)}" if font_dir else ""
        names: dict[str, str] = {}
        cmaps: dict[str, frozenset] = {}
        for key, path in paths.items():
            name = f"SK{tag}-{key}"
            if name not in pdfmetrics.getRegisteredFontNames():
                # validate=0: skip checksums, the 4 MB CJK font loads faster.
                pdfmetrics.registerFont(TTFont(name, path, validate=0))
            names[key] = name
            cmaps[key] = frozenset(pdfmetrics.getFont(name).face.charToGlyph)
        found = FontSet(
            regular=(names["latin"], names["thai"], names["cjk"]),
            bold=(names["latin-bold"], names["thai-bold"], None),
            cmaps=(cmaps["latin"], cmaps["thai"], cmaps["cjk"]),
        )
        _fonts[font_dir] = found
        return found


def _neutral(ch: str) -> bool:
    """Spaces, digits, punctuation and marks: they stay in the run they are in."""
    return not unicodedata.category(ch).startswith("L")


@lru_cache(maxsize=4096)
def _runs(text: str, fontset: FontSet) -> tuple[tuple[int, str], ...]:
    """Split *text* into (family, text) runs: each character in the first font that has it."""
    text = unicodedata.normalize("NFC", text)
    out: list[tuple[int, str]] = []
    family, buf = None, []
    for ch in text:
        if unicodedata.category(ch) == "Cf":
            continue   # invisible and bidi controls: names refuse them; never drawn (older data)
        cp = ord(ch)
        if family is not None and _neutral(ch) and cp in fontset.cmaps[family]:
            buf.append(ch)
            continue
        pick = next((f for f in range(len(_FAMILIES)) if cp in fontset.cmaps[f]), LATIN)
        if pick != family:
            if buf:
                out.append((family, "".join(buf)))
            family, buf = pick, []
        buf.append(ch)
    if buf:
        out.append((family, "".join(buf)))
    return tuple(out)


def _actual_text(text: str) -> str:
    """A marked-content span telling extractors the real text of shaped glyphs."""
    return f"/Span <</ActualText <FEFF{text.encode('utf-16-be').hex().upper()}>>> BDC"


# --- colours ---------------------------------------------------------------

INK = HexColor("#1d1d1b")
MUTED = HexColor("#5f5f5a")
GRID = HexColor("#a8a49a")
FRAME = HexColor("#3a3a36")
HEADER_FILL = HexColor("#ebe4d1")
STRIPE = HexColor("#f5f2ea")
TOTAL_FILL = HexColor("#fbefc4")
ZERO_FILL = HexColor("#e1f0db")
ZERO_RING = HexColor("#2e7d32")
WIN_FILL = HexColor("#f4cf57")
WHITE = HexColor("#ffffff")
TILE_FILL = HexColor("#fffdf6")


# --- the pen: text in any script on the canvas -------------------------------

class SheetCanvas(Canvas):
    """A canvas that skips setting a colour or line width it already has.

    A page sets the same few colours hundreds of times; each call costs a
    pure-Python number formatting in reportlab.  (Neither document uses
    saveState/restoreState, which would make this cache wrong.)
    """

    _fill = _stroke = _width = None

    def setFillColor(self, color, alpha=None):
        if alpha is None and color is self._fill:
            return
        self._fill = color if alpha is None else None
        super().setFillColor(color, alpha)

    def setStrokeColor(self, color, alpha=None):
        if alpha is None and color is self._stroke:
            return
        self._stroke = color if alpha is None else None
        super().setStrokeColor(color, alpha)

    def setLineWidth(self, width):
        if width == self._width:
            return
        self._width = width
        super().setLineWidth(width)

    def showPage(self):
        self._fill = self._stroke = self._width = None   # a new page starts from defaults
        super().showPage()


class Pen:
    """Draws and measures text with per-character font fallback and Thai shaping.

    ``c`` is the canvas it draws on, for the lines and shapes around the text.
    """

    def __init__(self, canvas: Canvas, fontset: FontSet):
        self.c = canvas
        self.fonts = fontset

    def _pieces(self, text: str, size: float, bold: bool):
        """(font, text-or-ShapedStr, width, fake_bold, actual_text) for each run.

        The minus sign (U+2212, as the pages write house scoring's negative scores) has no
        glyph in the sheet's fonts: it is printed as a hyphen-minus."""
        for family, run in _runs(text.replace("\u2212", "-"), self.fonts):
            font, fake = self.fonts.font(family, bold)
            if family == THAI and shapeStr is not None:
                shaped = shapeStr(run, font, size)
                if isinstance(shaped, ShapedStr):
                    width = sum(sd.x_advance for sd in shaped.__shapeData__) * size / 1000
                    yield font, shaped, width, fake, run
                    continue
            yield font, run, pdfmetrics.stringWidth(run, font, size), fake, None

    def width(self, text: str, size: float, bold: bool = False) -> float:
        """The width *text* takes at *size*, shaped and in its fonts, as :meth:`draw` draws it."""
        return sum(p[2] for p in self._pieces(text, size, bold))

    def draw(self, x: float, y: float, text: str, size: float, bold: bool = False,
             color=INK, align: str = "left") -> float:
        """Draw *text* with its baseline at *y*; answers the width drawn."""
        pieces = list(self._pieces(text, size, bold))
        total = sum(p[2] for p in pieces)
        if align == "center":
            x -= total / 2
        elif align == "right":
            x -= total
        c = self.c
        c.setFillColor(color)
        for font, run, width, fake, actual in pieces:
            c.setFont(font, size)
            if actual is not None:
                c.addLiteral(_actual_text(actual))
            if fake:
                c.setStrokeColor(color)
                c.setLineWidth(size * 0.045)
                c.drawString(x, y, run, mode=2)
            else:
                c.drawString(x, y, run)
            if actual is not None:
                c.addLiteral("EMC")
            x += width
        return total

    def fit(self, text: str, width: float, size: float, min_size: float,
            bold: bool = False) -> tuple[str, float]:
        """Shrink *text* to fit *width* (down to *min_size*), then cut it with an ellipsis."""
        w = self.width(text, size, bold)
        if w <= width:
            return text, size
        size = max(min_size, size * width / w)
        if self.width(text, size, bold) <= width:
            return text, size
        while len(text) > 1 and self.width(text + "…", size, bold) > width:
            text = text[:-1]
        return text.rstrip() + "…", size

    def wrap(self, text: str, width: float, size: float, bold: bool = False) -> list[str]:
        """Break *text* into lines no wider than *width*: at spaces, else between characters."""
        lines: list[str] = []
        line = ""
        for word in text.split(" "):
            trial = f"{line} {word}" if line else word
            if self.width(trial, size, bold) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            line = ""
            # A word wider than the line (CJK has no spaces): break between characters,
            # never before a combining mark.
            for ch in word:
                if line and self.width(line + ch, size, bold) > width and not _neutral(ch[0]) \
                        and not unicodedata.combining(ch):
                    lines.append(line)
                    line = ""
                line += ch
        if line:
            lines.append(line)
        return lines or [""]

    def name_lines(self, text: str, width: float, height: float, bold: bool = True,
                   size: float = 10.0, min_size: float = 5.5) -> tuple[list[str], float]:
        """A name in a header cell: one line if it fits, else two or three, shrinking as needed."""
        while True:
            lines = [text] if self.width(text, size, bold) <= width else self.wrap(text, width, size, bold)
            if len(lines) * size * 1.15 <= height or size <= min_size:
                break
            size = max(min_size, size - 0.5)
        max_lines = max(1, int(height // (size * 1.15)))
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            last, _size = self.fit(lines[-1] + "…", width, size, size, bold)
            lines[-1] = last
        return lines, size


# --- the page ----------------------------------------------------------------

@dataclass(frozen=True)
class Page:
    """The printable area: the paper less a margin (30 pt unless told) on every side."""

    left: float
    right: float
    top: float
    bottom: float

    @classmethod
    def of(cls, width: float, height: float, margin: float = 30.0) -> "Page":
        """The area of a *width* × *height* paper inside *margin*."""
        return cls(margin, width - margin, height - margin, margin)

    @property
    def width(self) -> float:
        """The printable width, margin to margin."""
        return self.right - self.left


def draw_footer(pen: Pen, page: Page, printed: datetime | None) -> float:
    """The app's name, when the page was printed (now, unless told), the page number;
    answers the y of its top."""
    printed = printed or datetime.now().astimezone()
    c = pen.c
    left, right, fy = page.left, page.right, page.bottom
    c.setStrokeColor(GRID)
    c.setLineWidth(0.5)
    c.line(left, fy + 10, right, fy + 10)
    pen.draw(left, fy, _(APP_NAME), 7.5, bold=True, color=MUTED)
    pen.draw((left + right) / 2, fy, _("Printed %(when)s", when=format_date(printed, with_time=True)),
             7.5, color=MUTED, align="center")
    pen.draw(right, fy, _("Page %(page)s of %(pages)s", page=1, pages=1), 7.5, color=MUTED,
             align="right")
    return fy + 18


def one_page(size: tuple[float, float], draw: Callable[[Pen], None], *, title: str,
             subject: str | None = None, font_dir: str | None = None) -> bytes:
    """A one-page PDF of *size* (points) that ``draw(pen)`` fills, as bytes.

    The metadata says *title* (and *subject*), by the app.  The page is drawn
    under the drawing lock, with binary (not ASCII85) streams: rl_config.useA85
    is reportlab's global switch, read while the PDF is written; it is turned
    off only for the duration of our render: binary streams are a fifth
    smaller and skip a pure-Python encoder that took a third of the time.
    Raises FontsMissing before drawing anything when a font is not installed.
    """
    with _draw_lock:
        saved = rl_config.useA85
        rl_config.useA85 = 0
        try:
            fontset = fonts(font_dir)
            buf = BytesIO()
            c = SheetCanvas(buf, pagesize=size, pageCompression=1)
            c.setTitle(title)
            c.setAuthor(APP_NAME)
            c.setCreator(APP_NAME)
            if subject is not None:
                c.setSubject(subject)
            draw(Pen(c, fontset))
            c.showPage()
            c.save()
            return buf.getvalue()
        finally:
            rl_config.useA85 = saved


__all__ = ["APP_NAME", "PAPERS", "parse_paper", "FONT_FILES", "FontsMissing", "FontSet", "fonts",
           "LATIN", "THAI", "CJK", "INK", "MUTED", "GRID", "FRAME", "HEADER_FILL", "STRIPE",
           "TOTAL_FILL", "ZERO_FILL", "ZERO_RING", "WIN_FILL", "WHITE", "TILE_FILL",
           "SheetCanvas", "Pen", "Page", "draw_footer", "one_page"]
