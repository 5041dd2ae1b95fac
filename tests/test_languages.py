"""Every page in every language: no English sentence left, <html lang> named, the
choice remembered per device, the API's sentences by Accept-Language, the PDF's
labels in the language's script."""

from __future__ import annotations

import re
import subprocess
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["vi", "th", "zh", "ms", "el"]
NAMES = ["Nguyễn Thị Hương", "Γιώργος", "สมชาย", "王小明"]
GAME_NAME = "Đêm thứ Sáu"

#: English words that no page in another language should show (names and game data
#: above contain none of them).
ENGLISH = re.compile(r"\b(the|and|of|your|you|with|this|that|is|are|was|to|on|for|from|"
                     r"round|rounds|score|scores|tile|tiles|train|player|players|game|"
                     r"enter|save|delete|rename|undo|history|standings|legal)\b", re.I)
#: Code that stays as it is in every language (JSON keys and values, option names).
CODE = re.compile(r"\{[^{}]*\}|`[^`]*`|\b(first_turn|first_turn_stuck|double_owner_satisfies|"
                  r"double_blank|deal|starter|null|true|false|drew|finished|out|blocked|"
                  r"play|draw|pass|name or null|Content-Type: application/json)\b")


def english_fragments() -> list[str]:
    """Pieces of the English messages long enough to be a sentence of their own."""
    with open(ROOT / "scorekeeper/translations/vi/LC_MESSAGES/messages.po", "rb") as f:
        cat = read_po(f)
    out = set()
    for m in cat:
        if not m.id:
            continue
        for text in (m.id if isinstance(m.id, tuple) else (m.id,)):
            for piece in re.split(r"%\(\w+\)[sd]|\{\w+\}|[“”\"]", text):
                piece = piece.strip(" .,:;()")
                if len(piece) >= 14 and len(piece.split()) >= 3 and not CODE.search(piece):
                    out.add(piece)
    return sorted(out)


FRAGMENTS = english_fragments()


@pytest.fixture
def site(client, game_factory):
    gid = game_factory(NAMES, name=GAME_NAME,
                       scores=[[0, 23, 9, 41], [17, 0, 30, 8], [4, 11, 0, 19]])["id"]
    live = f"/games/{gid}/rounds/4/live"
    client.post(live + "/start", data={"starter": "0", "tiles_each": "12", "active": "0"})
    client.post(live + "/action", data={"kind": "play", "tile": "9-4", "train": "0",
                                        "active": "1"})
    client.post(live + "/action", data={"kind": "play", "tile": "4-7", "train": "1",
                                        "active": "2"})   # refused: R4.1 (shown on the page)
    trash = game_factory(["Lan", "Minh"])["id"]
    client.delete(f"/api/games/{trash}")
    game_factory(NAMES, scores=[[0, 0, 9, 9]], finished=True)
    client.post("/api/seasons", json={"name": GAME_NAME, "from": "2000-01-01", "to": "2100-12-31"})
    return gid


PAGES = ["/", "/games/new", "/games/{gid}", "/games/{gid}/rounds/4", "/games/{gid}/rounds/2",
         "/games/{gid}/standings", "/games/{gid}/history", "/games/{gid}/undo",
         "/games/{gid}/rounds/5/referee?current=1&last-0=9-5&last-1=8-8&mark-2=1&tile=5-3&train=0",
         "/games/{gid}/rounds/4/referee?tile=4-8&train=1",
         "/games/{gid}/rounds/5/referee?current=1&last-0=8-5&mark-0=1&tile=5-3&train=0",
         "/games/{gid}/rounds/5/referee?ask=1",
         "/games/{gid}/rounds/5/referee/plays?go=1&current=1&hand=8-2&hand=0-0",
         "/games/{gid}/rounds/5/referee/plan?go=1&hand=8-2&hand=2-2&hand=2-11",
         "/referee", "/games/{gid}/rounds/4/live", "/games/{gid}/rounds/6/live",
         "/games/{gid}/rounds/4/live/log", "/games/{gid}/rename", "/games/{gid}/delete",
         "/deleted", "/games/import", "/games/{gid}/board", "/games/{gid}/pin/change",
         "/rules", "/no/such/page", "/games/nope", "/players", "/players/{first}", "/seasons",
         "/seasons/{season}?min_games=2", "/seasons/{season}/board", "/players/nobody",
         "/seasons/{season}?rank_by=average", "/games/{gid}/verify",
         "/games/{gid}/verify?code={printed}", "/games/{gid}/verify?code={code}",
         "/games/{gid}/verify?code=ZZZZZ-ZZZZZ"]


