"""The HTML report printed from the browser and used by its links (issue 28): the print version
has no sidebar, uses the page's width and starts each chapter on a new page; every record id in
the report links to the evidence explorer, which then shows that record alone, opened."""

import re

import pytest

from vdi_report import config

playwright = pytest.importorskip("playwright.sync_api", reason="PyPI package playwright is not installed")


# page: the report in a 1400 x 900 window (tests/report/conftest.py)


def test_print_has_no_sidebar_and_a_page_per_chapter(page):
    page.emulate_media(media="print")
    try:
        assert page.eval_on_selector("nav.vdi-sidebar", "e => getComputedStyle(e).display") == "none"
        assert page.eval_on_selector("main", "e => getComputedStyle(e).marginLeft") == "0px"
        breaks = page.eval_on_selector_all("main h1", "els => els.map(e => getComputedStyle(e).breakBefore)")
        assert breaks and set(breaks) == {"page"}
        # the explorer wraps to the page: no column wider than the report, the quote not cut
        widths = page.eval_on_selector_all(
            "#evidence tbody tr:first-child td", "els => els.map(e => e.getBoundingClientRect().right)"
        )
        main_right = page.eval_on_selector("main", "e => e.getBoundingClientRect().right")
        assert widths and max(widths) <= main_right + 1
    finally:
        page.emulate_media(media="screen")


def test_record_ids_link_to_the_explorer_filtered_to_them(page, results):
    html = config.REPORTS_DIR.joinpath("vdi_storage_comparison.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'<a class="vdi-record" href="#record=([A-Z0-9]+-\d{4})"', html))
    assert len(linked) >= 20 and linked <= set(results["record_id"]), linked - set(results["record_id"])
    link = page.query_selector("main a.vdi-record")
    rid = link.inner_text()
    link.click()
    page.wait_for_function(
        "() => document.querySelector('#evidence-explorer .dt-info').innerText.includes('filtered')", timeout=20_000
    )
    assert page.inner_text("#evidence-explorer .dt-info").startswith("Showing 1 to 1 of 1 entry")
    shown = page.eval_on_selector_all("#evidence tbody tr[tabindex] td:first-child", "els => els.map(e => e.innerText)")
    assert shown == [rid]
    assert page.eval_on_selector_all("#evidence tbody tr[aria-expanded=true]", "els => els.length") == 1
    assert page.errors == []


def _tooltips(spec):
    if isinstance(spec, list):
        for x in spec:
            yield from _tooltips(x)
    elif isinstance(spec, dict):
        for k, v in spec.items():
            if k == "tooltip" and isinstance(v, (list, dict)):
                yield from v if isinstance(v, list) else [v]
            else:
                yield from _tooltips(v)


def test_every_chart_tooltip_says_what_each_field_is(report_html):
    """Tooltips show labels with units ("Boot rate (desktops per minute)"), not column names."""
    import json

    from vdi_report.report import charts

    html = report_html.read_text(encoding="utf-8")
    dec, tips = json.JSONDecoder(), []
    for m in re.finditer(r'vegaEmbed\("#[^"]+", ', html):
        spec, _ = dec.raw_decode(html, m.end())
        tips += [t for t in _tooltips(spec) if isinstance(t, dict) and "field" in t]
    assert tips
    untitled = [t["field"] for t in tips if not t.get("title")]
    assert untitled == []
    raw_names = [t["title"] for t in tips if "_" in t["title"]]
    assert raw_names == [], raw_names
    assert {"Boot rate (desktops per minute)", "Phase"} <= {t["title"] for t in tips} | set(
        charts.TOOLTIP_TITLES.values()
    )
