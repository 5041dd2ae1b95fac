"""The printable scoresheets: what a person reads off the paper, and the routes that serve them.

PDFs are read back with pypdf (text, page size, fonts) and with poppler's
pdftotext/pdftoppm (word positions, Thai through /ActualText, rendered pixels).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from html import unescape
from io import BytesIO
from urllib.parse import unquote

import pypdf
import pytest

from scorekeeper import pdf
from scorekeeper.errors import BadInput
from scorekeeper.game import Game, Round
from scorekeeper.options import RuleOptions, round_engines
from scorekeeper.pdf import FontsMissing, blank_scoresheet_pdf, fonts, scoresheet_pdf

POPPLER = shutil.which("pdftotext") and shutil.which("pdftoppm")
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils is not installed "
                                   "(scripts/system-deps.sh poppler-utils)")

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)

FOURTEEN = ["Ann", "Bob", "Chiara", "Dmitri", "Eve", "Farid", "Gul", "Hiroshi", "Ines",
            "Jakob", "Kwame", "Lena", "Mateus", "Noor"]
MULTILINGUAL = ["Nguyễn Thị Hương", "Γιώργος", "สมชาย", "王小明", "Siti Nurhaliza", "Zoë"]


# --- helpers -------------------------------------------------------------------

def new_game(client, players, set_n=12, **extra) -> str:
    response = client.post("/api/games", json={"players": players, "set": set_n, **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def record(client, game_id, number, scores) -> None:
    response = client.put(f"/api/games/{game_id}/rounds/{number}", json={"scores": scores})
    assert response.status_code == 200, response.get_json()


def random_scores(players, rounds, seed=7) -> list[dict[str, int]]:
    """One zero per round (the player who went out), the others 1–120."""
    rnd = random.Random(seed)
    out = []
    for _k in range(rounds):
        scores = {p: rnd.randint(1, 120) for p in players}
        scores[rnd.choice(players)] = 0
        out.append(scores)
    return out


def game_value(players, set_n, scores, name="Friday club") -> Game:
    """A Game value as storage would build it (the PDF module is pure)."""
    engines = round_engines(set_n)
    rounds = tuple(Round(k + 1, e, scores[k] if k < len(scores) else None)
                   for k, e in enumerate(engines))
    return Game("g1", name, tuple(players), set_n, RuleOptions(), rounds,
                "2024-05-03T19:00:00+00:00")


def reader(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(BytesIO(data))


def flat(text: str) -> str:
    """Whitespace folded to single spaces (a wrapped name reads as one)."""
    return " ".join(text.split())


def pypdf_text(data: bytes) -> str:
    return flat(" ".join(page.extract_text() for page in reader(data).pages))


def pdftotext(data: bytes, *args: str) -> str:
    return subprocess.run(["pdftotext", *args, "-", "-"], input=data, capture_output=True,
                          check=True).stdout.decode()


def words(data: bytes) -> list[tuple[str, float, float]]:
    """Every word on page 1 with its centre (x, y), y growing downwards (pdftotext -bbox)."""
    html = pdftotext(data, "-bbox", "-f", "1", "-l", "1")
    out = []
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                         r'yMax="([\d.]+)">(.*?)</word>', html):
        x0, y0, x1, y1 = map(float, m.groups()[:4])
        out.append((unescape(m.group(5)), (x0 + x1) / 2, (y0 + y1) / 2))
    return out


def grid(data: bytes, players: list[str]) -> dict[str, list[str]]:
    """Read the grid back: for each row label ("1", "2", …, "Total", "Place") the cells
    under each player's name, in seating order ("" for an empty cell)."""
    ws = words(data)
    columns = {}
    for name in players:
        hits = [(x, y) for w, x, y in ws if w == name]
        assert hits, f"{name} not found on the sheet"
        columns[name] = min(hits, key=lambda h: h[1])          # the header, topmost
    header_y = max(y for _x, y in columns.values())
    first_x = min(x for x, _y in columns.values())
    half_col = min(abs(a[0] - b[0]) for a in columns.values() for b in columns.values()
                   if a != b) / 2
    rows: dict[str, list[str]] = {}
    for label, lx, ly in ws:
        if ly <= header_y + 5 or lx >= first_x - half_col or label in rows:
            continue
        if not (label.isdigit() or label in ("Total", "Place", "Zero", "Lowest")):
            continue
        cells = []
        for name in players:
            cx = columns[name][0]
            got = [w for w, x, y in ws if abs(y - ly) < 3 and abs(x - cx) < half_col * 0.9]
            cells.append(" ".join(got))
        rows[label] = cells
    return rows


