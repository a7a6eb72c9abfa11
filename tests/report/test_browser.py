"""The HTML report in a real browser: headless Chromium from the system's packages, driven by
Playwright (pointed at that browser; nothing is downloaded), with the network off.

Every chart renders (an SVG in each chart element), the evidence explorer filters to the rows
the data say, the sizing calculator shows ``scenario.size``'s numbers, and nothing logs an error
or asks for the network. The tests skip, with the reason, without Chromium or Playwright
(``make check-system`` says how to install them).
"""

import pytest

from vdi_report import config

playwright = pytest.importorskip("playwright.sync_api", reason="PyPI package playwright is not installed")

# browser, page: tests/report/conftest.py


def test_every_chart_renders_as_svg(page):
    n = page.eval_on_selector_all(".vdi-chart", "els => els.length")
    assert n >= 5
    page.wait_for_function("n => document.querySelectorAll('.vdi-chart svg').length >= n", arg=n, timeout=60_000)
    empty = page.eval_on_selector_all(".vdi-chart", "els => els.filter(e => !e.querySelector('svg')).map(e => e.id)")
    assert empty == []


def _info(page) -> str:
    return page.inner_text("#evidence-explorer .dt-info")


def test_explorer_lists_every_digitized_number(page, results):
    assert f"of {len(results):,} entries" in _info(page)


def _expected_rows(words: list[str], params: dict, column: str | None = None) -> int:
    """Rows of the explorer table (built for the report parameters ``params``) matching DataTables'
    smart search: every word, case-insensitive, somewhere in the row (or in ``column``)."""
    from vdi_report.report import explorer
    from vdi_report.report.context import Context

    ev = explorer.evidence_table(Context(params))
    text = (ev[column] if column else ev.agg(" ".join, axis=1)).str.lower()
    return int(sum(all(w.lower() in t for w in words) for t in text))


def test_explorer_search_filters_to_the_expected_rows(page, results, done_when):
    words = [min(results["vendor"].unique()), "latency"]
    expected = _expected_rows(words, {**done_when, "report_date": "", "cost_file": ""})
    assert 0 < expected < len(results)
    search = page.locator("#evidence-explorer .dt-search input")
    search.fill(" ".join(words))
    page.wait_for_function(
        "t => document.querySelector('#evidence-explorer .dt-info').innerText.includes(t)",
        arg="filtered",
        timeout=10_000,
    )
    info = _info(page)
    assert f"of {expected:,} entries" in info, info
    search.fill("")


def test_explorer_column_filter_and_record_lookup(page, results):
    rid = results["record_id"].iloc[0]
    box = page.locator("#evidence-explorer tfoot input:visible").first  # the Record column's filter
    box.fill(rid)
    box.press("Enter")  # itables' column filters listen to key events
    page.wait_for_function("() => document.querySelectorAll('#evidence tbody tr').length === 1", timeout=10_000)
    row = page.inner_text("#evidence tbody tr")
    assert rid in row and results["quote"].iloc[0][:30] in row
    box.fill("")
    box.press("Enter")


def _calculator_cells(page) -> dict:
    cells = page.eval_on_selector_all(
        "#calc-result td",
        "tds => tds.map(td => [td.parentElement.dataset.phase, td.dataset.col, td.dataset.value])",
    )
    return {(p, c): v for p, c, v in cells if c != "phase"}


def _fill_calculator(page, values: dict[str, str]) -> None:
    """Type ``values`` (parameter name -> text) into the calculator's fields ``#calc-<name>``, a
    select or an input."""
    for k, v in values.items():
        el = page.locator(f"#calc-{k}")
        el.select_option(v) if el.evaluate("e => e.tagName") == "SELECT" else el.fill(v)


def _assert_cells_match(got: dict, want, label) -> None:
    assert {p for p, _ in got} == set(want.index)
    for (p, c), v in got.items():
        if v == "" or c not in want.columns:
            continue
        assert float(v) == pytest.approx(float(want.at[p, c]), rel=1e-9, nan_ok=True), (label, p, c)


