"""The forms own the parsing of what a page sends: the round form's checks as a table of
inputs and the sentence each gets, and where a refusal lands on a form (forms.attach)."""

from __future__ import annotations

import pytest

from helpers import paragraphs
from scorekeeper.errors import BadInput
from scorekeeper.forms import NewGameForm, RoundForm, SeasonForm, attach
from scorekeeper.storage import connect, load_game

TOP = 1118   # the largest hand of a double-12 round 1 (R7.4)


def round_form(app, gid, data: dict) -> RoundForm:
    """The round form of round 1 as posted with *data* (revision 0 unless given), validated."""
    with app.test_request_context(f"/games/{gid}/rounds/1", method="POST",
                                  data={"revision": "0", **data}):
        game = load_game(connect(app.config["DATABASE"]), gid)
        form = RoundForm(game, game.round(1))
        form.validate()
        return form


def seats(*scores, **extra) -> dict:
    return {**{f"score-{i}": s for i, s in enumerate(scores)}, **extra}


# Each case: what the page sends, the sentence above the form (None: saved), and the seats
# whose score box is marked.
REFUSED = [
    # R7.4: a score is a whole number from 0 to the largest hand, typed with 0-9.
    (seats("", "7", "12"), "Ann's score is missing: enter a number, tap \"Went out\" for 0, "
                           "or count the tiles.", [0]),
    (seats("0", "x", "12"), f"Bob's score must be a whole number from 0 to {TOP}.", [1]),
    (seats("0", "\u00b2", "12"), f"Bob's score must be a whole number from 0 to {TOP}.", [1]),
    (seats("0", "2000", "12"), "A score of 2000 for Bob is impossible: a round score is from 0 "
                               f"to {TOP}, the largest possible hand in this round (R7.4).", [1]),
    # Every wrong seat is marked at once; the first one's sentence is above the form.
    (seats("", "7", "x"), "Ann's score is missing: enter a number, tap \"Went out\" for 0, "
                          "or count the tiles.", [0, 2]),
    # The revision the page was opened at.
    (seats("0", "7", "12", revision=""), "This page is out of date: open the round again.", []),
    # R3.3: the tiles counted with the pip counter.
    (seats("0", "7", "12", **{"hand-1": "x-5"}),
     "The tiles picked for this hand could not be read; pick them again.", []),
    (seats("0", "7", "7", **{"hand-1": "3-4", "hand-2": "4-3"}),
     "3-4 is in two hands (Bob and Chi); each tile exists once (R3.3).", [2]),
    (seats("0", "24", "12", **{"hand-1": "12-12"}),
     "12-12 is this round's engine; it cannot be in a hand (R3.3).", [1]),
    (seats("0", "8", "12", **{"hand-1": "3-4"}),
     "Bob's score (8) does not match the tiles picked (7): count again or clear the tiles.", [1]),
    # After a conflict, a seat sends a choice instead of a score.
    (seats("0", **{"mine-1": "12", "base-1": "9", "score-2": "12"}),
     "Choose the score to keep for Bob: yours or the one the other tablet saved.", [1]),
]


@pytest.mark.parametrize("data, sentence, marked", REFUSED)
def test_the_round_form_refuses_with_a_sentence_on_each_wrong_seat(app, gid, data, sentence,
                                                                   marked):
    form = round_form(app, gid, data)
    assert form.scores is None
    assert form.refusal == sentence
    assert [seat.seat for seat in form.seats if seat.score.errors] == marked


def test_every_wrong_seat_has_its_own_sentence(app, gid):
    form = round_form(app, gid, seats("", "7", "x"))
    assert [seat.score.errors for seat in form.seats] == [
        ["Ann's score is missing: enter a number, tap \"Went out\" for 0, or count the tiles."],
        [], [f"Chi's score must be a whole number from 0 to {TOP}."]]


