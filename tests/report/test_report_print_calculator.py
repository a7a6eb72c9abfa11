"""The PDF's "Sizing calculator" section (issue 20, layout: it was a stub followed by a half-empty
page): it prints the calculator's starting scenario, the report's own parameters and per-phase
figures from data/processed/sizing_inputs.json, and points to the HTML and the scenario table."""

import json
import re

from vdi_report import config
from vdi_report.report import formatting as fmt


def _stamp() -> dict:
    text = (config.PROJ_ROOT / "build" / "params.stamp").read_text()
    return dict(kv.split("=", 1) for kv in text.split())


def _section(pdf_text: str) -> str:
    start = pdf_text.index("Sizing calculator The HTML report has a sizing calculator")
    end = pdf_text.index("Sensitivity", start)
    return pdf_text[start:end]


def test_the_print_calculator_shows_the_starting_scenario(pdf_text):
    sec = _section(pdf_text)
    p = _stamp()
    assert f"{fmt.num(float(p['desktops']))} desktops" in sec
    assert f"boot window {fmt.num(float(p['boot_window_min']))} min" in sec
    assert f"login window {fmt.num(float(p['login_window_min']))} min" in sec
    assert f"RAID {p['raid']}" in sec and f"failover {p['failover']}" in sec
    assert re.search(r"whose results are Table \d+", sec)


def test_the_print_calculator_prints_the_eras_per_phase_figures(pdf_text):
    sec = _section(pdf_text)
    p = _stamp()
    if p["profile_file"]:  # the architect's own figures: another test's business
        return
    era = json.loads((config.PROCESSED_DIR / "sizing_inputs.json").read_text())["eras"][p["era"]]
    for phase, row in era["per_desktop"].items():
        assert fmt.num(row["estimate"]) in sec, phase
    assert "Boot storm" in sec and "Steady state" in sec and "Read share" in sec


def test_the_print_calculator_is_not_followed_by_a_near_empty_page(pages):
    """The section ends its chapter on the page it starts on, or fills the next one."""
    starts = [i for i, t in enumerate(pages) if "Sizing calculator The HTML report has a sizing calculator" in t]
    assert len(starts) == 1
    i = starts[0]
    assert "Sensitivity" in pages[i + 1][:200] or len(pages[i + 1]) > 1500
