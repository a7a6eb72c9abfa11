"""The render's command line and the build's speed measures: the HTML and PDF render in the report
notebook's stage (Chromium prints while the HTML is made), chart SVGs come from a cache keyed by the Vega-Lite
spec, and a missing notebook, a missing Chromium or one that cannot print get a one-line error."""

import os

import altair as alt
import pandas as pd
import pytest

from vdi_report import stages
from vdi_report.publish import render, system
from vdi_report.report import charts


def test_the_report_stage_renders_both_formats_in_its_own_process():
    """The report notebook's stage renders it (execute --render): one process runs the notebook,
    then makes the HTML while Chromium prints the PDF; no second stage reads the notebook again."""
    rules = stages.make_rules()
    step = stages.stage("report")
    staged = "$(STAGED)/vdi_storage_comparison"  # published into reports/ with the rest (stage publish)
    assert step.render == staged
    assert {f"{staged}.html", f"{staged}.pdf", "$(STAGED)/notebooks/10_report.ipynb"} <= set(step.outputs)
    assert f"{stages.RENDER} {staged} notebooks/10_report.py" in rules
    assert "-m vdi_report.publish.render" not in rules  # no separate render step
    assert "$(SYSTEM_STAMP)" in step.inputs and "$(wildcard templates/vdi_report/*)" in step.inputs
    deps = {str(p.relative_to(stages.config.PROJ_ROOT)) for p in stages.code_dependencies(step)}
    assert {"src/vdi_report/publish/render.py", "src/vdi_report/publish/pdf.py"} <= deps
    assert not any(s.render for s in stages.STAGES if s.name != "report")
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


