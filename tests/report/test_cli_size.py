"""`vdi-report size` prints the report's own sizing scenario (issue 28): the same bytes as
reports/sizing_scenario.csv for the parameters the report was built with, from the same code."""

import json
import subprocess
import sys

from vdi_report import config, stages


def _size(*args: str) -> subprocess.CompletedProcess:
    """``vdi-report size ARGS`` (the console script's module, this interpreter)."""
    cmd = [sys.executable, "-m", "vdi_report.cli", "size", *args]
    return subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=config.PROJ_ROOT)


def _report_parameters() -> list[str]:
    """The published report's parameters (reports/params.stamp) as VAR=VALUE."""
    stamp = dict(kv.split("=", 1) for kv in (config.REPORTS_DIR / "params.stamp").read_text().split())
    return [f"{p.var}={stamp[p.name]}" for p in stages.PARAMETERS]


def test_size_csv_is_the_published_scenario(report_html):
    proc = _size(*_report_parameters(), "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (config.REPORTS_DIR / "sizing_scenario.csv").read_text(encoding="utf-8")


def test_size_json_and_text_give_the_same_phases(report_html):
    rows = json.loads(_size(*_report_parameters(), "--format", "json").stdout)
    assert [r["phase"] for r in rows] == ["boot", "login", "steady_state"]
    text = _size(*_report_parameters()).stdout
    assert "Boot storm" in text and "Login storm" in text and "Steady state" in text


def test_size_names_a_bad_parameter():
    proc = _size("DESKTOPS=0", "--format", "csv")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("invalid report parameter DESKTOPS=0:")
