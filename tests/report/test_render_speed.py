"""The build's speed measures keep the report's bytes: the HTML and PDF render as separate
steps, and chart SVGs come from a cache keyed by the Vega-Lite spec."""

from vdi_report import config
from vdi_report.publish import render


def test_html_step_alone_gives_the_built_bytes(tmp_path, report_html):
    """The HTML written by ``render --html`` alone is the report's HTML, and no PDF is written."""
    executed = config.REPORTS_DIR / "notebooks" / "10_report.ipynb"
    assert render.main(["--html", str(executed), str(tmp_path / "report")]) == 0
    assert (tmp_path / "report.html").read_bytes() == report_html.read_bytes()
    assert not (tmp_path / "report.pdf").exists()
