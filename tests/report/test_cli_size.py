"""`vdi-report size` prints the report's own sizing scenario (issue 28): the same bytes as
reports/sizing_scenario.csv for the parameters the report was built with, from the same code."""

import json
import subprocess
import sys

import pytest

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


def test_size_computes_a_scenario_the_report_was_not_built_with(report_html):
    """Any parameters, not only the build's: with DESKTOPS tripled (the others as built) the
    steady state's front end triples (active desktops × average per desktop ÷ (1 − headroom)),
    the per-desktop figures stay, and reports/ is not touched."""
    import io

    import pandas as pd

    published = config.REPORTS_DIR / "sizing_scenario.csv"
    before = published.read_bytes()
    base = pd.read_csv(published).set_index("phase")
    args = [a for a in _report_parameters() if not a.startswith("DESKTOPS=")]
    n = int(base["desktops"].iloc[0]) * 3
    proc = _size(*args, f"DESKTOPS={n}", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    got = pd.read_csv(io.StringIO(proc.stdout)).set_index("phase")
    assert (got["desktops"] == n).all()
    assert got.at["steady_state", "fe_iops"] == pytest.approx(3 * base.at["steady_state", "fe_iops"], rel=1e-6)
    assert got.at["steady_state", "per_desktop"] == pytest.approx(base.at["steady_state", "per_desktop"])
    assert published.read_bytes() == before


def test_size_names_a_bad_parameter():
    proc = _size("DESKTOPS=0", "--format", "csv")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("invalid report parameter DESKTOPS=0:")


@pytest.mark.slow
def test_a_fresh_lab_environment_prints_the_published_scenario(report_html, tmp_path):
    """The pip route (issue 28): the project installed with its lab extra into a fresh
    environment, then that environment's own ``vdi-report size`` prints the same bytes as
    reports/sizing_scenario.csv of the build, and ``make VDI_PYTHON=`` (what ``vdi-report report
    --this-python`` passes) validates the raw inputs with that interpreter, installing only its
    kernel (make refuses an interpreter path with spaces or shell characters:
    tests/unit/test_shell_safety.py). The install goes through uv (``build/tools``, as ``make venv`` does) with the lab
    lock as constraints, so the pins are the project's and the cache of .venv's install serves."""
    uv = config.PROJ_ROOT / "build/tools/bin/uv"
    if not uv.exists():
        pytest.skip("uv is installed in build/tools by `make venv`; this checkout's .venv came another way")
    env = tmp_path / "env"
    subprocess.run([str(uv), "venv", "--quiet", "--python", sys.executable, str(env)], check=True)
    python = env / "bin/python"
    proc = subprocess.run(
        [
            str(uv),
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            "-e",
            f"{config.PROJ_ROOT}[lab]",
            "-c",
            str(config.PROJ_ROOT / "requirements-lab-lock.txt"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    size = subprocess.run(
        [str(env / "bin/vdi-report"), "size", *_report_parameters(), "--format", "csv"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert size.returncode == 0, size.stderr[-2000:]
    assert size.stdout == (config.REPORTS_DIR / "sizing_scenario.csv").read_text(encoding="utf-8")
    lab = subprocess.run([str(python), "-c", "import jupyterlab, papermill"], capture_output=True, text=True)
    assert lab.returncode == 0, lab.stderr
    stamp = config.PROJ_ROOT / "build/python.stamp"
    before = stamp.read_bytes() if stamp.exists() else None
    try:
        check = subprocess.run(
            ["make", "--no-print-directory", "-C", str(config.PROJ_ROOT), "validate", f"VDI_PYTHON={python}"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert check.returncode == 0, check.stdout[-1500:] + check.stderr[-1500:]
        assert stamp.read_text().strip() == str(python)
    finally:  # the project's stamp names the user's own interpreter again (or none)
        stamp.write_bytes(before) if before is not None else stamp.unlink(missing_ok=True)
    assert (env / "share/jupyter/kernels/vdi-report/kernel.json").exists()