def visible(html: str) -> str:
    """What a person reads or hears: text, and the labels of controls and pictures."""
    html = re.sub(r"<(script|style|code)\b.*?</\1>", " ", html, flags=re.S)   # code is not prose
    labels = " ".join(re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]*)"', html))
    text = re.sub(r"<[^>]+>", " ", html)
    return unescape(re.sub(r"\s+", " ", f"{text} {labels}"))


def english_left(path: str, html: str, lang: str, data: tuple = ()) -> list[str]:
    """The English a page in *lang* still shows: whole fragments of the English messages,
    and English words (names, game data, *data* such as a folder, and code aside)."""
    assert f'<html lang="{lang}">' in html, path
    words = visible(html)
    for name in NAMES + [GAME_NAME, "Lan", "Minh", "Mexican Train Scorekeeper", *data]:
        words = words.replace(name, " ")
    problems = [f"{path}: {fragment!r}" for fragment in FRAGMENTS if fragment in words]
    for language_name in ("English", "Bahasa Melayu"):
        words = words.replace(language_name, " ")   # the picker names each language in itself
    found = sorted({m.group(0) for m in ENGLISH.finditer(CODE.sub(" ", words))})
    if found:
        problems.append(f"{path}: English words {found}")
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_left_on_any_page(client, site, lang):
    problems = []
    season = client.get("/api/seasons").get_json()["seasons"][0]["id"]
    # A sheet printed before round 3 was corrected, and the code of the game as it is now.
    printed = client.get(f"/api/games/{site}/verify").get_json()["code"]
    client.put(f"/api/games/{site}/rounds/3", json={"scores": dict(zip(NAMES, [4, 11, 0, 21]))})
    code = client.get(f"/api/games/{site}/verify").get_json()["code"]
    for path in PAGES:
        r = client.get(path.format(gid=site, season=season, first=NAMES[0], printed=printed,
                                   code=code)
                       + ("&" if "?" in path else "?") + f"lang={lang}")
        problems += english_left(path, r.get_data(as_text=True), lang)
    assert not problems, f"{len(problems)} pages with English in {lang}:\n" + "\n".join(problems[:30])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_club_pages_in_every_language(app, client, game_factory, tmp_path, lang):
    """Issue 19's pages: the first start, the club settings, restoring a backup (its form
    and its summary), and with a club PIN set, the prompt and its refusals."""
    import io
    from pathlib import Path as P
    from scorekeeper.storage import backup
    kept = (str(P(app.config["DATABASE"]).parent / "backups"),)   # a folder: data, not prose
    client.get(f"/?lang={lang}")
    problems = english_left("/ (first start)", client.get("/").get_data(as_text=True), lang)
    for path in ("/club", "/backup/restore"):
        problems += english_left(path, client.get(path).get_data(as_text=True), lang, kept)
    game_factory(NAMES, name=GAME_NAME, scores=[[0, 3, 5, 9]], finished=True)
    backup(app.config["DATABASE"], str(tmp_path / "b.sqlite"))
    r = client.post("/backup/restore", data={"file": (io.BytesIO((tmp_path / "b.sqlite")
                                                                 .read_bytes()), "b.sqlite")},
                    content_type="multipart/form-data")
    problems += english_left("restore summary", r.get_data(as_text=True), lang, kept)
    r = client.post("/backup/restore", data={"file": (io.BytesIO(b"not a database"), "x")},
                    content_type="multipart/form-data")
    problems += english_left("restore refused", r.get_data(as_text=True), lang, kept)
    client.put("/api/club/pin", json={"pin": "246810"})
    other = app.test_client()
    other.get(f"/?lang={lang}")
    for path in ("/", "/club", "/club/pin?next=/", "/games/import"):
        problems += english_left(path, other.get(path).get_data(as_text=True), lang)
    r = other.post("/seasons", data={"name": "X", "start": "2026-01-01", "end": "2026-02-01",
                                     "club_pin": "1111"})
    problems += english_left("wrong club PIN", r.get_data(as_text=True), lang)
    assert not problems, "\n".join(problems[:30])


