"""Test-bed and method facts stated in words (``data/raw/facts.csv``): one row per statement of a
fact in one section of a document (the desktop OS version, the phase a difference falls in, which
test run a comparison uses, a comparison called "similar"), so the audit's rules can compare the
statements of one fact across sections (method, results, summary, captions, conclusion).

Columns (``FACT_COLUMNS``): ``fact_id`` (``S-<PREFIX>-NN``, two to four digits), ``source_id``,
``text_file`` (empty: the source's first text file), ``fact`` (snake_case key, shared by every
statement of one fact within a document), ``kind`` (the kind of fact, ``vocabulary.csv`` field
``fact_kind``: OS and build, load tool, provisioning, desktop counts ...), ``about`` (the fact in
words), ``value`` (what this statement says, normalized
so that two statements saying the same thing have the same value), ``value_text`` (the words as
printed, inside ``quote``), ``section`` (``SECTIONS``), ``locator``, ``line``, ``quote`` (verbatim,
as in records/), ``record_ids`` (space-separated records the statement is about, e.g. the two
figures called "similar"), ``note``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from .. import config
from . import sources

FACTS_FILE = config.RAW_DIR / "facts.csv"
FACT_COLUMNS = [
    "fact_id",
    "source_id",
    "text_file",
    "fact",
    "kind",
    "about",
    "value",
    "value_text",
    "section",
    "locator",
    "line",
    "quote",
    "record_ids",
    "note",
]
SECTIONS = ("summary", "method", "results", "caption", "appendix", "sizing", "conclusion")
# The declared kinds of fact (vocabulary.csv, field ``fact_kind``) and the checklist of
# ``fact_checklist.csv``: for every document, each kind on the checklist is digitized (every
# statement the stated search finds) or stated as not found.
CHECKLIST_COLUMNS = ["source_id", "kind", "status", "searched", "note"]
CHECKLIST_STATUSES = ("complete", "partial", "not_stated")


def fact_kinds() -> tuple[str, ...]:
    """The declared kinds of fact: ``vocabulary.csv`` rows of field ``fact_kind``."""
    return config.values("fact_kind")


def checklist_kinds() -> tuple[str, ...]:
    """The kinds every document is checked for (``fact_kind`` rows whose definition says they
    are on the completeness checklist)."""
    return tuple(r["value"] for r in config.VOCABULARY["fact_kind"] if "completeness checklist" in r["definition"])


class FactError(ValueError):
    """An invalid facts file; the message names file, line, column and value."""


def load_facts(path: Path | str | None = None, raw_dir: Path = config.RAW_DIR) -> pd.DataFrame:
    """``facts.csv`` validated (columns ``FACT_COLUMNS``; ``line`` as int, the rest text; an
    empty ``text_file`` filled with the source's first text file). Raises FactError listing every
    problem: a missing or unknown column, a duplicate or malformed id, an unknown source, section
    or text file, a ``value_text`` not inside its ``quote``, a bad line, a locator not of the
    records' form, a ``record_ids`` entry of another source's prefix."""
    path = Path(path or Path(raw_dir) / "facts.csv")
    df = sources.read_csv_text(path)
    if list(df.columns) != FACT_COLUMNS:
        raise FactError(f"{path}: line 1: columns {list(df.columns)}; expected {FACT_COLUMNS}")
    src = sources.load_sources(raw_dir).set_index("source_id")
    problems, seen = [], set()
    for i, r in df.iterrows():
        where = f"{path}: line {i + 2}"
        if r["source_id"] not in src.index:
            problems.append(f"{where}: column 'source_id' = {r['source_id']!r}: not in sources.csv")
            continue
        prefix = src.at[r["source_id"], "record_prefix"]
        if not re.fullmatch(rf"S-{prefix}-\d{{2,4}}", r["fact_id"]) or r["fact_id"] in seen:
            problems.append(f"{where}: column 'fact_id' = {r['fact_id']!r}: expected a new S-{prefix}-NN")
        seen.add(r["fact_id"])
        files = src.at[r["source_id"], "text_files"].split()
        if r["text_file"] and r["text_file"] not in files:
            problems.append(f"{where}: column 'text_file' = {r['text_file']!r}: not one of {', '.join(files)}")
        if r["kind"] not in fact_kinds():
            problems.append(f"{where}: column 'kind' = {r['kind']!r}: not a fact_kind of vocabulary.csv")
        if r["section"] not in SECTIONS:
            problems.append(f"{where}: column 'section' = {r['section']!r}: not one of {', '.join(SECTIONS)}")
        if not r["fact"] or not re.fullmatch(r"[a-z0-9_]+", r["fact"]):
            problems.append(f"{where}: column 'fact' = {r['fact']!r}: a snake_case key")
        if not r["value"] or r["value_text"] not in r["quote"]:
            problems.append(
                f"{where}: column 'value_text' = {r['value_text']!r}: must occur in quote (and value be set)"
            )
        if not r["line"].isdigit() or int(r["line"]) < 1:
            problems.append(f"{where}: column 'line' = {r['line']!r}: a positive line number")
        if not re.match(sources.LOCATOR_PATTERN, r["locator"]):
            problems.append(f"{where}: column 'locator' = {r['locator']!r}: not a locator of the records' form")
        bad = [x for x in r["record_ids"].split() if not x.startswith(prefix + "-")]
        if bad:
            problems.append(f"{where}: column 'record_ids' = {r['record_ids']!r}: not records of {r['source_id']}")
    if problems:
        raise FactError(f"{len(problems)} problem(s) in {path}:\n  " + "\n  ".join(problems))
    df["line"] = df["line"].astype(int)
    first = src["text_files"].str.split().str[0]
    df["text_file"] = df["text_file"].where(df["text_file"] != "", df["source_id"].map(first))
    return df


def load_checklist(path: Path | str | None = None, raw_dir: Path = config.RAW_DIR) -> pd.DataFrame:
    """``fact_checklist.csv`` validated: one row per document and checklist kind (columns
    ``CHECKLIST_COLUMNS``): ``status`` ``complete`` (every statement the search in ``searched``
    finds is in facts.csv), ``partial`` (some are; ``note`` says what is left) or ``not_stated``
    (the search finds none), ``searched`` how the statements were sought (a pattern, the sections
    read). Raises FactError naming file, line, column and value for an unknown source, kind or
    status, an empty ``searched``, a duplicate or a missing (document, kind) pair."""
    path = Path(path or Path(raw_dir) / "fact_checklist.csv")
    df = sources.read_csv_text(path)
    if list(df.columns) != CHECKLIST_COLUMNS:
        raise FactError(f"{path}: line 1: columns {list(df.columns)}; expected {CHECKLIST_COLUMNS}")
    known = set(sources.load_sources(raw_dir)["source_id"])
    kinds = checklist_kinds()
    problems, seen = [], set()
    for i, r in df.iterrows():
        where = f"{path}: line {i + 2}"
        if r["source_id"] not in known:
            problems.append(f"{where}: column 'source_id' = {r['source_id']!r}: not in sources.csv")
        if r["kind"] not in kinds:
            problems.append(f"{where}: column 'kind' = {r['kind']!r}: not a checklist kind ({', '.join(kinds)})")
        if r["status"] not in CHECKLIST_STATUSES:
            problems.append(f"{where}: column 'status' = {r['status']!r}: not one of {', '.join(CHECKLIST_STATUSES)}")
        if not r["searched"].strip():
            problems.append(f"{where}: column 'searched' = '': say how the statements were sought")
        if (r["source_id"], r["kind"]) in seen:
            problems.append(f"{where}: column 'kind' = {r['kind']!r}: listed twice for {r['source_id']}")
        seen.add((r["source_id"], r["kind"]))
    missing = sorted({(s, k) for s in known for k in kinds} - seen)
    problems += [f"{path}: no row for document {s!r}, kind {k!r}" for s, k in missing]
    if problems:
        raise FactError(f"{len(problems)} problem(s) in {path}:\n  " + "\n  ".join(problems))
    return df
