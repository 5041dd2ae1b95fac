"""One value type for one idea: a rule a situation raises, with its code, rule and sentence.

The referee's :class:`~scorekeeper.referee.Violation` (a rule a play breaks) and
scoring's :class:`~scorekeeper.scoring.ScoreWarning` (an unusual round, R7.4) are both a
:class:`RuleNote`: a stable code, the rule number in RULES.md and a whole sentence, written
as API.md's ``{"code", "rule", "message"}``.  Pure: no Flask, storage or PDF.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleNote:
    """A stable code, the rule number in RULES.md, a sentence."""

    code: str
    rule: str
    message: str

    def to_json(self) -> dict:
        return {"code": self.code, "rule": self.rule, "message": self.message}

    def __repr__(self) -> str:
        return f"{self.code} {self.rule}: {self.message!r}"
