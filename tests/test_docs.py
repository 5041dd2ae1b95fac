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


# --- the README and docs/: every link and anchor, what each page must name -------------

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def prose(text: str) -> str:
    """*text* without its fenced code blocks, and each inline code span as plain text (a
    link's text may be code; a code span never holds a link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`([^`\n]*)`", lambda m: m[1].replace("[", "(").replace("]", ")"), text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without links' targets and formatting,
    lower case, every character but letters, digits, _, - and spaces dropped, spaces -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown page: its headings' (the second alike gets -1, …)."""
    seen: dict[str, int] = {}
    found = set()
    for line in re.sub(r"^```.*?^```", "", path.read_text(), flags=re.M | re.S).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*$", line)
        if m:
            base = slug(m[1])
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def broken_links(path: Path) -> list[str]:
    """The links of page *path* to a file that is not there, or to an anchor its page lacks."""
    broken = []
    for target in LINK.findall(prose(path.read_text())):
        if re.match(r"[a-z]+:", target):   # https:, mailto: — not ours to check
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            broken.append(f"{path.name}: {target} (no file {file})")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{path.name}: {target} (no heading #{anchor})")
    return broken


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_every_link_and_anchor_leads_somewhere(path):
    assert broken_links(path) == []


def test_a_broken_link_or_anchor_is_found(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## Its part — `code`\n\n## Its part — `code`\n")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n## Here, and there\n\n"
                    "[ok](other.md) [ok](other.md#its-part--code-1) [ok](#here-and-there) "
                    "[ok](https://example.org/x#y) `[not a link](nowhere.md)`\n\n"
                    "```sh\n[not a link either](nowhere.md)\n```\n\n"
                    "[gone](missing.md) [no part](other.md#elsewhere) ![no picture](img.png) "
                    "[no heading](#there)\n")
    assert [b.split(" (")[0] for b in broken_links(page)] == [
        "page.md: missing.md", "page.md: other.md#elsewhere", "page.md: img.png",
        "page.md: #there"]


def test_the_readme_is_taken_in_at_a_glance():
    text = PAGES[0].read_text()
    assert len(text.splitlines()) <= 80
    # The two commands, each in a block of its own.
    assert "```sh\n./run.sh\n```" in text and "```sh\n./test.sh\n```" in text
    # One or two real screenshots, small, and every page of docs/ one link away.
    images = re.findall(r"!\[[^\]]+\]\((docs/images/[\w-]+\.png)\)", text)
    assert 1 <= len(images) <= 2
    for image in images:
        assert (ROOT / image).stat().st_size <= 150_000, image
    linked = {target.partition("#")[0] for target in LINK.findall(text)}
    assert {f"docs/{p.name}" for p in PAGES[1:]} <= linked


def settings_read() -> set[str]:
    """Every setting the app's code reads (app.config["X"], config.get("X"))."""
    found = set()
    for path in (ROOT / "scorekeeper").rglob("*.py"):
        found |= set(re.findall(r"config(?:\.get\(|\[)\s*[\"']([A-Z][A-Z0-9_]+)[\"']",
                                path.read_text()))
    return found


#: Settings read in the code that are not the club's to set: Flask-Compress's own (the
#: caches, development.md), and three the app writes itself (serve.py, create_app).
NOT_SETTINGS = {"COMPRESS_BR_BLOCK", "COMPRESS_BR_LEVEL", "COMPRESS_BR_MODE",
                "COMPRESS_BR_WINDOW", "COMPRESS_LEVEL", "SERVER_HOST", "SERVER_PORT",
                "TRUSTED_HOST_NAMES"}


def test_every_setting_is_in_configuration_md():
    table = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|",
                           (ROOT / "docs" / "configuration.md").read_text(), re.M))
    read = settings_read() - NOT_SETTINGS
    assert {"DATABASE", "SECRET_KEY", "PAPER_SIZE", "TRUSTED_HOSTS", "PHOTO_READS"} <= read
    assert sorted(read - table) == []


def test_configuration_md_names_the_environment_and_the_server_options():
    text = (ROOT / "docs" / "configuration.md").read_text()
    for name in ("SCOREKEEPER_INSTANCE", "SCOREKEEPER_PORT", "SCOREKEEPER_HOST",
                 "SCOREKEEPER_TRUSTED_HOSTS", "--port", "--host", "--threads", "init-db",
                 "scorekeeper backup"):
        assert name in text, name


def test_every_benchmark_is_in_benchmarks_md():
    text = (ROOT / "docs" / "benchmarks.md").read_text()
    scripts = [p for p in (ROOT / "bench").glob("*.py") if "__main__" in p.read_text()]
    assert len(scripts) >= 10
    assert [p.name for p in scripts if f"`bench/{p.name}" not in text] == []


def test_development_md_names_every_module_and_only_real_ones():
    """The module list of docs/development.md ("Where each feature lives") is true: each
    module of the package is named there by its path, and each path named exists."""
    text = (ROOT / "docs" / "development.md").read_text()
    package = ROOT / "scorekeeper"
    modules = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
               if p.name != "__init__.py"]
    assert [m for m in modules if f"`{m}`" not in text] == []
    named = re.findall(r"`((?:[\w.]+/)*\w+\.py)`", text)
    assert [n for n in named if not (package / n).exists() and not (ROOT / n).exists()] == []