def page_size(data: bytes, index: int = 0) -> tuple[float, float]:
    box = reader(data).pages[index].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


def render(data: bytes, tmp_path, dpi: int = 30, gray: bool = True) -> tuple[int, int, bytes]:
    """Page 1 as raw pixels via pdftoppm (PGM gray or PPM colour): width, height, bytes."""
    out = tmp_path / "page"
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile",
                    *(["-gray"] if gray else []), "-", str(out)], input=data, check=True)
    raw = (tmp_path / ("page.pgm" if gray else "page.ppm")).read_bytes()
    # "P5\nW H\n255\n" then the pixels (pdftoppm writes no comments)
    magic, w, h, maxval, pixels = raw.split(maxsplit=4)
    assert magic in (b"P5", b"P6") and maxval == b"255"
    return int(w), int(h), pixels


def ink_fraction(data: bytes, tmp_path) -> float:
    w, h, pixels = render(data, tmp_path)
    return sum(1 for p in pixels if p < 200) / (w * h)


def zero_cell_pixels(data: bytes, tmp_path) -> int:
    """Pixels of the zero-round cells' pale green (#e1f0db); a green pip is much darker."""
    w, h, pixels = render(data, tmp_path, dpi=40, gray=False)
    r, g, b = pdf.ZERO_FILL.bitmap_rgb()
    return sum(1 for i in range(0, w * h * 3, 3)
               if abs(pixels[i] - r) <= 4 and abs(pixels[i + 1] - g) <= 4
               and abs(pixels[i + 2] - b) <= 4)


# --- the filled sheet ------------------------------------------------------------

@needs_poppler
def test_fourteen_players_double_18_fits_one_landscape_page(client):
    # 13–14 players play double-18 (R1.3): 19 rounds (R2.1), every round scored.
    game_id = new_game(client, FOURTEEN, set_n=18)
    scores = random_scores(FOURTEEN, 19)
    for k, round_scores in enumerate(scores, 1):
        record(client, game_id, k, round_scores)
    data = client.get(f"/games/{game_id}/scoresheet.pdf").data
    assert len(reader(data).pages) == 1
    w, h = page_size(data)
    assert (w, h) == (round(A4[1], 2), round(A4[0], 2))        # A4, landscape
    rows = grid(data, FOURTEEN)
    for k in range(19):                                         # every score, in its cell
        assert rows[str(k + 1)] == [str(scores[k][p]) for p in FOURTEEN], f"round {k + 1}"
    totals = {p: sum(s[p] for s in scores) for p in FOURTEEN}
    assert rows["Total"] == [str(totals[p]) for p in FOURTEEN]
    places = client.get(f"/api/games/{game_id}/standings").get_json()["standings"]
    place_of = {s["player"]: str(s["place"]) for s in places}
    assert rows["Place"] == [place_of[p] for p in FOURTEEN]
    assert "Winner:" in pypdf_text(data)


@needs_poppler
def test_six_players_double_12_multilingual_one_portrait_page(client, tmp_path):
    game_id = new_game(client, MULTILINGUAL, set_n=12, name="Đêm thứ Sáu")
    for k, round_scores in enumerate(random_scores(MULTILINGUAL, 13, seed=3), 1):
        record(client, game_id, k, round_scores)
    data = client.get(f"/games/{game_id}/scoresheet.pdf").data
    assert len(reader(data).pages) == 1
    assert page_size(data) == (round(A4[0], 2), round(A4[1], 2))     # A4 portrait
    # Every name comes back as text, from both extractors (a wrapped name reads as one).
    for text in (pypdf_text(data), flat(pdftotext(data))):
        for name in MULTILINGUAL:
            assert name in text
        assert "Đêm thứ Sáu" in text
    assert ink_fraction(data, tmp_path) > 0.02


@needs_poppler
def test_thai_marks_are_shaped_and_still_read_back():
    # ศักดิ์ and ปั้น stack marks: HarfBuzz swaps in glyph variants with no Unicode value,
    # so the run carries /ActualText.  poppler (pdftotext) reads the real text from it;
    # pypdf ignores /ActualText, so only unshaped Thai (สมชาย) is checked through pypdf.
    names = ["ศักดิ์ชัย", "ปั้นทอง", "สมชาย", "Ann"]
    data = blank_scoresheet_pdf(names, set_n=6)
    assert b"/ActualText" in reader(data).pages[0].get_contents().get_data()
    text = flat(pdftotext(data))
    for name in names:
        assert name in text
    assert "สมชาย" in pypdf_text(data)