def test_calculator_shows_the_python_sizing(page):
    scenario = pytest.importorskip("vdi_report.models.scenario")
    if not hasattr(scenario, "size") or page.query_selector("#calc-form") is None:
        pytest.skip("scenario.size / sizing.js not in this build (model stage)")
    import json

    inputs = json.loads((config.PROCESSED_DIR / "sizing_inputs.json").read_text(encoding="utf-8"))
    assert page.query_selector("#calc-worker_class") is None  # the rows are knowledge-worker rows: no selector
    for values in (
        {
            "era": "seed",
            "desktops": "3000",
            "concurrency": "0.8",
            "headroom": "0.3",
            "boot_window_min": "20",
            "login_window_min": "45",
            "raid": "raid5",
            "failover": "controller",
        },
        {
            "era": "modern",
            "desktops": "750",
            "concurrency": "1",
            "headroom": "0",
            "boot_window_min": "45",
            "login_window_min": "30",
            "raid": "none",
            "failover": "none",
        },
    ):
        _fill_calculator(page, values)
        params = scenario.validate(**values)
        want = scenario.size(params, inputs).set_index("phase")
        _assert_cells_match(_calculator_cells(page), want, values)
        for ph in want.index[want["bound"] == "gt"]:  # a lower bound shows its sign, no interval
            for c in ("fe_iops", "be_iops"):
                text = page.locator(f'#calc-result tr[data-phase="{ph}"] td[data-col="{c}"]').inner_text()
                assert text.startswith("≥ "), (values["era"], ph, c, text)
                # rounded down: the printed bound claims no more than the sizing holds
                assert float(text.removeprefix("≥ ").replace(",", "")) <= float(want.at[ph, c]), (ph, c, text)
            high = page.locator(f'#calc-result tr[data-phase="{ph}"] td[data-col="fe_iops_pi90_high"]').inner_text()
            assert high == "–"
        # the per-phase fields show the era's figures to 4 significant digits (the table above sizes them exactly)
        for ph in config.SCENARIO_PHASES:
            shown = page.locator(f"#calc-{ph}-iops_per_desktop").input_value()
            assert float(shown) == float(f"{inputs['eras'][values['era']]['per_desktop'][ph]['estimate']:.4g}")
    # an architect's own figures: edit every per-phase field, the table follows scenario.size with that profile
    mine = {
        "boot": {"iops_per_desktop": 500.0, "read_share": 0.6, "io_size_kb": 24.0},
        "login": {"iops_per_desktop": 30.0, "read_share": 0.4, "io_size_kb": 20.0},
        "steady_state": {"iops_per_desktop": 12.0, "read_share": 0.3, "io_size_kb": 16.0},
    }
    for ph, row in mine.items():
        for c, v in row.items():
            page.locator(f"#calc-{ph}-{c}").fill(str(v))
    want = scenario.size(params, inputs, mine, "calculator").set_index("phase")
    _assert_cells_match(_calculator_cells(page), want, "profile")
    assert float(want.at["steady_state", "fe_iops"]) == pytest.approx(750 * 12.0)
    page.locator("#calc-reset").click()


def test_calculator_rejects_a_bad_value_with_a_message(page):
    if page.query_selector("#calc-form") is None:
        pytest.skip("calculator not in this build (model stage)")
    page.locator("#calc-headroom").fill("1.5")
    page.wait_for_function("() => document.getElementById('calc-error').innerText.length > 0", timeout=5_000)
    assert "headroom" in page.inner_text("#calc-error").lower()
    page.locator("#calc-headroom").fill("0.2")


def test_no_console_errors_and_no_network(page):
    assert page.errors == []
    assert page.requests == []


