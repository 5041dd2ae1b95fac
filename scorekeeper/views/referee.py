"""Pages: "Is this move legal?", "My plays" and "Plan my opening train".

The situation is read from the query string by ``Situation.from_query`` (a ruling
changes nothing, so the pages are plain GET forms: bookmarkable, no token to
expire, links shared years ago still open), pre-filled with
the round's engine, players and rule options, or with the live table when one
is being kept for the round.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from flask import Blueprint, render_template, request, url_for
from flask_babel import gettext as _

from ..db import get_db
from ..errors import BadInput
from ..footview import end_choices, play_end, several_ends, toe_choices
from ..game import Game
from ..i18n import current_language
from ..livetable import live_state
from ..options import RuleOptions
from ..updates import cached_page
from ..parsing import whole_number
from ..referee import Play, check, legal_plays, plan_train
from ..referee.treeplan import plan_tree
from ..situation import (MEXICAN, Situation, last_tile_asked, last_tile_choices,
                         question_from_query, sketch_table)
from ..verdict import verdict
from ..tiles import DEFAULT_SET, SETS, Tile, parse_tile_text, set_rows
from . import get_game_round

bp = Blueprint("referee", __name__)

#: The rule options a ruling with no game reads from its address (the others do not
#: change a ruling).
RULING_OPTIONS = ("first_turn", "first_turn_stuck", "double_owner_satisfies")


@dataclass
class Context:
    """Where a ruling is asked: a game's round, or a table with no game."""

    set: int
    engine: int
    players: tuple[str, ...]
    options: RuleOptions
    game: Game | None = None
    number: int | None = None

    def url(self, endpoint: str, **args) -> str:
        if self.game is not None:
            return url_for(f"referee.{endpoint}", game_id=self.game.id, number=self.number, **args)
        return url_for(f"referee.{endpoint}_free", **args)


def game_context(game_id: str, number: int) -> Context:
    """A round of a game as the place of a ruling; 404 for a round the game does not have."""
    game, rnd = get_game_round(game_id, number)
    return Context(game.set, rnd.engine, game.players, game.options, game, number)


def free_context() -> Context:
    """A table with no game: set, engine and names from the query (defaults: double-12)."""
    set_n = whole_number(request.args.get("set"))
    if set_n not in SETS:
        set_n = DEFAULT_SET
    engine = whole_number(request.args.get("engine"))
    engine = set_n if engine is None else min(engine, set_n)
    names = [n.strip() for n in request.args.get("names", "").split(",") if n.strip()]
    unique = list(dict.fromkeys(names))[:14]
    if len(unique) < 2:
        unique = [_("Player %(n)s", n=i) for i in range(1, 5)]
    try:
        rules = RuleOptions.from_text(request.args, RULING_OPTIONS)
    except BadInput:
        rules = RuleOptions()
    return Context(set_n, engine, tuple(unique), rules)


def read_situation(ctx: Context) -> Situation:
    """The situation the query describes, at *ctx*'s table; BadInput names the field."""
    return Situation.from_query(request.args, ctx.set, ctx.engine, ctx.players, ctx.options)


@lru_cache(maxsize=64)
def _last_tiles(set_n: int, engine: int, language: str) -> list[tuple[str, str]]:
    """The last-tile choices of a set, kept per language (they are sentences): a page
    of 15 trains would otherwise translate the same few hundred labels each time."""
    return last_tile_choices(set_n, engine)


def _render(template: str, ctx: Context, **values):
    # train_names: the trains in seating order, None (the Mexican train) last, as a
    # Table's train_names; the pages' train lists all come from it.
    return render_template(template, ctx=ctx, args=request.args, picker=set_rows(ctx.set),
                           engine_tile=Tile.double(ctx.engine), mexican=MEXICAN,
                           train_names=(*ctx.players, None), last_tile_asked=last_tile_asked,
                           last_tiles=_last_tiles(ctx.set, ctx.engine, current_language()),
                           end_choices=end_choices, play_end=play_end, toe_choices=toe_choices,
                           **values)


def live_table_state(ctx: Context):
    """The live table of the round, when one is kept and still going (else None).

    A dispute during a live round is answered from the live state; ``?sketch=1``
    asks about another situation instead.
    """
    if ctx.game is None or request.args.get("sketch") == "1":
        return None
    state = live_state(get_db(), ctx.game.id, ctx.number)
    return state if state is not None and not state.is_over else None


