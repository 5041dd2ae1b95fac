"""The templates' helpers: filters and globals every page may use (the languages' own,
``_``, ``names``, ``date`` …, are plugged in by :mod:`scorekeeper.i18n`)."""

from __future__ import annotations

import re

from flask import Flask
from flask_babel import gettext
from markupsafe import Markup, escape

from .clubpin import holds_club, is_set
from .house_view import (house_cell, house_hint, house_sum, house_totals, signed,
                         total_parts)
from .options import OPTION_CITES, OPTION_LABELS, VALUE_LABELS
from .pins import is_keeper
from .timing import format_duration
from .updates import update_attrs
from .views import assets, rules, this_machine_only, this_page


def init_app(app: Flask) -> None:
    """Give the templates their filters (``bdi``, ``rules``, ``address``, ``duration``,
    ``options_whole``) and
    globals (dominoes, rule links, option labels, the device's role, the club PIN's state,
    the pages' update attributes, this page's address, whether the server answers on this
    machine only, the theme colour, train markers)."""
    app.jinja_env.filters.update(bdi=bdi, rules=rules.link_rules, address=address,
                                 duration=format_duration, signed=signed,
                                 options_whole=options_whole)
    app.jinja_env.globals.update(
        keeper=is_keeper,
        club_protected=is_set,
        holds_club=holds_club,
        update_attrs=update_attrs,
        rule_url=rules.rule_url,
        domino_svg=assets.domino_svg,
        sprite_url=assets.sprite_url,
        option_label=option_label,
        value_label=value_label,
        option_rules=OPTION_CITES.get,
        this_page=this_page,
        this_machine_only=this_machine_only,
        theme_colour=assets.THEME_COLOUR,
        train_mark=train_mark,
        house_cell=house_cell,
        house_hint=house_hint,
        house_totals=house_totals,
        house_sum=house_sum,
        total_parts=total_parts,
    )


def bdi(name) -> Markup:
    """A name isolated from the text around it (Unicode bidi), so a right-to-left name
    cannot reorder the row it stands in."""
    return Markup("<bdi>{}</bdi>").format(name)


def address(url: str) -> Markup:
    """An address to read off the screen and type, allowed to break only after a "/" (and
    never before its last one): "http://192.168.1.20:5000/" then "games/…", not "ga" and
    "mes", nor a "/" alone on its line."""
    parts = re.split(r"(?<=/)(?=[^/])", url)   # after each run of slashes, before more text
    return Markup("<wbr>").join(Markup.escape(part) for part in parts)


def train_mark(colour: str | None) -> Markup:
    """A small train marker (a locomotive) in a seat's train colour, drawn beside the name
    it belongs to; empty without a colour (a table with no game).  Drawn from the domino
    sprite (``#train``, cached by the browser), its fill an SVG presentation attribute on
    the <svg>, which the strict CSP allows (no inline style); its outline is the text's
    colour, so a pale or a black marker shows on light pages and the dark TV board
    alike.  Hidden from screen readers: the name beside it says who it is."""
    if not colour:
        return Markup("")
    return Markup(
        '<svg class="train-mark" viewBox="0 0 22 16" width="22" height="16" aria-hidden="true" '
        'focusable="false" fill="{0}"><use href="{1}#train"/></svg>').format(
            colour, assets.sprite_url())


def options_whole(text: str) -> Markup:
    """*text*, escaped, each command-line option with its value (``--host 127.0.0.1``) kept
    on one line: a line never breaks after the option's dashes."""
    return Markup(re.sub(r"(--[a-z-]+ [0-9.:]+)", r'<span class="nowrap">\1</span>',
                         str(escape(text))))


def option_label(name: str) -> str:
    """An R9 option's name, in the device's language."""
    return gettext(OPTION_LABELS[name])


def value_label(name: str, value) -> str:
    """What one value of an R9 option means, in the device's language."""
    return gettext(VALUE_LABELS[(name, value)])
