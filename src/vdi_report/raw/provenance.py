"""Provenance checks: every digitized record against the text of its source document.

A reviewer's question "where does this number come from?" must have a checkable answer: the
quote occurs verbatim in the document (runs of whitespace, e.g. the tabs and line breaks of a
flattened table, count as one space), the printed value occurs inside the quote, the quote
starts near the recorded line, and the locator names a table, figure or section that exists.

A number printed in a chart's legend (``image_file`` set: the Max and Mean columns many
Nutanix charts print per series) is checked against the chart instead (``verify_image_records``):
the image exists and has the recorded SHA-256, the text links it at the recorded line with the
caption the locator names (``Figure: <caption> (time axis HH:MM-HH:MM)``), the quote is one
legend row (series name, then its two numbers) and the value is the row's number in the column
its statistic names (``peak`` = Max, ``average`` = Mean; the column order is stated in the note
as ``chart legend, columns Max Mean``), never a Mean above its Max.
"""

import hashlib
import os
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
    ``text_file`` names; a record read from a chart's legend (``image_file`` set) against the
    image and the text's link to it (``verify_image_records``). Returns one message per problem
    (empty: all verified)."""
    texts = source_texts(source)
    image = records.get("image_file", pd.Series("", index=records.index)).fillna("") != ""
    problems = []
    for name, text in texts.items():
        problems += verify_records(records[(records["text_file"] == name) & ~image], text)
    problems += verify_image_records(records[image], source["text_dir"], texts)
    return problems


# A chart-legend record: its locator, its note's statement of the legend's columns, its quote.
IMAGE_LOCATOR = re.compile(
    r"^Figure: (?P<caption>.+) \((?:time axis (?P<start>\d{2}:\d{2})-(?P<end>\d{2}:\d{2})|(?P<bar>bar chart))\)$"
)
# A bar chart prints one value per bar: note 'chart bar label', quote '<series> <value>', statistic single.
BAR_LABEL = "chart bar label"
LEGEND_COLUMNS = re.compile(r"\bchart legend, columns (?P<columns>Max Mean|Mean Max)\b")
_LEGEND_VALUE = r"\d[\d,]*(?:\.\d+)?(?: ?(?:%|µs|ms|s|min|MB/s|W))?"
BAR_ROW = re.compile(rf"^(?P<series>\S.*?) (?P<value>{_LEGEND_VALUE})$")
LEGEND_ROW = re.compile(rf"^(?P<series>\S.*?) (?P<first>{_LEGEND_VALUE}) (?P<second>{_LEGEND_VALUE})$")
_IMAGE_LINK = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<path>[^)\s]+)")
COLUMN_OF_STATISTIC = {"peak": "Max", "average": "Mean"}


def image_path(text_dir: str, image_file: str) -> Path:
    """Path of a chart image: ``image_file`` is relative to the source's ``text_dir`` (as
    ``text_files`` are). Raises KeyError for an unknown ``text_dir``."""
    return config.TEXT_DIRS[text_dir] / image_file


def check_legend_rows(records: pd.DataFrame) -> list[str]:
    """The text-free part of the chart-legend checks, for ``records`` with ``image_file`` set
    (columns ``record_id, locator, line, quote, value_text, statistic, note, image_file``): the
    locator is ``Figure: <caption> (time axis HH:MM-HH:MM)`` with a start before its end, the
    note states the legend's columns, the quote is one legend row (series, two numbers), the
    value is the number in the column the statistic names, and the row's Mean is not above its
    Max; a bar chart's label (note ``chart bar label``, locator ``Figure: <caption> (bar chart)``)
    is the series and its one value, statistic ``single``. Returns one message per problem. Run by
    the validate stage (no text needed)."""
    from .sources import parse_printed

    problems = []
    for r in records.itertuples(index=False):
        where = f"{r.record_id} (text line {r.line}, {Path(r.image_file).name})"
        loc = IMAGE_LOCATOR.match(r.locator)
        bar = BAR_LABEL in r.note
        if not loc or bool(loc.group("bar")) != bar:
            form = "(bar chart)" if bar else "(time axis HH:MM-HH:MM)"
            problems.append(f"{where}: locator {r.locator!r}: expected 'Figure: <caption> {form}'")
        elif not bar and loc.group("start") >= loc.group("end"):
            problems.append(f"{where}: locator {r.locator!r}: the time axis must start before it ends")
        if bar:
            label = BAR_ROW.match(squash(r.quote))
            if not label:
                problems.append(f"{where}: quote {r.quote!r} is not a bar label (series name, then its value)")
            elif label.group("value") != r.value_text:
                problems.append(
                    f"{where}: value_text {r.value_text!r} is not the bar's value ({label.group('value')!r})"
                )
            if r.statistic != "single":
                problems.append(f"{where}: statistic {r.statistic!r}: a bar label is a single value")
            continue
        cols = LEGEND_COLUMNS.search(r.note)
        row = LEGEND_ROW.match(squash(r.quote))
        if not cols:
            problems.append(f"{where}: note must state the legend's columns ('chart legend, columns Max Mean')")
        if not row:
            problems.append(f"{where}: quote {r.quote!r} is not a legend row (series name, then two numbers)")
        if not (cols and row):
            continue
        order = cols.group("columns").split()
        cells = dict(zip(order, (row.group("first"), row.group("second"))))
        want = COLUMN_OF_STATISTIC.get(r.statistic)
        if want is None:
            problems.append(f"{where}: statistic {r.statistic!r}: a legend prints only Max (peak) and Mean (average)")
        elif cells[want] != r.value_text:
            problems.append(f"{where}: value_text {r.value_text!r} is not the legend's {want} ({cells[want]!r})")
        top, mean = (parse_printed(cells[c]) for c in ("Max", "Mean"))
        if top and mean and mean[0][0] > top[0][0]:
            problems.append(f"{where}: the legend row's Mean {cells['Mean']!r} is above its Max {cells['Max']!r}")
    return problems


def check_images(records: pd.DataFrame, text_dir: str) -> list[str]:
    """Each chart image of ``records`` (``image_file`` set) exists under ``text_dir`` and has the
    recorded ``image_sha256``. Returns one message per problem (each image hashed once)."""
    problems, digests = [], {}
    for r in records.itertuples(index=False):
        path = image_path(text_dir, r.image_file)
        if r.image_file not in digests:
            digests[r.image_file] = sha256(path) if path.is_file() else None
        if digests[r.image_file] is None:
            problems.append(f"{r.record_id}: image {r.image_file!r} not found ({path})")
        elif digests[r.image_file] != r.image_sha256:
            problems.append(
                f"{r.record_id}: image {r.image_file!r} has SHA-256 {digests[r.image_file]}, "
                f"the record says {r.image_sha256}"
            )
    return problems


def verify_image_records(records: pd.DataFrame, text_dir: str, texts: dict[str, str]) -> list[str]:
    """Check chart-legend records (``image_file`` set) against their images and texts
    (``texts``: text_file -> text): ``check_legend_rows`` and ``check_images``, and the text
    file links the image at the record's ``line`` with the caption its locator names. Returns
    one message per problem (empty list: all verified)."""
    problems = check_legend_rows(records) + check_images(records, text_dir)
    for r in records.itertuples(index=False):
        where = f"{r.record_id} (text line {r.line}, {Path(r.image_file).name})"
        lines = texts.get(r.text_file, "").splitlines()
        link = _IMAGE_LINK.search(lines[r.line - 1]) if 0 < r.line <= len(lines) else None
        if link is None:
            problems.append(f"{where}: {r.text_file} has no image link at line {r.line}")
            continue
        target = (Path(r.text_file).parent / link.group("path")).as_posix()
        if os.path.normpath(target) != os.path.normpath(r.image_file):
            problems.append(f"{where}: line {r.line} links {link.group('path')!r}, not the record's image")
        loc = IMAGE_LOCATOR.match(r.locator)
        if loc and squash(loc.group("caption")) != squash(link.group("alt")):
            caption, alt = loc.group("caption"), link.group("alt")
            problems.append(f"{where}: locator caption {caption!r} is not the link's {alt!r}")
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
