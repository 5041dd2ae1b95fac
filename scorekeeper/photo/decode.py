"""A photo's bytes to an RGB array, as the photo is shown (EXIF orientation applied).

JPEG, PNG, WebP and HEIC/HEIF (through pillow-heif, when installed) are read; anything else
(GIF, BMP, TIFF, ICO … which Pillow could open: refused, as the sentence says), an empty or
truncated file, or a picture of more pixels than a read can afford is refused with a
:class:`PhotoError`, from its header, before any pixel is decoded.  A JPEG may have up to
:data:`MAX_PIXELS` pixels, as it is decoded reduced (DCT scaling, ``Image.draft``) to the size
the reader asks for; the other formats are decoded whole, so they may have at most
:data:`MAX_WHOLE_PIXELS` (a 24 MP PNG costs about 75 MB decoded, a 49 MP one 445 MB).  The
refusal says the picture's real size, even past Pillow's own bomb limit.
:class:`Decoded` says how its pixels map to the full photo's.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from ..text import N_, _

#: The most pixels a JPEG may have (a 12-megapixel phone photo has 12 million): it is decoded
#: reduced to at most a quarter of them (an eighth of its sides at most).
MAX_PIXELS = 50_000_000
#: The most pixels a picture decoded whole may have (PNG, WebP, HEIC: a phone's 24 MP).
MAX_WHOLE_PIXELS = 25_000_000
#: The formats read (Pillow's names; HEIF when pillow-heif is installed).
FORMATS = ("JPEG", "PNG", "WEBP", "HEIF")
#: Decoded reduced: JPEG's (MPO is a phone's JPEG with a second picture inside, opened as one).
REDUCIBLE = ("JPEG", "MPO")

# EXIF orientations that turn the picture a quarter (its width and height swap).
_QUARTER_TURNS = {5, 6, 7, 8}
_heif_registered: bool | None = None


class PhotoError(ValueError):
    """A photo that cannot be read: *code* for programs, *message* a sentence for people
    (*msgid* with *values*, translated where it is made; one sent back by a reading process
    keeps its *msgid* and *values*, to be translated in the request's language)."""

    def __init__(self, code: str, msgid: str, **values):
        self.code, self.msgid, self.values = code, msgid, values
        self.message = _(msgid, **values)
        super().__init__(self.message)

    def __reduce__(self):
        return (_photo_error, (self.code, self.msgid, self.values))

    def __repr__(self) -> str:
        return f"PhotoError({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class Decoded:
    """The pixels of a photo, maybe reduced: ``scale`` full-photo pixels per array pixel."""

    rgb: np.ndarray          # (h, w, 3) uint8, as shown
    width: int               # the full photo's, as shown
    height: int
    scale: float


def _photo_error(code: str, msgid: str, values: dict) -> PhotoError:
    return PhotoError(code, msgid, **values)


def heif_supported() -> bool:
    """Register pillow-heif's opener once; True when HEIC/HEIF can be read."""
    global _heif_registered
    if _heif_registered is None:
        try:
            import pillow_heif
        except ImportError:
            _heif_registered = False
        else:
            pillow_heif.register_heif_opener()
            _heif_registered = True
    return _heif_registered


def _refuse_empty() -> PhotoError:
    return PhotoError("empty", N_("The photo is empty: take the picture again."))


def _refuse_not_image() -> PhotoError:
    return PhotoError("not_image", N_("This file is not a photo the app can read: send a "
                                      "JPEG, PNG, WebP or HEIC picture."))


def _refuse_truncated() -> PhotoError:
    return PhotoError("truncated", N_("The photo is cut short (it did not arrive whole): "
                                      "send it again."))


def _refuse_too_large(pixels: int, limit: int = MAX_PIXELS) -> PhotoError:
    return PhotoError("too_large", N_("The photo has %(megapixels)s megapixels; at most "
                                      "%(limit)s are read. Send a smaller picture."),
                      megapixels=max(1, round(pixels / 1e6)), limit=limit // 10**6)


def _bomb_pixels(error: Exception) -> int:
    """The pixels Pillow's bomb check counted (its message says them), 0 if it does not."""
    found = re.search(r"\((\d+) pixels\)", str(error))
    return int(found.group(1)) if found else 0


def decode(data: bytes, long_side: int | None = None) -> Decoded:
    """Decode *data*; with *long_side*, a JPEG may come back reduced, its longer side still at
    least *long_side* pixels (or the photo's own, if smaller)."""
    if not data:
        raise _refuse_empty()
    heif_supported()
    Image.init()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data),
                               formats=[f for f in FORMATS if f in Image.OPEN])
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as bomb:
        jpeg = data.startswith(b"\xff\xd8")
        raise _refuse_too_large(_bomb_pixels(bomb),
                                MAX_PIXELS if jpeg else MAX_WHOLE_PIXELS) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise _refuse_not_image() from None
    w0, h0 = image.size
    if w0 <= 0 or h0 <= 0:
        raise _refuse_not_image()
    reducible = image.format in REDUCIBLE
    limit = MAX_PIXELS if reducible else MAX_WHOLE_PIXELS
    if w0 * h0 > limit:
        raise _refuse_too_large(w0 * h0, limit)
    try:
        orientation = int(image.getexif().get(0x0112, 1) or 1)
    except Exception:   # a broken EXIF block: show the picture as stored
        orientation = 1
    width, height = (h0, w0) if orientation in _QUARTER_TURNS else (w0, h0)
    try:
        if long_side and reducible and max(w0, h0) > long_side:
            k = long_side / max(w0, h0)
            image.draft("RGB", (int(np.ceil(w0 * k)), int(np.ceil(h0 * k))))
        image.load()
        if orientation != 1:
            image = ImageOps.exif_transpose(image)
        if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            image = flat
        elif image.mode != "RGB":
            image = image.convert("RGB")
        rgb = np.asarray(image)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _refuse_too_large(w0 * h0, limit) from None
    except (OSError, ValueError, SyntaxError) as exc:
        if "truncated" in str(exc).lower() or "broken" in str(exc).lower():
            raise _refuse_truncated() from None
        raise _refuse_not_image() from None
    return Decoded(rgb, width, height, width / rgb.shape[1])
