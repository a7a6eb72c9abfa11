"""Structure of the raw CSVs, checked before their content (``validate.problems`` runs this first).

A file whose structure is wrong is reported once, by what is wrong with it, instead of by the
dozen content errors it would cause downstream. Per file (``data/raw/*.csv`` and
``data/raw/records/*.csv``; the columns each may have: ``EXPECTED``):

* bytes: an empty file; a byte-order mark; bytes that are not UTF-8 (a file saved as
  Latin-1), named by line and column (Windows line endings, CRLF, are accepted);
* header: a column the project does not read (with the expected name it most resembles: a
  misspelled key is refused, never ignored), a required column missing, a column named twice or
  a blank column name;
* quoting: a quoted value that never ends (a file cut short inside a quote) or a stray quote;
* rows, by `frictionless <https://framework.frictionlessdata.io>`_: a row with more or fewer
  cells than the header (a stray comma, a truncated file), a blank row, a row repeated exactly.

Each problem as ``FILE: line N: column 'C' = 'V': what is wrong; what to do`` (header = line 1).
The content rules (vocabularies, ranges, provenance) stay with the loaders, in the project's
words; they run only on files whose structure is sound.
"""

from __future__ import annotations

import difflib
from pathlib import Path


def expected() -> dict[str, tuple[list[str], list[str]]]:
    """``{file pattern relative to data/raw: (required columns, optional columns)}``, from the
    loaders' own declarations (one list per file, nowhere repeated)."""
    from ..models.cost import ASSUMPTION_COLUMNS
    from ..models.scenario import PROFILE_COLUMNS, PROFILE_WINDOW_COLUMN
    from . import choices, facts, registers, sources, test_setup

    # the columns load_records fills when absent (older files lack them)
    records_optional = ["text_file", *sources.QUALIFIER_COLUMNS, *sources.IMAGE_COLUMNS]
    return {
        "vocabulary.csv": (["field", "value", "label", "order", "definition", "source_id", "kind"], []),
        "metrics.csv": (["metric", "unit", "definition", "min", "max"], []),
        "sources.csv": (list(sources.SOURCE_COLUMNS), []),
        "records/*.csv": ([c for c in sources.RECORD_COLUMNS if c not in records_optional], records_optional),
        "discrepancies.csv": (list(registers.DISCREPANCY_COLUMNS), list(registers.OPTIONAL_DISCREPANCY_COLUMNS)),
        "claims.csv": (list(registers.CLAIM_COLUMNS), list(registers.OPTIONAL_CLAIM_COLUMNS)),
        "analysis_choices.csv": (list(choices.CHOICE_COLUMNS), []),
        "facts.csv": (list(facts.FACT_COLUMNS), []),
        "fact_checklist.csv": (list(facts.CHECKLIST_COLUMNS), []),
        "cost_assumptions.csv": (list(ASSUMPTION_COLUMNS), []),
        "profile_example.csv": (list(PROFILE_COLUMNS), [PROFILE_WINDOW_COLUMN]),
        "test_setup.csv": (list(test_setup.SETUP_COLUMNS), []),
    }


def _bytes_problems(path: Path, data: bytes) -> list[str]:
    """An empty file, a byte-order mark, CRLF line endings, bytes that are not UTF-8."""
    if not data.strip():
        return [f"{path}: line 1: the file is empty: it needs at least its header line"]
    if data.startswith(b"\xef\xbb\xbf"):
        return [
            f"{path}: line 1: the file starts with a byte-order mark (BOM, 'UTF-8 with BOM'): "
            "save it as plain UTF-8 (most editors: encoding 'UTF-8', not 'UTF-8 with BOM')"
        ]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return [
            f"{path}: line {line}: byte {col} ({data[exc.start : exc.start + 1]!r}) is not UTF-8 (the file "
            "looks saved as Latin-1 or Windows-1252): save it as UTF-8"
        ]
    return []  # Windows line endings (CRLF) are read as LF: four seed records files have them


