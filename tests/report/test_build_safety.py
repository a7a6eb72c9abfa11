"""A build that is safe to run twice: one lock around the whole build, all-or-nothing notebook
stages, and bad input that stops before any stage writes (issue 20).

The builds run in a copy of the built project (code, data/raw, data/processed, reports and build
copied with their times, .venv shared), so only the report stages re-run there and the
project's own outputs are never touched."""

import fcntl
import hashlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest


@pytest.fixture
def built(tmp_path, copy_project) -> Path:
    """A copy of the built project (outputs up to date) sharing the project's .venv."""
    return copy_project(tmp_path, "data", "reports", "build")


def _stamp(root: Path) -> dict[str, str]:
    return dict(kv.split("=", 1) for kv in (root / "build/params.stamp").read_text().split())


def _report_desktops(root: Path) -> set[str]:
    """The desktops parameter the executed report notebook ran with (papermill's record)."""
    import json

    nb = json.loads((root / "reports/notebooks/10_report.ipynb").read_text(encoding="utf-8"))
    return {str(nb["metadata"]["papermill"]["parameters"]["desktops"])}


def _published_desktops(root: Path) -> str:
    """The desktops of the report set in reports/, after checking that its stamp, executed
    notebook, HTML and PDF all say the same (a mixed set fails)."""
    from pypdf import PdfReader

    stamp = dict(kv.split("=", 1) for kv in (root / "reports/params.stamp").read_text().split())
    d = stamp["desktops"]
    assert _report_desktops(root) == {d}, "executed notebook and stamp disagree"
    html = (root / "reports/vdi_storage_comparison.html").read_text(encoding="utf-8")
    assert f"DESKTOPS={d}" in html or f"desktops={d}" in html, "HTML and stamp disagree"
    text = " ".join(p.extract_text() for p in PdfReader(root / "reports/vdi_storage_comparison.pdf").pages)
    assert f"desktops={d}" in " ".join(text.split()), "PDF and stamp disagree"
    import csv

    with open(root / "reports/sizing_scenario.csv", encoding="utf-8", newline="") as fh:
        assert {float(r["desktops"]) for r in csv.DictReader(fh)} == {float(d)}, (
            "sizing_scenario.csv and stamp disagree"
        )
    return d


