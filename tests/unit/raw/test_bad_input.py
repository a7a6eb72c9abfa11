"""Bad raw input stops the build with a message naming file, line, column and value; nothing is lost."""

import re
import shutil
import subprocess
import sys

import jupytext
import pandas as pd
import pytest

from vdi_report import config, files
from vdi_report.raw import sources
from vdi_report.raw.sources import RawDataError
from vdi_report.transform import normalize

BOOT_PEAK = {
    "record_id": "NTAP-0001",
    "source_id": "netapp_tr4540",
    "locator": "Table 8",
    "line": 400,
    "quote": "Peak IOPS 117,752",
    "value_text": "117,752",
    "value": "117752",
    "value_high": "",
    "unit": "IOPS",
    "bound": "eq",
    "phase": "boot",
    "metric": "iops",
    "statistic": "peak",
    "vantage": "array_frontend",
    "vantage_note": "storage controller",
    "test_id": "boot",
    "condition": "normal",
    "variant": "",
    "configuration": "",
    "worker_class": "office",
    "desktops": "1500",
    "note": "",
}
# Two records of one line of NetApp's Table 8: the boot storm's peak IOPS and its average latency.
GOOD = [
    BOOT_PEAK,
    {
        **BOOT_PEAK,
        "record_id": "NTAP-0002",
        "quote": "Avg latency 441µs",
        "value_text": "441µs",
        "value": "441",
        "unit": "µs",
        "metric": "latency",
        "statistic": "average",
    },
]


@pytest.fixture()
def raw(tmp_path):
    """A throw-away raw directory: the real sources.csv and metrics.csv plus a small records file."""
    d = tmp_path / "raw"
    (d / "records").mkdir(parents=True)
    shutil.copy(config.RAW_DIR / "sources.csv", d)
    shutil.copy(config.RAW_DIR / "metrics.csv", d)
    return d


def write(raw, rows=None, text=None, data=None):
    p = raw / "records" / "netapp_tr4540.csv"
    if data is not None:
        p.write_bytes(data)
    elif text is not None:
        p.write_text(text, encoding="utf-8")
    else:
        pd.DataFrame(rows).to_csv(p, index=False)
    return p


def mutate(row=0, **changes):
    rows = [dict(r) for r in GOOD]
    rows[row].update(changes)
    return rows


def expect(raw, *fragments):
    with pytest.raises(RawDataError) as exc:
        normalize.normalize_source("netapp_tr4540", raw)
    msg = str(exc.value)
    for f in ("netapp_tr4540.csv",) + fragments:
        assert f in msg, f"{f!r} not in message:\n{msg}"
    return msg


def test_good_fixture_normalizes(raw):
    write(raw, GOOD)
    out = normalize.normalize_source("netapp_tr4540", raw)
    assert list(out["value"]) == [117752.0, 0.441]


@pytest.mark.parametrize(
    "column,value,fragment",
    [
        ("value", "12x", "'value' = '12x'"),  # non-numeric value
        ("unit", "furlongs", "unknown unit"),  # unknown unit
        ("phase", "lunch", "unknown phase"),  # unknown phase
        ("locator", "", "'locator' = ''"),  # missing locator
        ("locator", "page 7", "'locator' = 'page 7'"),  # locator not Table/Figure/Section
        ("statistic", "median", "unknown statistic"),  # unknown statistic
        ("bound", "about", "unknown bound"),  # unknown bound
        ("vantage", "somewhere", "unknown vantage"),  # unknown vantage
        ("metric", "happiness", "unknown metric"),  # metric not in metrics.csv
        ("line", "0", "'line' = '0'"),  # line numbers start at 1
        ("desktops", "-10", "'desktops' = '-10'"),  # negative population
        ("record_id", "NTAP-1", "'record_id' = 'NTAP-1'"),  # malformed key
    ],
)
def test_bad_cell_names_line_column_value(raw, column, value, fragment):
    write(raw, mutate(1, **{column: value}))
    msg = expect(raw, "line 3", fragment)
    # in the project's words, not pandera's check names
    assert not re.search(r"field_uniqueness|greater_than|less_than|str_matches|isin\(|in_range|not_nullable", msg), msg


