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
    staged = "$(STAGED)/vdi_storage_comparison"  # published into reports/ with the rest (stage publish)
    assert html.outputs == (f"{staged}.html",) and pdf.outputs == (f"{staged}.pdf",)
    assert "render --html " in rules and "render --pdf " in rules
    # the HTML step does not wait for the PDF's system check, and neither step for the other
    assert "$(SYSTEM_STAMP)" not in html.inputs and f"{staged}.pdf" not in html.inputs
    assert f"{staged}.html" not in pdf.inputs
    publish = stages.stage("publish")
    assert {f"{staged}.html", f"{staged}.pdf"} <= set(publish.inputs)
    assert {"$(REPORT).html", "$(REPORT).pdf"} <= {
        o.replace("reports/vdi_storage_comparison", "$(REPORT)") for o in publish.outputs
    }


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


SMALL = """<!DOCTYPE html><html lang="en"><head><title>Small</title><style>
@page { size: A6; @bottom-center { content: "Small · page " counter(page) " of " counter(pages) } }
</style></head><body><h1 id="top">Small</h1><p>See <a href="#t">the table</a>.</p>
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><title>Bar chart: two bars</title>
<rect width="10" height="20"/></svg>
<table id="t"><thead><tr><th>Vendor</th><th>IOPS</th></tr></thead>
<tbody><tr><th scope="row">NetApp</th><td>12</td></tr></tbody></table></body></html>"""


def _struct(node, out):
    node = node.get_object()
    if isinstance(node, dict):
        if "/S" in node:
            out.append(node)
        kids = node.get("/K")
        for k in kids if isinstance(kids, list) else [] if kids is None else [kids]:
            _struct(k, out)
    return out


def test_finisher_completes_weasyprints_pdf_ua_tagging(tmp_path):
    """Footer text becomes a pagination artifact (no marked content outside the structure tree),
    the link's /Contents is its text with the Print flag, TH cells get /Scope (row headers from
    scope="row"), an SVG's <title> is the Figure's /Alt; the bytes do not vary."""
    import io
    import re

    from pypdf import PdfReader

    data = render.pdf_bytes(SMALL, str(tmp_path))
    assert data == render.pdf_bytes(SMALL, str(tmp_path))
    pdf = PdfReader(io.BytesIO(data))
    elements = _struct(pdf.trailer["/Root"]["/StructTreeRoot"], [])
    by_role = {}
    for e in elements:
        by_role.setdefault(str(e["/S"]), []).append(e)
    assert [str(f["/Alt"]) for f in by_role["/Figure"]] == ["Bar chart: two bars"]
    assert sorted(str(th["/A"]["/Scope"]) for th in by_role["/TH"]) == ["/Column", "/Column", "/Row"]
    (link,) = [a.get_object() for a in pdf.pages[0]["/Annots"]]
    assert str(link["/Contents"]) == "the table" and int(link["/F"]) & 4
    stream = pdf.pages[0].get_contents().get_data()
    assert b"/Artifact\n<</Type /Pagination>>\nBDC" in stream
    in_tree = {e.indirect_reference.idnum for e in elements}
    entry = pdf.trailer["/Root"]["/StructTreeRoot"]["/ParentTree"]["/Nums"][1].get_object()
    for mcid in map(int, re.findall(rb"<</MCID (\d+)>>\s*BDC", stream)):
        assert entry[mcid] is not None and entry[mcid].idnum in in_tree, mcid
    assert "Small · page 1 of 1" in pdf.pages[0].extract_text()
