"""Two builds of the report with the same parameters (REPORT_DATE included) give byte-identical
PDF and HTML: the report notebook is executed again from scratch with the parameters the built
report recorded, rendered, and compared with reports/vdi_storage_comparison.{html,pdf}."""

import subprocess
import sys

import jupytext
import nbformat
import pytest

from vdi_report import config


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory, report_pdf, report_html):
    built = nbformat.read(config.REPORTS_DIR / "notebooks" / "10_report.ipynb", as_version=4)
    params = built.metadata["papermill"]["parameters"]
    # An empty REPORT_DATE means today's date in both builds (the same unless midnight falls between).
    tmp = tmp_path_factory.mktemp("rebuild")
    src = tmp / "10_report.source.ipynb"  # the notebook as the build executes it (execute.as_notebook)
    jupytext.write(jupytext.read(config.PROJ_ROOT / "notebooks" / "10_report.py"), src)
    out = tmp / "10_report.ipynb"
    args = [
        sys.executable,
        "-m",
        "papermill",
        "--log-level",
        "WARNING",
        "--no-progress-bar",
        "-k",
        "vdi-report",
        str(src),
        str(out),
    ]
    for k, v in params.items():
        args += ["-p", k, str(v)]
    subprocess.run(args, check=True, capture_output=True, cwd=config.PROJ_ROOT)
    subprocess.run(
        [sys.executable, "-m", "vdi_report.publish.render", str(out), str(tmp / "report")],
        check=True,
        capture_output=True,
        cwd=config.PROJ_ROOT,
    )
    return tmp / "report.html", tmp / "report.pdf"


def test_html_is_byte_identical(rebuilt, report_html):
    assert rebuilt[0].read_bytes() == report_html.read_bytes()


def test_pdf_is_byte_identical(rebuilt, report_pdf):
    assert rebuilt[1].read_bytes() == report_pdf.read_bytes()