def _notebook(tmp_path):
    """A one-cell executed notebook whose print version has a heading and a paragraph."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/markdown": "# Small\n\nText."})]
    nb.cells = [cell]
    path = tmp_path / "small.ipynb"
    nbformat.write(nb, path)
    return path


def test_render_cli_says_what_to_install_without_chromium(tmp_path, capsys, monkeypatch):
    """No Chromium: the PDF is refused with the install command, exit 1, nothing written."""
    monkeypatch.setattr(system, "chromium_path", lambda: None)
    assert render.main(["--pdf", str(_notebook(tmp_path)), str(tmp_path / "report")]) == 1
    err = capsys.readouterr().err
    assert "apt-get install -y chromium" in err and "VDI_CHROMIUM" in err
    assert not (tmp_path / "report.pdf").exists()
    assert system.check_system() == 1 and render.main(["--check-system"]) == 1


def test_the_system_check_imports_only_the_standard_library():
    """The build checks Chromium first thing in a clean build, beside the parameters' check:
    ``python -m vdi_report.publish.system`` must not import the renderer (nbconvert, bs4)."""
    import subprocess
    import sys

    code = (
        "import runpy, sys; runpy.run_module('vdi_report.publish.system', run_name='not_main'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('nbconvert', 'bs4', 'pandas', 'nbformat')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_render_cli_names_the_browser_that_could_not_print(tmp_path, capsys, monkeypatch):
    """A Chromium that cannot start (VDI_CHROMIUM names another program): exit 1, a one-line
    reason naming it, no PDF written, no traceback."""
    monkeypatch.setenv("VDI_CHROMIUM", "/bin/false")
    assert render.main(["--pdf", str(_notebook(tmp_path)), str(tmp_path / "report")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("render: Chromium (/bin/false) could not print the report") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "VDI_CHROMIUM" in err
    assert not (tmp_path / "report.pdf").exists()


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


def test_the_converter_is_a_process_taken_by_the_first_chart_giving_the_same_svg(tmp_path, monkeypatch):
    """``charts.converting_in_background`` starts no converter until a chart needs one; the first
    chart takes a process of its own (vl-convert holds the GIL, a thread would stop the chapters),
    whose placeholder ``resolve`` replaces by the output of a plain conversion, stored in the SVG
    cache; the process is stopped when the block ends."""
    import multiprocessing

    monkeypatch.setattr(charts, "SVG_CACHE_DIR", tmp_path)
    spec = _chart([3, 1, 2]).to_dict()
    before = set(multiprocessing.active_children())
    with charts.converting_in_background() as pending:
        assert pending._pool is None and set(multiprocessing.active_children()) == before  # nothing to convert yet
        placeholder = pending.add(spec, charts._svg_path(spec), lambda svg: {"image/svg+xml": svg})
        workers = set(multiprocessing.active_children()) - before
        assert len(workers) == 1 and all(w.pid != os.getpid() for w in workers)
        [out] = pending.resolve([{"data": placeholder, "metadata": {}}])
    assert out["data"]["image/svg+xml"] == charts.vlc.vegalite_to_svg(spec) == charts.chart_svg(spec)
    assert len(list(tmp_path.glob("*.svg"))) == 1
    assert pending._pool is None and not any(w.is_alive() for w in workers)


def test_the_converter_started_ahead_is_the_one_the_charts_take():
    """``svg_convert.start`` (the report kernel runs it as it starts, ``execute.RENDER_FIRST``)
    makes the converter the next ``take`` returns; without it ``take`` makes a new one."""
    from vdi_report import execute
    from vdi_report.report import svg_convert

    assert "svg_convert" in execute.RENDER_FIRST and "start()" in execute.RENDER_FIRST
    svg_convert.start()
    started = svg_convert._STARTED[0]
    svg_convert.start()  # a second call: the same one
    taken = svg_convert.take()
    try:
        assert taken is started and svg_convert._STARTED == []
        assert taken.apply_async(svg_convert.to_svg, ({"mark": "point"},)).get(timeout=60).startswith("<svg")
    finally:
        taken.terminate()
    fresh = svg_convert.take()
    fresh.terminate()
    assert fresh is not started


def test_chart_svg_cache_misses_when_the_data_change(tmp_path, monkeypatch):
    monkeypatch.setattr(charts, "SVG_CACHE_DIR", tmp_path)
    a, b = charts.chart_svg(_chart([1, 2, 3]).to_dict()), charts.chart_svg(_chart([1, 2, 4]).to_dict())
    assert a != b
    assert len(list(tmp_path.glob("*.svg"))) == 2


def test_the_vega_bundle_is_a_stage_of_its_own_read_by_the_report():
    """The bundle (2.3 s) is a stage that reads no data (no raw file's stamp: a changed record
    does not make it again), so a clean build makes it beside the first stages after the
    validation, which it waits for like every stage; the report's stage reads its file."""
    rules = stages.make_rules()
    step = stages.stage("vega_bundle")
    assert step.independent and step.outputs == ("build/vega-bundle.js",)
    rule = next(line for line in rules.splitlines() if line.startswith("build/stamps/vega_bundle.done:"))
    assert rule.endswith("| $(PARAMS_CHECKED) $(STAGE_VALIDATE_OUT)")
    assert "build/content/" not in rules.split("STAGE_VEGA_BUNDLE_IN :=")[1].splitlines()[0]
    assert "build/vega-bundle.js" in stages.stage("report").inputs
    report_target = next(line for line in open(stages.config.PROJ_ROOT / "Makefile") if line.startswith("report:"))
    assert report_target.index("$(STAGE_VEGA_BUNDLE_OUT)") < report_target.index("$(REPORT).pdf")


def test_the_vega_bundle_is_read_when_the_installed_vl_convert_made_it(tmp_path, monkeypatch):
    """The file's first line names the vl-convert version: the same version is read as it is, another
    (or a missing file) is built again and written, and the page gets the JavaScript without that line."""
    import vl_convert as vlc

    from vdi_report.publish import bundle

    built = []
    monkeypatch.setattr(bundle, "BUNDLE", tmp_path / "vega-bundle.js")
    monkeypatch.setattr(vlc, "javascript_bundle", lambda: built.append(1) or "const built = 1;")
    assert bundle.vega_bundle() == "const built = 1;" and len(built) == 1  # none: built and written
    assert bundle.BUNDLE.read_text().startswith(bundle.HEADER.format(version=vlc.__version__))
    assert bundle.vega_bundle() == "const built = 1;" and len(built) == 1  # read, not built again
    bundle.BUNDLE.write_text(bundle.HEADER.format(version="0.0.1") + "const old = 1;")
    assert bundle.vega_bundle() == "const built = 1;" and len(built) == 2  # another version: built again
    assert bundle.main([]) == 0 and len(built) == 3