def test_fonts_are_embedded_truetype_per_script():
    data = blank_scoresheet_pdf(["Nguyễn", "Γιώργος", "สมชาย", "王小明"], set_n=6)
    page = reader(data).pages[0]
    embedded = {}
    for font in page["/Resources"]["/Font"].values():
        font = font.get_object()
        if font["/Subtype"] != "/TrueType":         # reportlab subsets TrueType as simple fonts
            continue
        descriptor = font["/FontDescriptor"].get_object()
        embedded[str(font["/BaseFont"])] = "/FontFile2" in descriptor
    names = " ".join(embedded)
    for family in ("NotoSans-Bold", "NotoSansThai-Bold", "DroidSansFallback"):
        assert family in names
    assert embedded and all(embedded.values())       # every font embedded, TrueType outlines


@needs_poppler
def test_zero_rounds_are_marked_and_a_blank_sheet_has_none(tmp_path):
    players = ["Ann", "Bob", "Chi"]
    played = game_value(players, 6, [{"Ann": 0, "Bob": 12, "Chi": 30}] * 7)
    blank = blank_scoresheet_pdf(players, set_n=6)
    # seven zero cells, each about 25 × 8 pixels at 40 dpi
    assert zero_cell_pixels(scoresheet_pdf(played), tmp_path) > 7 * 100
    assert zero_cell_pixels(blank, tmp_path) == 0


@needs_poppler
def test_tiebreak_on_zero_rounds_is_explained(client):
    # Equal totals (30); Ann went out three times, Bob twice: Ann ranks higher (R8.2).
    players = ["Ann", "Bob", "Chi"]
    game_id = new_game(client, players, set_n=6)
    ann = [0, 10, 0, 5, 5, 0, 10]
    bob = [10, 0, 5, 5, 0, 5, 5]
    chi = [20, 20, 20, 0, 20, 20, 20]
    assert sum(ann) == sum(bob) == 30
    for k in range(7):
        record(client, game_id, k + 1, {"Ann": ann[k], "Bob": bob[k], "Chi": chi[k]})
    data = client.get(f"/games/{game_id}/scoresheet.pdf").data
    text = pypdf_text(data)
    assert "Winner: Ann with 30 points (R8.1)." in text
    assert "Ann ahead of Bob: more zero rounds, 3 to 2 (R8.2)." in text
    rows = grid(data, players)
    assert rows["Total"] == ["30", "30", "120"]
    assert rows["Place"] == ["1", "2", "3"]
    assert rows["4"] == ["5", "5", "0"]


@needs_poppler
def test_shared_first_place_is_said(client):
    players = ["Ann", "Bob"]
    game_id = new_game(client, players, set_n=6, start_engine=1, end_engine=0)
    record(client, game_id, 1, {"Ann": 0, "Bob": 7})
    record(client, game_id, 2, {"Ann": 7, "Bob": 0})
    text = pypdf_text(client.get(f"/games/{game_id}/scoresheet.pdf").data)
    assert "Shared first place: Ann and Bob with 7 points each (R8.4)." in text
    assert "Ann and Bob share place 1" in text


@needs_poppler
def test_game_in_progress_shows_totals_so_far_and_no_winner(client):
    players = ["Ann", "Bob", "Chi"]
    game_id = new_game(client, players, set_n=12)
    record(client, game_id, 1, {"Ann": 0, "Bob": 14, "Chi": 3})
    record(client, game_id, 2, {"Ann": 9, "Bob": 0, "Chi": 21})
    data = client.get(f"/games/{game_id}/scoresheet.pdf").data
    text = pypdf_text(data)
    assert "In progress: 2 of 13 rounds played" in text
    assert "Winner" not in text
    rows = grid(data, players)
    assert rows["1"] == ["0", "14", "3"]
    assert rows["3"] == ["", "", ""]                  # round 3 not played: empty cells
    assert rows["Total"] == ["9", "14", "24"]


