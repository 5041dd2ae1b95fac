"""The photo reader (issue 17, phase A): decoding, reading rendered and real photos, checks."""

from __future__ import annotations

import ast
import io
import json
import struct
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from scorekeeper.photo import checks, crops, decode, find, hand, reader, segment
from scorekeeper.photo.classes import BG, DIVIDER, EDGE, FACE, PIP
from scorekeeper.photo.crops import Half, View
from scorekeeper.photo.judge import SLIVERS
from scorekeeper.photo.checks import Problem, problems
from scorekeeper.photo.decode import MAX_PIXELS, PhotoError
from scorekeeper.photo.reading import Found, Reading, Unsure
from scorekeeper.photo.tilenet import Guess
from photolab.render import render_scene, sample_style
from scorekeeper.tiles import Tile

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = Path(__file__).resolve().parent / "photos"
sys.path.insert(0, str(ROOT))
from bench.photos import answer_of, read_local, score  # noqa: E402

BOX = ((0.0, 0.0), (20.0, 0.0), (20.0, 10.0), (0.0, 10.0))


def scene_of(seed, tiles, h, w, **kw):
    """A render drawing all *tiles* fully in the frame: the first seed from *seed* on that
    does (a random layout may push a tile out)."""
    for s in range(seed, seed + 50):
        scene = render_scene(np.random.default_rng(s), h, w, tiles=tiles, allow_partial=False,
                             **kw)
        if len(scene.tiles) == len(tiles):
            return scene
    raise AssertionError("no seed draws them all")


def jpeg(img: np.ndarray, **kw) -> bytes:
    out = io.BytesIO()
    Image.fromarray(img).save(out, "JPEG", quality=92, **kw)
    return out.getvalue()


# ---------------------------------------------------------------- the package stays pure

def test_photo_package_imports_no_flask_and_no_storage():
    for path in (ROOT / "scorekeeper" / "photo").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                names.add(("." * node.level) + (node.module or ""))
        banned = {n for n in names if n.split(".")[0] in ("flask", "flask_babel", "torch",
                                                          "photolab")
                  or n.lstrip(".").split(".")[0] in ("storage", "db", "views", "api")}
        assert not banned, f"{path.name} imports {banned}"


def test_model_ships_inside_the_package():
    model = ROOT / "scorekeeper" / "photo" / "model.onnx"
    assert model.is_file() and 50_000 < model.stat().st_size < 5_000_000
    # any size in: a class and a pip probability for every pixel out
    classes, pip = segment.segment(np.zeros((1, 40, 70, 3), np.uint8))
    assert classes.shape == pip.shape == (1, 40, 70) and classes.dtype == np.uint8
    assert 0 <= pip.min() and pip.max() <= 1
    # the detection pass asks for the classes only
    classes, none = segment.segment(np.zeros((1, 40, 70, 3), np.uint8), pips=False)
    assert none is None and classes.shape == (1, 40, 70)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_the_segmenters_classes_and_pip_probability_are_argmax_and_softmax(seed, scale):
    """segment._classes / _pip (class by class, for speed) answer what numpy's argmax (the
    first of equal logits) and the softmax's pip column answer."""
    rng = np.random.default_rng(seed)
    logits = np.round(rng.normal(0, 4 * scale, (2, 5, 6, 7)), 1).astype(np.float32)
    logits[:, 2] = np.where(rng.random((2, 6, 7)) < 0.3, logits[:, 1], logits[:, 2])  # ties
    assert np.array_equal(segment._classes(logits), logits.argmax(axis=1))
    e = np.exp(logits.astype(np.float64) - logits.max(axis=1, keepdims=True))
    softmax = e / e.sum(axis=1, keepdims=True)
    assert np.allclose(segment._pip(logits), softmax[:, segment.PIP], atol=1e-6)
    # and to the bit what it was worked out as before (classes in order, then summed)
    before = (1.0 / np.exp(np.minimum(logits - logits[:, PIP:PIP + 1], 60.0)).sum(axis=1))
    assert segment._pip(logits).tobytes() == before.astype(np.float32).tobytes()


def _one_ray(classes, o, d, start, limit, gap):
    """find._rays's definition, one ray at a time: the first edge band, edge of the map or
    run of *gap* background pixels (one, when the ray is shorter than *gap*) past *start*
    along *d* from *o*; *limit* if none."""
    h, w = classes.shape
    steps = range(int(start), int(limit) + 1)
    run = gap if len(steps) >= gap else 1

    def at(t):
        return (int(np.clip(round(o[0] + d[0] * t), 0, w - 1)),
                int(np.clip(round(o[1] + d[1] * t), 0, h - 1)))
    for t in steps:
        x, y = at(t)
        if classes[y, x] == EDGE or x <= 0 or x >= w - 1 or y <= 0 or y >= h - 1:
            return float(t)
        if t + run - 1 <= steps[-1] and all(classes[at(u)[::-1]] == BG
                                            for u in range(t, t + run)):
            return float(t)
    return float(limit) if len(steps) else float(start)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False) | st.integers(0, 50).map(float),
                min_size=1, max_size=40))
def test_the_readers_median_is_numpys_to_the_bit(values):
    a = np.array(values, np.float64)
    assert find.median(a) == float(np.median(a))
    assert find.median(a[::2]) == float(np.median(a[::2]))      # a strided view too


def test_the_median_of_nothing_is_no_number():
    assert np.isnan(find.median(np.zeros(0)))


def _pressed_pair(seam: int, turned: bool) -> np.ndarray:
    """A label map of two tiles 40 px wide and 80 long pressed together side by side, each
    with its divider across its middle, the seam between them labelled *seam* (the segmenter
    labels the dark seam of real tiles pressed together a divider at times)."""
    classes = np.zeros((160, 200), np.uint8)
    for x0 in (40, 81):
        classes[40:120, x0:x0 + 39] = EDGE
        classes[42:118, x0 + 2:x0 + 37] = FACE
        classes[79:82, x0 + 5:x0 + 34] = DIVIDER
    classes[40:120, 79:81] = seam
    return np.ascontiguousarray(classes.T) if turned else classes


@pytest.mark.parametrize("faces", [True, False])
@pytest.mark.parametrize("turned", [False, True])
@pytest.mark.parametrize("seam", [EDGE, DIVIDER])
def test_tiles_pressed_together_are_found_one_outline_each(seam, turned, faces, monkeypatch):
    """A seam taken for a divider gives an outline across both tiles, wider than either: it is
    neither (its rays do not measure one tile, and it holds both tiles' middles).  With the
    faces not found whole (as on a busy cloth) the tiles' own dividers' outlines, measured
    as one tile each, come before the wider one; a seam seen as an edge changes nothing."""
    if not faces:
        monkeypatch.setattr(find, "_face_boxes", lambda classes: [])
    boxes = find.find_tiles(_pressed_pair(seam, turned))
    middles = sorted(tuple(np.round(b.mean(axis=0)).astype(int)) for b in boxes)
    want = [(59, 80), (100, 80)]
    want = sorted((y, x) for x, y in want) if turned else want
    assert len(boxes) == 2
    assert all(np.abs(np.subtract(m, w)).max() <= 2 for m, w in zip(middles, want))
    assert all(36 <= find.box_width(b) <= 44 for b in boxes)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_rays_stop_at_an_edge_the_border_or_a_run_of_background(seed, gap):
    """find._rays, all of a tile's rays at once, against the rule written one ray at a time."""
    rng = np.random.default_rng(seed)
    classes = rng.choice([BG, FACE, EDGE, PIP], size=(30, 40), p=[0.3, 0.55, 0.05, 0.1])
    classes = classes.astype(np.uint8)
    origins = rng.uniform(3, 27, (6, 2))
    angles = rng.uniform(0, 2 * np.pi, 6)
    dirs = np.stack([np.cos(angles), np.sin(angles)], 1)
    start, limit = rng.uniform(0, 6), rng.uniform(-2, 30)     # at times no step at all
    got = find._rays(classes, origins, dirs, start, limit, gap)
    assert list(got) == [_one_ray(classes, o, d, start, limit, gap)
                         for o, d in zip(origins, dirs)]


