"""The referee's pages through the Flask client: rulings from a sketched table,
my plays, the planner, the live table and its move log."""

import re

import pytest

from helpers import create_game
from scorekeeper.referee import Play, check
from scorekeeper.errors import BadInput
from scorekeeper.options import RuleOptions
from scorekeeper.situation import (Situation, TrainSketch, last_tile_asked, question_from_query,
                                   sketch_table)
from scorekeeper.verdict import instead, verdict
from scorekeeper.tiles import Tile

T = Tile.of
PLAYERS = ("Ann", "Bob", "Chi")


def sit(**kw):
    base = dict(set=12, engine=12, players=PLAYERS, current="Bob")
    base.update(kw)
    return Situation(**base)


# --- the sketched table (pure) ---------------------------------------------

@pytest.mark.parametrize("situation, tile, train, codes", [
    # R6.3: Ann's open 5-5 binds Bob even on Ann's unmarked train.
    (sit(trains={"Ann": TrainSketch(5, True)}), T(5, 9), "Ann", []),
    (sit(trains={"Ann": TrainSketch(5, True)}), T(12, 9), "Bob", ["open_double"]),
    # R5.2: a marked train is open; an unmarked one is not.
    (sit(trains={"Chi": TrainSketch(3)}, markers=frozenset({"Chi"})), T(3, 7), "Chi", []),
    (sit(trains={"Chi": TrainSketch(3)}), T(3, 7), "Chi", ["train_closed"]),
    # R3.2 on an empty Mexican train: it needs the engine's number.
    (sit(), T(12, 4), None, []),
    (sit(), T(4, 5), None, ["no_match"]),
    # R4.1: first turn, own train only.
    (sit(first_turn=True), T(12, 4), None, ["first_turn_own_train"]),
    # R6.1: after a double played this turn, a tile is owed anywhere legal.
    (sit(trains={"Bob": TrainSketch(5)}, played=Play(T(5, 5), "Bob")), T(12, 1), None, []),
    # R5.4: after a draw, only the drawn tile.
    (sit(drawn=T(2, 3)), T(12, 1), None, ["drawn_tile_only"]),
])
def test_sketched_situations(situation, tile, train, codes):
    table = sketch_table(situation, avoid=[tile])
    assert [v.code for v in check(table, Play(tile, train))] == codes


@pytest.mark.parametrize("sketch, open_end, last, open_doubles", [
    # Last tile 9-5 (9 touching the train): the open end is 5 and 9-5 itself is on the table.
    (TrainSketch(5, False, 9), 5, T(5, 9), {}),
    # A tile straight on the engine: the train is that one tile.
    (TrainSketch(3, False, 12), 3, T(3, 12), {}),
    # A double as the last tile: an open double (R6.3) ...
    (TrainSketch(7, True, 7), 7, T(7, 7), {"Ann": T(7, 7)}),
    # ... or, answered, a train past it that comes back to the same number.
    (TrainSketch(7, False, 7), 7, None, {}),
])
def test_sketch_from_the_last_tile(sketch, open_end, last, open_doubles):
    table = sketch_table(sit(trains={"Ann": sketch}))
    assert table.open_end("Ann") == open_end
    assert T(7, 7) in table.on_table or sketch.near != 7
    if last is not None:
        assert table.trains["Ann"][-1] == last
    assert table.open_doubles == open_doubles


def test_stand_in_tiles_never_use_the_tile_in_dispute():
    # The obvious filler for an open end of 5 is 12-5: it must not be used when 12-5 is asked about.
    table = sketch_table(sit(trains={"Ann": TrainSketch(5)}), avoid=[T(12, 5)])
    assert T(12, 5) not in table.on_table
    assert table.open_end("Ann") == 5


@pytest.mark.parametrize("situation, field", [
    (sit(trains={"Ann": TrainSketch(12, True)}), "trains.Ann"),          # the engine as a double
    (sit(trains={"Ann": TrainSketch(None, True)}), "trains.Ann"),        # empty yet a double
    (sit(trains={"Bob": TrainSketch(4)}, played=Play(T(5, 6), "Bob")), "played"),
])
def test_impossible_sketches_are_refused(situation, field):
    with pytest.raises(BadInput) as err:
        sketch_table(situation)
    assert err.value.field == field


def test_instead_says_where_and_to_draw():
    table = sketch_table(sit(trains={"Ann": TrainSketch(5, True)}))
    lines = instead(table)
    assert lines[0] == "Bob may play a tile showing 5 on the train of Ann."
    assert lines[-1] == ("If Bob cannot satisfy an open double, they draw one tile; if it does "
                         "not satisfy one, they place a marker on their own train and the duty "
                         "passes to the next player (R6.4).")
    # the live table knows the boneyard: empty, nobody draws (R5.4)
    assert instead(table, boneyard=0)[-1] == (
        "The boneyard is empty: if Bob cannot play, they place a marker on their own train and "
        "the turn passes (R5.4).")


