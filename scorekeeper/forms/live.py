"""The live table's forms: its start (who set the engine, tiles each, tiles drawn before
the engine turned up), a play, draw or pass, and undo.  Each reads the page's fields and
turns them into what the referee takes, or refuses them with a sentence naming the field
(:class:`~scorekeeper.errors.BadInput`)."""

from __future__ import annotations

from flask import request
from flask_babel import gettext as _
from wtforms import StringField

from ..errors import BadInput
from ..footview import several_ends, split_end_key
from ..game import Game
from ..parsing import whole_number
from ..referee import DrawAction, PassAction, PlayAction
from ..situation import train_from_key
from ..tiles import parse_tile_text
from .base import PageForm


class LiveForm(PageForm):
    """A form of the live table: it carries the number of actions the page showed
    (``active``), so a change is made to the table this tablet showed, not another."""

    active = StringField()

    def expected(self) -> int | None:
        """The page's count of actions, None when the form sent none (or not a number)."""
        return whole_number(self.active.data)


class LiveStartForm(LiveForm):
    """Start the live table: who set the engine, tiles each, any drawn before it (R2.2)."""

    starter = StringField()
    tiles_each = StringField()

    def start_json(self, game: Game, engine: int) -> dict:
        """The round's start as the referee takes it (``start_from_json``); BadInput with
        the field for what cannot be read."""
        starter = train_from_key(self.starter.data or "", game.players)
        if starter is None:
            raise BadInput(_("Say who set the engine and plays first."), "starter")
        tiles_each = whole_number(self.tiles_each.data)
        if tiles_each is None or tiles_each < 1:
            raise BadInput(_("Tiles each must be a whole number, 1 or more."), "tiles_each")
        return {"set": game.set, "engine": engine, "players": list(game.players),
                "starter": starter, "tiles_each": tiles_each,
                "rules": game.options.to_dict(), "draws": self.draws(game)}

    @staticmethod
    def draws(game: Game) -> dict[str, int]:
        """The tiles each player drew before the engine turned up (``draws-N`` per seat,
        a field per player), the players who drew none left out."""
        draws = {}
        for i, player in enumerate(game.players):
            drawn = whole_number(request.form.get(f"draws-{i}", "").strip() or "0")
            if drawn is None:
                raise BadInput(_("Tiles drawn before the engine turned up are whole numbers "
                                 "(R2.2)."), f"draws-{i}")
            if drawn:
                draws[player] = drawn
        return draws


class LiveActionForm(LiveForm):
    """A play (tile and train, or "override" to record it against the referee), a draw
    (the tile drawn, when known) or a pass.  Under chicken foot the train's choice may
    name its open end too (``"0@3-3"``, :mod:`scorekeeper.footview`); on a train with
    several it must (R10.5)."""

    kind = StringField()
    tile = StringField()
    train = StringField()
    drawn = StringField()
    override = StringField()

    def checked_expected(self) -> int | None:
        """The page's count of actions; BadInput when one was sent that is not a number."""
        expected = self.expected()
        if expected is None and self.active.data is not None:
            raise BadInput(_("This page is out of date: open the live table again."), "active")
        return expected

    def action(self, game: Game, table=None):
        """The play, draw or pass asked for, as the referee takes it (*table*: the live
        table, to refuse a play that does not say which of a train's open ends it joins)."""
        kind = self.kind.data or ""
        if kind == "play":
            tile = parse_tile_text(self.tile.data or "", "tile")
            if tile is None:
                raise BadInput(_("Pick the tile that was played."), "tile")
            key, at = split_end_key(self.train.data or "")
            train = train_from_key(key, game.players)
            if at is None and table is not None and several_ends(table, train):
                raise BadInput(_("That train has several open ends: choose the one the tile "
                                 "goes on (R10.5)."), "train")
            return PlayAction(tile, train, self.override.data == "1", at)
        if kind == "draw":
            return DrawAction(parse_tile_text(self.drawn.data or "", "drawn"))
        if kind == "pass":
            return PassAction()
        raise BadInput(_("Choose play, draw or pass."), "kind")

    def picked(self, game: Game) -> dict:
        """The play picked, tile and train, to pick them again on the page shown again
        (refused, or the database busy); {} when none can be read."""
        if self.kind.data != "play":
            return {}
        try:
            tile = parse_tile_text(self.tile.data or "", "tile")
            train_from_key(split_end_key(self.train.data or "")[0], game.players)
        except BadInput:
            return {}
        return {} if tile is None else {"tile": str(tile), "train": self.train.data}
