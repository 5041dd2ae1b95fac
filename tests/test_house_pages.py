"""House scoring on the pages that show a game (R11.5): the game's grid, the standings,
the TV board and the chart show the hand, the bonus or penalty, and the score that counts;
a game under the default options shows none of it."""

from __future__ import annotations

import re

from scorekeeper.charts import totals_chart

HOUSE = {"went_out_bonus": 10, "marker_penalty": 15}


def played(client, game_factory, rules=HOUSE, **body):
    """A house-scored game with two rounds played: Ann −10 and 5 + 15, Bob 7 and −10,
    Chi 9 + 15 and 9 (*body*: the rest of the new game, e.g. its engines)."""
    gid = game_factory(rules=rules, **body)["id"]
    client.put(f"/api/games/{gid}/rounds/1",
               json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"],
                     "markers": ["Chi"]})
    client.put(f"/api/games/{gid}/rounds/2",
               json={"scores": {"Ann": 5, "Bob": 0, "Chi": 9}, "went_out": ["Bob"],
                     "markers": ["Ann"]})
    return gid


def test_the_games_grid_shows_hand_change_and_score(client, game_factory):
    gid = played(client, game_factory)
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert '<span class="house-parts">0 − 10 =</span> <strong>−10</strong>' in page
    assert '<span class="house-parts">9 + 15 =</span> <strong>24</strong>' in page
    assert "going out: −10 · standing marker: +15" in page


def test_the_standings_show_hands_bonuses_penalties_and_r11_4(client, game_factory):
    gid = played(client, game_factory)
    page = client.get(f"/games/{gid}/standings").get_data(as_text=True)
    assert ">Hands<" in page and ">Bonuses<" in page and ">Penalties<" in page
    # Bob: 7 in hands, a bonus of −10: −3 in all, first.
    row = re.search(r'<tr class="leader">.*?</tr>', page, re.S).group(0)
    cells = re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)
    assert cells == ["−3", "7", "−10", "—", "1", "7"]
    assert "House scoring (" in page and "R11.4" in page


def test_the_board_shows_each_total_as_its_parts(client, game_factory):
    gid = played(client, game_factory)
    page = client.get(f"/games/{gid}/board").get_data(as_text=True)
    assert '<span class="board-parts">5 − 10 + 15 =</span> 10' in page


def test_a_default_game_shows_no_house_columns(client, game_factory):
    gid = game_factory(scores=[(0, 7, 9)])["id"]
    for url in (f"/games/{gid}", f"/games/{gid}/standings", f"/games/{gid}/board"):
        page = client.get(url).get_data(as_text=True)
        assert "house-parts" not in page and ">Hands<" not in page
        assert "board-parts" not in page and "R11.4" not in page


def test_the_chart_reaches_below_0_for_a_negative_total():
    chart = str(totals_chart(["Ann", "Bob"], [{"Ann": -10, "Bob": 7}], ["1"], "Totals",
                             {"Ann": "#000000", "Bob": "#111111"}))
    assert ">−10</text>" in chart and ">−12</text>" not in chart
    plain = str(totals_chart(["Ann", "Bob"], [{"Ann": 0, "Bob": 7}], ["1"], "Totals",
                             {"Ann": "#000000", "Bob": "#111111"}))
    assert "−" not in plain and ">0</text>" in plain


def test_the_scoresheet_prints_hand_change_and_score_and_the_options(client, game_factory):
    from io import BytesIO

    import pypdf
    gid = played(client, game_factory)
    r = client.get(f"/games/{gid}/scoresheet.pdf")
    assert r.status_code == 200
    text = "".join(page.extract_text() for page in pypdf.PdfReader(BytesIO(r.data)).pages)
    assert "0 - 10 =" in text and "9 + 15 =" in text and "5 + 15 =" in text
    assert "going out: -10" in text and "standing marker: +15" in text


def test_a_default_games_sheet_draws_nothing_of_house_scoring():
    """A game without house scoring is drawn as before issue 25 (its bytes were compared
    with main's: identical): no parts in its cells."""
    from scorekeeper.game import Game, Round
    from scorekeeper.options import RuleOptions
    from scorekeeper.pdf.sheet import game_sheet
    rounds = (Round(1, 1, {"Ann": 0, "Bob": 7}), Round(2, 0))
    sheet = game_sheet(Game("g", "", ("Ann", "Bob"), 6, RuleOptions(), rounds))
    assert sheet.parts is None and sheet.summary.totals == ["0", "7"]


def test_the_check_code_covers_the_lists_and_finds_an_earlier_one(client, game_factory):
    gid = game_factory(rules={"marker_penalty": 15})["id"]
    url = f"/api/games/{gid}/rounds/1"
    client.put(url, json={"scores": {"Ann": 0, "Bob": 0, "Chi": 9}, "went_out": ["Ann"]})
    first = client.get(f"/api/games/{gid}/verify").get_json()["code"]
    # Bob went out instead of Ann: no score that counts changes, the code does.
    client.put(url, json={"scores": {"Ann": 0, "Bob": 0, "Chi": 9}, "went_out": ["Bob"]})
    second = client.get(f"/api/games/{gid}/verify").get_json()["code"]
    assert second != first
    client.put(url, json={"scores": {"Ann": 0, "Bob": 0, "Chi": 9}, "went_out": ["Bob"],
                          "markers": ["Chi"]})
    answer = client.get(f"/api/games/{gid}/verify", query_string={"code": first}).get_json()
    assert answer["matches"] is False and answer["known"] is True
    assert [(c["player"], c["printed"], c["now"]) for c in answer["changes"]] == [
        ("Chi", 9, 24)]


