"""docs/api.md documents every route of the JSON API (a route added without docs fails here)."""

import re
from pathlib import Path

import pytest

DOCS = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()


def api_routes(app):
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            # <int:number> is written <n>, <game_id> and <season_id> <id>, <path:name> <name>.
            path = re.sub(r"<(?:\w+:)?(\w+)>",
                          lambda m: "<%s>" % {"number": "n", "game_id": "id",
                                              "season_id": "id"}.get(m[1], m[1]), rule.rule)
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                yield f"{method} {path}"


def test_every_api_route_is_in_docs_api_md(app):
    routes = list(api_routes(app))
    assert len(routes) >= 15
    missing = [r for r in routes if f"`{r}`" not in DOCS]
    assert missing == []


@pytest.mark.parametrize("status", [400, 404, 405, 409, 413, 415, 500, 503])
def test_every_error_status_is_explained(status):
    assert re.search(rf"^\| {status} \|", DOCS, re.M)