def test_the_shipped_model_is_the_one_its_provenance_describes():
    """model.json beside the model: its sha256 (a model replaced without its record fails
    here), the classes in the one place they are defined, how it was made."""
    import hashlib

    from scorekeeper.photo.classes import CLASSES
    folder = ROOT / "scorekeeper" / "photo"
    record = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    model = (folder / "model.onnx").read_bytes()
    assert record["sha256"] == hashlib.sha256(model).hexdigest()
    assert record["bytes"] == len(model)
    assert tuple(record["classes"]) == CLASSES
    assert {"command", "data", "seeds", "versions"} <= set(record)


def test_the_lab_stays_out_of_the_package_and_modules_stay_small():
    """Rendering and training live in photolab/, beside the app; no module over 500 lines."""
    package = ROOT / "scorekeeper" / "photo"
    assert not (package / "render.py").exists()
    for path in [*package.glob("*.py"), *(ROOT / "photolab").glob("*.py")]:
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 500, f"{path.name}: {lines} lines"
    # the lab's masks use the package's class ids, defined once
    from photolab import render
    from scorekeeper.photo import classes
    assert render.CLASSES is classes.CLASSES and render.PIP == classes.PIP


def test_the_shipped_classifier_is_the_one_its_provenance_describes():
    """tilenet.json beside the tile classifier: its sha256, its outputs as tilenet.py defines
    them, how it was made (leave-sources-out figures in docs/photo-reader.md)."""
    import hashlib

    from scorekeeper.photo import tilenet
    folder = ROOT / "scorekeeper" / "photo"
    record = json.loads((folder / "tilenet.json").read_text(encoding="utf-8"))
    model = (folder / "tilenet.onnx").read_bytes()
    assert record["sha256"] == hashlib.sha256(model).hexdigest()
    assert record["bytes"] == len(model) < 2_000_000
    assert {"command", "data", "seeds", "versions"} <= set(record)
    out = tilenet.session().run(None, {"crop": np.zeros(
        (2, 3, tilenet.CLS_W + 16, 2 * tilenet.CLS_W + 16), np.float32)})[0]
    assert out.shape == (2, tilenet.OUTPUTS)


def test_training_the_classifier_writes_into_the_package_only_when_asked_to_install():
    from photolab import looks, train_crops
    assert looks.OUT == ROOT / "photolab" / "out"
    assert train_crops.PACKAGE == ROOT / "scorekeeper" / "photo"
    assert "--install" in train_crops.__doc__


def test_training_writes_into_the_package_only_when_asked_to_install():
    from photolab import train
    assert train.OUT.parent == ROOT / "photolab" / "out"
    assert train.SHIPPED == ROOT / "scorekeeper" / "photo" / "model.onnx"


# ---------------------------------------------------------------- decoding

@pytest.mark.parametrize("data, code", [
    (b"", "empty"),
    (b"Round 3: Ann 12, Bob 40\n", "not_image"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "not_image"),
])
def test_decode_refuses_what_is_no_photo(data, code):
    with pytest.raises(PhotoError) as err:
        decode.decode(data)
    assert err.value.code == code
    assert err.value.message.endswith(".")


