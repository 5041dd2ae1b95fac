"""The rulebook pages in five languages say what the English one says (issue 18, item 20).

Each page, `templates/rules/<code>.html`, is a translation of `templates/rules/en.html`.
A translation that falls behind (a worked example, a clause or a list item dropped) is
caught here without reading the language: each page has the same rules (the same ids,
in the same order), and in each rule the same numbers, the same rule references and the
same list items and table rows as the English.
"""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

PAGES = Path(__file__).resolve().parent.parent / "templates" / "rules"
LANGUAGES = ["vi", "th", "zh", "ms", "el"]

#: A rule number in the text or a link: R6.3, R9 (as the pages' rule links say them).
RULE = re.compile(r"R(?:1[0-9]|[1-9])(?:\.[0-9]{1,2})?(?![0-9])")
#: A number, its thousands grouped in any language's way (1,092 · 1.092 · 1 092).
NUMBER = re.compile(r"[0-9]+(?:[,.\u00a0\u202f ][0-9]{3}(?![0-9]))*")


class Rulebook(HTMLParser):
    """A rulebook page as rules: id → its text, rule references, list items and rows."""

    def __init__(self):
        super().__init__()
        self.rules: dict[str, dict] = {}
        self.stack: list[str | None] = []   # the rule each open element belongs to

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        ident = attrs.get("id") or ""
        # A rule: a numbered clause (R4.3), a part (R9's own text) or an R9 option row.
        is_rule = (re.fullmatch(r"R(?:1[0-9]|[1-9])(\.[0-9]{1,2})?|R9-(?!title)\w+", ident)
                   and (tag != "section" or ident == "R9"))
        current = ident if is_rule else (self.stack[-1] if self.stack else None)
        if tag not in ("br", "img", "input", "meta", "hr"):
            self.stack.append(current)
        if is_rule:
            self.rules[ident] = {"text": [], "refs": [], "items": 0, "rows": 0}
        if current is None:
            return
        rule = self.rules[current]
        if tag == "a" and attrs.get("href", "").startswith("#") and not is_rule:
            if "rule-no" not in (attrs.get("class") or ""):
                rule["refs"].append(attrs["href"][1:])
        if tag == "li":
            rule["items"] += 1
        if tag == "tr" and not is_rule:
            rule["rows"] += 1

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] is not None:
            self.rules[self.stack[-1]]["text"].append(data)


def rulebook(lang: str) -> dict[str, dict]:
    """Each rule of a language's page: its numbers, references, list items and rows."""
    parser = Rulebook()
    parser.feed((PAGES / f"{lang}.html").read_text(encoding="utf-8"))
    out = {}
    for ident, rule in parser.rules.items():
        text = " ".join(rule["text"])
        # The rule's own number heads it; references are counted from the links.
        text = RULE.sub(" ", text)
        numbers = Counter(re.sub(r"[^0-9]", "", n) for n in NUMBER.findall(text))
        out[ident] = {"numbers": numbers, "refs": sorted(rule["refs"]),
                      "items": rule["items"], "rows": rule["rows"], "text": text}
    return out


ENGLISH = rulebook("en")


def test_the_english_page_is_read_whole():
    # The reader sees every rule of RULES.md, R9's options and R11's five clauses.
    assert len([r for r in ENGLISH if re.fullmatch(r"R[1-8]\.[0-9]+", r)]) == 37
    assert len([r for r in ENGLISH if r.startswith("R9-")]) == 8
    assert [r for r in ENGLISH if r.startswith("R11.")] == [f"R11.{k}" for k in range(1, 6)]
    assert ENGLISH["R11.3"]["refs"] == ["R4.4", "R7.2", "R7.3", "R7.4"]
    assert ENGLISH["R7.4"]["numbers"]["1118"] == 1 and ENGLISH["R7.4"]["items"] == 5
    assert ENGLISH["R4.3"]["refs"] == ["R6.3"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_rules_as_english(lang):
    assert list(rulebook(lang)) == list(ENGLISH)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("part", ["numbers", "refs", "items", "rows"])
def test_each_rule_says_what_english_says(lang, part):
    page = rulebook(lang)
    drift = [f"{ident}: {page[ident][part]} where English has {rule[part]}"
             for ident, rule in ENGLISH.items()
             if ident in page and page[ident][part] != rule[part]]
    assert not drift, f"{lang}.html drifts from en.html ({part}):\n" + "\n".join(drift)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_unexplained_labels(lang):
    # "A" and "B" name the two deal tables (R1.3, R9's deal); no other rule is labelled
    # with its source rulebook ("(A)", "B:"), which the page never explains, as in English.
    labelled = [ident for ident, rule in rulebook(lang).items()
                if ident not in ("R1.3", "R9-deal")
                and re.search(r"(?<![A-Za-z\u00c0-\u024f\u1e00-\u1eff])[AB]"
                              r"(?![A-Za-z\u00c0-\u024f\u1e00-\u1eff])", rule["text"])]
    assert not labelled, f"{lang}.html labels {labelled} with A or B"
    assert not [i for i in ENGLISH if i not in ("R1.3", "R9-deal")
                and re.search(r"\((A|B)[,)]", ENGLISH[i]["text"])]


def prose_lengths(lang: str) -> dict[str, int]:
    """Each rule's own prose (tables and the rule number aside), in letters, spaces aside."""
    html = (PAGES / f"{lang}.html").read_text(encoding="utf-8")
    starts = [(m.start(), m[1]) for m in re.finditer(
        r'<(?:div|tr)[^>]*\bid="(R(?:1[0-9]|[1-9])(?:\.[0-9]{1,2})?|R9-(?!title)\w+)"', html)]
    out = {}
    for (start, ident), (end, _next) in zip(starts, starts[1:] + [(len(html), None)]):
        chunk = re.sub(r"<table.*?</table>|<a class=\"rule-no\".*?</a>", " ", html[start:end],
                       flags=re.S)
        out[ident] = len(re.sub(r"\s+", "", re.sub(r"<[^>]+>", " ", chunk)))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_rule_is_much_shorter_than_english(lang):
    """A dropped sentence shows as a rule far shorter than the English, measured against
    how long the language runs on the whole page (Chinese about 0.4 of the English,
    Malay about 1.35). R1.3 lost its opening sentence in all five (issue 26) and came out
    at 0.24 to 0.47 of that; every rule now is above 0.7."""
    english, page = prose_lengths("en"), prose_lengths(lang)
    ratios = {rule: page[rule] / english[rule] for rule in english if english[rule]}
    usual = sorted(ratios.values())[len(ratios) // 2]
    short = {rule: round(r / usual, 2) for rule, r in ratios.items() if r < 0.6 * usual}
    assert not short, f"{lang}.html: rules much shorter than in English: {short}"
