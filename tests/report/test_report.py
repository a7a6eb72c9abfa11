"""The rendered report: page 1 answers from the processed data, navigation, numbering, metadata,
charts as vector text, HTML offline, byte-identical rebuilds."""

import re

import nbformat
import pandas as pd
import pytest

from vdi_report import config
from vdi_report.models import iops
from vdi_report.publish import render
from vdi_report.report import formatting as fmt
from vdi_report.report import tables


@pytest.fixture(scope="module")
def html(report_html):
    return report_html.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def params():
    """The parameters the built report was executed with (papermill records them)."""
    nb = nbformat.read(config.REPORTS_DIR / "notebooks" / "10_report.ipynb", as_version=4)
    return nb.metadata["papermill"]["parameters"]


def test_page_one_answers_with_the_model_planning_figures(pages, params):
    """The first two pages (the answers, before any other chapter) carry the model stage's
    planning table, both eras (every row, with its interval formatted from
    iops_per_desktop_model.csv and the number of documents behind it), and the sentences computed
    from it: the seed and modern whole-test averages and their ratio. The table starts on page 1."""
    from vdi_report.models import era

    # the rows a sizing reads (the table's; Provisioning's own rows are in the Models chapter)
    plan = era.sizing_rows(pd.read_csv(config.PROCESSED_DIR / "iops_per_desktop_model.csv"))
    assert "Answers" in pages[0] and "Planning figures per concurrent desktop" in pages[0]
    first = " ".join(pages[:2])
    flat = re.sub(r"\s+", " ", first.replace("– ", "–"))  # a cell may wrap after the dash
    assert set(plan["era"]) == {"seed", "modern"}
    assert set(plan.loc[plan["era"] == "seed", "phase"]) >= {"boot", "login", "steady_state"}
    for _, r in plan.iterrows():
        # a lower bound with its sign, rounded down (tables.fmt_bound), the other rows to the nearest
        want = fmt.interval(r["estimate"], r["pi90_low"], r["pi90_high"], "gt" if r["bound"] == "gt" else "eq")
        assert want in flat, (r["era"], r["phase"], r["statistic"], want)
        assert f"{int(r['n_documents'])} doc." in flat
    whole = plan[plan["cell"] == "whole-test average"].set_index("era")
    assert f"{whole.at['modern', 'ratio_to_seed']:.1f}× as much" in flat
    assert whole.at["modern", "ratio_to_seed"] == pytest.approx(
        whole.at["modern", "estimate"] / whole.at["seed", "estimate"]
    )


def test_page_one_has_scope_from_sources_and_printed_contents(pages, sources_df):
    first = pages[0]
    seeds = sources_df[sources_df["role"] == "seed"]
    for tool in seeds["load_tool"]:
        assert tool.split(";")[0] in first
    for chapter in ("Answers", "Evidence", "Method", "Models", "Audit", "Appendix"):
        assert re.search(chapter + r" ?\.* ?\d+", first), f"contents line for {chapter}"


def test_page_one_names_the_documents_behind_the_modern_rows(pages, sources_df):
    """The scope names the later documents whose figures the modern rows a sizing reads pool
    (iops_per_desktop_model.csv, era.sizing_rows), and a digitized document outside them as such."""
    from vdi_report.models import era, iops

    plan = era.sizing_rows(pd.read_csv(config.PROCESSED_DIR / "iops_per_desktop_model.csv", keep_default_na=False))
    names = set(plan.loc[plan["era"] == "modern", "documents"].str.split(", ").explode())
    labels = iops.document_labels(sources_df)
    ext = sources_df[sources_df["role"] == "external"]
    first = " ".join(pages[:2])
    assert fmt.num(len(names)) + " later documents of one lab" in first
    for r in ext.itertuples():
        year = f"{r.vendor} {r.document_number} ({str(r.published)[:4]})"
        assert year in first
        if labels[r.source_id] not in names:
            assert f"{year} is digitized and enters no default row" in first


