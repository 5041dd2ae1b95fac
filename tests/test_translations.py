"""The players' languages: every catalogue complete, faithful to its placeholders and
rule numbers, and using its glossary's word for each game term.

Run one language with ``-k th`` (vi, th, zh, ms, el).
"""

from __future__ import annotations

import json
import re
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = ROOT / "scorekeeper" / "translations"
GLOSSARIES = ROOT / "docs" / "glossary"
LANGUAGES = ["vi", "th", "zh", "ms", "el"]

PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
#: JSON shown in an API sentence ({"tile": …, "train": …}) is code, not game words.
JSON_OBJECT = re.compile(r"\{[^{}]*\}")
RULE = re.compile(r"(?<![A-Za-z0-9_])R[1-9](?:\.[0-9]{1,2})?(?![A-Za-z0-9_])")


def catalogue(lang: str):
    with open(CATALOGUES / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


@pytest.fixture(scope="module")
def source_ids() -> set[str]:
    """Every message id in the code and templates, extracted now (as pybabel would)."""
    method_map = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "N_": None,
                "lazy_gettext": None}
    ids = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, keywords=keywords):
        ids.add(message[0] if isinstance(message, tuple) else message)
    return ids


def strings(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_translated(lang, source_ids):
    cat = catalogue(lang)
    ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in cat if m.id}
    assert not source_ids - ids, f"not in the {lang} catalogue (pybabel update): " \
                                 f"{sorted(source_ids - ids)[:10]}"
    assert not ids - source_ids, f"no longer in the code: {sorted(ids - source_ids)[:10]}"
    untranslated = [m.id for m in cat if m.id and (m.fuzzy or not all(strings(m)))]
    assert not untranslated, f"{len(untranslated)} untranslated or fuzzy: {untranslated[:10]}"
    assert not cat.obsolete, f"obsolete entries left: {list(cat.obsolete)[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_and_rule_numbers_kept(lang):
    problems = []
    for m in catalogue(lang):
        if not m.id:
            continue
        source = m.id if isinstance(m.id, tuple) else (m.id,)
        want = sorted(set(PLACEHOLDER.findall(source[-1])))
        rules = sorted(set(RULE.findall(source[-1])))
        for form in strings(m):
            if not form:
                continue
            got = sorted(set(PLACEHOLDER.findall(form)))
            # A plural form may leave out the count itself ("%(num)s") where the language
            # says it another way, but never another value.
            if got != want and not (isinstance(m.id, tuple) and
                                    sorted(set(want) - {"%(num)s"}) == sorted(set(got) - {"%(num)s"})):
                problems.append(f"{source[0]!r}: placeholders {want} → {got}")
            if sorted(set(RULE.findall(form))) != rules:
                problems.append(f"{source[0]!r}: rule numbers {rules} → {RULE.findall(form)}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_compiles(lang):
    write_mo(BytesIO(), catalogue(lang))


def glossary(lang: str) -> dict:
    return json.loads((GLOSSARIES / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_has_every_term(lang):
    english = glossary("en")["terms"]
    terms = glossary(lang)["terms"]
    assert set(terms) == set(english)
    for key, entry in terms.items():
        assert entry["term"] and entry["forms"], key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_uses_the_glossary_word(lang):
    """A sentence that says "Mexican train" in English says the glossary's word for it."""
    english = glossary("en")["terms"]
    terms = glossary(lang)["terms"]
    problems = []
    for m in catalogue(lang):
        if not m.id:
            continue
        source = m.id[-1] if isinstance(m.id, tuple) else m.id
        plain = JSON_OBJECT.sub(" ", PLACEHOLDER.sub(" ", source))
        for key, entry in english.items():
            if not re.search(entry["pattern"], plain, re.IGNORECASE):
                continue
            forms = [f.casefold() for f in terms[key]["forms"]]
            for form in strings(m):
                if form and not any(f in form.casefold() for f in forms):
                    problems.append(f"{key}: {source!r} → {form!r} (expected one of "
                                    f"{terms[key]['forms']})")
    assert not problems, f"{len(problems)} sentences off the glossary:\n" + "\n".join(problems[:25])