def ruling_view(ctx: Context):
    """"Is this move legal?": the ruling on the play asked, on the live table or a sketch."""
    answer = error = table = None
    live = live_table_state(ctx)
    if live is not None:
        table = live.ruling_table()
    if request.args.get("ask") or request.args.get("tile"):
        try:
            asked = question_from_query(request.args, ctx.players, turn_known=live is not None)
            tile, train = asked.tile, asked.train
            if live is not None:
                table = live.ruling_table(tile)
            else:
                situation = read_situation(ctx)
                if request.args.get("drew") == "this":
                    situation = Situation(**{**situation.__dict__, "drawn": tile})
                table = sketch_table(situation, avoid=[tile])
            if asked.at is None and several_ends(table, train):
                raise BadInput(_("That train has several open ends: choose the one the tile "
                                 "goes on (R10.5)."), "train")
            violations = check(table, asked)
            # The live table knows the hand counts and the boneyard; a sketch does not.
            said = verdict(table, asked, violations,
                           live.hands[live.current] if live is not None else None,
                           live.boneyard if live is not None else None)
            answer = {"tile": tile, "train": train, "end": play_end(table, asked),
                      "violations": violations,
                      "legal": not violations, "verdict": said}
        except BadInput as bad:
            error = bad
    return _render("referee/ruling.html", ctx, answer=answer, error=error, table=table,
                   live=live)


def hand_from_args(ctx: Context) -> tuple[list[Tile], BadInput | None]:
    """The tiles ticked in the hand, and the refusal of one that cannot be read (else None)."""
    hand = []
    for text in request.args.getlist("hand"):
        try:
            tile = parse_tile_text(text, "hand")
        except BadInput as bad:
            return hand, bad
        if tile is not None and tile not in hand:
            hand.append(tile)
    return hand, None


def plays_view(ctx: Context):
    """"My plays": every legal play from the tiles tapped in the hand."""
    plays = current = table = None
    hand, error = hand_from_args(ctx)
    live = live_table_state(ctx)
    if request.args.get("go") and error is None:
        try:
            if not hand:
                raise BadInput(_("Tap the tiles in the hand first."), "hand")
            if live is not None:
                seen = live.table.on_table
            else:
                situation = read_situation(ctx)
                seen = {t.last for t in situation.trains.values() if t.last is not None}
            on_table = [t for t in hand if t in seen]
            if on_table:
                raise BadInput(_("%(tile)s is already on the table, so it cannot be in the "
                                 "hand (R3.3).", tile=on_table[0]), "hand")
            table = live.ruling_table() if live is not None else sketch_table(situation, avoid=hand)
            plays, current = legal_plays(table, hand), table.current
        except BadInput as bad:
            error = bad
    return _render("referee/plays.html", ctx, plays=plays, error=error, hand=hand, live=live,
                   current=current, table=table)


def plan_view(ctx: Context):
    """"Plan my opening train": the longest train the tapped hand can start (R4.1)."""
    plan = None
    hand, error = hand_from_args(ctx)
    if request.args.get("go") and error is None:
        try:
            if not hand:
                raise BadInput(_("Tap the tiles in the hand first."), "hand")
            planner = plan_tree if ctx.options.chicken_foot else plan_train   # R10.6
            plan = planner(ctx.set, ctx.engine, hand)
        except BadInput as bad:
            error = bad
    return _render("referee/plan.html", ctx, plan=plan, error=error, hand=hand)


@bp.get("/games/<game_id>/rounds/<int:number>/referee")
@cached_page
def ruling(game_id: str, number: int):
    """Is this move legal? — in a round of a game (its rules, players and live table)."""
    return ruling_view(game_context(game_id, number))


@bp.get("/games/<game_id>/rounds/<int:number>/referee/plays")
@cached_page
def plays(game_id: str, number: int):
    """My plays — for a round of a game: the legal plays from a hand."""
    return plays_view(game_context(game_id, number))


@bp.get("/games/<game_id>/rounds/<int:number>/referee/plan")
@cached_page
def plan(game_id: str, number: int):
    """Plan my opening train — for a round of a game: the best first train from a hand."""
    return plan_view(game_context(game_id, number))


@bp.get("/referee")
def ruling_free():
    """Is this move legal? — at any table, no game needed (the table is in the address)."""
    return ruling_view(free_context())


@bp.get("/referee/plays")
def plays_free():
    """My plays — at any table, no game needed."""
    return plays_view(free_context())


@bp.get("/referee/plan")
def plan_free():
    """Plan my opening train — at any table, no game needed."""
    return plan_view(free_context())
