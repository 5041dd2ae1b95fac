"""Train colours: a palette that stays apart for the common colour-vision deficiencies, the
check of a game's colours, and the colour beside each name wherever a player appears.

The palette is checked, not trusted: each colour is simulated for protanopia,
deuteranopia and tritanopia with the matrices of Machado, Oliveira & Fernandes (2009,
severity 1.0, applied to linear RGB), and every pair compared by CIEDE2000 in CIELAB (D65).
"""

from __future__ import annotations

import itertools
import math
import re
from io import BytesIO

import pypdf
import pytest

from scorekeeper.colours import MEXICAN_COLOUR, PALETTE, default_colours, parse_colours
from scorekeeper.errors import BadInput

# --- the palette, under simulated colour-vision deficiencies ----------------------------

#: Machado et al. 2009, severity 1.0 (normal vision: the identity).
VISION = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(colour: str, vision: str) -> tuple[float, float, float]:
    """CIELAB (D65) of *colour* as seen with *vision*."""
    rgb = [linear(int(colour[i:i + 2], 16)) for i in (1, 3, 5)]
    m = VISION[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[i][k] * rgb[k] for k in range(3)))) for i in range(3))
    xyz = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
           0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
           0.0193339 * r + 0.1191920 * g + 0.9503041 * b)
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
         for t in (xyz[0] / 0.95047, xyz[1], xyz[2] / 1.08883)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def delta_e(lab1, lab2) -> float:
    """CIEDE2000 (Sharma, Wu & Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = (math.degrees(math.atan2(b1, a1p)) % 360, math.degrees(math.atan2(b2, a2p)) % 360)
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lp, cp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp = (h1p + h2p) / 2
    else:
        hp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp - 30)) + 0.24 * math.cos(math.radians(2 * hp))
         + 0.32 * math.cos(math.radians(3 * hp + 6)) - 0.20 * math.cos(math.radians(4 * hp - 63)))
    rt = (-2 * math.sqrt(cp ** 7 / (cp ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((hp - 275) / 25) ** 2)))))
    sl = 1 + 0.015 * (lp - 50) ** 2 / math.sqrt(20 + (lp - 50) ** 2)
    sc, sh = 1 + 0.045 * cp, 1 + 0.015 * cp * t
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2
                     + rt * (dc / sc) * (dhh / sh))


def closest(colours, vision) -> tuple[float, str, str]:
    labs = {c: lab(c, vision) for c in colours}
    return min((delta_e(labs[a], labs[b]), a, b) for a, b in itertools.combinations(colours, 2))


def test_delta_e_matches_sharmas_published_pairs():
    # Sharma, Wu & Dalal (2005), table 1: pairs 1, 7 and 17.
    assert delta_e((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


@pytest.mark.parametrize("vision", list(VISION))
def test_fourteen_seats_stay_apart_for_every_vision(vision):
    assert len(PALETTE) == len(set(PALETTE)) == 14
    distance, a, b = closest(PALETTE, vision)
    assert distance >= 10, f"{a} and {b} look alike with {vision} (ΔE00 {distance:.1f})"


@pytest.mark.parametrize("vision", list(VISION))
def test_the_mexican_train_and_white_paper_stand_apart_from_every_seat(vision):
    for seat in PALETTE:
        assert delta_e(lab(seat, vision), lab(MEXICAN_COLOUR, vision)) >= 9, seat
        assert delta_e(lab(seat, vision), lab("#ffffff", vision)) >= 10, seat


def test_a_simulated_deficiency_does_merge_colours_a_plain_palette_keeps_apart():
    # The check can fail: the red and green of a common chart palette, far apart for
    # normal vision, all but merge for a deutan.
    assert delta_e(lab("#d62728", "normal"), lab("#2ca02c", "normal")) > 60
    assert delta_e(lab("#d62728", "deuteranopia"), lab("#2ca02c", "deuteranopia")) < 5


# --- a game's colours --------------------------------------------------------------------

def test_none_is_the_default_palette_in_seating_order():
    assert parse_colours(None, ["Ann", "Bob", "Chi"]) == list(PALETTE[:3]) == default_colours(3)


def test_colours_are_kept_as_lower_case_hex():
    assert parse_colours(["#AA0000", " #00aa00 "], ["Ann", "Bob"]) == ["#aa0000", "#00aa00"]


@pytest.mark.parametrize("colours, field, sentence", [
    (["#aa0000"], "colours", "Give one train colour per player, in seating order (2 colours)."),
    ("#aa0000", "colours", "Give one train colour per player"),
    (["red", "#00aa00"], "colours.0", "A train colour is written #rrggbb, like #d55e00."),
    (["#aa0000", "#aa00"], "colours.1", "#rrggbb"),
    (["#aa0000", 7], "colours.1", "#rrggbb"),
    (["#aa0000", "#AA0000"], "colours.1", "Bob and Ann have the same train colour (#aa0000): "
                                          "each player needs a colour of their own."),
])
def test_refused_colours_say_which_seat_and_why(colours, field, sentence):
    with pytest.raises(BadInput) as refused:
        parse_colours(colours, ["Ann", "Bob"])
    assert refused.value.field == field and sentence in refused.value.message


# --- the API, the export, the new-game page ------------------------------------------------

def test_a_new_game_takes_colours_and_always_says_them(client, game_factory):
    chosen = game_factory(colours=["#112233", "#445566", "#778899"])
    assert chosen["colours"] == ["#112233", "#445566", "#778899"]
    assert client.get(f"/api/games/{chosen['id']}").get_json()["colours"] == chosen["colours"]
    assert game_factory()["colours"] == list(PALETTE[:3])


def test_two_seats_with_one_colour_are_refused_and_nothing_is_stored(client):
    r = client.post("/api/games", json={"players": ["Ann", "Bob"],
                                        "colours": ["#112233", "#112233"]})
    assert r.status_code == 400 and r.get_json()["field"] == "colours.1"
    assert "same train colour" in r.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


def test_the_export_carries_the_colours_and_an_old_export_imports_in_the_default_palette(
        client, game_factory):
    game = game_factory(colours=["#112233", "#445566", "#778899"], scores=[[0, 5, 9]])
    doc = client.get(f"/api/games/{game['id']}/export").get_json()
    assert doc["game"]["colours"] == game["colours"]
    again = client.post("/api/games/import", json=doc).get_json()
    assert again["colours"] == game["colours"]
    del doc["game"]["colours"]   # an export made before train colours
    old = client.post("/api/games/import", json=doc)
    assert old.status_code == 201 and old.get_json()["colours"] == list(PALETTE[:3])
    doc["game"]["colours"] = ["#112233", "#112233", "#778899"]
    bad = client.post("/api/games/import", json=doc)
    assert bad.status_code == 400 and bad.get_json()["field"] == "game.colours.1"


def new_game_form(**colours):
    form = {"players-0": "Ann", "players-1": "Bob", "players-2": "", "players-3": "Dee",
            "set": "12"}
    return {**form, **colours}


def test_the_new_game_page_offers_a_colour_per_seat(client):
    html = client.get("/games/new").get_data(as_text=True)
    inputs = re.findall(r'<input type="color"[^>]*name="colour-(\d+)"\s+value="([^"]+)"', html)
    assert inputs == [(str(i), c) for i, c in enumerate(PALETTE)]
    assert 'aria-label="Train colour of player 1"' in html


def test_the_new_game_page_stores_each_seats_colour(client):
    r = client.post("/games/new", data=new_game_form(**{"colour-0": "#112233",
                                                        "colour-3": "#445566"}))
    assert r.status_code == 302
    game = client.get("/api/games").get_json()["games"][0]
    # Row 3 is empty: the seats are Ann, Bob and Dee, each with their row's colour.
    assert client.get(f"/api/games/{game['id']}").get_json()["colours"] == [
        "#112233", PALETTE[1], "#445566"]


def test_the_new_game_page_refuses_a_shared_colour_and_keeps_what_was_typed(client):
    r = client.post("/games/new", data=new_game_form(**{"colour-0": "#112233",
                                                        "colour-1": "#112233"}))
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "Bob and Ann have the same train colour (#112233)" in html
    assert 'value="Dee"' in html and 'name="colour-1"\n               value="#112233"' in html
    assert client.get("/api/games").get_json()["games"] == []


def test_same_table_keeps_the_colours(client, game_factory):
    game_factory(colours=["#112233", "#445566", "#778899"])
    html = client.get("/games/new?same=last").get_data(as_text=True)
    shown = re.findall(r'name="colour-(\d+)"\s+value="([^"]+)"', html)
    assert shown[:4] == [("0", "#112233"), ("1", "#445566"), ("2", "#778899"), ("3", PALETTE[3])]


# --- the colour beside every name ---------------------------------------------------------

def marks(html: str) -> list[tuple[str, str]]:
    """Each train marker with the name that follows it: (colour, name)."""
    return re.findall(r'<svg class="train-mark"[^>]* fill="(#[0-9a-f]{6})"><use href="[^"]+#train"/>'
                      r'</svg>(?:<bdi>|<a [^>]*>)([^<]+)', html)


COLOURS = ["#112233", "#445566", "#778899"]


@pytest.fixture
def coloured(game_factory):
    """A game with colours of its own, three rounds in, a live table on round 4."""
    game = game_factory(colours=COLOURS, scores=[[0, 23, 9], [17, 0, 30], [4, 11, 0]])
    return game["id"]


@pytest.mark.parametrize("path", [
    "/games/{gid}", "/games/{gid}/rounds/4", "/games/{gid}/rounds/2", "/games/{gid}/standings",
    "/games/{gid}/history", "/games/{gid}/board", "/games/{gid}/rounds/4/referee",
    "/games/{gid}/rounds/4/referee/plays?go=1&hand=12-4&current=1",
])
def test_every_page_of_a_game_shows_each_name_with_its_train_colour(client, coloured, path):
    html = client.get(path.format(gid=coloured)).get_data(as_text=True)
    seen = set(marks(html))
    for name, colour in zip(["Ann", "Bob", "Chi"], COLOURS):
        assert (colour, name) in seen, (path, name)


def test_the_live_table_draws_each_train_in_its_owners_colour_and_the_mexican_in_its_own(
        client, coloured):
    live = f"/games/{coloured}/rounds/4/live"
    client.post(live + "/start", data={"starter": "0", "tiles_each": "12", "active": "0"})
    html = client.get(live).get_data(as_text=True)
    trains = html[html.index('class="trains-live"'):html.index("</section>",
                                                                html.index('class="trains-live"'))]
    assert marks(trains) == [(COLOURS[0], "Ann"), (COLOURS[1], "Bob"), (COLOURS[2], "Chi"),
                             (MEXICAN_COLOUR, "Mexican train")]


def test_the_chart_draws_each_line_in_its_players_colour(client, coloured):
    html = client.get(f"/games/{coloured}/standings").get_data(as_text=True)
    lines = re.findall(r'<polyline points="[^"]+" fill="none" stroke="(#[0-9a-f]{6})" '
                       r'stroke-width="3"[^>]*><title>([^<]+)</title>', html)
    assert lines == list(zip(COLOURS, ["Ann", "Bob", "Chi"]))


def test_a_players_page_shows_their_colour_in_each_game(client, game_factory):
    game_factory(colours=COLOURS, scores=[[0, 5, 9]], finished=True)
    html = client.get("/players/Bob").get_data(as_text=True)
    assert re.search(r'<svg class="train-mark"[^>]* fill="#445566">', html)


def test_an_old_game_is_shown_in_the_default_palette(app, client, coloured):
    from scorekeeper.storage import connect
    db = connect(app.config["DATABASE"])
    db.execute("update games set colours = null")
    db.conn.commit()
    assert client.get(f"/api/games/{coloured}").get_json()["colours"] == list(PALETTE[:3])
    html = client.get(f"/games/{coloured}/standings").get_data(as_text=True)
    assert (PALETTE[1], "Bob") in set(marks(html))


def pdf_fill_colours(data: bytes) -> set[str]:
    """The fill colours set on page 1 (reportlab writes "r g b rg"), as #rrggbb."""
    content = pypdf.PdfReader(BytesIO(data)).pages[0].get_contents().get_data().decode("latin-1")
    return {"#%02x%02x%02x" % tuple(round(float(v) * 255) for v in m)
            for m in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) rg", content)}


def test_the_scoresheet_marks_each_column_with_its_train_colour(client, coloured):
    data = client.get(f"/games/{coloured}/scoresheet.pdf").data
    assert set(COLOURS) <= pdf_fill_colours(data)
    blank = client.get("/scoresheets/blank.pdf?players=Ann&players=Bob").data
    assert not set(PALETTE[:2]) & pdf_fill_colours(blank)


def test_colours_are_never_inline_style(client, coloured):
    for path in ("/games/{gid}", "/games/{gid}/standings", "/games/new"):
        html = client.get(path.format(gid=coloured)).get_data(as_text=True)
        assert " style=" not in html and "<style" not in html