@pytest.mark.slow
def test_two_builds_at_once_give_the_report_their_stamp_records(built, make_in, make_env):
    """`make report DESKTOPS=2500` and `DESKTOPS=3500` started together: the second waits for
    the first, names it, and the final report, HTML and PDF are the 3,500-desktop one the stamp records."""
    env = make_env(built)
    cmd = ["make", "-o", ".venv/.installed", "report"]
    first = subprocess.Popen(
        [*cmd, "DESKTOPS=2500"], cwd=built, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    time.sleep(1.0)
    second = subprocess.run([*cmd, "DESKTOPS=3500"], cwd=built, env=env, capture_output=True, text=True, check=False)
    out1, _ = first.communicate(timeout=600)
    assert first.returncode == 0, out1[-3000:]
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    assert "another build is running" in second.stderr and "DESKTOPS=2500" in second.stderr
    assert _stamp(built)["desktops"] == "3500"
    assert _report_desktops(built) == {"3500"}
    html = (built / "reports/vdi_storage_comparison.html").read_text(encoding="utf-8")
    assert "DESKTOPS=3500" in html or "desktops=3500" in html
    from pypdf import PdfReader

    text = " ".join(p.extract_text() for p in PdfReader(built / "reports/vdi_storage_comparison.pdf").pages)
    assert "desktops=3500" in " ".join(text.split())
    assert _published_desktops(built) == "3500"
    # the stamp matches: nothing to do for the same parameters
    again = make_in(built, "report", "DESKTOPS=3500")
    assert "report notebook" not in again.stdout


def test_a_second_build_can_refuse_naming_the_first(built, make_in, snapshot):
    """BUILD_LOCK_WAIT=0: while another process holds the build lock, make refuses at once."""
    lock = built / ".build.lock"
    with open(lock, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        fh.seek(0)
        fh.truncate()
        fh.write("pid 4242 since 12:00:00: make report DESKTOPS=9999\n")
        fh.flush()
        before = snapshot(built)
        proc = make_in(built, "report", "DESKTOPS=3000", "BUILD_LOCK_WAIT=0", check=False)
    assert proc.returncode != 0
    assert "another build is running" in proc.stderr and "pid 4242" in proc.stderr and "DESKTOPS=9999" in proc.stderr
    assert snapshot(built) == before


@pytest.mark.slow
def test_a_killed_build_leaves_the_previous_report(built, make_in, start_make, previous_set_or_new_scenario, snapshot):
    """A build killed (SIGKILL, no clean-up) while the report notebook runs leaves the previous
    executed notebook, HTML and PDF; the next build makes a correct new report."""
    before = snapshot(built)
    proc = start_make(built, "DESKTOPS=2700")
    deadline = time.monotonic() + 120
    executing = built / "build" / "executing"
    # the notebook as the stage converted it for papermill: there from the run's start to its end
    while time.monotonic() < deadline and not any(executing.glob("input-10_report.*.ipynb")):
        time.sleep(0.2)
    assert any(executing.glob("input-10_report.*.ipynb")), "the report notebook never started"
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    previous_set_or_new_scenario(built, before, "2700")
    make_in(built, "report", "DESKTOPS=2700")
    assert _stamp(built)["desktops"] == "2700" and _report_desktops(built) == {"2700"}


@pytest.mark.slow
def test_a_build_killed_between_the_html_and_the_pdf_leaves_the_previous_set(
    built, make_in, start_make, previous_set_or_new_scenario, snapshot
):
    """SIGKILL once the new HTML is made but not the PDF: reports/ keeps the whole previous set
    (stamp, notebook, CSVs, HTML, PDF byte-identical); the next build publishes the whole new one."""
    before = snapshot(built)
    old = _published_desktops(built)
    staged_html = built / "build/publish/vdi_storage_comparison.html"
    staged_pdf = built / "build/publish/vdi_storage_comparison.pdf"
    start = time.time()
    proc = start_make(built, "DESKTOPS=2900")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None and staged_html.stat().st_mtime < start:
        time.sleep(0.05)
    made_html, made_pdf = staged_html.stat().st_mtime >= start, staged_pdf.stat().st_mtime >= start
    os.killpg(proc.pid, signal.SIGKILL)
    out = proc.communicate()[0]
    assert made_html and not made_pdf, f"not killed between the HTML and the PDF: {out[-2000:]}"
    assert "desktops=2900" in staged_html.read_text(encoding="utf-8")  # a new HTML was there to publish
    previous_set_or_new_scenario(built, before, "2900")
    assert _published_desktops(built) == old != "2900"
    make_in(built, "report", "DESKTOPS=2900")
    assert _published_desktops(built) == "2900"


def test_cost_file_and_every_parameter_enter_the_stamp(built, tmp_path, make_in):
    cost = tmp_path / "prices.csv"
    shutil.copy(built / "data/raw/cost_assumptions.csv", cost)
    make_in(built, "build/params.stamp", f"COST_FILE={cost}", "DESKTOPS=2600")
    stamp = _stamp(built)
    assert stamp["cost_file_sha256"] == hashlib.sha256(cost.read_bytes()).hexdigest()
    assert stamp["desktops"] == "2600" and stamp["cost_file"] == str(cost)
    from vdi_report import stages

    assert {p.name for p in stages.PARAMETERS} <= set(stamp)


@pytest.mark.parametrize("value", ["2026-13-45", "yesterday", "2026-02-30", "26-11-25"])
def test_a_bad_report_date_stops_before_anything_runs(built, value, make_in, snapshot):
    before = snapshot(built)
    proc = make_in(built, "report", f"REPORT_DATE={value}", check=False)
    assert proc.returncode != 0
    assert f"REPORT_DATE={value}" in proc.stderr and "YYYY-MM-DD" in proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert snapshot(built) == before


def _edit_csv(path: Path, edit) -> None:
    import csv

    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    rows = edit(rows)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def _utilization_250(root: Path) -> tuple[str, str]:
    import csv

    for f in sorted((root / "data/raw/records").glob("*.csv")):
        with open(f, encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        h = rows[0]
        for i, r in enumerate(rows[1:], start=2):
            rec = dict(zip(h, r))
            if (
                rec["metric"] == "storage_cpu_utilization"
                and rec["value_high"] == ""
                and rec["value_text"].count(rec["value"]) == 1
            ):
                new_vt = rec["value_text"].replace(rec["value"], "250")
                r[h.index("quote")] = rec["quote"].replace(rec["value_text"], new_vt)
                r[h.index("value_text")], r[h.index("value")] = new_vt, "250"
                _edit_csv(f, lambda _rows, rows=rows: rows)
                return f"records/{f.name}", f"line {i}"
    raise AssertionError("no utilization record to edit")


def _duplicate_vocabulary(root: Path):
    _edit_csv(root / "data/raw/vocabulary.csv", lambda rows: rows + [rows[1]])
    n = len((root / "data/raw/vocabulary.csv").read_text(encoding="utf-8").splitlines())
    return "vocabulary.csv", f"line {n}"


def _orphan_records(root: Path):
    shutil.copy(root / "data/raw/records/netapp_tr4540.csv", root / "data/raw/records/orphan_vendor.csv")
    return "records/orphan_vendor.csv", "no row in"


def _empty_claims(root: Path):
    (root / "data/raw/claims.csv").write_text("", encoding="utf-8")
    return "claims.csv", "empty"


def _claims_topic(root: Path):
    def edit(rows):
        rows[1][rows[0].index("topic")] = "horoscope"
        return rows

    _edit_csv(root / "data/raw/claims.csv", edit)
    return "claims.csv", "line 2: column 'topic' = 'horoscope'"


def _netapp_typo(root: Path):
    def edit(rows):
        rows[1][rows[0].index("value")] = "1O0"  # letter O
        return rows

    _edit_csv(root / "data/raw/records/netapp_tr4540.csv", edit)
    return "records/netapp_tr4540.csv", "line 2: column 'value' = '1O0'"


def _ragged_row(root: Path):
    path = root / "data/raw/records/dell_sc9000.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[3] = lines[3].rstrip("\n") + ",extra\n"
    path.write_text("".join(lines), encoding="utf-8")
    return "records/dell_sc9000.csv", "line 4"


def _negative_count(root: Path):
    import csv

    path = root / "data/raw/records/accelstor_p710.csv"
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    h = rows[0]
    for i, r in enumerate(rows[1:], start=2):
        if r[h.index("unit")] == "count" and r[h.index("value_high")] == "" and r[h.index("value")].isdigit():
            v = r[h.index("value")]
            r[h.index("value")] = f"-{v}"
            r[h.index("value_text")] = r[h.index("value_text")].replace(v, f"-{v}", 1)
            r[h.index("quote")] = r[h.index("quote")].replace(
                rows[i - 1][h.index("value_text")].replace(f"-{v}", v, 1), r[h.index("value_text")], 1
            )
            _edit_csv(path, lambda _rows: rows)
            return "records/accelstor_p710.csv", f"line {i}"
    raise AssertionError("no count record to edit")


def _misspelled_sources_column(root: Path):
    path = root / "data/raw/sources.csv"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[0] = lines[0].replace("platform", "platfrom")
    path.write_text("\n".join(lines), encoding="utf-8")
    return "sources.csv", "'platfrom': not a column of this file (did you mean 'platform'?)"


def _latin1_records(root: Path):
    path = root / "data/raw/records/netapp_tr4540.csv"
    path.write_bytes(path.read_bytes().decode("utf-8").encode("latin-1", errors="replace"))
    return "records/netapp_tr4540.csv", "is not UTF-8"


BAD_INPUTS = {
    "utilization above 100 %": _utilization_250,
    "duplicated vocabulary entry": _duplicate_vocabulary,
    "records file without a sources.csv row": _orphan_records,
    "empty claims file": _empty_claims,
    "unknown claims topic": _claims_topic,
    "non-numeric value in a NetApp record": _netapp_typo,
    "ragged row": _ragged_row,
    "negative count": _negative_count,
    "misspelled sources.csv column": _misspelled_sources_column,
    "records file saved as Latin-1": _latin1_records,
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_names_file_line_and_leaves_the_outputs(built, case, make_in, snapshot):
    """make report on a bad raw input: stops with file, line and what to do, no traceback, and
    data/processed and reports/ exactly as they were; once the input is fixed, the next build
    re-checks what read it, runs no model or report stage and changes no output."""
    before = snapshot(built)
    raw_before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (built / "data/raw").rglob("*") if p.is_file()}
    where, what = BAD_INPUTS[case](built)
    proc = make_in(built, "report", check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out[-2000:]
    assert where in out and what in out, out[-2000:]
    assert "Traceback" not in out and "data/processed and reports/ are as they were" in out
    others = {f"records/{p.name}" for p in (built / "data/raw/records").glob("*.csv")} - {where}
    assert not [o for o in others if o in proc.stderr], "another file blamed"
    assert snapshot(built) == before
    for p in {p for p in (built / "data/raw").rglob("*") if p.is_file()} - set(raw_before):
        p.unlink()
    for p, (data, mtime) in raw_before.items():
        p.write_bytes(data)
        os.utime(p, ns=(mtime, mtime))
    make_in(built, "report")  # fails the test if the build does
    # Fixed input: the stages that read the file run again (its content stamp saw the bad bytes and
    # then the good ones: make cannot know no build used the bad ones) and write the same tables and
    # the same processed tables; a report that ran again is a whole new set with the same parameters
    # (its executed notebooks, HTML and PDF carry the time they were made).

    def kept(snap):
        return {k: v for k, v in snap.items() if k.startswith("data/processed/")}

    assert _published_desktops(built) == _stamp(built)["desktops"]

    assert kept(snapshot(built)) == kept(before)