def test_the_new_game_page_offers_both_options_with_their_rules(client):
    from test_pages import new_game_form
    html = client.get("/games/new").get_data(as_text=True)
    for name, rule in (("went_out_bonus", "R11.1"), ("marker_penalty", "R11.2")):
        assert f'name="{name}"' in html and f"#{rule}" in html
    r = client.post("/games/new", data=new_game_form(["Ann", "Bob"], went_out_bonus="10",
                                                     marker_penalty="25"))
    assert r.status_code == 302
    gid = r.location.split("/")[2]
    rules = client.get(f"/api/games/{gid}").get_json()["rules"]
    assert (rules["went_out_bonus"], rules["marker_penalty"]) == (10, 25)
    # "Same table again" seats the next game with the same house scoring.
    again = client.get("/games/new?same=last").get_data(as_text=True)
    assert re.search(r'name="went_out_bonus" value="10"[^>]*checked', again)
    r = client.post("/games/new", data=new_game_form(["Ann", "Bob"], went_out_bonus="7"))
    assert r.status_code == 400
    assert "Choose one of the listed values for “Bonus for going out”." in r.get_data(as_text=True)


def test_the_rulebook_has_r11_in_every_language(client):
    for lang in ("en", "vi", "th", "zh", "ms", "el"):
        html = client.get("/rules", headers={"Accept-Language": lang}).get_data(as_text=True)
        assert all(f'id="R11.{k}"' in html for k in range(1, 6)), lang
        assert 'id="R9-went_out_bonus"' in html and 'href="#R11.2"' in html


def test_the_history_shows_each_score_as_its_parts(client, game_factory):
    gid = played(client, game_factory)
    client.put(f"/api/games/{gid}/rounds/1",
               json={"scores": {"Ann": 0, "Bob": 7, "Chi": 9}, "went_out": ["Ann"]})
    page = client.get(f"/games/{gid}/history").get_data(as_text=True)
    # The correction took Chi's marker away: 9 + 15 = 24 became 9.
    assert ('<span class="old">9 + 15 = 24</span> <span aria-hidden="true">→</span> '
            '<span class="sr-only">New</span> <span class="new">9</span>') in page
    assert '<span class="new">0 − 10 = −10</span>' in page
    plain = game_factory(scores=[(0, 7, 9)])["id"]
    assert '<span class="new">7</span>' in client.get(f"/games/{plain}/history").get_data(
        as_text=True)


def finished_house_game(client, create):
    """A complete house-scored game of two rounds (as played() plays them)."""
    return played(client, create, start_engine=1, end_engine=0)


def test_the_player_page_shows_each_game_and_the_points_as_parts(client, game_factory):
    gid = finished_house_game(client, game_factory)
    page = client.get("/players/Ann").get_data(as_text=True)
    # Ann: hands 5, a bonus of −10, a penalty of +15: 10.
    assert '<span class="house-parts">5 − 10 + 15 =</span> 10' in page
    assert f'/games/{gid}/standings' in page


def test_the_season_shows_and_the_csv_carries_bonuses_and_penalties(client, game_factory):
    r = client.post("/api/seasons", json={"name": "Winter", "from": "2000-01-01",
                                          "to": "2100-12-31"})
    sid = r.get_json()["id"]
    game_factory(["Ann", "Bob", "Dee"], scores=[(0, 10, 4)], finished=True)
    finished_house_game(client, game_factory)
    page = client.get(f"/seasons/{sid}").get_data(as_text=True)
    # Ann: 0 in the plain game, 10 in the house game (5 in hands, −10, +15).
    assert '<span class="house-parts">5 − 10 + 15 =</span> 10' in page
    lines = client.get(f"/seasons/{sid}.csv").get_data(as_text=True).splitlines()
    assert lines[0].endswith(",lowest_game,bonuses,penalties")
    ann = next(line for line in lines if ",Ann," in line)
    assert ann.endswith(",-10,15")


def test_a_season_without_house_scoring_keeps_its_csv(client, game_factory):
    r = client.post("/api/seasons", json={"name": "Plain", "from": "2000-01-01",
                                          "to": "2100-12-31"})
    game_factory(["Ann", "Bob"], scores=[(0, 10)], finished=True)
    csv = client.get(f"/seasons/{r.get_json()['id']}.csv").get_data(as_text=True)
    assert csv.splitlines()[0].endswith(",zero_rounds,lowest_game")


def test_the_players_chart_reaches_below_0_for_a_game_below_0():
    from scorekeeper.charts import game_totals_chart
    chart = str(game_totals_chart([("1 Dec", -20, True, "−20"), ("2 Dec", 30, False, "30")],
                                  "Totals"))
    assert ">−20</text>" in chart


def test_the_grid_marks_a_round_gone_out_as_a_zero_round(client, game_factory):
    gid = played(client, game_factory)
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    # R11.4: Ann's −10 (she went out) is her zero round, marked as one.
    assert re.search(r'<td class="num zero[^"]*"><span class="house-parts">0 − 10 =</span>', page)