# What a player who does not play does instead (the last line of instead()): every branch of
# the advice, one case each: the situation, the boneyard the live table knows (None: a
# sketch does not), and the sentence.
DRAW = RuleOptions(first_turn_stuck="draw")
SINGLE = RuleOptions(first_turn="single")
ON_DOUBLE = RuleOptions(double_owner_satisfies=True)
OWES = dict(trains={"Bob": TrainSketch(5)}, played=Play(T(5, 5), "Bob"))
OVER = "The turn is over: play passes to the next player."
LAST_RESORT = [
    # R5.1: a tile that is not a double ends the turn's play.
    (sit(trains={"Bob": TrainSketch(5)}, played=Play(T(5, 9), "Bob")), None, OVER),
    # R4.1 (first_turn: single): the one tile is played.
    (sit(first_turn=True, played=Play(T(12, 3), "Bob"), options=SINGLE), None, OVER),
    # R4.2 (first_turn_stuck: draw): the drawn tile was played, which ends the first turn.
    (sit(first_turn=True, drawn=T(12, 4), played=Play(T(12, 4), "Bob"), options=DRAW), None,
     OVER),
    # R4.2 (marker): nobody draws in the first turn; one who drew places the marker.
    (sit(first_turn=True, drawn=T(2, 3)), None,
     "Nobody draws in the first turn under this game's rules: having drawn, Bob places a marker "
     "where their train would go and the turn passes (R4.2)."),
    (sit(first_turn=True, drawn=T(2, 3), played=Play(T(12, 3), "Bob")), None,
     "Nobody draws in the first turn under this game's rules: having drawn, Bob places a marker "
     "where their train would go and the turn passes (R4.2)."),
    # R4.2 (draw): the drawn tile only, on their own train, or the marker.
    (sit(first_turn=True, drawn=T(2, 3), options=DRAW), None,
     "Bob drew 2-3: only that tile may be played, on their own train; if it does not match, "
     "they place a marker where their train would go and their first turn ends (R4.2)."),
    # R4.2 (draw): only a player who cannot start their train draws; one who started it
    # and drew may play nothing after the draw.
    (sit(first_turn=True, drawn=T(2, 3), played=Play(T(12, 3), "Bob"), options=DRAW), 0,
     "Bob had already started their train, and only a player who cannot start it draws in the "
     "first turn: no tile may be played after that draw, and their first turn ends (R4.2)."),
    # R4.1: a started train may stop there, under either option.
    (sit(first_turn=True, played=Play(T(12, 3), "Bob")), None,
     "Bob may also stop here: their first turn ends, with no marker and no draw (R4.1)."),
    (sit(first_turn=True, played=Play(T(12, 3), "Bob"), options=DRAW), 5,
     "Bob may also stop here: their first turn ends, with no marker and no draw (R4.1)."),
    # R4.2 (marker): one who cannot start places the marker without drawing …
    (sit(first_turn=True), None,
     "If Bob cannot start their train, they place a marker where it would go and do not draw "
     "(R4.2)."),
    # … (draw): draws one …
    (sit(first_turn=True, options=DRAW), None,
     "If Bob cannot start their train, they draw one tile: if it matches the engine they may "
     "play that tile only, which ends their first turn; otherwise they place a marker where "
     "their train would go (R4.2)."),
    # … but with an empty boneyard places the marker without drawing (R5.4).
    (sit(first_turn=True, options=DRAW), 0,
     "The boneyard is empty: if Bob cannot play, they place a marker on their own train and "
     "the turn passes (R5.4)."),
    # R6.7: drew, owing a tile on the double just played.
    (sit(**OWES, drawn=T(2, 3), options=ON_DOUBLE), None,
     "Bob drew 2-3: only that tile may be played, and only on the 5-5; if it does not go "
     "there, they place a marker on their own train and the turn ends (R6.7)."),
    # R6.2: drew, owing a tile after the double, anywhere legal.
    (sit(**OWES, drawn=T(2, 3)), None,
     "Bob drew 2-3: only that tile may be played; if it cannot be played, they place a marker "
     "on their own train and the turn ends (R6.2)."),
    # R6.4: drew, bound by an open double.
    (sit(trains={"Ann": TrainSketch(5, True)}, drawn=T(2, 3)), None,
     "Bob drew 2-3: only that tile may be played, on an open double; if it does not satisfy "
     "one, they place a marker on their own train and the duty passes to the next player "
     "(R6.4)."),
    # R5.4: drew; the drawn tile or the marker, whatever the boneyard holds now.
    (sit(drawn=T(2, 3)), None,
     "Bob drew 2-3: only that tile may be played; if it cannot be played, they place a marker "
     "on their own train and the turn passes (R5.4)."),
    (sit(drawn=T(2, 3)), 0,
     "Bob drew 2-3: only that tile may be played; if it cannot be played, they place a marker "
     "on their own train and the turn passes (R5.4)."),
    # R5.4: an empty boneyard: the marker at once, owing a tile or not.
    (sit(), 0,
     "The boneyard is empty: if Bob cannot play, they place a marker on their own train and "
     "the turn passes (R5.4)."),
    (sit(**OWES, options=ON_DOUBLE), 0,
     "The boneyard is empty: if Bob cannot play, they place a marker on their own train and "
     "the turn passes (R5.4)."),
    # R6.7: the tile owed goes on that double, or a draw.
    (sit(**OWES, options=ON_DOUBLE), None,
     "If Bob cannot play a tile on the 5-5, they draw one; if the drawn tile does not go on "
     "that double, they place a marker on their own train and the turn ends (R6.7)."),
    # R6.2: the tile owed goes anywhere legal, or a draw.
    (sit(**OWES), 3,
     "If Bob cannot play the tile owed after the double, they draw one; if it cannot be played "
     "either, they place a marker on their own train and the turn ends (R6.2)."),
    # R6.2 before R6.4: the tile owed comes first, even with another double open.
    (sit(trains={"Ann": TrainSketch(9, True), "Bob": TrainSketch(5)},
         played=Play(T(5, 5), "Bob")), None,
     "If Bob cannot play the tile owed after the double, they draw one; if it cannot be played "
     "either, they place a marker on their own train and the turn ends (R6.2)."),
    # R6.4: an open double to satisfy, or a draw.
    (sit(trains={"Ann": TrainSketch(5, True)}, options=ON_DOUBLE), None,
     "If Bob cannot satisfy an open double, they draw one tile; if it does not satisfy one, "
     "they place a marker on their own train and the duty passes to the next player (R6.4)."),
    # R5.4: nothing owed: draw one, then the drawn tile or the marker.
    (sit(), None,
     "If Bob cannot play, they draw one tile; if it cannot be played, they place a marker on "
     "their own train and the turn passes (R5.4)."),
    (sit(markers=frozenset({"Bob"}), options=DRAW), 7,
     "If Bob cannot play, they draw one tile; if it cannot be played, they place a marker on "
     "their own train and the turn passes (R5.4)."),
]


