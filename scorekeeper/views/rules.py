"""The rulebook page: every rule R1–R9 in the reader's language, each with its anchor."""

from __future__ import annotations

import re

from flask import Blueprint, render_template, url_for
from markupsafe import Markup, escape

from ..i18n import current_language

bp = Blueprint("rules", __name__)

#: A rule number in running text: R6.3, R1.4, R9 (not inside a word or an address).
#: ASCII boundaries: in Chinese or Thai a rule number sits right against a letter of the
#: script ("见R6.3"), which Unicode \w would count as part of one word.
RULE_NUMBER = re.compile(r"(?<![A-Za-z0-9_#./-])(R(?:1[0-9]|[1-9])(?:\.[0-9]{1,2})?)(?![A-Za-z0-9_])")


@bp.get("/rules")
def rulebook():
    """The rulebook, R1 to R9, in the reader's language."""
    return render_template("rules.html", rulebook=f"rules/{current_language()}.html")


def rule_url(rule: str) -> str:
    """The rulebook's address of one rule ("R6.3" → /rules#R6.3)."""
    return url_for("rules.rulebook") + "#" + rule


def link_rules(value) -> Markup:
    """Text (or safe HTML) with every rule number turned into a link to the rulebook."""
    html = str(value if isinstance(value, Markup) else escape(value))
    base = url_for("rules.rulebook")
    return Markup(RULE_NUMBER.sub(
        lambda m: f'<a class="rule-ref" href="{base}#{m[1]}">{m[1]}</a>', html))