def test_header_shows_game_set_rules_and_footer():
    game = game_value(["Ann", "Bob"], 9, [], name="Tuesday")
    game = Game(game.id, game.name, game.players, game.set,
                RuleOptions(double_blank=25, first_turn="single"), game.rounds, game.created_at)
    text = pypdf_text(scoresheet_pdf(game))
    for expected in ("Tuesday", "2024-05-03", "Double-9 set · 10 rounds",
                     "0-0 = 25 · first turn: one tile · deal A", "engines 9-9 down to 0-0",
                     "Mexican Train Scorekeeper", "Printed ", "Page 1 of 1",
                     # nothing recorded yet: a sheet to keep score by hand
                     "Winner:", "circle it"):
        assert expected in text
    assert "share place" not in text            # all at 0 is no tie to explain


def test_a_forty_character_name_stays_on_one_page():
    players = ["A" * 20 + " " + "B" * 19, "Bob", "Chi", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy",
               "Jo", "Kim", "Lou", "Max", "Ned"]
    data = scoresheet_pdf(game_value(players, 18, random_scores(players, 19)))
    assert len(reader(data).pages) == 1
    # wrapped over three lines, but every letter printed, none cut off
    assert "A" * 20 + "B" * 19 in pypdf_text(data).replace(" ", "")


# --- blank sheets --------------------------------------------------------------------

@needs_poppler
def test_blank_sheet_for_a_planned_game_has_names_engines_and_empty_cells(client, tmp_path):
    players = ["Ann", "Bob", "Γιώργος", "王小明"]
    response = client.get("/scoresheets/blank.pdf", query_string={
        "players": players, "set": "9", "start_engine": "9", "end_engine": "3",
        "double_blank": "25", "name": "Planned"})
    assert response.status_code == 200
    data = response.data
    text = pypdf_text(data)
    for expected in players + ["Planned", "Double-9 set · 7 rounds", "0-0 = 25", "9-9", "3-3"]:
        assert expected in text
    assert "2-2" not in text                          # the game stops at the 3-3 engine
    rows = grid(data, players)
    assert set(rows) >= {str(k) for k in range(1, 8)} | {"Total", "Place"}
    assert all(cells == ["", "", "", ""] for cells in rows.values())
    assert ink_fraction(data, tmp_path) > 0.02


def test_blank_sheet_with_blank_names_has_a_box_per_seat():
    data = blank_scoresheet_pdf(count=5, set_n=12)
    text = pypdf_text(data)
    assert "Game:" in text and "Date:" in text and "Winner:" in text
    assert "12 tiles each" in text                    # 5–6 players on double-12 (R1.3)
    assert page_size(data) == (round(A4[0], 2), round(A4[1], 2))


def test_blank_sheet_for_fourteen_is_one_landscape_page():
    data = blank_scoresheet_pdf(count=14, set_n=18, paper="Letter")
    assert len(reader(data).pages) == 1
    assert page_size(data) == (LETTER[1], LETTER[0])


@pytest.mark.parametrize("count, landscape", [(8, False), (9, True)])
def test_landscape_above_eight_players(count, landscape):
    w, h = page_size(blank_scoresheet_pdf(count=count))
    assert (w > h) is landscape


@pytest.mark.parametrize("kwargs, field", [
    ({"count": 1}, "count"),
    ({"count": 15}, "count"),
    ({}, "count"),
    ({"players": ["Ann", "Bob"], "count": 2}, "count"),
    ({"players": ["Ann", "ann"]}, "players.1"),
    ({"count": 4, "set_n": 7}, "set"),
    ({"count": 4, "set_n": 6, "start_engine": 9}, "start_engine"),
    ({"count": 4, "start_engine": 3, "end_engine": 5}, "end_engine"),
    ({"count": 4, "paper": "A3"}, "paper"),
])
def test_blank_sheet_refuses_bad_input(kwargs, field):
    with pytest.raises(BadInput) as caught:
        blank_scoresheet_pdf(**kwargs)
    assert caught.value.field == field


# --- routes --------------------------------------------------------------------------

