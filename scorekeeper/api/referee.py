"""API: the referee (API.md "Rulings", legal-plays, plan-train).

Thin: parse with the referee's from_json, rule with the referee, answer JSON.
"""

from __future__ import annotations

from flask import jsonify

from ..referee import PLAY_FIELDS, Play, Table, check, grounds, legal_plays, plan_train
from ..referee import footrules
from ..referee.treeplan import plan_tree
from ..options import RuleOptions
from ..errors import BadInput
from ..parsing import Fields
from ..text import N_, _
from ..tiles import DEFAULT_SET, parse_tiles
from . import bp, json_body

#: The fields of each body these routes take (API.md; the table's and the play's own are
#: declared beside Table and Play), anything else refused by name.
RULING = Fields(("table", "play"), N_("“%(name)s” is not a field of a ruling's question."))
LEGAL_PLAYS = Fields(("table", "hand"),
                     N_("“%(name)s” is not a field of a question about legal plays."))
PLAN = Fields(("set", "engine", "hand", "rules"),
              N_("“%(name)s” is not a field of a hand to plan an opening train from."))


def _table(body: dict) -> Table:
    if "table" not in body:
        raise BadInput(_("Describe the table: set, engine, players, trains …"), "table")
    return Table.from_json(body["table"], "table")


@bp.post("/rulings")
def rulings():
    """Is this play legal? Every rule it breaks, or the rules that allow it, each with the
    rule number and a sentence."""
    body = json_body(RULING)
    table = _table(body)
    if "play" not in body:
        raise BadInput(_('Say which play to rule on: {"tile": [a, b], "train": name or null}.'),
                       "play")
    play = Play.from_json(body["play"], table, "play", PLAY_FIELDS)
    violations = check(table, play)
    answer = {"legal": not violations, "violations": [v.to_json() for v in violations],
              "grounds": [g.to_json() for g in grounds(table, play, violations)]}
    if table.options.chicken_foot:
        answer["checks"] = footrules.checks()       # R10.8: the checks made under it
    return jsonify(answer)


@bp.post("/legal-plays")
def plays():
    """Every play from the current player's hand that a ruling would call legal."""
    body = json_body(LEGAL_PLAYS)
    table = _table(body)
    if "hand" not in body:
        raise BadInput(_("Give the current player's tiles as hand: [[a, b], …]."), "hand")
    hand = parse_tiles(body["hand"], "hand")
    plays = legal_plays(table, hand)
    if table.options.chicken_foot:
        # API.md: under chicken foot each play names its open end (null: an empty train).
        return jsonify(plays=[{**p.to_json(), "at": p.at.to_json() if p.at else None}
                              for p in plays])
    return jsonify(plays=[p.to_json() for p in plays])


@bp.post("/plan-train")
def plan():
    """The best opening train from a hand (R4.1): most tiles, then most pips."""
    body = json_body(PLAN)
    if "engine" not in body:
        raise BadInput(_("Give the round's engine (the number of the engine double)."),
                       "engine")
    if "hand" not in body:
        raise BadInput(_("Give the tiles in hand as hand: [[a, b], …]."), "hand")
    hand = parse_tiles(body["hand"], "hand")
    rules = RuleOptions.from_dict(body.get("rules"), "rules")
    planner = plan_tree if rules.chicken_foot else plan_train   # R10.6: a tree
    return jsonify(planner(body.get("set", DEFAULT_SET), body["engine"], hand).to_json())