@pytest.mark.parametrize("situation, boneyard, sentence", LAST_RESORT)
def test_what_a_player_who_does_not_play_does(situation, boneyard, sentence):
    assert instead(sketch_table(situation), boneyard)[-1] == sentence


def said(situation, tile, train, hand_count=None):
    """The sentences of a verdict on a sketched table, said and instead together."""
    table = sketch_table(situation, avoid=[tile])
    v = verdict(table, Play(tile, train), hand_count=hand_count)
    assert v.legal is (not v.violations) and v.legal is (not check(table, Play(tile, train)))
    return v


# Each case: the situation, the play, the hand count (None: a sketch does not know it), and
# a sentence the verdict must say — or must not.
FIRST_TURN_STARTED = dict(first_turn=True, played=Play(T(12, 3), "Bob"))
SAYS = [
    # R4.2 (draw option): the drawn tile ends the first turn; nobody "goes on building".
    (sit(first_turn=True, drawn=T(12, 4), options=RuleOptions(first_turn_stuck="draw")),
     T(12, 4), "Bob", None,
     "It is the tile Bob drew: playing it ends their first turn (R4.2).", "go on building"),
    # R4.1: in the first turn a train may grow, or stop.
    (sit(first_turn=True), T(12, 4), "Bob", None,
     "It is the first turn: Bob may go on building their own train, or stop there (R4.1).", None),
    # R4.3: a first-turn double owes nothing.
    (sit(first_turn=True, trains={"Bob": TrainSketch(3)}), T(3, 3), "Bob", None,
     "A double played in the first turn needs no follow-up tile (R4.3).", "must play another"),
    # R4.1 single: one tile, and the first turn is over.
    (sit(first_turn=True, options=RuleOptions(first_turn="single")), T(12, 4), "Bob", None,
     "In the first turn Bob plays exactly one tile: this one ends their first turn (R4.1).",
     "go on building"),
    # R4.4: the last tile in the first turn: out, but the round waits for everyone.
    (sit(first_turn=True), T(12, 4), "Bob", 1,
     "It is the last tile of Bob: they have gone out, and the round ends once every player has "
     "had their first turn (R4.4).", None),
    # R6.1 + R7.1 on a sketch: the hand is unknown, so both are said exactly.
    (sit(trains={"Bob": TrainSketch(5)}), T(5, 5), "Bob", None,
     "It is a double: Bob owes another tile this turn, anywhere it is legal (R6.1), unless the "
     "double was their last tile, which ends the round (R7.1).", None),
    # R6.7 on a sketch: the owed tile goes on that double.
    (sit(trains={"Bob": TrainSketch(5)}, options=RuleOptions(double_owner_satisfies=True)),
     T(5, 5), "Bob", None,
     "It is a double: Bob owes another tile this turn, on this double (R6.7), unless the double "
     "was their last tile, which ends the round (R7.1).", "anywhere"),
    # R6.1 with the hand known: more tiles, so a tile is owed …
    (sit(trains={"Bob": TrainSketch(5)}), T(5, 5), "Bob", 4,
     "It is a double: Bob must play another tile this turn, anywhere it is legal (R6.1).",
     "unless"),
    (sit(trains={"Bob": TrainSketch(5)}, options=RuleOptions(double_owner_satisfies=True)),
     T(5, 5), "Bob", 4,
     "It is a double: Bob must play another tile this turn, on this double (R6.7).", "anywhere"),
    # R7.1 … or it was the last tile: out, and the double owes nothing.
    (sit(trains={"Bob": TrainSketch(5)}), T(5, 5), "Bob", 1,
     "It is the last tile of Bob: they go out and the round ends; the double owes nothing "
     "(R7.1).", "must play another"),
    (sit(), T(12, 4), None, 1,
     "It is the last tile of Bob: they go out and the round ends (R7.1).", None),
    # R4.1: a player who started their train may stop; no draw, no marker for them.
    (sit(**FIRST_TURN_STARTED), T(12, 4), None, None,
     "Bob may also stop here: their first turn ends, with no marker and no draw (R4.1).",
     "draw one tile"),
    (sit(**FIRST_TURN_STARTED, options=RuleOptions(first_turn_stuck="draw")), T(12, 4), None,
     None, "Bob may also stop here: their first turn ends, with no marker and no draw (R4.1).",
     "cannot start their train"),
    # R4.2: one who has not started yet, by the game's option.
    (sit(first_turn=True), T(12, 4), None, None,
     "If Bob cannot start their train, they place a marker where it would go and do not draw "
     "(R4.2).", None),
    (sit(first_turn=True, options=RuleOptions(first_turn_stuck="draw")), T(12, 4), None, None,
     "If Bob cannot start their train, they draw one tile: if it matches the engine they may "
     "play that tile only, which ends their first turn; otherwise they place a marker where "
     "their train would go (R4.2).", "on their own train and the turn passes"),
    # R6.2 / R6.7: a tile owed after a double and not played.
    (sit(trains={"Bob": TrainSketch(5)}, played=Play(T(5, 5), "Bob")), T(12, 9), "Ann", None,
     "If Bob cannot play the tile owed after the double, they draw one; if it cannot be played "
     "either, they place a marker on their own train and the turn ends (R6.2).", None),
    (sit(trains={"Bob": TrainSketch(5)}, played=Play(T(5, 5), "Bob"),
         options=RuleOptions(double_owner_satisfies=True)), T(12, 9), None, None,
     "If Bob cannot play a tile on the 5-5, they draw one; if the drawn tile does not go on "
     "that double, they place a marker on their own train and the turn ends (R6.7).", None),
    # R5.4: after a draw, the drawn tile only.
    (sit(drawn=T(2, 3)), T(12, 1), None, None,
     "Bob drew 2-3: only that tile may be played; if it cannot be played, they place a marker "
     "on their own train and the turn passes (R5.4).", None),
    # Where the tile in question may go instead, as one sentence with a list.
    (sit(trains={"Ann": TrainSketch(9)}, markers=frozenset({"Ann"})), T(12, 9), "Chi", None,
     "9-12 may be played on one of these trains instead: the train of Ann, the train of Bob and "
     "the Mexican train.", None),
    (sit(trains={"Ann": TrainSketch(5, True)}), T(5, 9), "Bob", None,
     "5-9 may be played on this train instead: the train of Ann.", None),
]