def test_scoresheet_route_answers_an_inline_pdf(client):
    game_id = new_game(client, ["Ann", "Bob"], set_n=6, name="Friday club")
    response = client.get(f"/games/{game_id}/scoresheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    assert response.headers["Content-Disposition"] == 'inline; filename="scoresheet-Friday-club.pdf"'
    assert response.headers["Cache-Control"] == "no-store"


def test_non_ascii_game_name_gets_an_rfc5987_filename(client):
    game_id = new_game(client, ["Ann", "Bob"], set_n=6, name="王小明的游戏")
    disposition = client.get(f"/games/{game_id}/scoresheet.pdf").headers["Content-Disposition"]
    assert disposition.startswith(f'inline; filename="scoresheet-{game_id}.pdf"; ')
    encoded = disposition.split("filename*=UTF-8''", 1)[1]
    assert unquote(encoded) == "scoresheet-王小明的游戏.pdf"
    disposition.encode("ascii")                            # the header itself is ASCII


def test_unknown_game_is_404(client):
    assert client.get("/games/nosuchgame/scoresheet.pdf").status_code == 404


@pytest.mark.parametrize("query, paper", [
    ("", A4), ("?paper=letter", LETTER), ("?paper=A4", A4), ("?paper=LETTER", LETTER)])
def test_paper_from_the_query(client, query, paper):
    game_id = new_game(client, ["Ann", "Bob"], set_n=6)
    data = client.get(f"/games/{game_id}/scoresheet.pdf{query}").data
    assert page_size(data) == (round(paper[0], 2), round(paper[1], 2))


def test_paper_from_the_app_config(app, client):
    app.config["PAPER_SIZE"] = "Letter"
    response = client.get("/scoresheets/blank.pdf?count=3")
    assert page_size(response.data) == LETTER


def test_blank_route_answers_a_pdf(client):
    response = client.get("/scoresheets/blank.pdf?count=4&set=12&deal=B&double_owner_satisfies=true")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].startswith("inline; ")
    text = pypdf_text(response.data)
    assert "deal B" in text and "double's owner satisfies it" in text


@pytest.mark.parametrize("query, sentence", [
    ("count=1", "The number of players must be a whole number from 2 to 14"),
    ("count=15", "The number of players must be a whole number from 2 to 14"),
    ("count=four", "The number of players must be a whole number from 2 to 14"),
    ("", "Give the players' names or the number of players"),
    ("count=4&players=Ann&players=Bob", "not both"),
    ("players=Ann", "A game has 2 to 14 players; 1 was given (R1.1)."),
    ("players=Ann&players=ANN", "is in the game twice"),
    ("count=4&set=7", "The set must be double-6, 9, 12, 15 or 18."),
    ("count=4&set=twelve", "The set must be double-6, 9, 12, 15 or 18."),
    ("count=4&set=6&start_engine=9", "The start engine must be a double from 0 to 6."),
    ("count=4&start_engine=2&end_engine=5", "Engines count down"),
    ("count=4&double_blank=30", "double_blank must be 50, 25, or 0."),
    ("count=4&double_owner_satisfies=maybe", "double_owner_satisfies must be false or true."),
    ("count=4&paper=A3", "The paper size must be A4 or Letter."),
])
def test_blank_route_refuses_bad_input_with_a_sentence(client, query, sentence):
    response = client.get(f"/scoresheets/blank.pdf?{query}")
    assert response.status_code == 400
    assert sentence in unescape(response.get_data(as_text=True))


def test_bad_paper_on_a_game_is_400(client):
    game_id = new_game(client, ["Ann", "Bob"], set_n=6)
    assert client.get(f"/games/{game_id}/scoresheet.pdf?paper=A5").status_code == 400


# --- fonts -----------------------------------------------------------------------------

def test_missing_font_names_the_debian_package(monkeypatch, tmp_path):
    monkeypatch.setitem(pdf.FONT_FILES, "cjk", ("/nonexistent/DroidSansFallbackFull.ttf",
                                                 "fonts-droid-fallback"))
    with pytest.raises(FontsMissing, match="fonts-droid-fallback"):
        fonts(str(tmp_path / "empty"))


def test_font_directory_override_is_searched_first(monkeypatch, tmp_path):
    for key, (path, package) in list(pdf.FONT_FILES.items()):
        (tmp_path / path.rsplit("/", 1)[1]).symlink_to(path)
        monkeypatch.setitem(pdf.FONT_FILES, key, ("/nonexistent/" + path.rsplit("/", 1)[1],
                                                   package))
    data = blank_scoresheet_pdf(["Ann", "王小明"], set_n=6, font_dir=str(tmp_path))
    assert "王小明" in pypdf_text(data)


def test_fonts_are_registered_once_per_process():
    assert fonts() is fonts()


def test_format_characters_are_never_drawn():
    """Names refuse Unicode Cf characters; one stored before that is drawn without them."""
    players = ["A\u200bnn", "\u202eBob", "Chi\u2066"]
    data = scoresheet_pdf(game_value(players, 6, random_scores(players, 2)), "A4")
    text = pypdf_text(data)
    assert "Ann" in text and "Bob" in text and "Chi" in text
    assert not any(c in text for c in "\u200b\u202e\u2066")
