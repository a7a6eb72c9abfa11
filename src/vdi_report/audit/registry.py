"""The registry of consistency rules: one module per rule under ``audit/rules/``.

A rule module defines a function ``(records) -> list[dict]`` and registers it with ``@rule``,
giving its order (run and report order), its name (the ``rule`` column of
``audit_findings.csv``), a short label (table headers) and a one-line description (the report's
list of checks). The findings table, the counts table and the report's rule list are all built
from ``RULES``, sorted by ``order``. ``rules/__init__.py`` imports every module of the package, so
adding a rule is adding one module (and its tests).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class Rule:
    """One registered rule: ``order`` (run and report order), ``name`` (snake_case id), ``label``
    (a few words for table headers), ``description`` (one line for the report), ``check``
    (records with intervals -> finding dicts, see ``common.finding``; a rule with ``inputs =
    "facts"`` is called with the statements of ``data/raw/facts.csv`` and the records:
    ``check(facts, records)``)."""

    order: int
    name: str
    label: str
    description: str
    check: Callable[..., list[dict]]
    inputs: str = "records"


RULES: dict[str, Rule] = {}


INPUTS = ("records", "facts")


def rule(order: int, name: str, label: str, description: str, inputs: str = "records"):
    """Decorator registering a rule function under ``name``; ``RULES`` stays sorted by ``order``.
    ``inputs``: ``records`` (``check(records)``) or ``facts`` (``check(facts, records)``: the
    statements of data/raw/facts.csv). Raises ValueError for a name registered twice or another
    ``inputs``."""
    if inputs not in INPUTS:
        raise ValueError(f"audit rule {name!r}: inputs must be one of {INPUTS}, got {inputs!r}")

    def register(func):
        if name in RULES:
            raise ValueError(f"audit rule {name!r} registered twice")
        RULES[name] = Rule(order, name, label, description, func, inputs)
        ordered = sorted(RULES.values(), key=lambda r: (r.order, r.name))
        RULES.clear()
        RULES.update({r.name: r for r in ordered})
        return func

    return register


def rules_table() -> pd.DataFrame:
    """The registered rules for the report: columns ``rule`` (name), ``label``, ``description``,
    in run order."""
    return pd.DataFrame(
        [(r.name, r.label, r.description) for r in RULES.values()], columns=["rule", "label", "description"]
    )