def test_contents_page_numbers_point_at_the_chapters(pages):
    first = pages[0]
    for chapter in ("Evidence", "Method", "Models", "Audit", "Appendix"):
        page_no = int(re.search(chapter + r" ?\.* ?(\d+)", first).group(1))  # a dotted leader or none
        body = re.sub(r"VDI storage comparison · page \d+ of \d+", "", pages[page_no - 1])  # the footer, drawn first
        assert body.lstrip().startswith(chapter), f"{chapter} is not on page {page_no}"


def test_pdf_metadata_and_bookmarks(reader, params):
    meta = reader.metadata
    assert meta.title.startswith("VDI storage") and "Notebook" not in meta.title
    assert "VDI" in meta.subject and "IOPS" in meta.get("/Keywords", "")
    date = params.get("report_date")
    if date:
        assert meta.get("/CreationDate", "").startswith("D:" + date.replace("-", ""))
    top = [o.title for o in reader.outline if not isinstance(o, list)]
    assert top[:7] == ["Answers", "Evidence", "Method", "Models", "Sensitivity", "Audit", "Appendix"]


def test_tables_and_figures_are_numbered_in_order_and_references_resolved(pdf_text, html):
    labels = re.findall(r'<span class="vdi-num">(Table|Figure) (\d+)\. </span>', html)
    nums = [int(n) for k, n in labels if k == "Table"]
    assert nums == list(range(1, len(nums) + 1)) and len(nums) >= 20
    figs = [int(n) for k, n in labels if k == "Figure"]
    assert figs == list(range(1, len(figs) + 1)) and len(figs) >= 5
    for kind, n in labels:  # the PDF has the same numbered captions
        assert f"{kind} {n}. " in pdf_text
    heads = set(re.findall(r"<h[1-3][^>]*>([^<]*)</h[1-3]>", html))
    for a in re.findall(r'<a class="vdi-ref"[^>]*>([^<]*)</a>', html):
        assert re.fullmatch(r"(Table|Figure) \d+", a) or a in heads, f"unresolved reference {a!r}"


def test_pdf_shows_numbers_from_the_processed_data(pdf_text, tests_table):
    t = tests_table[(tests_table["source_id"] == "netapp_tr4540") & (tests_table["test_id"] == "boot")].iloc[0]
    per_desktop = tables.fmt_number(float(t["peak_iops_per_desktop"]))  # 117,752 / 1,500
    assert per_desktop == "78.5"
    assert per_desktop in pdf_text


def test_every_headline_cell_is_in_the_pdf(pdf_text, tests_table, results, sources_df):
    seeds = sources_df.loc[sources_df["role"] == "seed", "source_id"]
    seed_results = results[results["source_id"].isin(seeds)]
    table = tables.headline_table(
        tests_table[tests_table["source_id"].isin(seeds)],
        seed_results,
        iops.headline_iops(seed_results, sources_df=sources_df),
    )
    assert len(table) >= 15
    for col in ["Peak IOPS per desktop", "Average latency", "Duration"]:
        for cell in table[col]:
            if cell != "–":  # (a link's text and the bracket after it are two runs: no space between)
                assert cell in re.sub(r"(?<=[(\[]) | (?=[)\]])", "", pdf_text), f"{col} cell {cell!r} not in the PDF"


def test_pdf_has_vector_charts_with_readable_labels(pdf_text):
    for label in ["IOPS per desktop (log scale)", "Latency (ms)", "Boot storm", "Vendor"]:
        assert label in pdf_text


def test_pdf_keeps_bounds_and_vantage(pdf_text):
    assert "≤ 6 min" in pdf_text  # Dell: boot "less than 6 minutes"
    assert "array front end" in pdf_text and "ESXi host" in pdf_text