def test_decode_refuses_a_truncated_jpeg():
    img = (np.random.default_rng(1).random((300, 400, 3)) * 255).astype(np.uint8)
    data = jpeg(img)
    with pytest.raises(PhotoError) as err:
        decode.decode(data[: len(data) // 2])
    assert err.value.code == "truncated"
    assert err.value.message == ("The photo is cut short (it did not arrive whole): send it "
                                 "again.")


def _bomb_png(width: int, height: int) -> bytes:
    """A PNG claiming width x height grey pixels, its data a few kilobytes of zeros."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    comp = zlib.compressobj(9)
    row = b"\x00" + b"\x00" * width
    raw = b"".join(comp.compress(row) for _ in range(64)) + comp.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0,
                                                              0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def test_decode_refuses_a_decompression_bomb_before_decoding():
    data = _bomb_png(20_000, 20_000)          # 400 megapixels claimed in a few kB
    assert len(data) < 100_000
    with pytest.raises(PhotoError) as err:
        decode.decode(data)
    assert err.value.code == "too_large"
    # its real size, although Pillow's own bomb check stopped it before ours
    assert err.value.message.startswith("The photo has 400 megapixels; at most 25 are read")
    # just over the limit is refused too, from the header alone
    with pytest.raises(PhotoError) as err:
        decode.decode(_bomb_png(5000, decode.MAX_WHOLE_PIXELS // 5000 + 1))
    assert err.value.code == "too_large"


def test_a_png_is_refused_by_the_pixels_decoding_it_whole_costs():
    """A 142 KB PNG of 48.8 MP cost 445 MB to decode: a picture decoded whole may have at
    most 25 MP; a JPEG, decoded reduced, up to 50."""
    with pytest.raises(PhotoError) as err:
        decode.decode(_bomb_png(8544, 5712))                     # 48.8 MP
    assert err.value.message.startswith("The photo has 49 megapixels; at most 25 are read")
    assert decode.decode(_bomb_png(4000, 3000)).rgb.shape == (3000, 4000, 3)   # 12 MP: read


def test_a_big_jpeg_is_decoded_reduced_within_its_budget():
    """A 48 MP JPEG is accepted and decoded to no more pixels than the reader asks for."""
    img = np.zeros((6000, 8000, 3), np.uint8)
    data = jpeg(img)
    out = decode.decode(data, long_side=1600)
    assert max(out.rgb.shape[:2]) < 2 * 1600 and (out.width, out.height) == (8000, 6000)


@pytest.mark.parametrize("fmt", ["GIF", "BMP", "TIFF", "ICO"])
def test_formats_the_sentence_does_not_name_are_refused(fmt):
    """GIF, BMP, TIFF and ICO were read although the refusal names JPEG, PNG, WebP and HEIC."""
    out = io.BytesIO()
    Image.fromarray(np.full((48, 64, 3), 90, np.uint8)).save(out, fmt)
    with pytest.raises(PhotoError) as err:
        decode.decode(out.getvalue())
    assert err.value.code == "not_image"
    assert "JPEG, PNG, WebP or HEIC" in err.value.message


def test_onnxruntime_telemetry_is_switched_off(monkeypatch):
    import onnxruntime
    calls = []
    monkeypatch.setattr(onnxruntime, "disable_telemetry_events", lambda: calls.append(1))
    monkeypatch.setattr(segment, "_session", None)
    segment.net()
    assert calls == [1]


def test_exif_rotated_jpeg_gives_the_photo_as_shown():
    # stored 600x300 (landscape), EXIF 6: shown turned a quarter, 300 wide and 600 high
    img = np.full((300, 600, 3), 200, np.uint8)
    img[:, :100] = (255, 0, 0)                # red on the stored left
    exif = Image.Exif()
    exif[0x0112] = 6
    dec = decode.decode(jpeg(img, exif=exif.tobytes()))
    assert (dec.width, dec.height) == (300, 600)
    assert dec.rgb.shape == (600, 300, 3)
    assert dec.rgb[10, 150, 0] > 200 and dec.rgb[10, 150, 1] < 60   # the left is now on top


def test_exif_rotated_hand_photo_boxes_are_in_the_shown_photo():
    scene = scene_of(5, [(2, 5), (6, 6)], 480, 640, set_n=6, style=_ivory(), mode="scatter",
                     jpeg=False, tile_w=70)
    exif = Image.Exif()
    exif[0x0112] = 8                          # shown turned a quarter the other way
    reading = reader.read_hand(jpeg(scene.image, exif=exif.tobytes()), 6)
    assert (reading.width, reading.height) == (480, 640)
    boxes = [f.box for f in reading.tiles] + [u.box for u in reading.unsure]
    assert len(boxes) == 2
    for box in boxes:
        xs, ys = [p[0] for p in box], [p[1] for p in box]
        assert 0 <= min(xs) and max(xs) <= 480 and 0 <= min(ys) and max(ys) <= 640
    # each box holds a tile's centre, turned: stored (x, y) is shown at (y, W - 1 - x)
    centres = [np.mean(p.corners, axis=0) for p in scene.tiles]
    shown = [(cy, 640 - 1 - cx) for cx, cy in centres]
    for sx, sy in shown:
        assert any(min(p[0] for p in b) < sx < max(p[0] for p in b)
                   and min(p[1] for p in b) < sy < max(p[1] for p in b) for b in boxes)


def test_big_jpeg_is_decoded_reduced_but_measured_whole():
    img = np.full((3000, 4000, 3), 180, np.uint8)
    dec = decode.decode(jpeg(img), long_side=1024)
    assert (dec.width, dec.height) == (4000, 3000)
    assert 1024 <= max(dec.rgb.shape[:2]) < 4000
    assert dec.scale == pytest.approx(4000 / dec.rgb.shape[1])


def test_png_and_webp_are_read():
    img = np.zeros((40, 60, 3), np.uint8)
    for fmt in ("PNG", "WEBP"):
        out = io.BytesIO()
        Image.fromarray(img).save(out, fmt)
        dec = decode.decode(out.getvalue())
        assert (dec.width, dec.height) == (60, 40)


def test_heic_round_trip():
    pillow_heif = pytest.importorskip("pillow_heif")
    assert decode.heif_supported()
    scene = scene_of(9, [(3, 4)], 480, 640, set_n=6, style=_ivory(), jpeg=False, tile_w=90)
    out = io.BytesIO()
    try:
        Image.fromarray(scene.image).save(out, "HEIF", quality=90)
    except (KeyError, OSError, ValueError) as exc:   # a build that cannot encode
        pytest.skip(f"pillow-heif cannot write HEIF here: {exc}")
    del pillow_heif
    dec = decode.decode(out.getvalue())
    assert (dec.width, dec.height) == (640, 480)
    reading = reader.read_hand(out.getvalue(), 6)
    assert [f.tile for f in reading.tiles] + [u.candidates[0] for u in reading.unsure] \
        == [Tile(3, 4)]


# ---------------------------------------------------------------- checks (R3.3)

def _reading(*tiles: Tile) -> Reading:
    return Reading(tuple(Found(t, BOX, 0.9) for t in tiles),
                   (Unsure(BOX, (Tile(1, 2), Tile(1, 3))),), 100, 50)


@pytest.mark.parametrize("tiles, set_n, engine, counted, expected", [
    # every tile fine: no problem (an unsure entry is not checked)
    ((Tile(0, 0), Tile(5, 12)), 12, 9, set(), []),
    ((Tile(5, 13),), 12, None, set(),
     [("not_in_set", "5-13 is not in a double-12 set: check that tile (R3.3).")]),
    ((Tile(9, 9),), 12, 9, set(),
     [("engine", "9-9 is this round's engine: it is on the table, not in a hand (R3.3).")]),
    ((Tile(2, 7),), 12, 12, {Tile(2, 7)},
     [("already_counted", "2-7 is already counted in another hand this round; each tile "
                          "exists once (R3.3).")]),
    ((Tile(3, 4), Tile(6, 6), Tile(3, 4), Tile(3, 4)), 6, None, set(),
     [("twice", "3-4 is in the photo twice; each tile exists once (R3.3): check both.")]),
    ((Tile(7, 7), Tile(7, 7)), 6, 7, set(),
     [("not_in_set", "7-7 is not in a double-6 set: check that tile (R3.3)."),
      ("engine", "7-7 is this round's engine: it is on the table, not in a hand (R3.3)."),
      ("not_in_set", "7-7 is not in a double-6 set: check that tile (R3.3)."),
      ("engine", "7-7 is this round's engine: it is on the table, not in a hand (R3.3)."),
      ("twice", "7-7 is in the photo twice; each tile exists once (R3.3): check both.")]),
])
def test_problems(tiles, set_n, engine, counted, expected):
    got = problems(_reading(*tiles), set_n, engine, counted)
    assert [(p.code, p.message) for p in got] == expected
    assert all(isinstance(p, Problem) and p.tile in tiles for p in got)


def test_problems_speak_through_the_translator():
    from scorekeeper import text
    text.set_translator(lambda m: m.replace("check that tile", "CHECK"))
    try:
        got = problems(_reading(Tile(0, 19)), 18, None, set())
    finally:
        text.set_translator(None)
    assert got[0].message == "0-19 is not in a double-18 set: CHECK (R3.3)."
    assert checks.problems(_reading(), 18, None, set()) == []


# ---------------------------------------------------------------- reading renders

def _ivory():
    style = sample_style(np.random.default_rng(0), "train")
    style.tile, style.face, style.pips = "ivory", (238, 230, 200), "one"
    style.pip_colour = style.divider_colour = (20, 20, 20)
    style.layout, style.background, style.spinner, style.bevel = "app", "wood", 0.5, 0.2
    return style


def _bench_score(reading_answer, tiles):
    return score(reading_answer, {"tiles": [list(t) for t in tiles], "partial": []})


def _style(**kw):
    style = _ivory()
    for k, v in kw.items():
        setattr(style, k, v)
    return style


# (name, seed, tiles, set, render options): every number 0-18, turned every way, touching
# tiles in rows and chains, a set coloured by number, light pips on dark tiles.
RENDERS = [
    ("every number 0-18, scattered and turned", 16,
     [(0, 18), (1, 17), (2, 16), (3, 15), (4, 14), (5, 13), (6, 12), (7, 11), (8, 10), (9, 9)],
     18, dict(mode="scatter", tile_w=64, style=_style(layout="app"))),
    ("a row of touching tiles", 12, [(3, 4), (5, 6), (1, 2), (0, 6), (2, 2), (4, 6), (0, 0)], 6,
     dict(mode="rows", tile_w=60, style=_style(background="paper"))),
    ("a chain, end to end", 13, [(6, 6), (6, 3), (3, 9), (9, 1), (1, 0)], 9,
     dict(mode="chain", tile_w=56, style=_style(background="cloth"))),
    ("pips coloured by number", 14, [(1, 12), (6, 7), (10, 11), (2, 8), (3, 3), (0, 5)], 12,
     dict(mode="scatter", tile_w=70, style=_style(pips="number", tile="white",
                                                  face=(245, 245, 242)))),
    ("white pips on black tiles", 17, [(4, 9), (8, 8), (0, 12), (5, 7), (2, 11)], 12,
     dict(mode="grid", tile_w=70, style=_style(tile="black", face=(25, 25, 28), pips="light",
                                               pip_colour=(240, 240, 235),
                                               divider_colour=(240, 240, 235),
                                               background="wood"))),
]


#: What the reader achieves on each render today, as (tiles read right with confidence,
#: tiles right or unsure with the right tile among the candidates): a change that reads
#: fewer fails.  No render may have a tile wrong and not flagged.
MIN_RIGHT = {
    "every number 0-18, scattered and turned": (4, 8),
    "a row of touching tiles": (5, 7),
    "a chain, end to end": (4, 5),
    "pips coloured by number": (5, 6),
    "white pips on black tiles": (0, 3),
}
#: On the four real photos (21 tiles): at least this many read right, at most this many wrong
#: and not flagged.
REAL_RIGHT, REAL_SILENT = 18, 0


def _render_photo(seed, tiles, set_n, opts, size=(900, 1200)):
    scene = scene_of(seed, tiles, size[0], size[1], set_n=set_n, **opts)
    return jpeg(scene.image), scene


@pytest.fixture(scope="module")
def rendered():
    out = {}
    for name, seed, tiles, set_n, opts in RENDERS:
        data, scene = _render_photo(seed, tiles, set_n, opts)
        drawn = [(p.a, p.b) for p in scene.tiles]
        reading = reader.read_hand(data, set_n)
        out[name] = (drawn, set_n, answer_of(reading, set_n), reading)
    return out


@pytest.mark.parametrize("name", [r[0] for r in RENDERS])
def test_reads_rendered_hands(rendered, name):
    drawn, set_n, answer, reading = rendered[name]
    wanted = next(r[2] for r in RENDERS if r[0] == name)
    assert sorted(map(sorted, drawn)) == sorted(map(sorted, wanted))   # all drawn, none hidden
    s = _bench_score(answer, drawn)
    # no tile is wrong without a flag (read wrong with confidence, or missed)
    assert s.silent == 0, (name, s.notes)
    right, known = MIN_RIGHT[name]
    assert s.right >= right, (name, s.right, s.notes)
    assert s.right + s.unsure_matched >= known, (name, s.unsure_matched, s.notes)
    for f in reading.tiles:
        assert 0 <= f.confidence <= 1 and len(f.box) == 4
    for u in reading.unsure:
        assert u.candidates and len(set(u.candidates)) == len(u.candidates)


def test_every_number_is_drawn_and_read(rendered):
    drawn = rendered[RENDERS[0][0]][0]
    assert {n for t in drawn for n in t} == set(range(19))


def test_no_tiles_on_a_busy_table():
    for seed, kind in ((21, "shapes"), (22, "wood"), (23, "cloth")):
        scene = render_scene(np.random.default_rng(seed), 900, 1200, tiles=[], set_n=12,
                             style=_style(background=kind))
        reading = reader.read_hand(jpeg(scene.image), 12)
        assert reading.tiles == (), (kind, reading.tiles)


def test_a_double_blank_is_read():
    # no pips at all, only the divider: still a tile (R3.3: 0-0 is in every set)
    scene = scene_of(41, [(0, 0), (2, 3)], 600, 800, set_n=6, mode="scatter", tile_w=110,
                     style=_style(layout="app", background="plain"))
    reading = reader.read_hand(jpeg(scene.image), 6)
    assert Tile(0, 0) in [f.tile for f in reading.tiles], (reading.tiles, reading.unsure)


def _drawn_tile(divider: bool) -> bytes:
    """A 2-5 drawn plainly (ivory face, black pips) on green cloth, with or without its
    divider."""
    img = np.full((600, 800, 3), (60, 90, 60), np.uint8)
    x0, y0, w = 250, 200, 110
    cv2.rectangle(img, (x0, y0), (x0 + 2 * w, y0 + w), (238, 230, 200), -1)
    if divider:
        cv2.line(img, (x0 + w, y0 + 10), (x0 + w, y0 + w - 10), (20, 20, 20), 4)
    two = ((0.3, 0.3), (0.7, 0.7))
    five = ((0.25, 0.25), (0.75, 0.75), (0.25, 0.75), (0.75, 0.25), (0.5, 0.5))
    for dx, pips in ((0, two), (w, five)):
        for fx, fy in pips:
            cv2.circle(img, (int(x0 + dx + fx * w), int(y0 + fy * w)), 9, (20, 20, 20), -1,
                       cv2.LINE_AA)
    return jpeg(cv2.GaussianBlur(img, (3, 3), 0.8))


def test_a_tile_whose_divider_cannot_be_seen_is_never_dropped():
    # with its divider: read with confidence
    reading = reader.read_hand(_drawn_tile(True), 6)
    assert [f.tile for f in reading.tiles] == [Tile(2, 5)] and reading.unsure == ()
    # without: not dropped (a missed tile is a silent error); the blob counts alone leave it
    # unsure, the tile first ...
    judged = reader._once(reader._judged(*_rgb_and_outlines(_drawn_tile(False)), 6))
    assert len(judged) == 1 and judged[0].judgement.candidates[0] == Tile(2, 5)
    assert judged[0].judgement.confidence < reader.CONFIDENT
    # ... and the classifier, reading the same tile from its crop, reads it (step 3)
    reading = reader.read_hand(_drawn_tile(False), 6)
    assert [f.tile for f in reading.tiles] == [Tile(2, 5)] and reading.unsure == ()


def test_a_tile_that_cannot_be_in_the_hand_is_not_read():
    # R3.3: told that the 2-5 is counted in another hand (or is the round's engine), the
    # reader neither reads it nor offers it; the tile is asked about, not dropped
    reading = reader.read_hand(_drawn_tile(True), 6, frozenset({Tile(2, 5)}))
    assert reading.tiles == () and len(reading.unsure) == 1
    assert Tile(2, 5) not in reading.unsure[0].candidates
    # tiles out of the hand that it does not look like change nothing
    assert reader.read_hand(_drawn_tile(True), 6, frozenset({Tile(6, 6), Tile(1, 3)})) == \
        reader.read_hand(_drawn_tile(True), 6)


def test_a_tile_found_twice_is_looked_at_once_when_once_is_enough(monkeypatch):
    # the same outline found twice (at both sizes): its views are read once when the first
    # reading is sure, both when it is not; the reading kept is the same as judging both
    rgb, outlines = _rgb_and_outlines(_drawn_tile(True))
    assert len(outlines) >= 1
    twice = [outlines[0], outlines[0] + 2.0]
    looked = []
    real = reader._judged

    def judged(rgb, tiles, set_n):
        looked.append(len(tiles))
        return real(rgb, tiles, set_n)
    monkeypatch.setattr(reader, "_judged", judged)
    once = reader._judged_once(rgb, twice, 6)
    assert looked == [1] and once[1].judgement == once[0].judgement
    assert once[0].judgement.candidates[0] == Tile(2, 5) and (once[1].box == twice[1]).all()
    assert [s.judgement for s in reader._once(once)] == \
        [s.judgement for s in reader._once(real(rgb, twice, 6))]
    # not sure of the first (no divider): the second is looked at too
    rgb, outlines = _rgb_and_outlines(_drawn_tile(False))
    looked.clear()
    once = reader._judged_once(rgb, [outlines[0], outlines[0] + 2.0], 6)
    assert looked == [1, 1] and None not in once


def test_a_close_up_tile_is_read_at_the_close_up_sizes_unless_they_see_no_tile(monkeypatch):
    # a tile as wide as CLOSE_UP or wider is read from views at CLOSE_WIDTHS; one narrower,
    # and a close-up no view of which looks like a tile there, at VIEW_WIDTHS
    asked = []

    def judged_at(rgb, tiles, set_n, widths):
        asked.append((widths, [round(find.box_width(t)) for t in tiles]))
        return [None if widths == reader.CLOSE_WIDTHS and find.box_width(t) > 150
                else reader.Seen(t, reader.Judgement((Tile(len(asked), 0),), 1.0), ())
                for t in tiles]
    monkeypatch.setattr(reader, "_judged_at", judged_at)
    narrow, close, blank = (_seen(300 * k, 200, w, 1.0).box
                            for k, w in ((1, reader.CLOSE_UP - 1), (2, reader.CLOSE_UP), (3, 160)))
    out = reader._judged(np.zeros((600, 1200, 3), np.uint8), [narrow, close, blank], 6)
    assert asked == [(reader.CLOSE_WIDTHS, [reader.CLOSE_UP, 160]),
                     (reader.VIEW_WIDTHS, [reader.CLOSE_UP - 1, 160])]
    assert [s.judgement.candidates[0] for s in out] == [Tile(2, 0), Tile(1, 0), Tile(2, 0)]


def _half(*discs):
    """One half's pip probabilities (80 px square): a disc (x, y, radius) a pip each; a
    pair of discs whose middles lie closer than their radii make one blob."""
    p = np.zeros((80, 80), np.float32)
    for x, y, r in discs:
        cv2.circle(p, (x, y), r, 1.0, -1)
    return p


# A half's pips are of one size: (its blobs, as discs; the count; the slivers)
COUNTED = [
    ("one pip", [(40, 40, 9)], 1, 0),
    ("one large pip with two glints beside it (a coloured 1 of a double-12 set)",
     [(40, 40, 9), (22, 40, 2), (58, 52, 3)], 1, 2),
    ("six pips", [(x, y, 6) for x in (20, 60) for y in (15, 40, 65)], 6, 0),
    ("six pips and a neighbour's pip cut by the crop",
     [(x, y, 6) for x in (20, 60) for y in (15, 40, 65)] + [(78, 40, 2)], 6, 1),
    ("two pips touching: one blob, counted as two",
     [(30, 40, 7), (42, 40, 7), (65, 15, 7)], 3, 0),
    ("four pips and a round smear four times a pip: wrong, but enough slivers to flag it "
     "(judge.SLIVERS)", [(15, 12, 6), (65, 12, 6), (15, 68, 6), (65, 68, 6), (40, 40, 12)],
     1, 4),
]


@pytest.mark.parametrize("name, discs, count, slivers", COUNTED, ids=[c[0] for c in COUNTED])
def test_pips_are_counted_and_bits_beside_a_pip_are_slivers(name, discs, count, slivers):
    half = crops._count(_half(*discs), np.ones((80, 80), bool), 80)
    assert (half.count, half.slivers) == (count, slivers)
    if "smear" in name:
        assert half.slivers >= SLIVERS


def _touching_view(w: int = 64):
    """A view of a 2-3 whose face runs on past its right end into a touching neighbour (no
    edge between them): two of the neighbour's pips just past the tile's end, in part."""
    W, H = 2 * w + 2 * crops.PAD, w + 2 * crops.PAD
    classes = np.full((H, W), FACE, np.uint8)
    classes[crops.PAD + 4:H - crops.PAD - 4, W // 2 - 1:W // 2 + 2] = DIVIDER
    pips = np.zeros((H, W), np.float32)
    r = w // 10
    x0, x1 = crops.PAD + w // 4, W - crops.PAD - w // 4
    for x, y in [(x0, H // 3), (x0, 2 * H // 3),                       # the 2
                 (x1, H // 4), (x1 - w // 4, H // 2), (x1, 3 * H // 4),  # the 3
                 (W - crops.PAD + 2, H // 3), (W - crops.PAD + 2, 2 * H // 3)]:  # its neighbour's
        cv2.circle(pips, (x, y), r, 1.0, -1)
    classes[pips > 0.5] = PIP
    return classes, pips


def test_a_touching_neighbours_pips_beyond_the_tiles_end_are_not_counted(monkeypatch):
    classes, pips = _touching_view()
    view = crops.read_view(classes, pips, 64)
    assert sorted(h.count for h in view.halves) == [2, 3]
    assert sum(h.slivers for h in view.halves) == 0        # no doubt cast on the tile
    monkeypatch.setattr(crops, "PIPS_WITHIN", 1.2)          # pips counted to the crop's edge
    view = crops.read_view(classes, pips, 64)
    assert sorted(h.count for h in view.halves) == [2, 5]


def _seen(x, y, w, conf, tile=(2, 5)):
    """A tile seen with its outline w wide and 2w long, its middle at (x, y)."""
    box = np.array([[x - w, y - w / 2], [x + w, y - w / 2], [x + w, y + w / 2],
                    [x - w, y + w / 2]], np.float64)
    return reader.Seen(box, reader.Judgement((Tile.of(*tile),), conf), ())


# A hand is laid face up, its tiles apart: (what was seen besides a 2-5 read with confidence,
# 100 px wide, at (500, 500); whether it is still asked)
APART = [
    ("a question on one half of the tile (a half read as a tile)", _seen(550, 500, 50, 0.4),
     False),
    ("a question on a pip of it", _seen(520, 480, 10, 0.3), False),
    ("a question larger than the tile around it (it may hold a tile beside it)",
     _seen(560, 500, 130, 0.4), True),
    ("a question on a tile beside it", _seen(500, 620, 100, 0.4), True),
    ("a question half off its edge", _seen(500, 560, 60, 0.4), True),
    ("a question on a tile beside it, touching", _seen(500, 600, 100, 0.4), True),
    ("a question on it, its outline a little larger (nearly 4/5 of it on the sure tile)",
     _seen(510, 500, 110, 0.4), False),
    ("a question as large, shifted half a tile (half of it beside the sure tile)",
     _seen(500, 550, 100, 0.4), True),
]


@pytest.mark.parametrize("name, other, asked", APART, ids=[a[0] for a in APART])
def test_questions_on_part_of_a_sure_tile_are_not_asked(name, other, asked):
    sure = _seen(500, 500, 100, 0.9)
    assert hand.apart([sure, other]) == ([sure, other] if asked else [sure])


def test_a_question_between_two_sure_tiles_is_still_asked():
    """Two sure outlines too large for tiles touching end to end may between them cover
    most of the tile between them: it is asked (COVERED counts one sure tile at a time)."""
    above, below = _seen(500, 440, 100, 0.9, (1, 1)), _seen(500, 560, 100, 0.9, (3, 3))
    between = _seen(500, 500, 100, 0.4)          # 0.4 of it on each: 0.8 in all
    assert hand.apart([above, below, between]) == [above, below, between]


def _guessed(seen, p):
    return reader.Seen(seen.box, seen.judgement, (), Guess(((seen.judgement.candidates[0], p),),
                                                             0.9))


# Two tiles read with confidence cannot lie on one place: (the second tile, 2-5 first at
# (500, 500) 100 px wide, the classifier 0.9 sure of it; which is then asked, if any)
OVERLAPPING = [
    ("a tile beside it, apart", _seen(500, 620, 100, 0.9, (1, 1)), 0.95, None),
    ("a tile beside it, touching", _seen(500, 600, 100, 0.9, (1, 1)), 0.95, None),
    ("an outline taking in part of it (a third of the smaller)", _seen(500, 566, 100, 0.9,
                                                                        (1, 1)), 0.95, 0),
    ("the same, the classifier surer of the first", _seen(500, 566, 100, 0.9, (1, 1)), 0.5, 1),
    ("a tile read inside it, less sure: wholly on the other, it is not even asked "
     "(COVERED)", _seen(550, 500, 50, 0.9, (1, 1)), 0.5, "gone"),
    ("a question on top of it stays a question", _seen(500, 540, 100, 0.4, (1, 1)), 0.95,
     1),
]


@pytest.mark.parametrize("name, other, p, asked", OVERLAPPING,
                         ids=[o[0] for o in OVERLAPPING])
def test_two_sure_tiles_on_one_place_the_less_sure_is_asked(name, other, p, asked):
    first, second = _guessed(_seen(500, 500, 100, 0.9), 0.9), _guessed(other, p)
    out = hand.apart([first, second])
    if asked == "gone":
        assert out == [first]
        return
    assert [s.box.tolist() for s in out] == [first.box.tolist(), second.box.tolist()]
    assert [s.judgement.candidates for s in out] == \
        [first.judgement.candidates, second.judgement.candidates]
    sure = [s.judgement.confidence >= reader.CONFIDENT for s in out]
    want = [True, other.judgement.confidence >= reader.CONFIDENT]
    if asked is not None:
        want[asked] = False
    assert sure == want


# Each tile exists once (R3.3): (a question besides a 2-5 read with confidence elsewhere in
# the photo: its candidates, the classifier's probability for its first; whether it is
# not asked ("gone"), or the candidates it offers, in order (None: as they were))
READ_ELSEWHERE = [
    ("about the tile already read, the classifier saying so too",
     ((2, 5), (2, 4)), 0.6, "gone"),
    ("about it, the classifier at the limit", ((2, 5), (2, 4)), 0.35, "gone"),
    ("about it, the classifier just under the limit: asked", ((2, 5), (2, 4)), 0.34,
     ((2, 4), (2, 5))),
    ("about it, the classifier all but blind: asked, the tile read elsewhere last",
     ((2, 5), (2, 4), (1, 5)), 0.1, ((2, 4), (1, 5), (2, 5))),
    ("about another tile: asked as it was", ((3, 5), (2, 4)), 0.9, None),
    ("about another tile, the tile read elsewhere among its others: offered last",
     ((3, 5), (2, 5), (3, 4)), 0.9, ((3, 5), (3, 4), (2, 5))),
    ("about it, no word from the classifier: asked, the tile read elsewhere last",
     ((2, 5), (2, 4)), None, ((2, 4), (2, 5))),
]


@pytest.mark.parametrize("name, candidates, p, offers", READ_ELSEWHERE,
                         ids=[t[0] for t in READ_ELSEWHERE])
def test_a_question_about_a_tile_read_elsewhere_is_not_asked(name, candidates, p, offers):
    sure = _guessed(_seen(200, 200, 100, 0.9), 0.9)
    tiles = tuple(Tile.of(*c) for c in candidates)
    question = reader.Seen(_seen(700, 700, 100, 0.4).box, reader.Judgement(tiles, 0.4), (),
                           None if p is None else Guess(((tiles[0], p),), 0.9))
    out = hand.taken([sure, question])
    assert out[0] is sure                      # a tile read with confidence stays as it is
    if offers == "gone":
        assert out == [sure]
        return
    assert len(out) == 2 and out[1].box is question.box
    assert out[1].judgement.confidence == question.judgement.confidence
    assert out[1].judgement.candidates == \
        (tuple(Tile.of(*c) for c in offers) if offers else tiles)


def test_questions_are_asked_as_they_are_when_nothing_is_read_with_confidence():
    question = _guessed(_seen(500, 500, 100, 0.4), 0.9)
    assert hand.taken([question, question]) == [question, question]


def test_the_reader_leaves_out_a_question_about_a_tile_it_read(monkeypatch):
    """The rule is one of the reader's steps: a hand with a 2-5 read with confidence and a
    question far from it that the classifier reads as 2-5 comes back with the 2-5 alone."""
    sure = _guessed(_seen(200, 200, 100, 0.9), 0.9)
    question = _guessed(_seen(700, 700, 100, 0.4), 0.9)
    monkeypatch.setattr(reader, "_outlines", lambda rgb: [])
    monkeypatch.setattr(reader, "_judged_once", lambda rgb, tiles, set_n: [])
    monkeypatch.setattr(reader, "_classified", lambda *a, **k: [sure, question])
    out = reader._detect(np.zeros((8, 8, 3), np.uint8), 12)
    assert [(s.box.tolist(), s.judgement) for s in out] == [(sure.box.tolist(), sure.judgement)]


# The tiles of one set are of one size: (a question besides two tiles read with confidence,
# 100 px wide, at (200, 200) and (200, 400); whether it is asked)
ALIKE = [
    ("as wide as they are", _seen(700, 700, 100, 0.4), True),
    ("1.4 times as wide", _seen(700, 700, 140, 0.4), True),
    ("1.5 times as wide, apart from them (a picture of a domino, a box)",
     _seen(700, 700, 150, 0.4), False),
    ("twice as wide, a quarter of it on one of them (an outline across two tiles)",
     _seen(300, 250, 200, 0.4), True),
    ("twice as wide, touching one (4% of it on it)", _seen(470, 200, 200, 0.4), False),
    ("twice as wide, 6% of it on one", _seen(450, 200, 200, 0.4), True),
    ("twice as wide, read with confidence", _seen(700, 700, 200, 0.9), True),
    ("a speck: 19 px wide", _seen(700, 700, 19, 0.4), False),
    ("a pip's size, 21 px (it may be the only mark on a tile missed)",
     _seen(700, 700, 21, 0.4), True),
    ("19 px wide, read with confidence", _seen(700, 700, 19, 0.9), True),
]


@pytest.mark.parametrize("name, other, asked", ALIKE, ids=[a[0] for a in ALIKE])
def test_a_question_far_larger_than_the_sure_tiles_and_apart_or_a_speck_is_not_asked(
        name, other, asked):
    sure = [_seen(200, 200, 100, 0.9, (1, 1)), _seen(200, 400, 100, 0.9, (3, 3))]
    assert hand.alike(sure + [other]) == (sure + [other] if asked else sure)


def test_a_large_question_within_the_hand_is_asked():
    """An outline too large for its tile, lying among the tiles read with confidence (their
    hull) without covering any of them, may be the only mark on a tile missed: asked."""
    sure = [_seen(200, 200, 100, 0.9, (1, 1)), _seen(200, 800, 100, 0.9, (3, 3))]
    within, beside = _seen(200, 500, 150, 0.4), _seen(700, 500, 150, 0.4)
    assert hand.alike(sure + [within, beside]) == sure + [within]


def test_a_question_under_tiny_is_asked_when_the_hands_tiles_are_small_too():
    """A photo of small tiles (a small picture, a hand far away): 19 px is no speck beside
    tiles 40 px wide (SMALLER)."""
    sure = [_seen(200, 200, 40, 0.9, (1, 1)), _seen(200, 300, 40, 0.9, (3, 3))]
    small = _seen(400, 400, 19, 0.4)
    assert hand.alike(sure + [small]) == sure + [small]
    assert hand.alike(sure + [_seen(400, 400, 15, 0.4)]) == sure


def test_questions_of_any_size_are_asked_beside_one_sure_tile_only():
    """One tile read with confidence is no measure of the hand's size (it may be a tile
    far nearer the camera, or no whole tile)."""
    kept = [_seen(200, 200, 100, 0.9), _seen(700, 700, 300, 0.4), _seen(900, 900, 10, 0.4)]
    assert hand.alike(kept) == kept


def test_the_reader_leaves_out_a_question_unlike_the_hand(monkeypatch):
    """The rule is one of the reader's steps."""
    sure = [_guessed(_seen(200, 200, 100, 0.9, (1, 1)), 0.9),
            _guessed(_seen(200, 400, 100, 0.9, (3, 3)), 0.9)]
    large = _guessed(_seen(700, 700, 200, 0.4, (4, 6)), 0.3)
    monkeypatch.setattr(reader, "_outlines", lambda rgb: [])
    monkeypatch.setattr(reader, "_judged_once", lambda rgb, tiles, set_n: [])
    monkeypatch.setattr(reader, "_classified", lambda *a, **k: sure + [large])
    out = reader._detect(np.zeros((8, 8, 3), np.uint8), 12)
    assert [s.box.tolist() for s in out] == [s.box.tolist() for s in sure]


def _view(offset: float, shift: float = 0.0):
    return View((Half(2), Half(5)), 0.9, ((50.0, 25.0), (100.0, 50.0), 0.0), 2.0, 50.0, 0.95,
                0.0, 0.9, offset, shift)


def test_a_views_shift_says_where_its_divider_lies_along_the_outline():
    classes, pips = _touching_view()
    centred = crops.read_view(classes, pips, 64)
    assert abs(centred.shift) < 0.01
    moved = np.roll(classes, 16, axis=1), np.roll(pips, 16, axis=1)    # a quarter of a half
    right = crops.read_view(*moved, 64)
    assert right.shift == pytest.approx(16 / 128, abs=0.01)
    # a view cut the other way round measures it the other way: the reader turns it back
    turned = crops.read_view(moved[0][::-1, ::-1], moved[1][::-1, ::-1], 64)
    assert turned.shift == pytest.approx(-right.shift, abs=0.01)
    assert reader._turned(turned, 1).shift == pytest.approx(right.shift, abs=0.01)
    assert reader._turned(right, 0) is right and reader._turned(None, 1) is None


def test_a_tile_off_its_divider_is_looked_at_again_centred_on_it():
    # (outline 200 long from x 400 to 600; its views put the divider 0.1 of that to the right)
    off = reader.Seen(_seen(500, 300, 100, 1.0).box, reader.Judgement((Tile(2, 5),), 1.0),
                      (_view(0.1, 0.1), _view(0.09, 0.1)))
    again = reader._recentred([off, None])
    assert len(again) == 1
    assert again[0].mean(axis=0) == pytest.approx([520, 300])
    assert find.box_width(again[0]) == pytest.approx(find.box_width(off.box))
    # the same place found twice is looked at again once; a centred tile is not
    twin = reader.Seen(off.box + 2, off.judgement, off.views)
    centred = reader.Seen(_seen(900, 300, 100, 1.0).box, off.judgement,
                          (_view(0.01, 0.01),) * 2)
    assert len(reader._recentred([off, twin, centred])) == 1
    # a place's second outline judged by its first's views is not moved by them (their
    # shift is along the first outline, which may run the other way)
    far = reader.Seen(off.box, off.judgement, (_view(0.14, 0.14),))
    turned = reader.Seen(np.roll(far.box, 2, axis=0), far.judgement, far.views)
    assert len(reader._recentred([far, turned])) == 1
    # of a tile read twice, the reading on a moved outline goes, however sure the net is
    own = reader.Seen(off.box, off.judgement, (_view(0.01),), Guess(((Tile(2, 5), 0.9),), 0.99))
    moved = reader.Seen(off.box + 300, off.judgement, (_view(0.01),),
                        Guess(((Tile(2, 5), 0.99),), 0.99), moved=True)
    assert [s.box.tolist() for s in reader._consistent([moved, own])] == [own.box.tolist()]
    # views that would move it the other way (cut p1 -> p0) move it the other way
    back = reader.Seen(off.box, off.judgement, (_view(0.1, -0.1),))
    assert reader._recentred([back])[0].mean(axis=0) == pytest.approx([480, 300])


# A tile's divider is its middle (a domino is two squares): (its views' divider
# offsets from the outline's middle, against its length; the classifier's probability for
# its best tile; whether a tile read with confidence stays so)
OFF_MIDDLE = [
    ("divider in the middle", (0.01, 0.02, 0.0, 0.03), 0.5, True),
    ("a little off, as a real photo's tiles are", (0.05, 0.06, 0.04, 0.05), 0.5, True),
    ("off: the outline took in part of a neighbour", (0.08, 0.09, 0.07, 0.08), 0.5, False),
    ("off, one view only", (0.1,), 0.79, False),
    ("off, but the classifier is sure of it", (0.08, 0.09, 0.07, 0.08), 0.85, True),
    ("at the limit: kept", (0.07, 0.07), 0.5, True),
    ("off, the classifier at its limit: kept", (0.1, 0.1), 0.8, True),
]


@pytest.mark.parametrize("name, offsets, p, sure", OFF_MIDDLE, ids=[o[0] for o in OFF_MIDDLE])
def test_a_sure_tile_off_its_divider_is_asked_unless_the_classifier_is_sure(name, offsets,
                                                                            p, sure):
    j = reader.Judgement((Tile(2, 5), Tile(2, 4)), 1.0)
    out = reader._centred(j, tuple(_view(o) for o in offsets), Guess(((Tile(2, 5), p),), 0.99))
    # the classifier's word is for the tile read, not for another it is sure of
    other = Guess(((Tile(3, 4), 0.95), (Tile(2, 5), p)), 0.99)
    assert reader._centred(j, tuple(_view(o) for o in offsets), other) == out
    assert out.candidates == j.candidates            # asked, its reading offered first
    assert (out.confidence >= reader.CONFIDENT) is sure
    # a question stays a question
    unsure = reader.Judgement(j.candidates, 0.5)
    assert reader._centred(unsure, tuple(_view(o) for o in offsets),
                           Guess(((Tile(2, 5), p),), 0.99)) == unsure


def _rgb_and_outlines(data: bytes):
    rgb = decode.decode(data, long_side=reader.READ_SIDE).rgb
    return rgb, reader._outlines(rgb)


def test_reading_is_frozen_and_says_its_size():
    reading = reader.read_hand(jpeg(np.full((300, 400, 3), 128, np.uint8)), 12)
    assert (reading.width, reading.height, reading.tiles, reading.unsure) == (400, 300, (), ())
    with pytest.raises(AttributeError):
        reading.width = 1                        # type: ignore[misc]


# ---------------------------------------------------------------- the real photos it may ship

def test_real_photos_it_may_ship():
    labels = json.loads((PHOTOS / "labels.json").read_text(encoding="utf-8"))
    assert set(labels) == {p.name for p in PHOTOS.glob("*.jpg")}
    assert all("Public Domain" in e["licence"] for e in labels.values())
    totals = {"tiles": 0, "right": 0, "silent": 0}
    for name, entry in labels.items():
        answer = read_local((PHOTOS / name).read_bytes(), 6)
        s = score(answer, entry)
        totals["tiles"] += s.tiles
        totals["right"] += s.right
        totals["silent"] += s.silent
    assert totals["tiles"] == 21
    assert totals["right"] >= REAL_RIGHT, totals
    assert totals["silent"] <= REAL_SILENT, totals


# ---------------------------------------------------------------- the bench's scoring rules

def _answer(tiles=(), unsure=(), problems_=()):
    return {"tiles": [{"tile": list(t), "box": [], "confidence": 0.9} for t in tiles],
            "unsure": [{"box": [], "candidates": [list(c) for c in cs]} for cs in unsure],
            "problems": [{"code": "twice", "tile": list(t), "message": ""} for t in problems_]}


@pytest.mark.parametrize("answer, labels, right, unsure_matched, silent, wrong", [
    # all right
    (_answer([(1, 2), (3, 4)]), {"tiles": [[2, 1], [3, 4]]}, 2, 0, 0, 0),
    # a misread counts once, silent unless a problem flags it
    (_answer([(1, 2), (3, 5)]), {"tiles": [[1, 2], [3, 4]]}, 1, 0, 1, 1),
    (_answer([(1, 2), (3, 5)], problems_=[(3, 5)]), {"tiles": [[1, 2], [3, 4]]}, 1, 0, 0, 1),
    # unsure with the labelled tile among its candidates: unsure, not wrong
    (_answer([(1, 2)], [[(3, 5), (3, 4)]]), {"tiles": [[1, 2], [3, 4]]}, 1, 1, 0, 0),
    # unsure without it: the tile is wrong but flagged
    (_answer([(1, 2)], [[(3, 5), (3, 6)]]), {"tiles": [[1, 2], [3, 4]]}, 1, 0, 0, 1),
    # a missed tile is silent; a tile where none is, too
    (_answer([(1, 2)]), {"tiles": [[1, 2], [3, 4]]}, 1, 0, 1, 1),
    (_answer([(1, 2), (5, 5)]), {"tiles": [[1, 2]]}, 1, 0, 1, 1),
    # partial tiles may be read or not
    (_answer([(1, 2), (5, 5)]), {"tiles": [[1, 2]], "partial": [[5, 5]]}, 1, 0, 0, 0),
    (_answer([(1, 2), (6, 6)]), {"tiles": [[1, 2]], "partial": ["unknown"]}, 1, 0, 0, 0),
    (_answer([(1, 2)]), {"tiles": [[1, 2]], "partial": [[5, 5]]}, 1, 0, 0, 0),
    # the same tile twice in the labels (two photos of a set joined): a multiset
    (_answer([(1, 2), (1, 2)]), {"tiles": [[1, 2]]}, 1, 0, 1, 1),
])
def test_bench_scoring(answer, labels, right, unsure_matched, silent, wrong):
    s = score(answer, labels)
    assert (s.right, s.unsure_matched, s.silent, s.wrong) == (right, unsure_matched, silent,
                                                              wrong)


def test_bench_last_line():
    from bench.photos import last_line, summary, usage_line
    s = summary([score(_answer([(1, 2)]), {"tiles": [[1, 2], [3, 4]]})], [100.0, 300.0])
    assert last_line(s) == ("tiles right 1/2 (50.0%), photos all right 0/1, wrong and not "
                            "flagged 1, unsure 0, read p50 100 ms p99 300 ms")
    assert usage_line(s) == ("questions 0, where no tile is 0 (0.00 per photo); taps to the "
                             "right hand 1 for 2 tiles (0.50 per tile; by hand 1 per tile)")


def _boxed(tiles=(), unsure=(), problems_=(), w=1000, h=500):
    """An answer whose entries have boxes: each (tile or candidates, (cx, cy)) a 100x50
    box about that centre in pixels."""
    def box(c):
        x, y = c
        return [[x - 50, y - 25], [x + 50, y - 25], [x + 50, y + 25], [x - 50, y + 25]]
    return {"tiles": [{"tile": list(t), "box": box(c), "confidence": 0.9} for t, c in tiles],
            "unsure": [{"box": box(c), "candidates": [list(x) for x in cs]} for cs, c in unsure],
            "problems": [{"code": "twice", "tile": list(t), "message": ""} for t in problems_],
            "width": w, "height": h}


@pytest.mark.parametrize("answer, labels, no_tile, taps", [
    # read whole: nothing to tap
    (_boxed([((1, 2), (100, 100)), ((3, 4), (300, 100))]),
     {"tiles": [[1, 2], [3, 4]], "centres": [[0.1, 0.2], [0.3, 0.2]]}, 0, 0),
    # a question on a tile (its centre inside): one tap; on a cactus far from any: one tap,
    # and a question where no tile is
    (_boxed([((1, 2), (100, 100))], [([(3, 5), (3, 4)], (300, 100)), ([(6, 6)], (800, 400))]),
     {"tiles": [[1, 2], [3, 4]], "centres": [[0.1, 0.2], [0.3, 0.2]]}, 1, 2),
    # a tile read wrong without a problem: two taps; a tile missed: one
    (_boxed([((1, 2), (100, 100)), ((3, 5), (300, 100))]),
     {"tiles": [[1, 2], [3, 4], [0, 0]], "centres": [[0.1, 0.2], [0.3, 0.2], [0.5, 0.5]]}, 0, 3),
    # a tile read with a problem is a question: one tap
    (_boxed([((1, 2), (100, 100)), ((3, 5), (300, 100))], problems_=[(3, 5)]),
     {"tiles": [[1, 2], [3, 4]], "centres": [[0.1, 0.2], [0.3, 0.2]]}, 0, 1),
    # a question may be on a partial tile (no centre): not counted as no tile
    (_boxed([], [([(6, 6)], (800, 400))]), {"tiles": [], "partial": ["unknown"]}, 0, 1),
    # without centres: a question matching no labelled tile is where no tile is
    (_boxed([((1, 2), (100, 100))], [([(9, 9)], (800, 400))]), {"tiles": [[1, 2]]}, 1, 1),
])
def test_bench_questions_where_no_tile_is_and_taps(answer, labels, no_tile, taps):
    """rk_q7.jpg: 16 taps to put a 3-tile hand right, 7 questions on flowers, a cactus and a
    wallet: the bench says both."""
    s = score(answer, labels)
    assert (s.no_tile, s.taps) == (no_tile, taps)


def test_four_reads_at_once_agree_with_one():
    from concurrent.futures import ThreadPoolExecutor
    scene = scene_of(9, [(3, 4), (5, 6)], 480, 640, set_n=6, style=_ivory(), tile_w=70)
    data = jpeg(scene.image)
    alone = reader.read_hand(data, 6)
    assert alone.tiles or alone.unsure
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda _: reader.read_hand(data, 6), range(4)))
    assert all(r == alone for r in together)


def test_of_two_sure_tiles_on_one_place_the_one_the_net_gives_its_tile_least_is_asked():
    """A reading backed by the blob counts (the net 0.3 for its 1-1, 0.95 for a 1-2) on
    part of a 2-5 the net gives 0.9: the 1-1 is asked, not the 2-5 (ranked by what the
    net gives the tile each is read as, not by the net's own best)."""
    first = _guessed(_seen(500, 500, 100, 0.9), 0.9)
    other = _seen(500, 566, 100, 0.9, (1, 1))
    backed = reader.Seen(other.box, other.judgement, (),
                         Guess(((Tile.of(1, 2), 0.95), (Tile.of(1, 1), 0.3)), 0.9))
    out = hand.apart([first, backed])
    assert [s.judgement.confidence >= reader.CONFIDENT for s in out] == [True, False]
