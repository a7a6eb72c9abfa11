"""One validation of every raw input, before any stage writes (``make validate``; the Makefile
runs it ahead of every stage whenever a file under ``data/raw`` changes).

Checks, each problem named by file, CSV line (header = line 1), column and value, all problems
of all files at once:

* first, the structure of every raw CSV (``raw.structure``: encoding, byte-order mark, header
  names, rows that do not fit the header, blank and repeated rows, by frictionless); a file
  whose structure is wrong is reported by that alone, and the checks below wait for it;
* ``data/raw/vocabulary.csv``: known fields, integer order, no value listed twice in a field;
* ``data/raw/metrics.csv``: one row per metric, a known unit, ``min``/``max`` numbers;
* ``data/raw/sources.csv``: the schema of ``sources.sources_schema()``; ``published`` a real
  ``YYYY`` or ``YYYY-MM``;
* ``data/raw/records/*.csv``: every file has its row in ``sources.csv`` (no orphan file) and
  every ``sources.csv`` row its file; each file validated as ``sources.load_records`` does
  (schema, printed values, prefixes); every ``value``/``value_high`` inside its metric's range
  (``metrics.csv`` ``min``/``max``: utilization <= 100 %, counts >= 0); every number read from a
  chart's legend a legend row of the right column, its image present with its SHA-256
  (``check_chart_records``);
* ``data/raw/discrepancies.csv`` and ``data/raw/claims.csv`` (``registers``: ids, sources,
  topics, lines; an empty file is an error), ``analysis_choices.csv`` (``choices``),
  ``facts.csv`` (``facts``) and ``test_setup.csv`` (``test_setup``).

The report parameters, including the files they name (``COST_FILE`` ...), are checked by
``stages.check_parameters`` when they change.

``python -m vdi_report.raw.validate [--raw-dir DIR]``: prints ``inputs valid`` or the problems
and what to do, exit status 2; no traceback unless ``VERBOSE=1`` (or ``--debug``).
"""

from __future__ import annotations

import csv
import os
import re
import sys
import traceback
from pathlib import Path

ADVICE = (
    "Fix the value(s) named above in the file(s) named (data/raw/README.md describes every column), "
    "then run make again. Nothing was rebuilt: data/processed and reports/ are as they were."
)


def _lines(problem: BaseException | str) -> list[str]:
    """A problem's message as lines, without the "N problem(s) in FILE:" header."""
    text = str(problem)
    out = []
    for ln in text.splitlines():
        if re.match(r"^\d+ problem\(s\)( in .*)?:$", ln.strip()):
            continue
        out.append(ln.strip())
    return [ln for ln in out if ln]


def check_vocabulary(raw_dir: Path) -> list[str]:
    """Problems of ``vocabulary.csv``: an unknown field, an order that is not an integer, a
    value listed twice in one field (both lines named), a ``kind`` the field does not declare
    (``config.KINDS``)."""
    from .. import config

    path = raw_dir / "vocabulary.csv"
    problems, seen = [], {}
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            for line, row in enumerate(csv.DictReader(fh), start=2):
                field, value = row.get("field", ""), row.get("value", "")
                if field not in config.VOCABULARY_FIELDS:
                    problems.append(
                        f"{path}: line {line}: column 'field' = {field!r}: expected one of "
                        f"{', '.join(config.VOCABULARY_FIELDS)}"
                    )
                if not str(row.get("order", "")).strip().lstrip("-").isdigit():
                    problems.append(f"{path}: line {line}: column 'order' = {row.get('order')!r}: not an integer")
                for kind in (row.get("kind") or "").split():
                    if kind not in config.KINDS.get(field, ()):
                        allowed = ", ".join(config.KINDS.get(field, ())) or "none (leave it empty)"
                        problems.append(
                            f"{path}: line {line}: column 'kind' = {kind!r}: not a kind of field {field!r}; "
                            f"expected {allowed}"
                        )
                key = (field, value)
                if key in seen:
                    problems.append(
                        f"{path}: line {line}: column 'value' = {value!r}: listed twice in field "
                        f"{field!r} (also line {seen[key]}); keep one row"
                    )
                seen.setdefault(key, line)
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{path}: cannot be read ({exc})")
    return problems