@pytest.mark.parametrize("situation, tile, train, hand_count, says, not_says", SAYS,
                         ids=[c[4][:40] for c in SAYS])
def test_the_verdict_says_what_follows(situation, tile, train, hand_count, says, not_says):
    v = said(situation, tile, train, hand_count)
    lines = list(v.said) + list(v.instead)
    assert says in lines
    if not_says:
        assert not any(not_says in line for line in lines)
    # third person throughout, naming the player
    assert not any(" your " in f" {line} ".lower() for line in lines)


def test_the_verdict_names_the_play():
    assert said(sit(), T(12, 4), None).play == "4-12 on the Mexican train"
    assert said(sit(), T(12, 4), "Ann").play == "4-12 on the train of Ann"


# --- the ruling pages' query (pure) -----------------------------------------

def asked(query: str) -> Situation:
    """The situation a ruling page's query string describes, at Ann, Bob and Chi's table."""
    from urllib.parse import parse_qsl
    return Situation.from_query(dict(parse_qsl(query)), 12, 12, PLAYERS)


@pytest.mark.parametrize("query, expected", [
    # Whose turn, the first turn, markers (R5.2) and each train's last tile.
    ("current=1", sit()),
    ("current=2&first=1&mark-0=1", sit(current="Chi", first_turn=True,
                                       markers=frozenset({"Ann"}))),
    ("current=1&last-0=9-5", sit(trains={"Ann": TrainSketch(5, False, 9)})),
    # A double as the last tile is open (R6.3) unless marked answered.
    ("current=1&last-m=7-7", sit(trains={None: TrainSketch(7, True, 7)})),
    ("current=1&last-m=7-7&ans-m=1", sit(trains={None: TrainSketch(7, False, 7)})),
    # Links shared before the last tile could be picked: the open end, and an open double.
    ("current=1&end-0=5", sit(trains={"Ann": TrainSketch(5)})),
    ("current=1&end-0=5&dbl-0=1", sit(trains={"Ann": TrainSketch(5, True)})),
    # This turn: a tile already played (on the player's own train unless said), one drawn.
    ("current=1&played=12-3", sit(played=Play(T(12, 3), "Bob"))),
    ("current=1&played=12-3&played_train=m", sit(played=Play(T(12, 3), None))),
    ("current=1&drew=other&drawn=4-6", sit(drawn=T(4, 6))),
])
def test_the_query_describes_the_situation(query, expected):
    empty = {name: TrainSketch() for name in (*PLAYERS, None)}
    assert asked(query) == Situation(**{**expected.__dict__,
                                        "trains": {**empty, **expected.trains}})