def test_verdict_calculator_gives_the_python_verdicts_and_costs(page):
    """The calculator's per-array answers (static/verdicts.js) for 10,000 desktops, one controller
    down and typed quotes equal ``verdicts.verdicts`` in Python: verdict, arrays needed, USD per desktop."""
    import json
    import math

    from vdi_report.models import scenario, verdicts

    if page.query_selector("#calc-verdicts") is None:
        pytest.skip("verdict calculator not in this build")
    inputs = json.loads((config.PROCESSED_DIR / "sizing_inputs.json").read_text(encoding="utf-8"))
    values = {
        "era": "seed",
        "desktops": "10000",
        "concurrency": "1",
        "headroom": "0.2",
        "boot_window_min": "30",
        "login_window_min": "30",
        "raid": "none",
        "failover": "controller",
    }
    _fill_calculator(page, values)
    prices = {"netapp_tr4540": 400000.0, "hitachi_g600:config2": 250000.0}
    for el in page.query_selector_all(".calc-price"):
        el.fill(str(int(prices[el.get_attribute("data-key")])) if el.get_attribute("data-key") in prices else "")
    params = scenario.validate(**values)
    size_rows = [
        {k: (None if isinstance(x, float) and math.isnan(x) else x) for k, x in r.items()}
        for r in scenario.size(params, inputs).to_dict("records")
    ]
    want = {
        (r["source_id"] + (f":{r['configuration']}" if r["configuration"] else ""), r["phase"]): r
        for r in verdicts.verdicts(size_rows, inputs, params, prices)
        if r["condition"] == "failover"
    }
    page.wait_for_function("() => document.querySelectorAll('#calc-verdicts tbody tr').length > 0", timeout=10_000)
    cells = page.eval_on_selector_all(
        "#calc-verdicts td",
        "tds => tds.map(td => [td.parentElement.dataset.key, td.parentElement.dataset.phase, td.dataset.col, "
        "td.dataset.value])",
    )
    got = {}
    for key, phase, col, v in cells:
        got.setdefault((key, phase), {})[col] = v
    assert set(got) == set(want)
    for k, cols in got.items():
        for col in (
            "verdict",
            "arrays_needed",
            "arrays_needed_binding",
            "usd_per_desktop",
            "proxy_arrays_needed",
            "capacity_gb_per_desktop",  # the one capacity per desktop (issue 25 item 4)
            "protection",
            "protection_write_penalty",  # a classic penalty only where the document states that RAID
        ):
            w = want[k][col]
            if w is None:
                assert cols[col] == "", (k, col)
            elif isinstance(w, str):
                assert cols[col] == w, (k, col)
            else:
                assert float(cols[col]) == pytest.approx(float(w), rel=1e-9), (k, col)
    assert any(r["usd_per_desktop"] for r in want.values()), "a quote should give a cost (else this checks nothing)"


def test_every_chart_has_its_text_alternative_as_accessible_name(page, report_pdf):
    """Once Vega has drawn them, the charts' accessible names in Chromium's accessibility tree (what
    a screen reader announces) are their text alternatives, the same texts as the PDF Figures' /Alt."""
    from pypdf import PdfReader

    n = page.eval_on_selector_all(".vdi-chart", "els => els.length")
    page.wait_for_function("n => document.querySelectorAll('.vdi-chart svg').length >= n", arg=n, timeout=60_000)
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    names = []
    for chart_id in page.eval_on_selector_all(".vdi-chart", "els => els.map(e => e.id)"):
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f"#{chart_id}"})["nodeId"]
        (ax, *_) = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"]
        assert not ax.get("ignored") and ax["role"]["value"] in ("graphics-document", "img"), (chart_id, ax["role"])
        names.append(ax["name"]["value"])
    cdp.detach()
    alts = []

    def walk(node):
        node = node.get_object()
        if isinstance(node, dict):
            if node.get("/S") == "/Figure":
                alts.append(str(node.get("/Alt", "")))
            kids = node.get("/K")
            for k in kids if isinstance(kids, list) else [] if kids is None else [kids]:
                walk(k)

    walk(PdfReader(report_pdf).trailer["/Root"]["/StructTreeRoot"])
    assert all(names) and names == alts