def metric_ranges(raw_dir: Path) -> dict[str, tuple[float | None, float | None, str]]:
    """``metrics.csv`` as {metric: (min, max, unit)}; empty bounds are None."""
    out = {}
    with open(raw_dir / "metrics.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            lo, hi = (row.get("min") or "").strip(), (row.get("max") or "").strip()
            out[row["metric"]] = (float(lo) if lo else None, float(hi) if hi else None, row["unit"])
    return out


def check_metrics(raw_dir: Path) -> list[str]:
    """Problems of ``metrics.csv``: a metric listed twice, an empty unit or definition, a
    ``min``/``max`` that is not a number or a ``min`` above the ``max``."""
    path = raw_dir / "metrics.csv"
    problems, seen = [], {}
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        for col in ("metric", "unit", "definition"):
            if col not in (reader.fieldnames or []):
                return [f"{path}: header: column {col!r} missing; expected metric,unit,definition,min,max"]
        for line, row in enumerate(reader, start=2):
            m = row["metric"]
            if m in seen:
                problems.append(
                    f"{path}: line {line}: column 'metric' = {m!r}: listed twice (also line {seen[m]}); keep one row"
                )
            seen.setdefault(m, line)
            for col in ("unit", "definition"):
                if not (row.get(col) or "").strip():
                    problems.append(f"{path}: line {line}: column {col!r} is empty (metric {m!r})")
            bounds = {}
            for col in ("min", "max"):
                v = (row.get(col) or "").strip()
                try:
                    bounds[col] = float(v) if v else None
                except ValueError:
                    problems.append(f"{path}: line {line}: column {col!r} = {v!r}: not a number (empty = no bound)")
            if bounds.get("min") is not None and bounds.get("max") is not None and bounds["min"] > bounds["max"]:
                problems.append(
                    f"{path}: line {line}: min {bounds['min']:g} is above max {bounds['max']:g} (metric {m!r})"
                )
    return problems


def check_published(df, path: Path) -> list[str]:
    """``published`` of ``sources.csv``: ``YYYY`` or ``YYYY-MM`` with a month 01-12."""
    problems = []
    for i, v in enumerate(df["published"]):
        m = re.fullmatch(r"(\d{4})(?:-(\d{2}))?", v)
        if not m or (m.group(2) and not 1 <= int(m.group(2)) <= 12):
            problems.append(f"{path}: line {i + 2}: column 'published' = {v!r}: not a date; expected YYYY or YYYY-MM")
    return problems


def check_ranges(df, path: Path, ranges) -> list[str]:
    """Records whose ``value`` or ``value_high`` leaves its metric's range (``metrics.csv``);
    the upper bound applies to records in the metric's own unit (a ``%`` utilization)."""
    import math

    problems = []
    for i, r in df.reset_index(drop=True).iterrows():
        lo, hi, unit = ranges.get(r["metric"], (None, None, ""))
        for col in ("value", "value_high"):
            v = r[col]
            if v is None or (isinstance(v, float) and math.isnan(v)):
                continue
            if lo is not None and v < lo:
                problems.append(
                    f"{path}: line {i + 2}: column {col!r} = {v:g}: below the least a {r['metric']} can be "
                    f"({lo:g} {unit}, metrics.csv); check the sign against the quote"
                )
            if hi is not None and r["unit"] == unit and v > hi:
                problems.append(
                    f"{path}: line {i + 2}: column {col!r} = {v:g} {unit}: above the most a {r['metric']} "
                    f"can be ({hi:g} {unit}, metrics.csv); check the value against the quote"
                )
    return problems


def check_records(raw_dir: Path) -> list[str]:
    """Orphan records files, sources without a records file, and every records file validated."""
    from . import sources

    problems = []
    srcs = sources.load_sources(raw_dir)
    known = list(srcs["source_id"])
    files = {p.stem: p for p in sorted((raw_dir / "records").glob("*.csv"))}
    for stem, p in files.items():
        if stem not in known:
            problems.append(
                f"{p}: no row in {raw_dir / 'sources.csv'} has source_id {stem!r}: add the source's row "
                f"there (codebook: data/raw/README.md) or remove the file"
            )
    for i, sid in enumerate(known):
        if sid not in files:
            problems.append(
                f"{raw_dir / 'sources.csv'}: line {i + 2}: column 'source_id' = {sid!r}: "
                f"no records file {raw_dir / 'records' / (sid + '.csv')}"
            )
    ranges = metric_ranges(raw_dir)
    for sid in known:
        if sid not in files:
            continue
        try:
            df = sources.load_records(sid, raw_dir)
        except (sources.RawDataError, ValueError) as exc:
            problems += _lines(exc)
            continue
        problems += check_ranges(df, files[sid], ranges)
        problems += check_chart_records(df, files[sid], srcs.set_index("source_id").at[sid, "text_dir"])
    return problems


def check_chart_records(df, path: Path, text_dir: str) -> list[str]:
    """Records read from a chart's legend (``image_file`` set): the legend-row form always
    (``provenance.check_legend_rows``); the image's existence and SHA-256 where the source's text
    folder is present (``provenance.check_images``; without it the text checks cannot run either)."""
    from .. import config
    from .provenance import check_images, check_legend_rows

    charts = df[df["image_file"] != ""]
    if charts.empty:
        return []
    found = check_legend_rows(charts)
    if config.TEXT_DIRS[text_dir].is_dir():
        found += check_images(charts, text_dir)
    csv_line = {rid: i + 2 for i, rid in enumerate(df["record_id"])}
    out = []
    for p in found:
        rid = p.split(" ", 1)[0].rstrip(":")
        out.append(f"{path}: line {csv_line.get(rid, '?')}: column 'image_file'/'quote': {p}")
    return out


def problems(raw_dir: Path | None = None) -> list[str]:
    """Every problem of every raw input, in the order of the module docstring ([] = valid)."""
    from .. import config

    raw_dir = Path(raw_dir or config.RAW_DIR)
    from . import structure

    out = structure.problems(raw_dir)  # bytes, header and row shape (frictionless) first
    if out:  # the content checks would only repeat them as a dozen consequences
        return out
    out = check_vocabulary(raw_dir) + check_metrics(raw_dir)
    if out:  # the other checks read the vocabularies and metrics
        return out
    from . import registers, sources

    try:
        srcs = sources.load_sources(raw_dir)
    except (sources.RawDataError, ValueError) as exc:
        return _lines(exc)
    out += check_published(srcs, raw_dir / "sources.csv")
    out += check_records(raw_dir)
    from . import choices, facts, test_setup

    for name, load in (
        ("discrepancies.csv", registers.load_discrepancies),
        ("claims.csv", registers.load_claims),
        ("analysis_choices.csv", choices.declared),
        ("facts.csv", lambda path: facts.load_facts(path, raw_dir=raw_dir)),
        ("test_setup.csv", lambda path: test_setup.load_test_setup(path, raw_dir=raw_dir)),
    ):
        if not (raw_dir / name).exists() and name in ("analysis_choices.csv", "facts.csv", "test_setup.csv"):
            continue  # optional registers (a copy of the project may predate them)
        try:
            load(raw_dir / name)
        except (sources.RawDataError, registers.RegisterError, ValueError, OSError) as exc:
            out += _lines(exc)
    return list(dict.fromkeys(out))  # a file read by two checks is named once


def main(argv: list[str] | None = None) -> int:
    """Validate ``data/raw``; exit 0 (``inputs valid``) or 2 with every problem and what to do."""
    import argparse

    ap = argparse.ArgumentParser(prog="vdi-report validate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--raw-dir", type=Path, default=None, help="raw data folder (default: data/raw)")
    ap.add_argument("--debug", action="store_true", help="show the traceback of an unexpected error (or VERBOSE=1)")
    ap.add_argument("--stamp", type=Path, default=None, help="file to write when every input is valid (the build's)")
    a = ap.parse_args(argv)
    debug = a.debug or os.environ.get("VERBOSE", "") not in ("", "0")
    try:
        found = problems(a.raw_dir)
    except Exception as exc:  # an input no check foresaw: still name it, no traceback unless asked
        if debug:
            traceback.print_exc()
        found = _lines(exc) or [repr(exc)]
    if found:
        from ..config import PROJ_ROOT

        found = [p.replace(f"{PROJ_ROOT}/", "") for p in found]  # paths as the user types them
        print(f"invalid input: {len(found)} problem(s):", file=sys.stderr)
        for p in found:
            print(f"  {p}", file=sys.stderr)
        print(ADVICE + ("" if debug else " (VERBOSE=1 shows a traceback.)"), file=sys.stderr)
        return 2
    if a.stamp:
        a.stamp.parent.mkdir(parents=True, exist_ok=True)
        tmp = a.stamp.with_name(f".{a.stamp.name}.{os.getpid()}")
        from ..config import RAW_DIR
        from .sources import validated_line

        raw = Path(a.raw_dir or RAW_DIR)  # the line lets later steps read sources.csv unvalidated
        tmp.write_text(f"raw inputs valid\n{validated_line((raw / 'sources.csv').read_bytes())}\n", encoding="utf-8")
        os.replace(tmp, a.stamp)
    print("inputs valid")
    return 0


if __name__ == "__main__":
    from ..files import end_process

    end_process(main())
