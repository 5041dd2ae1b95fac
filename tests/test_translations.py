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


def names_the(key: str, source: str) -> bool:
    """Whether an English sentence names the app ('app') or a game's scorekeeper."""
    plain = JSON_OBJECT.sub(" ", PLACEHOLDER.sub(" ", source))
    return bool(re.search(glossary("en")["terms"][key]["pattern"], plain, re.IGNORECASE))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_app_and_the_scorekeeper_are_two_words(lang):
    """English says "scorekeeper" for the program and for whoever keeps a game's score;
    no other language may: a sentence about the app never uses the scorekeeper's word
    (outside the app's name), and one about the scorekeeper never the app's (issue 26)."""
    terms = glossary(lang)["terms"]
    app, keeper = terms["app"]["forms"], terms["scorekeeper"]["forms"]
    app_words, app_names = [f for f in app if " " not in f or f == app[0]], app[1:]
    problems = []
    for m in catalogue(lang):
        if not m.id:
            continue
        source = m.id[-1] if isinstance(m.id, tuple) else m.id
        for form in strings(m):
            text = form.casefold()
            for name in app_names:
                text = text.replace(name.casefold(), " ")
            if names_the("app", source) and any(k.casefold() in text for k in keeper):
                problems.append(f"app called the scorekeeper: {source!r} → {form!r}")
            if names_the("scorekeeper", source) and any(a.casefold() in text
                                                        for a in app_words):
                problems.append(f"scorekeeper called the app: {source!r} → {form!r}")
    assert not problems, "\n".join(problems[:20])


def test_the_two_patterns_tell_the_sentences_apart():
    app = ["This scorekeeper does not answer to the name %(host)s.",
           "This file is not a backup of the scorekeeper: it is not an SQLite database.",
           "Not sent yet — the scorekeeper's server can't be reached.",
           "Choose a file saved here or on another scorekeeper.",
           "This export has version 2; this app reads version 3."]
    keeper = ["Scorekeeper PIN", "Scorekeeper? Enter the PIN",
              "This device is now the scorekeeper of %(name)s.",
              "%(name)s is kept by one scorekeeper.",
              "This game is protected by a PIN: only its scorekeeper can change it."]
    assert all(names_the("app", s) and not names_the("scorekeeper", s) for s in app)
    assert all(names_the("scorekeeper", s) and not names_the("app", s) for s in keeper)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_rejected_word_for_the_app(lang):
    """A glossary term's "avoid" list (the app's former names: «πρόγραμμα σκορ»,
    «máy ghi điểm», «记分系统» …) appears in no sentence and not on the rulebook page."""
    rulebook = (ROOT / "templates" / "rules" / f"{lang}.html").read_text(encoding="utf-8")
    texts = [("rulebook", rulebook)] + [(m.id, form) for m in catalogue(lang) if m.id
                                        for form in strings(m)]
    problems = [f"{word!r}: {where!r} → {text!r}"
                for key, entry in glossary(lang)["terms"].items()
                for word in entry.get("avoid", [])
                for where, text in texts if word.casefold() in text.casefold()]
    assert not problems, "\n".join(problems[:20])


def test_chinese_says_ni_throughout():
    """Every Chinese sentence addresses the player as 你; three club entries said 您."""
    formal = [(m.id, form) for m in catalogue("zh") if m.id for form in strings(m)
              if "您" in form]
    assert not formal


#: Greek words for what can be counted 1 (a minute, an hour, a day, a time), with their
#: singular (after 1) and plural (after any other number).
GREEK_UNITS = {"λεπτό": "λεπτά", "ώρα": "ώρες", "ημέρα": "ημέρες", "μέρα": "μέρες",
               "δευτερόλεπτο": "δευτερόλεπτα", "φορά": "φορές"}


def test_greek_numbers_agree_with_their_nouns():
    """«1 λεπτά» is wrong Greek: a count that can be 1 is followed by its noun only in an
    ngettext entry, singular in the first form and plural in the second; any other count
    (%(minutes)s in "1 h %(minutes)s min") takes an abbreviation that fits every number
    (λεπτ.)."""
    problems = []
    for m in catalogue("el"):
        if not m.id:
            continue
        forms = strings(m)
        for index, form in enumerate(forms):
            for number, noun in re.findall(r"(%\(\w+\)[sd]|\b\d+\b)\s+([α-ωάέήίόύώϊϋΐΰ]+)\b",
                                           form):
                for singular, plural in GREEK_UNITS.items():
                    if noun not in (singular, plural):
                        continue
                    counted = isinstance(m.id, tuple) and number == "%(num)s"
                    want = (singular if index == 0 else plural) if counted else None
                    if number == "1":
                        want = singular
                    elif re.fullmatch(r"\d+", number):
                        want = plural
                    if noun != want:
                        problems.append(f"{m.id!r}: «{number} {noun}» in {form!r}")
    assert not problems, "\n".join(problems)
