"""Provenance checks: every digitized record against the text of its source document.

A reviewer's question "where does this number come from?" must have a checkable answer: the
quote occurs verbatim in the document (runs of whitespace, e.g. the tabs and line breaks of a
flattened table, count as one space), the printed value occurs inside the quote, the quote
starts near the recorded line, and the locator names a table, figure or section that exists.
"""

import hashlib
import re
from pathlib import Path

import pandas as pd

from .. import config

MAX_QUOTE_WORDS = 20
LINE_WINDOW = 40  # a quote may start on the recorded line and run over a flattened table's cells


def squash(text: str) -> str:
    """Collapse every run of whitespace to one space."""
    return re.sub(r"\s+", " ", text).strip()


def sha256(path: Path) -> str:
    """SHA-256 hex digest of a file."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def text_path(text_dir: str, text_file: str) -> Path:
    """Path of one source text: ``text_dir`` is a key of ``config.TEXT_DIRS`` (``seeds``:
    ``../shared/seeds`` or VDI_SEEDS_DIR; ``external``: ``../shared/external`` or VDI_EXTERNAL_DIR).
    Raises KeyError for an unknown ``text_dir``."""
    return config.TEXT_DIRS[text_dir] / text_file


def source_texts(source: "pd.Series") -> dict[str, str]:
    """{text_file: text} of one ``sources.csv`` row (columns ``text_dir``, ``text_files``).
    Raises FileNotFoundError when a text is missing."""
    return {f: text_path(source["text_dir"], f).read_text(encoding="utf-8") for f in source["text_files"].split()}


def verify_source(source: "pd.Series", records: pd.DataFrame) -> list[str]:
    """Check a source's records against its texts: each record against the file its
    ``text_file`` names. Returns one message per problem (empty: all verified)."""
    texts = source_texts(source)
    problems = []
    for name, text in texts.items():
        problems += verify_records(records[records["text_file"] == name], text)
    return problems


def locator_exists(locator: str, text: str) -> bool:
    """True when ``Table N`` / ``Figure N`` is named in ``text``, ``Section X.Y`` is a numbered
    heading, or ``Section: Heading``, ``Table: Title`` or ``Figure: Caption`` (unnumbered, as
    printed) occurs (case-insensitive, whitespace collapsed) in ``text``."""
    m = re.match(r"^(Table|Figure) (\d+)$", locator)
    if m:
        return re.search(rf"\b{m.group(1)}[ \t]+{m.group(2)}\b", text) is not None
    m = re.match(r"^(Section|Table|Figure): (.+)$", locator)
    if m:  # an unnumbered heading, table title or figure caption/alt text, as printed
        return squash(m.group(2)).lower() in squash(text).lower()
    m = re.match(r"^Section (\d+(?:\.\d+)*)$", locator)
    if m:
        return re.search(rf"(^|\n)[#*\s]*{re.escape(m.group(1))}\.?[ \t]", text) is not None
    return False


def verify_records(records: pd.DataFrame, text: str) -> list[str]:
    """Check ``records`` (columns ``record_id, locator, line, quote, value_text``) against ``text``.

    Returns one message per problem (empty list: all records verified).
    """
    flat = squash(text)
    lines = text.splitlines()
    problems = []
    for r in records.itertuples(index=False):
        q = squash(r.quote)
        where = f"{r.record_id} (line {r.line}, {r.locator})"
        if len(q.split()) > MAX_QUOTE_WORDS:
            problems.append(f"{where}: quote has {len(q.split())} words (max {MAX_QUOTE_WORDS})")
        if q not in flat:
            problems.append(f"{where}: quote not found verbatim: {q!r}")
        elif q[:30] not in squash(" ".join(lines[max(int(r.line) - 1, 0) : int(r.line) - 1 + LINE_WINDOW])):
            problems.append(f"{where}: quote does not start near line {r.line}")
        if r.value_text not in r.quote:
            problems.append(f"{where}: value {r.value_text!r} not in quote")
        if not locator_exists(r.locator, text):
            problems.append(f"{where}: locator {r.locator!r} not found in the document")
    return problems
