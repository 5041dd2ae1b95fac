"""A printed scoresheet anyone can verify: its check code (checkcode.py), the QR code of
its verification page, and what that page and GET /api/games/<id>/verify answer."""

from __future__ import annotations

import re
import subprocess
from io import BytesIO
from urllib.parse import parse_qs, urlsplit

import pypdf
import pytest

from scorekeeper.checkcode import ALPHABET, LENGTH, game_code, read, shown, verify
from scorekeeper.game import Game, Round
from scorekeeper.options import RuleOptions
from scorekeeper.pdf.shapes import qr_modules


def game_of(scores=None, players=("Ann", "Bob"), game_id="g1", options=RuleOptions()):
    return Game(game_id, "", tuple(players), 6, options,
                (Round(1, 6, scores), Round(2, 5)), created_at="2026-11-30T19:00:00+00:00")


# --- the code ------------------------------------------------------------------------

def test_a_code_is_ten_characters_without_look_alikes():
    code = game_code(game_of(), "secret")
    assert len(code) == LENGTH and set(code) <= set(ALPHABET)
    assert not set("ILOU") & set(ALPHABET) and len(ALPHABET) == 32
    assert shown(code) == f"{code[:5]}-{code[5:]}"


@pytest.mark.parametrize("changed", [
    game_of({"Ann": 0, "Bob": 6}),                                # a score
    game_of(players=("Ann", "Bea")),                              # a name
    game_of(game_id="g2"),                                        # another game
    game_of(options=RuleOptions(double_blank=25)),                # a house rule
])
def test_the_code_depends_on_the_record(changed):
    assert game_code(changed, "secret") != game_code(game_of(), "secret")


def test_the_code_is_the_same_for_the_same_record_and_needs_the_secret():
    same = Game("g1", "Renamed", ("Ann", "Bob"), 6, RuleOptions(), (Round(1, 6), Round(2, 5)),
                colours=("#112233", "#445566"))
    assert game_code(same, "secret") == game_code(game_of(), "secret")   # name and colours: no
    assert game_code(game_of(), "another secret") != game_code(game_of(), "secret")


@pytest.mark.parametrize("typed", ["{c}", "{lower}", "{a} {b}", "{a}-{b}", " {a} – {b} "])
def test_a_code_is_read_without_regard_to_case_spaces_or_dashes(typed):
    code = game_code(game_of(), "secret")
    text = typed.format(c=code, lower=code.lower(), a=code[:5], b=code[5:])
    assert verify(game_of(), [], "secret", text).matches


def test_crockfords_look_alikes_are_read_as_the_digits():
    assert read("oO-iIlL 23") == "001111" + "23"


def test_an_earlier_code_is_known_with_what_changed_since_and_when():
    history = [
        {"edit_id": 1, "round": 1, "player": "Ann", "new": 0, "at": "2026-11-30T19:20:00+00:00"},
        {"edit_id": 1, "round": 1, "player": "Bob", "new": 5, "at": "2026-11-30T19:20:00+00:00"},
        {"edit_id": 2, "round": 1, "player": "Bob", "new": 7, "at": "2026-11-30T19:30:00+00:00"},
    ]
    printed = game_code(game_of({"Ann": 0, "Bob": 5}), "secret")
    now = game_of({"Ann": 0, "Bob": 7})
    result = verify(now, history, "secret", printed)
    assert not result.matches and result.known
    assert result.to_json() == {"matches": False, "known": True, "changes": [
        {"round": 1, "player": "Bob", "printed": 5, "now": 7, "at": "2026-11-30T19:30:00+00:00"}]}
    assert result.printed_at == "2026-11-30T19:20:00+00:00"
    # Half an edit is no state the game was ever in: only whole saves count.
    half = game_code(game_of({"Ann": 0, "Bob": None}), "secret")
    assert verify(now, history, "secret", half).to_json() == {"matches": False, "known": False}
    blank = verify(now, history, "secret", game_code(game_of(), "secret"))
    assert [(c.round, c.player, c.printed, c.now) for c in blank.changes] == [
        (1, "Ann", None, 0), (1, "Bob", None, 7)]


# --- the API -----------------------------------------------------------------------------

def test_the_api_gives_the_code_and_checks_one(client, game_factory):
    game = game_factory(scores=[[0, 23, 9]])
    url = f"/api/games/{game['id']}/verify"
    code = client.get(url).get_json()["code"]
    assert client.get(url).get_json() == {"code": code} and len(code) == 10
    assert client.get(f"{url}?code={shown(code).lower()}").get_json() == {"matches": True}
    client.put(f"/api/games/{game['id']}/rounds/1",
               json={"scores": {"Ann": 0, "Bob": 25, "Chi": 9}})
    answer = client.get(f"{url}?code={code}").get_json()
    at = client.get(f"/api/games/{game['id']}/history").get_json()["changes"][-1]["at"]
    assert answer == {"matches": False, "known": True, "changes": [
        {"round": 1, "player": "Bob", "printed": 23, "now": 25, "at": at}]}
    assert client.get(f"{url}?code=ABCDE-FGHJK").get_json() == {"matches": False,
                                                               "known": False}
    r = client.get(f"{url}?code=%20")
    assert r.status_code == 400 and r.get_json() == {
        "error": "Give the check code printed on the scoresheet.", "field": "code"}
    assert client.get("/api/games/nope/verify").status_code == 404