@pytest.mark.parametrize("query, field, sentence", [
    ("current=m", "current", "Say whose turn it is."),
    ("current=7", "current", "Pick a train."),
    ("current=1&last-0=5", "last-0", "Pick the last tile of each train from the tiles of the set."),
    ("current=1&last-0=13-5", "last-0", "13-5 is not in a double-12 set (R3.3)."),
    ("current=1&played=12-3&played_train=9", "played_train", "Pick a train."),
    ("current=1&drew=other", "drawn",
     "Pick the tile that was drawn, or choose “the tile in question”."),
])
def test_a_query_that_describes_no_situation_names_its_field(query, field, sentence):
    with pytest.raises(BadInput) as refused:
        asked(query)
    assert (refused.value.field, refused.value.message) == (field, sentence)


@pytest.mark.parametrize("query, shown", [
    ("last-0=9-5", "9-5"),
    ("end-0=5&dbl-0=1", "5-5"),       # an older link's open double is its last tile
    ("end-0=5", ""),                  # an open end alone names no tile
    ("", ""),
])
def test_the_last_tile_select_shows_what_the_query_asks(query, shown):
    from urllib.parse import parse_qsl
    assert last_tile_asked(dict(parse_qsl(query)), "0") == shown


# --- the pages --------------------------------------------------------------

def text(response):
    """The page as words: tags out (links inside a sentence leave no gap)."""
    return text_of(response.get_data(as_text=True))


def test_ruling_page_prefilled_from_the_round(client, gid):
    html = client.get(f"/games/{gid}/rounds/3/referee").get_data(as_text=True)
    assert "Engine: double-10" in html and "Round 3" in html
    assert 'value="10-10"' in html and "disabled" in html  # the engine is not a choice
    for name in PLAYERS:
        assert name in html


def test_ruling_not_legal_with_rule_and_alternatives(client, gid):
    r = client.get(f"/games/{gid}/rounds/1/referee?current=1&end-0=5&dbl-0=1&tile=12-9&train=1")
    page = text(r)
    assert "NOT LEGAL" in page
    assert "R6.3 Ann's 5-5 is an open double: Bob must play on it first." in page.replace("&#39;", "'")
    assert "Bob may play a tile showing 5 on the train of Ann." in page


def test_ruling_form_preselects_neither_turn_nor_train(client, gid):
    # Issue 18: a form left as it came must not rule on a situation nobody described.
    html = client.get(f"/games/{gid}/rounds/1/referee").get_data(as_text=True)
    assert not re.search(r'name="(current|train)" value="[^"]*" checked', html)


@pytest.mark.parametrize("query, field, sentence", [
    ("ask=1", "current", "Say whose turn it is. Say on which train the tile would go. "
                         "Pick the tile in question."),
    ("ask=1&current=1&tile=12-9", "train", "Say on which train the tile would go."),
    ("ask=1&train=m&tile=12-9", "current", "Say whose turn it is."),
    ("ask=1&current=1&train=m", "tile", "Pick the tile in question."),
    ("tile=12-9", "current", "Say whose turn it is. Say on which train the tile would go."),
])
def test_ruling_asked_without_turn_or_train_says_what_is_missing(client, gid, query, field,
                                                                 sentence):
    page = text(client.get(f"/games/{gid}/rounds/1/referee?{query}"))
    assert sentence in page and "LEGAL" not in page
    with pytest.raises(BadInput) as refused:
        question_from_query(dict(p.split("=") for p in query.split("&")), PLAYERS)
    assert (refused.value.field, refused.value.message) == (field, sentence)


def test_ruling_legal_names_its_grounds_with_rule_links(client, gid):
    html = client.get(f"/games/{gid}/rounds/1/referee?current=1&tile=12-9&train=m"
                      ).get_data(as_text=True)
    start = html.index('<ul class="grounds">')
    grounds = text_of(html[start:html.index("</ul>", start)])
    assert grounds == (" R5.3 From the second turn on, the Mexican train is open to every player. "
                       "R3.2 9-12 shows 12, the engine's number, as the first tile of a train "
                       "must. ")
    assert 'href="/rules#R5.3"' in html and 'href="/rules#R3.2"' in html


def test_ruling_legal(client, gid):
    page = text(client.get(f"/games/{gid}/rounds/1/referee?current=1&tile=12-9&train=m"))
    assert "LEGAL" in page and "NOT LEGAL" not in page


def verdict_text(client, url):
    """The verdict section of a ruling page, as text."""
    html = client.get(url).get_data(as_text=True)
    section = html[html.index('id="verdict"'):html.index("</section>")]
    return text_of(section)


def text_of(html):
    # A name with its train marker is inline too.
    html = re.sub(r'<span class="player-name">(?:<svg class="train-mark".*?</svg>)?(.*?)</span>',
                  r"\1", html)
    html = re.sub(r"</?(a|bdi)\b[^>]*>", "", html)  # rule links and isolated names are inline
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


FREE = "/referee?set=12&engine=12&names=Ann,Bob,Chi&current=1"


def test_ruling_page_drawn_tile_ends_the_first_turn(client):
    # R4.2 (first_turn_stuck: draw): Bob drew 12-4 and plays it on his train.
    page = verdict_text(client, FREE + "&first_turn_stuck=draw&first=1&drew=this&tile=12-4&train=1")
    assert "LEGAL" in page and "NOT LEGAL" not in page
    assert "It is the tile Bob drew: playing it ends their first turn (R4.2)." in page
    assert "go on building" not in page


