"""The referee: Mexican Train's rules (RULES.md R3–R7, options R9) as pure values.

Modelled on python-chess, which keeps ``Board`` central and gives pgn, polyglot
and the variants their own modules:

- :mod:`.table` — the state, :class:`Table` (what lies on the table and whose
  turn it is), and the parsing of API.md's table object (:class:`InvalidTable` for a
  table that cannot exist); :mod:`.values` — the values :class:`Play`,
  :class:`Violation` and :class:`Ground`, each with its JSON;
- :mod:`.rules` — :func:`check` returns *every* rule a play breaks;
  :func:`is_legal` and :func:`legal_plays` are derived from it and never
  restate a rule; :func:`train_violations` is its part that depends on the
  train alone; :func:`grounds` names the rules that allow a legal play;
  :func:`draw_rule` says under which rule a player who does not play draws (R4.2,
  R5.4, R6.2, R6.4);
- :mod:`.feet` — chicken foot's trains (R10): a double as a :class:`~.feet.Foot` with up
  to three toes, its JSON and its open ends; :mod:`.footrules` — the rulings of R10
  that :mod:`.rules` asks under the option (``chicken_foot``, ``foot_full``,
  ``owed_on_double``, the grounds and the checks of R10.8);
- :mod:`.planner` — :func:`plan_train`, the best opening train of a hand (R4.1),
  a graph search that shares nothing with the rest;
- :mod:`.live` — live play: :class:`RoundState` mirrors a round as the
  scorekeeper sees it (the table and only the *number* of tiles in each hand);
  :func:`apply` takes an action (:class:`PlayAction`, :class:`DrawAction`,
  :class:`PassAction`) and returns a new state or raises :class:`IllegalMove`
  with the violations; :func:`replay` rebuilds a round from its start and the
  stored move log.

Unparseable input is :class:`~scorekeeper.errors.BadInput`; a table that cannot
exist is :class:`InvalidTable` (a BadInput naming the field); a move the rules
forbid here is :class:`IllegalMove`.  Nothing here imports Flask, storage or
the PDF.  Import the public names from this package (``from scorekeeper.referee
import Table, check``), not from its modules.
"""

from __future__ import annotations

from .live import (Action, DrawAction, Finish, IllegalMove, PassAction, PlayAction, RoundState,
                   action_from_json, action_violations, apply, legal_actions, replay,
                   start_from_json, start_round)
from .planner import TrainPlan, plan_train
from .rules import (STRUCTURAL, check, draw_rule, grounds, is_legal, legal_plays,
                    train_violations)
from .table import TABLE_FIELDS, InvalidTable, Table
from .values import PLAY_FIELDS, Ground, Play, Violation, train_sentence

__all__ = [
    "Play", "Violation", "Ground", "Table", "InvalidTable", "train_sentence", "PLAY_FIELDS",
    "TABLE_FIELDS", "check", "grounds", "is_legal", "legal_plays", "train_violations",
    "STRUCTURAL",
    "TrainPlan", "plan_train",
    "RoundState", "PlayAction", "DrawAction", "PassAction", "Action", "Finish",
    "IllegalMove", "start_round", "start_from_json", "apply", "action_violations", "replay",
    "legal_actions", "draw_rule", "action_from_json",
]
