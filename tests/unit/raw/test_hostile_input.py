"""The project's own hostile-input suite (issue 28): every raw CSV, in each form a user can
produce by mistake, is either accepted (and reads the same) or refused by ``make validate`` with
the file, the line, the column and the value, and nothing else blamed (no cascade of content
errors). Each kind of damage is applied to every raw file in turn; the structural ones are
found by ``raw.structure`` (frictionless), before any content rule runs.

Kinds and what each gets:

========================= ==========================================================
encoding: byte-order mark  refused, line 1, "byte-order mark"
encoding: Latin-1 bytes    refused, the line and byte, "not UTF-8"
encoding: CRLF endings     accepted (four seed records files have them; read as LF)
empty file                 refused, "the file is empty"
truncated (cut mid-row)    refused, the last line: the missing columns, or a quote that never ends
duplicate row              refused, both lines ("the same row as line N")
duplicate header name      refused, line 1, the column, "named twice"
misspelled header          refused, line 1, the name, "did you mean" the expected one
extra cell (stray comma)   refused, the line and the cell
blank row                  refused, the line
========================= ==========================================================

Content damage (a duplicate key, a non-finite or absurd value, provenance pointing nowhere)
is the loaders' business, tested in test_bad_input.py, test_raw_data.py and
tests/report/test_build_safety.py; the cases at the end here run the whole validation on a copy
of data/raw to show the two layers together.
"""

import shutil
from pathlib import Path

import pytest

from vdi_report import config
from vdi_report.raw import structure, validate


def _raw_files() -> list[Path]:
    out = []
    for pattern in structure.expected():
        out += sorted(config.RAW_DIR.glob(pattern))
    return out


RAW_FILES = _raw_files()
IDS = [str(p.relative_to(config.RAW_DIR)) for p in RAW_FILES]


def _spec(path: Path) -> tuple[list[str], list[str]]:
    rel = path.relative_to(config.RAW_DIR)
    for pattern, spec in structure.expected().items():
        if rel.match(pattern):
            return spec
    raise AssertionError(rel)


def _lines(data: bytes) -> list[bytes]:
    return data.replace(b"\r\n", b"\n").split(b"\n")


def _data_line(data: bytes) -> int:
    """The (1-based) number of the first data line that is a whole, single-line CSV row."""
    import csv
    import io

    text = data.decode("utf-8").replace("\r\n", "\n")
    rows = list(csv.reader(io.StringIO(text)))
    lines = text.split("\n")
    n = len(rows[0])
    for i, line in enumerate(lines[1:], start=2):
        row = next(csv.reader([line]), [])
        if len(row) == n and line.count('"') % 2 == 0:
            return i
    raise AssertionError("no single-line row")


def _bom(data):
    return b"\xef\xbb\xbf" + data, 1, "byte-order mark"


def _latin1(data):
    n = _data_line(data)
    lines = _lines(data)
    lines[n - 1] = lines[n - 1] + b",caf\xe9"[1:]  # "caf\xe9" without the comma: a bare Latin-1 byte
    return b"\n".join(lines), n, "not UTF-8"


def _empty(data):
    return b"", 1, "the file is empty"