@pytest.mark.parametrize("option", ["marker", "draw"])
def test_ruling_page_a_started_train_may_stop(client, option):
    # R4.1: Bob started his train with 12-3 this first turn; 12-4 on the Mexican train is
    # refused, and what he may do instead is stop — not draw, not place a marker.
    page = verdict_text(client, FREE + f"&first_turn_stuck={option}&first=1&played=12-3"
                                      "&played_train=1&tile=12-4&train=m")
    assert "NOT LEGAL" in page and "R4.1" in page
    assert "Bob may also stop here: their first turn ends, with no marker and no draw (R4.1)." in page
    assert "draw one tile" not in page and "cannot start their train" not in page


def test_ruling_page_a_double_on_a_sketch_says_both_cases(client):
    # R6.1 + R7.1: the sketch does not know the hand.
    page = verdict_text(client, FREE + "&end-1=5&tile=5-5&train=1")
    assert ("It is a double: Bob owes another tile this turn, anywhere it is legal (R6.1), "
            "unless the double was their last tile, which ends the round (R7.1).") in page
    # R6.7: the owed tile goes on that double.
    page = verdict_text(client, FREE + "&double_owner_satisfies=true&end-1=5&tile=5-5&train=1")
    assert ("It is a double: Bob owes another tile this turn, on this double (R6.7), unless the "
            "double was their last tile, which ends the round (R7.1).") in page


def test_ruling_page_lists_open_doubles_and_speaks_of_the_player(client):
    page = verdict_text(client, FREE + "&end-0=5&dbl-0=1&end-m=7&dbl-m=1&tile=12-9&train=1")
    assert ("R6.3 Bob must first play on one of the open doubles: the 5-5 on the train of Ann "
            "and the 7-7 on the Mexican train.") in page
    assert "9-12 on the train of Bob" in page
    assert " your " not in page.lower() and "Bob may play a tile showing 5 on the train of Ann." in page


def test_ruling_bad_sketch_is_a_sentence(client, gid):
    r = client.get(f"/games/{gid}/rounds/1/referee?current=1&end-0=12&dbl-0=1&tile=12-9&train=1")
    assert r.status_code == 200 and "The 12-12 is the engine: it sits in the centre" in r.get_data(as_text=True)
    r = client.get(f"/games/{gid}/rounds/1/referee?current=1&tile=banana&train=1")
    assert "Pick a tile." in r.get_data(as_text=True)


def test_free_referee_without_a_game(client):
    page = text(client.get("/referee?set=9&engine=9&names=Lan,Minh&current=0&tile=9-3&train=1"))
    assert "NOT LEGAL" in page and "Minh" in page  # Lan may not play on Minh's unmarked train


def test_my_plays(client, gid):
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plays?go=1&current=0&hand=12-4&hand=3-3"))
    assert "2 legal plays" in page  # 12-4 on Ann's own train and on the Mexican train
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plays?go=1&current=0&hand=3-3"))
    assert "No legal play" in page
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plays?go=1&current=0"))
    assert "Tap the tiles in the hand first." in page


def test_plan_my_opening_train(client, gid):
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plan?go=1&hand=12-4&hand=4-4&hand=4-9&hand=1-2"))
    assert "A train of 3 tiles · 37 pips" in page  # 12-4, 4-4, 4-9
    assert "Left in the hand (3 pips)" in page


def test_referee_unknown_game_or_round(client, gid):
    assert client.get("/games/nope/rounds/1/referee").status_code == 404
    assert client.get(f"/games/{gid}/rounds/99/referee").status_code == 404


# --- the live table ---------------------------------------------------------

@pytest.fixture
def live(client, game_factory):
    gid = game_factory(["Ann", "Bob"], set=6, start_engine=6)["id"]
    url = f"/games/{gid}/rounds/1/live"
    r = client.post(url + "/start", data={"starter": "0", "tiles_each": "7", "active": "0"})
    assert r.status_code == 302
    return gid, url


def act(client, url, active, **data):
    data["active"] = str(active)
    return client.post(url + "/action", data=data)


def test_live_setup_page(client, gid):
    html = client.get(f"/games/{gid}/rounds/1/live").get_data(as_text=True)
    assert "Keep a live table for round 1" in html and "R2.2" in html


def test_live_start_refuses_a_deal_that_cannot_fit(client, game_factory):
    gid = game_factory(["Ann", "Bob"], set=6)["id"]
    url = f"/games/{gid}/rounds/1/live"
    r = client.post(url + "/start", data={"starter": "0", "tiles_each": "20", "active": "0"})
    assert r.status_code == 400 and "does not fit" in r.get_data(as_text=True)
    assert "Keep a live table" in client.get(url).get_data(as_text=True)  # nothing stored