def test_duplicate_key(raw):
    write(raw, mutate(1, record_id="NTAP-0001"))
    msg = expect(raw, "'record_id' = 'NTAP-0001'", "line 3", "line 2", "duplicate")
    assert "field_uniqueness" not in msg


def test_negative_count(raw):
    write(raw, mutate(0, unit="count", metric="desktops", value="-5", value_text="117,752"))
    expect(raw, "line 2", "a count cannot be negative")


def test_value_not_in_quote(raw):
    write(raw, mutate(0, value_text="117,725"))
    expect(raw, "line 2", "value_text must occur in quote")


def test_range_upside_down(raw):
    write(raw, mutate(0, value_high="100"))
    expect(raw, "line 2", "value_high must not be below value")


def test_unit_that_cannot_express_the_metric(raw):
    write(raw, mutate(1, unit="IOPS"))  # a latency in IOPS
    expect(raw, "line 3", "column 'unit' = 'IOPS'", "cannot express metric 'latency'")


def test_record_of_another_source(raw):
    write(raw, mutate(1, source_id="dell_sc9000"))
    expect(raw, "line 3", "'source_id' = 'dell_sc9000'")


def test_missing_column(raw):
    rows = [{k: v for k, v in r.items() if k != "quote"} for r in GOOD]
    write(raw, rows)
    expect(raw, "quote")


def test_unexpected_column(raw):
    write(raw, [dict(r, colour="blue") for r in GOOD])
    expect(raw, "colour")


def test_all_problems_reported_at_once(raw):
    rows = mutate(0, phase="lunch")
    rows[1]["unit"] = "furlongs"
    write(raw, rows)
    msg = expect(raw, "line 2", "line 3", "unknown phase", "unknown unit")
    assert msg.startswith("2 problem(s)")


def test_empty_file(raw):
    write(raw, data=b"")
    expect(raw, "file is empty")


def test_header_only(raw):
    write(raw, text=",".join(GOOD[0]) + "\n")
    expect(raw, "no rows")


def test_undecodable_bytes(raw):
    p = write(raw, GOOD)
    p.write_bytes(p.read_bytes().replace("µ".encode(), "µ".encode("latin-1")))
    expect(raw, "line 3", "not UTF-8")


def test_unknown_source(raw):
    write(raw, GOOD)
    with pytest.raises(RawDataError, match="unknown source 'nope'.*netapp_tr4540"):
        normalize.normalize_source("nope", raw)


def test_failed_write_keeps_the_previous_file(tmp_path, monkeypatch):
    out = tmp_path / "results.csv"
    files.write_csv(pd.DataFrame({"a": [1]}), out)
    before = out.read_bytes()

    def boom(*a, **k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", boom)
    with pytest.raises(RuntimeError):
        files.write_csv(pd.DataFrame({"a": [2]}), out)
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]  # no temporary file left


def test_papermill_with_unknown_source_fails_and_keeps_outputs(tmp_path):
    """The notebook step itself: non-zero exit, the message, processed data untouched."""
    nb = tmp_path / "01_normalize_source.ipynb"  # the notebook as the build executes it (execute.as_notebook)
    jupytext.write(jupytext.read(config.PROJ_ROOT / "notebooks" / "01_normalize_source.py"), nb)
    processed = sorted(config.NORMALIZED_DIR.glob("*.csv"))
    before = {p: p.read_bytes() for p in processed}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "papermill",
            "-k",
            "vdi-report",
            str(nb),
            str(tmp_path / "out.ipynb"),
            "-p",
            "source_id",
            "nope",
        ],
        check=False,
        capture_output=True,
        text=True,
        cwd=config.PROJ_ROOT,
    )
    assert proc.returncode != 0
    assert "unknown source 'nope'" in proc.stderr + proc.stdout
    assert {p: p.read_bytes() for p in processed} == before


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--desktops", "-5", "--headroom", "0.2"], "desktops must be a positive"),
        (["--desktops", "3000", "--era", "ceo"], "unknown era 'ceo'"),
        (["--desktops", "3000", "--headroom", "1.5"], "headroom must be a fraction"),
    ],
)
def test_report_parameters_checked_before_any_notebook_runs(args, fragment):
    proc = subprocess.run(
        [sys.executable, "-m", "vdi_report.models.scenario", *args], check=False, capture_output=True, text=True
    )
    assert proc.returncode == 2 and fragment in proc.stderr