def test_colophon_names_inputs_with_their_sha256(html, pdf_text):
    import hashlib

    digest = hashlib.sha256((config.RAW_DIR / "sources.csv").read_bytes()).hexdigest()
    assert digest in html and "data/raw/sources.csv" in pdf_text


def test_html_loads_nothing_from_the_network(html):
    assert not re.search(r"<script[^>]+src=", html), "a <script src=...> would need the network"
    assert not re.search(r"""(?:href|src)=["']?https?://""", html)
    assert "cdn.jsdelivr" not in html and "require.min.js" not in html and "unpkg.com" not in html


def test_html_has_sidebar_explorer_and_inline_bundles(html):
    assert '<nav class="vdi-sidebar"' in html
    for target in re.findall(r'<nav class="vdi-sidebar".*?</nav>', html, re.DOTALL)[0].split('href="#')[1:]:
        assert f'id="{target.split(chr(34))[0]}"' in html
    assert html.count('vegaEmbed("#vdi-chart-') >= 5
    assert html.count("window.vegaEmbed") == 1  # the Vega bundle, inlined once
    assert 'id="evidence"' in html and "injectModule" in html  # DataTables, inlined once


def test_lean_template_without_jupyterlab_css(html):
    assert "jp-Notebook" not in html and "--jp-" not in html


def test_report_has_a_sources_table_with_all_vendors(pdf_text, sources_df):
    for vendor in sources_df["vendor"]:
        assert vendor in pdf_text
    assert "TR-4540" in pdf_text


def test_report_coverage_appendix_counts(pdf_text, results):
    """The appendix's coverage table (not the title block, which also prints the total) gives
    every document's record count and the total."""
    start = pdf_text.rindex("Coverage of the digitized data")
    section = pdf_text[start : pdf_text.index("Colophon", start)]
    cells = set(section.split())  # the table prints counts without separators
    for count in results["vendor"].value_counts():
        assert str(count) in cells
    assert str(len(results)) in cells


@pytest.mark.report  # renders the executed report notebook (make report)
def test_render_is_deterministic(tmp_path):
    """Rendering the same executed notebook twice gives the same HTML and PDF bytes, the built
    report's PDF."""
    nb = nbformat.read(config.REPORTS_DIR / "notebooks" / "10_report.ipynb", as_version=4)
    a, b = render.to_html(nb, for_pdf=True), render.to_html(nb, for_pdf=True)
    assert a == b
    first = render.pdf_bytes(render.print_document(nb))
    assert first == render.pdf_bytes(render.print_document(nb))
    assert first == (config.REPORTS_DIR / "vdi_storage_comparison.pdf").read_bytes()
    assert render.to_html(nb) == render.to_html(nb)


def test_a_lower_bound_demand_prints_with_its_sign_and_no_interval(pdf_text, html):
    """Issue 24 (a bound stays a bound): a phase of the report's scenario sized from a lower bound
    (sizing_scenario.csv bound gt: the modern boot row, an average standing in for the peak) has
    no interval in the CSV and prints as ``≥ N`` in the PDF's tables and the HTML, never as a
    point with "(no interval)"."""
    s = pd.read_csv(config.REPORTS_DIR / "sizing_scenario.csv", keep_default_na=False, na_values=[""])
    low = s[s["bound"] == "gt"]
    if low.empty:
        pytest.skip("no phase of this scenario is sized from a lower bound")
    for r in low.itertuples():
        assert pd.isna(r.fe_iops_pi90_low) and pd.isna(r.fe_iops_pi90_high) and pd.isna(r.be_iops_pi90_high)
        shown = fmt.bounded(r.fe_iops, "gt")  # "≥ 65,301" for 65,301.7: rounded down, never above the bound
        assert shown.startswith("≥ ") and float(shown.removeprefix("≥ ").replace(",", "")) <= r.fe_iops
        assert shown in pdf_text and shown in html
        assert f"{shown.removeprefix('≥ ')} (no interval)" not in pdf_text
