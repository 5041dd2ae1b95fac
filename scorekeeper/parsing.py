"""Reading raw input at the edge: numbers typed on pages, JSON documents.

Pure: no Flask.  ``str.isdigit`` and ``int()`` accept far more than a person
types into a score box ("²" is a digit to ``isdigit`` but not to ``int``; "١٢"
is twelve to both), so a page number is read here, as ASCII digits only.
"""

from __future__ import annotations

import json
import re

from .errors import BadInput
from .text import _

#: Longer than any number the app asks for; keeps int() away from huge strings.
MAX_DIGITS = 9
#: Deeper than any real request or export (an export is about 6 levels deep).
MAX_JSON_DEPTH = 32

_DIGITS = re.compile(r"[0-9]{1,%d}" % MAX_DIGITS)


def whole_number(text: str | None) -> int | None:
    """The whole number in *text* written with ASCII digits 0-9 only; None otherwise."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if _DIGITS.fullmatch(text) else None


def load_json(data: bytes | str, field: str = "") -> object:
    """Parse a JSON document; BadInput for broken JSON or nesting deeper than any real one."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise _too_deep(field) from None
    except ValueError:
        raise BadInput(_("The body is not valid JSON."), field) from None
    if depth(value) > MAX_JSON_DEPTH:
        raise _too_deep(field)
    return value


def depth(value: object) -> int:
    """How deeply lists and objects nest in a parsed JSON value (a scalar is 0)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_JSON_DEPTH:
            break
        stack.extend((child, level + 1) for child in children)
    return deepest


def _too_deep(field: str) -> BadInput:
    return BadInput(_("The JSON is nested too deeply (the limit is %(max)s); no real request "
                      "is.", max=MAX_JSON_DEPTH), field)