def _truncated(data):
    """The file cut in its last row: a missing cell, or a quoted value that never ends."""
    lines = [ln for ln in _lines(data) if ln]
    last = len(lines)
    cut = lines[-1][: len(lines[-1]) * 2 // 3]
    while cut.count(b'"') % 2 == 0 and cut.count(b",") >= len(lines[0].split(b",")) - 1:
        cut = cut[: cut.rindex(b",")]  # ... into an earlier cell
    words = "never ends" if cut.count(b'"') % 2 else "fewer cells than the header"
    return b"\n".join([*lines[:-1], cut]), last, words


def _duplicate_row(data):
    n = _data_line(data)
    lines = _lines(data)
    lines.insert(n, lines[n - 1])
    return b"\n".join(lines), n + 1, f"the same row as line {n}"


def _duplicate_header(data):
    lines = _lines(data)
    first = lines[0].split(b",")[0]
    cols = lines[0].split(b",")
    cols[1] = first
    lines[0] = b",".join(cols)
    return b"\n".join(lines), 1, "named twice"


def _misspelled_header(data):
    lines = _lines(data)
    cols = lines[0].split(b",")
    name = cols[-1].decode()
    cols[-1] = (name[:-1] + ("x" if name[-1] != "x" else "y")).encode()  # "note" -> "notx"
    lines[0] = b",".join(cols)
    return b"\n".join(lines), 1, f"did you mean '{name}'?"


def _extra_cell(data):
    n = _data_line(data)
    lines = _lines(data)
    lines[n - 1] = lines[n - 1] + b",stray"
    return b"\n".join(lines), n, "a cell beyond the header"


def _blank_row(data):
    n = _data_line(data)
    lines = _lines(data)
    lines.insert(n, b",".join([b""] * len(lines[0].split(b","))))
    return b"\n".join(lines), n + 1, "a blank row"


REFUSED = {
    "byte-order mark": _bom,
    "Latin-1 bytes": _latin1,
    "empty file": _empty,
    "truncated": _truncated,
    "duplicate row": _duplicate_row,
    "duplicate header": _duplicate_header,
    "misspelled header": _misspelled_header,
    "extra cell": _extra_cell,
    "blank row": _blank_row,
}


def test_every_raw_csv_is_covered_and_sound_as_shipped():
    """The suite knows every raw CSV (a new one needs its columns in structure.expected()), and
    the shipped files have no structural problem."""
    shipped = {p for p in config.RAW_DIR.rglob("*.csv")}
    assert shipped == set(RAW_FILES), f"not covered by raw.structure: {shipped - set(RAW_FILES)}"
    assert structure.problems(config.RAW_DIR) == []


@pytest.mark.parametrize("kind", list(REFUSED))
@pytest.mark.parametrize("path", RAW_FILES, ids=IDS)
def test_damaged_file_is_refused_naming_file_line_and_what(tmp_path, path, kind):
    bad, line, words = REFUSED[kind](path.read_bytes())
    copy = tmp_path / path.name
    copy.write_bytes(bad)
    found = structure.file_problems(copy, *_spec(path))
    assert found, f"{kind} in {path.name} was accepted"
    assert all(p.startswith(f"{copy}: line ") for p in found), found
    assert any(p.startswith(f"{copy}: line {line}:") and words in p for p in found), (line, words, found)
    assert len(found) <= 2, f"one damage, one or two problems: {found}"


@pytest.mark.parametrize("path", RAW_FILES, ids=IDS)
def test_crlf_line_endings_are_accepted(tmp_path, path):
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    assert structure.file_problems(copy, *_spec(path)) == []


@pytest.fixture
def raw_copy(tmp_path) -> Path:
    d = tmp_path / "raw"
    shutil.copytree(config.RAW_DIR, d)
    return d


@pytest.mark.parametrize(
    ("rel", "kind"),
    [
        ("sources.csv", "misspelled header"),
        ("records/netapp_tr4540.csv", "truncated"),
        ("claims.csv", "byte-order mark"),
        ("metrics.csv", "Latin-1 bytes"),
        ("test_setup.csv", "extra cell"),
        ("records/nutanix_ra2022_2023.csv", "misspelled header"),
        ("fact_checklist.csv", "duplicate row"),
    ],
)
def test_validate_reports_the_structure_alone(raw_copy, rel, kind):
    """The whole validation of a damaged copy: the one structural problem, not the dozen content
    errors it would cause (a renamed sources.csv column used to give pandera's words for each)."""
    path = raw_copy / rel
    bad, line, words = REFUSED[kind](path.read_bytes())
    path.write_bytes(bad)
    found = validate.problems(raw_copy)
    assert len(found) == 1 and found[0].startswith(f"{path}: line {line}:") and words in found[0], found