@pytest.mark.parametrize("data, scores, hands", [
    (seats("0", "7", "12"), {"Ann": 0, "Bob": 7, "Chi": 12}, None),
    (seats(" 0 ", "57", "12", **{"hand-1": "3-4 0-0"}), {"Ann": 0, "Bob": 57, "Chi": 12},
     {"Bob": [[3, 4], [0, 0]]}),                      # R7.3: 0-0 counts 50
    # A conflict's choice: the side picked is saved.
    (seats("0", **{"mine-1": "12", "base-1": "9", "pick-1": "theirs", "score-2": "12"}),
     {"Ann": 0, "Bob": 9, "Chi": 12}, None),
    (seats("0", **{"mine-1": "12", "base-1": "9", "pick-1": "mine", "score-2": "12"}),
     {"Ann": 0, "Bob": 12, "Chi": 12}, None),
])
def test_the_round_form_passes_the_scores_and_tiles_to_save(app, gid, data, scores, hands):
    form = round_form(app, gid, data)
    assert form.refusal is None
    assert (form.scores, form.hands) == (scores, hands)


def test_the_round_form_keeps_the_names_on_the_wire(app, gid):
    # The page, static/js/offline.js, the merge and pages already open all send these names.
    form = round_form(app, gid, seats("0", "7", "12"))
    assert [field.name for field in form.seats[1]] == [
        "score-1", "hand-1", "base-1", "mine-1", "mine-hand-1", "theirs-hand-1", "pick-1"]
    assert form.base_scores() is None                  # no base-N sent: a page from before
    assert round_form(app, gid, seats("0", "7", "12", **{"base-0": "3"})).base_scores() == {
        "Ann": 3, "Bob": None, "Chi": None}


# --- where a refusal lands: forms.attach -------------------------------------

@pytest.mark.parametrize("form_class, error, where", [
    # A game's name and its engines are fields of the new-game form.
    (NewGameForm, BadInput("No.", "name"), "name"),
    (NewGameForm, BadInput("No.", "end_engine"), "end_engine"),
    # "players.2" is the third name: the players' list (a name may hold a dot).
    (NewGameForm, BadInput("No.", "players.2"), "players"),
    # check_season names the days as the API takes them.
    (SeasonForm, BadInput("No.", "from"), "start"),
    (SeasonForm, BadInput("No.", "to"), "end"),
    # No field of the form: above it.
    (NewGameForm, BadInput("No.", "table.trains"), None),
    (NewGameForm, BadInput("No.", ""), None),
])
def test_a_refusal_lands_on_its_field_or_above_the_form(app, form_class, error, where):
    with app.test_request_context("/", method="POST", data={}):
        form = form_class()
        attach(form, error)
        assert {name: f.errors for name, f in form._fields.items() if f.errors} == (
            {where: ["No."]} if where else {})
        assert form.refusal == (None if where else "No.")


def test_a_players_refusal_is_shown_in_the_players_box(client, game_factory):
    # Two spellings joined as one player cannot both sit (the engines' box is hidden then).
    for players in (["Nguyễn Văn An", "Bob"], ["Nguyen Van An", "Cy"]):
        game_factory(players, scores=[[0, 10]], finished=True)
    client.post("/api/players/aliases", json={"alias": "Nguyen Van An", "of": "Nguyễn Văn An"})
    r = client.post("/games/new", data={"players-0": "Nguyễn Văn An", "players-1": "Nguyen Van An",
                                        "set": "12", "deal": "A", "starter": "engine_holder",
                                        "first_turn": "train", "first_turn_stuck": "marker",
                                        "double_owner_satisfies": "false", "double_blank": "50"})
    html = r.get_data(as_text=True)
    sentence = ("Nguyen Van An and Nguyễn Văn An are joined as one player; separate them on the "
                "Players page first, or type another name.")
    assert r.status_code == 400 and sentence in paragraphs(html)
    assert html.index('class="players-box"') < html.index("are joined as one player") \
        < html.index('id="player-inputs"')