def catalogue(lang: str):
    with open(ROOT / f"scorekeeper/translations/{lang}/LC_MESSAGES/messages.po", "rb") as f:
        return read_po(f, locale=lang)


def translation(lang: str, msgid: str) -> str:
    message = catalogue(lang)[msgid]
    return message.string[0] if isinstance(message.string, tuple) else message.string


def test_the_choice_of_language(client):
    """?lang= sets it (kept for the device), else Accept-Language, else English."""
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)
    r = client.get("/", headers={"Accept-Language": "el-GR,el;q=0.9,en;q=0.5"})
    assert '<html lang="el">' in r.get_data(as_text=True)
    r = client.get("/?lang=th")
    assert '<html lang="th">' in r.get_data(as_text=True) and "lang=th" in r.headers["Set-Cookie"]
    # Remembered on this device, over the browser's own preference.
    r = client.get("/games/new", headers={"Accept-Language": "el"})
    assert '<html lang="th">' in r.get_data(as_text=True)
    # An unknown code changes nothing.
    assert '<html lang="th">' in client.get("/?lang=xx").get_data(as_text=True)
    # Every language is offered, named in itself, on every page.
    html = client.get("/rules").get_data(as_text=True)
    for name in ("English", "Tiếng Việt", "ไทย", "中文", "Bahasa Melayu", "Ελληνικά"):
        assert f">{name}</a>" in html


RULING = {"table": {"set": 12, "engine": 12, "players": ["Ann", "Bob", "Chi"], "current": "Bob",
                    "trains": {"Ann": [[12, 5], [5, 5]]}},
          "play": {"tile": [12, 9], "train": None}}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_api_answers_in_the_requests_language(client, lang):
    english = client.post("/api/rulings", json=RULING).get_json()
    local = client.post("/api/rulings", json=RULING, headers={"Accept-Language": lang}).get_json()
    assert [(v["code"], v["rule"]) for v in local["violations"]] == \
        [(v["code"], v["rule"]) for v in english["violations"]] == [("open_double", "R6.3")]
    said = local["violations"][0]["message"]
    assert said != english["violations"][0]["message"]
    assert "Ann" in said and "Bob" in said and "5-5" in said
    assert not ENGLISH.search(said)
    # A refusal: the same status and field, the sentence in the language.
    bad = client.post("/api/games", json={"players": ["Ann"]}, headers={"Accept-Language": lang})
    assert bad.status_code == 400 and bad.get_json()["field"] == "players"
    assert not ENGLISH.search(bad.get_json()["error"])
    # Pages' ?lang= does not change the API: it follows Accept-Language only.
    assert client.post(f"/api/rulings?lang={lang}", json=RULING).get_json() == english


SCRIPTS = {"th": re.compile(r"[\u0e00-\u0e7f]"), "zh": re.compile(r"[\u4e00-\u9fff]"),
           "el": re.compile(r"[\u0370-\u03ff]")}


@pytest.mark.parametrize("lang", sorted(SCRIPTS))
def test_the_scoresheet_speaks_the_language(client, site, lang):
    import shutil
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) is not installed")
    for path in (f"/games/{site}/scoresheet.pdf?lang={lang}",
                 f"/scoresheets/blank.pdf?count=4&lang={lang}"):
        pdf = client.get(path).data
        text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                              check=True).stdout.decode()
        for label in ("Total", "Zero rounds", "Place"):
            assert translation(lang, label) in text, (path, label)
        assert SCRIPTS[lang].search(text)
        assert "Total" not in text and "Zero rounds" not in text