def test_another_server_cannot_make_the_code(new_app, database, game_factory, client):
    game = game_factory()
    other = new_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "elsewhere"})
    url = f"/api/games/{game['id']}/verify"
    assert other.test_client().get(url).get_json() != client.get(url).get_json()


# --- the printed sheet -------------------------------------------------------------------

def pdf_text(data: bytes) -> str:
    return subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True).stdout.decode()


def printed_code(data: bytes) -> str:
    return re.search(r"Check code\s+([0-9A-Z]{5}-[0-9A-Z]{5})", pdf_text(data))[1]


def test_a_printed_code_then_a_correction_the_verify_page_names_the_round_score_and_when(
        client, game_factory):
    game = game_factory(name="Friday", scores=[[0, 23, 9], [17, 0, 30]])
    gid = game["id"]
    code = printed_code(client.get(f"/games/{gid}/scoresheet.pdf").data)
    page = client.get(f"/games/{gid}/verify?code={code}").get_data(as_text=True)
    assert "It matches" in page
    client.put(f"/api/games/{gid}/rounds/2", json={"scores": {"Ann": 17, "Bob": 0, "Chi": 32}})
    page = client.get(f"/games/{gid}/verify?code={code}").get_data(as_text=True)
    at = client.get(f"/api/games/{gid}/history").get_json()["changes"][-1]["at"]
    assert "Changed since it was printed" in page
    rows = re.findall(r"<tr>\s*<td[^>]*>(\d+)</td>\s*<td class=\"name\">.*?<bdi>([^<]+)</bdi>"
                      r".*?</td>\s*<td[^>]*>([^<]+)</td>\s*<td[^>]*>([^<]+)</td>\s*"
                      r"<td class=\"time\"><time datetime=\"([^\"]+)\"", page, re.S)
    assert rows == [("2", "Chi", "30", "32", at)]
    assert "1 score changed after that" in page


def test_an_unknown_code_is_said_so(client, gid):
    page = client.get(f"/games/{gid}/verify?code=ZZZZZ-ZZZZZ").get_data(as_text=True)
    assert "Unknown code" in page and "This game never had that code" in page
    empty = client.get(f"/games/{gid}/verify").get_data(as_text=True)
    assert 'id="verdict"' not in empty and 'name="code"' in empty


def test_the_sheets_qr_code_opens_the_verify_page_with_its_code(client, game_factory, tmp_path):
    gid = game_factory(scores=[[0, 23, 9]])["id"]
    data = client.get(f"/games/{gid}/scoresheet.pdf").data
    code = printed_code(data)
    links = [a.get_object()["/A"]["/URI"] for a in pypdf.PdfReader(BytesIO(data)).pages[0]["/Annots"]]
    assert len(links) == 1
    url = urlsplit(links[0])
    assert url.path == f"/games/{gid}/verify" and parse_qs(url.query)["code"] == [
        code.replace("-", "")]
    assert client.get(f"{url.path}?{url.query}").get_data(as_text=True).count("It matches") == 1
    # The drawn modules are the QR code of that address: read back from the rendered page.
    expected = qr_modules(links[0])
    assert drawn_qr(data, tmp_path, len(expected)) == expected


def drawn_qr(data: bytes, tmp_path, count: int) -> tuple[tuple[bool, ...], ...]:
    """The *count* × *count* modules of the QR code as rendered (pdftoppm, 300 dpi), each
    sampled at its centre.  The code's square is the link's rectangle: the modules and a
    quiet zone of two modules on each side (pdf/shapes.draw_qr)."""
    from PIL import Image
    page = pypdf.PdfReader(BytesIO(data)).pages[0]
    x0, _y0, x1, y1 = (float(v) for v in page["/Annots"][0].get_object()["/Rect"])
    height = float(page.mediabox.height)
    subprocess.run(["pdftoppm", "-r", "300", "-gray", "-singlefile", "-png", "-",
                    str(tmp_path / "page")], input=data, check=True)
    image = Image.open(tmp_path / "page.png").convert("L")
    dots, module = 300 / 72, (x1 - x0) / (count + 4)
    return tuple(tuple(image.getpixel((round((x0 + (c + 2.5) * module) * dots),
                                       round((height - y1 + (r + 2.5) * module) * dots))) < 128
                       for c in range(count)) for r in range(count))


def test_a_blank_sheet_carries_no_code(client):
    data = client.get("/scoresheets/blank.pdf?players=Ann&players=Bob").data
    assert "Check code" not in pdf_text(data)
    assert "/Annots" not in pypdf.PdfReader(BytesIO(data)).pages[0]