def test_live_round_plays_refusal_override_undo_and_log(client, live):
    gid, url = live
    assert act(client, url, 1, kind="play", tile="6-2", train="0").status_code == 302
    assert act(client, url, 2, kind="pass").status_code == 302           # Ann's train is built
    # Bob in the first turn may not play on Ann's train (R4.1): refused with the rule.
    r = act(client, url, 3, kind="play", tile="2-3", train="0")
    assert r.status_code == 409 and "R4.1" in r.get_data(as_text=True)
    assert "The table accepted it anyway" in r.get_data(as_text=True)
    # A play that cannot exist (no match) offers no override.
    r = act(client, url, 3, kind="play", tile="1-3", train="1")
    assert r.status_code == 409 and "R3.2" in r.get_data(as_text=True)
    assert "accepted it anyway" not in r.get_data(as_text=True)
    # The table accepted the R4.1 play anyway: recorded as an override.
    assert act(client, url, 3, kind="play", tile="2-3", train="0", override="1").status_code == 302
    log = text(client.get(url + "/log"))
    assert "Bob played 2-3 on the train of Ann" in log
    assert "accepted by the table against the referee" in log
    # Undo marks the last action; it stays in the log.
    assert client.post(url + "/undo", data={"active": "4"}).status_code == 302
    log = text(client.get(url + "/log"))
    assert "undone" in log
    page = text(client.get(url))
    assert "To play: Bob" in page


def test_live_log_says_each_line_whole(app, client, live):
    from scorekeeper.db import get_db
    from scorekeeper.storage import add_move, undo_move
    gid, url = live
    act(client, url, 1, kind="play", tile="6-2", train="0")
    with app.app_context():
        # An entry recorded under older rules that no longer allows it: kept, marked skipped.
        add_move(get_db(), gid, 1, {"type": "play", "tile": [1, 3], "train": "Bob", "by": "Ann"})
        # An old undone entry that did not record who made it.
        add_move(get_db(), gid, 1, {"type": "draw", "tile": None})
        undo_move(get_db(), gid, 1)
    log = text(client.get(url + "/log"))
    assert "Ann played 2-6 on their own train" in log
    assert "Ann played 1-3 on the train of Bob skipped: the rules no longer allow it here" in log
    assert "Someone drew a tile undone" in log


def test_live_stale_tablet_records_nothing(client, live):
    gid, url = live
    act(client, url, 1, kind="play", tile="6-2", train="0")
    r = act(client, url, 1, kind="play", tile="6-1", train="0", )
    assert r.status_code == 302
    page = text(client.get(url))
    assert "Another tablet changed the live table" in page
    assert "Ann: 5 tiles" in page  # 7 dealt, engine set, one play: the stale play was not stored


def test_live_round_going_out_prefills_scores(client, game_factory):
    gid = game_factory(["Ann", "Bob"], set=6, start_engine=6)["id"]
    url = f"/games/{gid}/rounds/1/live"
    # Ann holds two tiles after setting the engine: 6-1 and 1-1 … then 1-2 would be a third.
    client.post(url + "/start", data={"starter": "0", "tiles_each": "3", "active": "0"})
    act(client, url, 1, kind="play", tile="6-1", train="0")
    act(client, url, 2, kind="play", tile="1-1", train="0")   # Ann is out in the first turn (R4.4)
    act(client, url, 3, kind="play", tile="6-5", train="1")   # Bob's first turn
    act(client, url, 4, kind="pass")                          # ends the first turn: round over
    page = text(client.get(url))
    assert "Ann went out" in page and "Enter the scores" in page
    html = client.get(f"/games/{gid}/rounds/1").get_data(as_text=True)
    assert 'id="score-0" name="score-0" value="0"' in html
    assert "From the live table: <bdi>Ann</bdi> went out" in html


def test_ruling_during_a_live_round_uses_the_live_state(client, live):
    gid, url = live
    act(client, url, 1, kind="play", tile="6-2", train="0")
    act(client, url, 2, kind="pass")
    page = text(client.get(f"/games/{gid}/rounds/1/referee?tile=6-3&train=m"))
    assert "Answered from the live table" in page
    assert "NOT LEGAL" in page and "R4.1" in page   # Bob's first turn: own train only
    page = text(client.get(f"/games/{gid}/rounds/1/referee?sketch=1"))
    assert "Answered from the live table" not in page and "The table as it is" in page


def test_ruling_during_a_live_round_knows_the_hand(client, game_factory):
    # R6.1 / R7.1 on the live table: the hand counts say which applies.
    gid = game_factory(["Ann", "Bob"], set=6, start_engine=6)["id"]
    url = f"/games/{gid}/rounds/1/live"
    client.post(url + "/start", data={"starter": "0", "tiles_each": "3", "active": "0"})
    for active, data in enumerate([
            dict(kind="play", tile="6-1", train="0"),   # Ann: 1 tile left
            dict(kind="pass"),                          # Ann's train is built (R4.1)
            dict(kind="play", tile="6-5", train="1"),   # Bob: 2 tiles left
            dict(kind="pass"),                          # the first turn is over
            dict(kind="draw"), dict(kind="pass")], 1):  # Ann drew and marked her train
        assert act(client, url, active, **data).status_code == 302
    ruling = f"/games/{gid}/rounds/1/referee"
    assert "Answered from the live table" in text(client.get(ruling))
    page = verdict_text(client, ruling + "?tile=5-5&train=1")
    assert "It is a double: Bob must play another tile this turn, anywhere it is legal (R6.1)." in page
    assert "unless" not in page
    for active, data in enumerate([
            dict(kind="play", tile="5-4", train="1"),   # Bob: 1 tile left
            dict(kind="draw"), dict(kind="pass")], 7):
        assert act(client, url, active, **data).status_code == 302
    page = verdict_text(client, ruling + "?tile=4-4&train=1")
    assert ("It is the last tile of Bob: they go out and the round ends; the double owes "
            "nothing (R7.1).") in page
    assert "must play another" not in page


