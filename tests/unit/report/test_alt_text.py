"""Charts' text alternatives (issue 20, item 6): written from each chart's spec and data, so
they name what is drawn and change when the data change; ``show.figure`` puts the same text on
the HTML chart (aria-label) and in the static SVG (<title>, the PDF Figure's /Alt)."""

import re

import altair as alt
import pandas as pd

from vdi_report.report import alt_text, charts, show

VENDORS = pd.DataFrame(
    {"vendor": ["NetApp", "Hitachi", "AccelStor"], "phase": ["boot", "login", "boot"], "iops": [12.5, 1500.0, 3.2]}
)


def _bars(df):
    return (
        alt.Chart(df)
        .mark_bar()
        .encode(x=alt.X("iops:Q", title="IOPS per desktop"), y=alt.Y("phase:N", title=None), color="vendor:N")
    )


def test_a_bar_chart_is_described_by_its_data():
    text = alt_text.describe(_bars(VENDORS).to_dict())
    assert text.startswith("Bar chart: x: IOPS per desktop, data from 3.2 to 1,500; y: boot, login;")
    assert "colour: vendor (NetApp, Hitachi, AccelStor)" in text
    assert "3 bars" in text


def test_the_text_changes_with_the_data():
    fewer = VENDORS[VENDORS.vendor != "Hitachi"]
    before, after = alt_text.describe(_bars(VENDORS).to_dict()), alt_text.describe(_bars(fewer).to_dict())
    assert before != after
    assert "Hitachi" not in after and "2 bars" in after and "data from 3.2 to 12.5" in after


def test_layers_facets_reference_lines_and_labels_are_named():
    base = alt.Chart(VENDORS)
    points = base.mark_point().encode(x="iops:Q", y="phase:N", shape="vendor:N")
    rule = alt.Chart(pd.DataFrame({"r": [100]})).mark_rule().encode(x="r:Q")
    label = alt.Chart(pd.DataFrame({"r": [100], "t": ["scenario"]})).mark_text().encode(x="r:Q", text="t:N")
    text = alt_text.describe(alt.layer(points, rule, label).to_dict())
    assert text.startswith("Dot plot:")
    assert "a vertical reference line at x = 100" in text and "labelled “scenario”" in text
    assert "3 points" in text and "shape: vendor" in text
    faceted = points.facet(column="vendor:N").to_dict()
    assert "in 3 panels by vendor (NetApp, Hitachi, AccelStor)" in alt_text.describe(faceted)


def test_many_categories_are_cut_and_missing_values_ignored():
    df = pd.DataFrame({"c": [f"k{i}" for i in range(12)], "v": [float("nan")] + list(range(1, 12))})
    text = alt_text.describe(alt.Chart(df).mark_point().encode(x="v:Q", y="c:N").to_dict())
    assert "and 4 more" in text and "data from 1 to 11" in text


def test_show_figure_puts_the_same_text_on_the_html_chart_and_in_the_svg(monkeypatch, tmp_path):
    monkeypatch.setattr(charts, "SVG_CACHE_DIR", tmp_path)
    shown = []
    monkeypatch.setattr(show, "display", lambda obj, raw=False: shown.append(obj))
    monkeypatch.setattr(charts, "display", lambda obj, raw=False: shown.append(obj))
    show.figure(_bars(VENDORS), "IOPS by phase", key="t")
    out = shown[-1]
    label = re.search(r'aria-label="([^"]*)"', out["text/html"]).group(1)
    title = re.search(r"<svg\b[^>]*><title>([^<]*)</title>", out["image/svg+xml"]).group(1)
    assert label == title and label.startswith("Bar chart:")
    assert f'"description": "{alt_text.describe(_bars(VENDORS).to_dict())}"' in out["text/html"]


def test_concatenated_panels_and_open_marks_are_named():
    base = alt.Chart(VENDORS)
    filled = base.mark_point(filled=True).encode(x="iops:Q", y="phase:N")
    open_ = alt.Chart(VENDORS.head(1)).mark_point(filled=False).encode(x="iops:Q", y="phase:N")
    spec = alt.hconcat(
        alt.layer(filled, open_).properties(title="peak"), alt.layer(filled).properties(title="average")
    ).to_dict()
    text = alt_text.describe(spec)
    assert text.startswith("Dot plot in 2 panels (peak, average):")
    assert "7 points (1 open)" in text
