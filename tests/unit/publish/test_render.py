"""The build's speed measures keep the report's bytes: the HTML and PDF render as separate
steps, and chart SVGs come from a cache keyed by the Vega-Lite spec."""

import altair as alt
import pandas as pd
import pytest

from vdi_report import stages
from vdi_report.publish import render
from vdi_report.report import charts


def test_render_steps_are_separate_make_targets():
    rules = stages.make_rules()
    html, pdf = stages.stage("render_html"), stages.stage("render_pdf")
    assert html.outputs == ("$(REPORT).html",) and pdf.outputs == ("$(REPORT).pdf",)
    assert "render --html " in rules and "render --pdf " in rules
    # the HTML step does not wait for the PDF's system check, and neither step for the other
    assert "$(SYSTEM_STAMP)" not in html.inputs and "$(REPORT).pdf" not in html.inputs
    assert "$(REPORT).html" not in pdf.inputs


def test_render_rejects_an_unknown_format(tmp_path):
    with pytest.raises(ValueError, match="unknown format"):
        render.render(tmp_path / "missing.ipynb", tmp_path / "report", ("docx",))


def test_render_cli_names_a_missing_notebook(tmp_path, capsys):
    assert render.main(["--html", str(tmp_path / "missing.ipynb"), str(tmp_path / "report")]) == 1
    assert "missing.ipynb" in capsys.readouterr().err


def _chart(values):
    return alt.Chart(pd.DataFrame({"x": values, "y": [1, 2, 3]})).mark_point().encode(x="x:Q", y="y:Q")


def test_chart_svg_cache_returns_vl_convert_bytes_and_skips_the_conversion(tmp_path, monkeypatch):
    monkeypatch.setattr(charts, "SVG_CACHE_DIR", tmp_path)
    spec = _chart([1, 2, 3]).to_dict()
    fresh = charts.vlc.vegalite_to_svg(spec)
    assert charts.chart_svg(spec) == fresh  # first call converts and stores
    assert len(list(tmp_path.glob("*.svg"))) == 1

    def fail(_spec):
        raise AssertionError("converted again although the spec is cached")

    monkeypatch.setattr(charts.vlc, "vegalite_to_svg", fail)
    assert charts.chart_svg(spec) == fresh  # second call reads the cache


def test_chart_svg_cache_misses_when_the_data_change(tmp_path, monkeypatch):
    monkeypatch.setattr(charts, "SVG_CACHE_DIR", tmp_path)
    a, b = charts.chart_svg(_chart([1, 2, 3]).to_dict()), charts.chart_svg(_chart([1, 2, 4]).to_dict())
    assert a != b
    assert len(list(tmp_path.glob("*.svg"))) == 2