def _header_problems(path: Path, header: list[str], required: list[str], optional: list[str]) -> list[str]:
    known = required + optional
    out = []
    seen = {}
    suggested = set()
    for i, name in enumerate(header, start=1):
        if name.strip() == "":
            out.append(f"{path}: line 1: column {i} has no name: name it or remove the column")
        elif name in seen:
            out.append(f"{path}: line 1: column {i} = {name!r}: named twice (also column {seen[name]}); keep one")
        elif name not in known:
            near = difflib.get_close_matches(name, [k for k in known if k not in header], n=1, cutoff=0.6)
            hint = f"did you mean {near[0]!r}?" if near else f"the columns are {', '.join(known)}"
            suggested.update(near)
            out.append(f"{path}: line 1: column {i} = {name!r}: not a column of this file ({hint})")
        seen.setdefault(name, i)
    missing = [c for c in required if c not in header and c not in suggested]
    if missing:
        out.append(f"{path}: line 1: missing column(s) {', '.join(missing)} (the header is {','.join(header)})")
    return out


FRICTIONLESS_WORDS = {
    "extra-cell": "a cell beyond the header's {n} columns (a stray comma, or a value with a comma not quoted)",
    "missing-cell": "missing: the row has fewer cells than the header's {n} columns (a truncated row?)",
    "blank-row": "a blank row: remove it",
    "duplicate-row": "the same row as line {other}: remove one",
}
LABEL_ERRORS = ("incorrect-label", "missing-label", "extra-label", "duplicate-label", "blank-label")


def _row_problems(path: Path, header: list[str]) -> list[str]:
    """Rows that do not fit the header, by frictionless (every cell read as text); one problem
    per row and kind (the cells a truncated row lacks are named together)."""
    from frictionless import Checklist, Detector, Resource, Schema, checks, fields

    schema = Schema(fields=[fields.StringField(name=c) for c in header])
    res = Resource(
        path=path.name,
        basepath=str(path.parent),
        schema=schema,
        format="csv",
        encoding="utf-8",
        detector=Detector(schema_sync=False),
    )
    report = res.validate(checklist=Checklist(checks=[checks.duplicate_row()]), limit_errors=100)
    grouped: dict[tuple, list] = {}
    for err in report.tasks[0].errors if report.tasks else []:
        if err.type in LABEL_ERRORS:
            continue  # the header is checked above, in the project's words
        grouped.setdefault((getattr(err, "row_number", None) or 1, err.type), []).append(err)
    out = []
    for (line, code), errs in sorted(grouped.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        err = errs[0]
        if code not in FRICTIONLESS_WORDS:
            out.append(f"{path}: line {line}: {err.message}")
            continue
        other = err.note.rsplit('"', 2)[-2] if code == "duplicate-row" and '"' in err.note else "?"
        words = FRICTIONLESS_WORDS[code].format(n=len(header), other=other)
        cols = ", ".join(repr(e.field_name) for e in errs if getattr(e, "field_name", ""))
        if code == "extra-cell":
            cells = ", ".join(repr(e.cell) for e in errs)
            out.append(f"{path}: line {line}: {'cell' if len(errs) == 1 else 'cells'} {cells}: {words}")
        elif code == "missing-cell":
            out.append(f"{path}: line {line}: {'column' if len(errs) == 1 else 'columns'} {cols} {words}")
        else:
            out.append(f"{path}: line {line}: {words}")
    return out


def file_problems(path: Path, required: list[str], optional: list[str] = ()) -> list[str]:
    """Structural problems of one CSV file (module docstring); [] when sound."""
    import csv
    import io

    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        return [f"{path}: cannot be read ({exc.strerror})"]
    out = _bytes_problems(path, data)
    if out:
        return out
    text = data.decode("utf-8")
    reader, last = csv.reader(io.StringIO(text, newline=""), strict=True), 0
    try:
        for _ in reader:
            last = reader.line_num
    except csv.Error as exc:
        what = (
            "a quoted value that never ends (the file is cut short, or a quote inside a value is not doubled)"
            if "end of data" in str(exc)
            else f'a quote in the wrong place ({exc}): a quote inside a quoted value is written twice ("")'
        )
        return [f"{path}: line {last + 1}: {what}"]
    header = next(csv.reader(io.StringIO(text, newline="")), [])
    out = _header_problems(path, header, list(required), list(optional))
    if out:
        return out
    return _row_problems(path, header)


def problems(raw_dir: Path) -> list[str]:
    """Structural problems of every raw CSV that exists (a missing file is the loaders' business)."""
    raw_dir = Path(raw_dir)
    out = []
    for pattern, (required, optional) in expected().items():
        for path in sorted(raw_dir.glob(pattern)):
            out += file_problems(path, required, optional)
    return out