@pytest.mark.parametrize(
    "changes,fragment",
    [
        ({"value": "81", "value_text": "117,752"}, "column 'value' = 81: value_text '117,752' prints 117752"),
        ({"value": "117753"}, "column 'value' = 117753: value_text '117,752' prints 117752"),
        ({"value": "inf"}, "column 'value' = inf: not a finite number"),
        ({"value": "-inf"}, "not a finite number"),
        ({"value_high": "inf"}, "column 'value_high' = inf: not a finite number"),
        ({"value_high": "120000"}, "value_text '117,752' prints 117752 (1 number(s)), the record has 2"),
    ],
)
def test_value_disagreeing_with_value_text_names_file_line_column_and_both_values(raw, changes, fragment):
    write(raw, mutate(0, **changes))
    expect(raw, "line 2", fragment)


def test_value_81_against_printed_81_002(raw):
    """The issue's own example: value 81 while the document prints 81,002."""
    write(raw, mutate(0, quote="Peak IOPS 81,002", value_text="81,002", value="81"))
    expect(raw, "line 2", "column 'value' = 81", "'81,002' prints 81002")


def test_value_within_printed_precision_is_accepted(raw):
    # 0.441 ms printed as 441µs: value is in the printed unit (441); 441.4 is within half a digit
    write(raw, mutate(1, value="441.4"))
    assert normalize.normalize_source("netapp_tr4540", raw)["value"].iloc[1] == pytest.approx(0.4414)
    write(raw, mutate(1, value="441.6"))
    expect(raw, "line 3", "column 'value' = 441.6: value_text '441µs' prints 441")


def test_a_documented_reading_must_match_the_value(raw):
    rows = mutate(
        1,
        quote="Avg latency 045ms",
        value_text="045ms",
        value="0.45",
        unit="ms",
        note="printed without decimal point; value read as 0.45 ms",
    )
    write(raw, rows)
    normalize.normalize_source("netapp_tr4540", raw)
    write(
        raw,
        mutate(1, quote="Avg latency 045ms", value_text="045ms", value="0.5", unit="ms", note="value read as 0.45 ms"),
    )
    expect(raw, "line 3", "note says 'read as 0.45'")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("81,002", [81002]),
        ("~80 min", [80]),
        ("441µs", [441]),
        ("3.2K", [3.2]),
        ("US$30", [30]),
        ("1,5GB", [1.5]),
        ("Dual", [2]),
        ("at least twice", [2]),
        ("150-175", [150, 175]),
        ("360K IOPS to 700K IOPS", [360, 700]),
        ("between 3 and 4", [3, 4]),
        ("2-node", [2]),
        ("50:1", [50]),
        (".1", [0.1]),
        ("almost 125,000", [125000]),
        ("x20", [20]),
        ("Ready", []),
    ],
)
def test_parse_printed(text, expected):
    assert [n for n, _ in sources.parse_printed(text)] == expected


def test_parse_printed_gives_the_printed_precision():
    assert sources.parse_printed("0.59ms") == [(0.59, pytest.approx(0.005))]
    assert sources.parse_printed("216,000") == [(216000, 0.5)]