def test_live_csrf(csrf_app):
    client = csrf_app.test_client()
    gid = create_game(client, ["Ann", "Bob"])["id"]
    r = client.post(f"/games/{gid}/rounds/1/live/start", data={"starter": "0", "tiles_each": "7"})
    assert r.status_code == 400
    assert "Keep a live table" in client.get(f"/games/{gid}/rounds/1/live").get_data(as_text=True)


# The tap-what-you-see form: each train by its last tile as it lies on the table.
@pytest.mark.parametrize("query, expected", [
    # Ann's train ends in 9-5 (open end 5): Bob plays 5-11 there only with a marker (R5.2).
    ("current=1&last-0=9-5&tile=5-11&train=0", "has no marker"),
    ("current=1&last-0=9-5&mark-0=1&tile=5-11&train=0", "LEGAL"),
    # A double picked as the last tile is an open double (R6.3) ...
    ("current=1&last-0=9-8&last-2=7-7&tile=12-3&train=m", "must play on it first"),
    # ... unless marked answered: then the train's open end is still 7, nobody is bound.
    ("current=1&last-0=9-8&last-2=7-7&ans-2=1&tile=12-3&train=m", "LEGAL"),
    # The last tile is on the table: the same tile cannot be played again (R3.3).
    ("current=1&last-m=12-4&tile=4-12&train=1", "already on the table"),
    # The engine cannot be the last tile of a train.
    ("current=1&last-0=12-12&tile=12-3&train=1", "The 12-12 is the engine"),
    # One tile cannot end two trains (R3.3).
    ("current=1&last-0=12-4&last-1=4-12&tile=12-3&train=1", "the last tile of two trains"),
    ("current=1&last-0=12-40&tile=12-3&train=1", "is not in a double-12 set"),
    ("current=1&last-0=x&tile=12-3&train=1", "Pick the last tile of each train"),
])
def test_ruling_from_last_tiles(client, gid, query, expected):
    page = text(client.get(f"/games/{gid}/rounds/1/referee?{query}"))
    if expected == "LEGAL":
        assert "LEGAL" in page and "NOT LEGAL" not in page
    else:
        assert expected in page


def test_an_old_link_opens_the_same_situation(client, gid):
    # Shared before the last tile could be picked: Ann's train ends in an open 5-5 (R6.3).
    old = client.get(f"/games/{gid}/rounds/1/referee?current=1&end-0=5&dbl-0=1&tile=12-9"
                     "&train=1").get_data(as_text=True)
    new = client.get(f"/games/{gid}/rounds/1/referee?current=1&last-0=5-5&tile=12-9"
                     "&train=1").get_data(as_text=True)
    assert '<option value="5-5" selected>' in old
    verdict = old[old.index('id="verdict"'):old.index("</section>")]
    assert "NOT LEGAL" in verdict and "Ann's 5-5 is an open double" in text_of(verdict)
    assert verdict == new[new.index('id="verdict"'):new.index("</section>")]


def test_last_tile_select_keeps_the_choice(client, gid):
    html = client.get(f"/games/{gid}/rounds/1/referee?last-0=12-5&ans-1=1").get_data(as_text=True)
    assert '<option value="12-5" selected>' in html and '<option value="5-12">' in html
    assert 'name="ans-1" value="1" checked' in html


def test_my_plays_refuses_a_hand_tile_that_ends_a_train(client, gid):
    page = text(client.get(f"/games/{gid}/rounds/1/referee/plays?go=1&current=1&last-0=12-5&hand=5-12"))
    assert "5-12 is already on the table, so it cannot be in the hand (R3.3)." in page


def test_move_log_says_what_a_pass_was(client, gid):
    """Ending a first turn after building is not a pass with a marker (R4.1, R5.4)."""
    url = f"/games/{gid}/rounds/1/live"
    client.post(url + "/start", data={"starter": "0", "tiles_each": "5", "active": "0"})
    client.post(url + "/action", data={"kind": "play", "tile": "12-3", "train": "0", "active": "1"})
    client.post(url + "/action", data={"kind": "pass", "active": "2"})     # Ann stops building
    client.post(url + "/action", data={"kind": "pass", "active": "3"})     # Bob cannot start
    log = text(client.get(url + "/log"))
    assert "Ann ended their first turn" in log
    assert "Bob passed and placed a marker" in log


def test_plan_my_opening_tree_under_chicken_foot(client):
    # R10.6: in a chicken-foot game the first turn's chain may branch at a double's toes.
    game = client.post("/api/games", json={"players": ["Ann", "Bob", "Chi"],
                                           "rules": {"chicken_foot": True}}).get_json()
    hand = "&".join(f"hand={t}" for t in ("12-4", "4-4", "4-9", "4-1", "1-2"))
    page = text(client.get(f"/games/{game['id']}/rounds/1/referee/plan?go=1&{hand}"))
    assert "A train of 5 tiles · 45 pips" in page  # 12-4, 4-4 and its toes 4-9, 4-1-2
    assert "(R10.6)" in page
