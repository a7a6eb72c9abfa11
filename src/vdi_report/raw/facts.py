"""Test-bed and method facts stated in words (``data/raw/facts.csv``): one row per statement of a
fact in one section of a document (the desktop OS version, the phase a difference falls in, which
test run a comparison uses, a comparison called "similar"), so the audit's rules can compare the
statements of one fact across sections (method, results, summary, captions, conclusion).

Columns (``FACT_COLUMNS``): ``fact_id`` (``S-<PREFIX>-NN``), ``source_id``, ``text_file`` (empty:
the source's first text file), ``fact`` (snake_case key, shared by every statement of one fact
within a document), ``about`` (the fact in words), ``value`` (what this statement says, normalized
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
        if not re.fullmatch(rf"S-{prefix}-\d{{2}}", r["fact_id"]) or r["fact_id"] in seen:
            problems.append(f"{where}: column 'fact_id' = {r['fact_id']!r}: expected a new S-{prefix}-NN")
        seen.add(r["fact_id"])
        files = src.at[r["source_id"], "text_files"].split()
        if r["text_file"] and r["text_file"] not in files:
            problems.append(f"{where}: column 'text_file' = {r['text_file']!r}: not one of {', '.join(files)}")
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
