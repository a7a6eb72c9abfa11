"""The rendered report: numbers from the processed data, charts as vector text, HTML offline."""

import re

import pandas as pd
import pytest
from pypdf import PdfReader

from vdi_report import tables


@pytest.fixture(scope="module")
def pdf_text(report_pdf):
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(report_pdf).pages))


@pytest.fixture(scope="module")
def html(report_html):
    return report_html.read_text(encoding="utf-8")


def test_pdf_shows_numbers_from_the_processed_data(pdf_text, tests_table):
    t = tests_table[(tests_table["source_id"] == "netapp_tr4540") & (tests_table["test_id"] == "boot")].iloc[0]
    per_desktop = tables.fmt_number(float(t["peak_iops_per_desktop"]))  # 117,752 / 1,500
    assert per_desktop == "78.5"
    assert per_desktop in pdf_text
    accs = tests_table[(tests_table["source_id"] == "accelstor_p710") & (tests_table["test_id"] == "provisioning")].iloc[0]
    assert f"{float(accs['average_latency_ms']):.2f} ms" == "0.59 ms"
    assert "0.59 ms" in pdf_text


def test_every_headline_cell_is_in_the_pdf(pdf_text, tests_table):
    table = tables.headline_table(tests_table)
    assert len(table) >= 15
    for col in ["Peak IOPS per desktop", "Average latency", "Duration"]:
        for cell in table[col]:
            if cell != "–":
                assert cell in pdf_text, f"{col} cell {cell!r} not in the PDF"


def test_pdf_has_vector_charts_with_readable_labels(pdf_text):
    for label in ["IOPS per desktop (log scale)", "Latency (ms)", "Boot storm", "Vendor"]:
        assert label in pdf_text


def test_pdf_keeps_bounds_and_vantage(pdf_text):
    assert "< 6 min" in pdf_text  # Dell: boot "less than 6 minutes"
    assert "array front end" in pdf_text and "ESXi host" in pdf_text


def test_html_loads_no_external_script(html):
    assert not re.search(r"<script[^>]+src=", html), "a <script src=...> would need the network"
    assert not re.search(r"""(?:href|src)=["']https?://""", html)
    assert "cdn.jsdelivr" not in html and "require.min.js" not in html


def test_html_charts_are_interactive_and_inline(html):
    assert html.count('vegaEmbed("#vdi-chart-') >= 2
    assert "window.vegaEmbed" in html  # the bundle, inlined once
    assert html.count("window.vegaEmbed") == 1


def test_report_has_a_sources_table_with_all_vendors(pdf_text, sources_df):
    for vendor in sources_df["vendor"]:
        assert vendor in pdf_text
    assert "TR-4540" in pdf_text


def test_report_coverage_appendix_counts(pdf_text, results):
    total = len(results)
    assert f"{total:,}" in pdf_text or str(total) in pdf_text
    assert isinstance(results, pd.DataFrame)


def test_pdf_keeps_the_narrative(pdf_text):
    """Markdown cells (headings, method notes) reach the PDF, not only tables and charts."""
    for heading in ["Sources", "Headline results per desktop", "Test beds: desktops per drive", "Source audit",
                    "Appendix: coverage of the digitized data"]:
        assert heading in pdf_text
