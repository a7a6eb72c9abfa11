"""The HTML report's evidence explorer: every digitized number with its provenance, searchable
and filterable offline (DataTables, bundled in the PyPI package ``itables``; no CDN)."""

import re

import pandas as pd

from .tables import fmt_value

# Column widths (px) of the explorer: the page scrolls the table sideways rather than squeezing it.
WIDTHS = {
    "Record": 80,
    "Vendor": 90,
    "Test": 110,
    "Phase": 100,
    "Metric": 110,
    "Statistic": 70,
    "Value as printed": 90,
    "Normalized": 100,
    "Vantage": 100,
    "Condition": 70,
    "Locator": 110,
    "Line": 45,
    "Quote": 320,
    "Used": 70,
    "Why not used": 335,
}
TABLE_ID = "evidence"  # fixed, so that two builds give the same bytes (itables draws a random id)
COLUMNS = [
    "Record",
    "Vendor",
    "Test",
    "Phase",
    "Metric",
    "Statistic",
    "Value as printed",
    "Normalized",
    "Vantage",
    "Condition",
    "Locator",
    "Line",
    "Quote",
    "Used",
    "Why not used",
]


def evidence_table(ctx) -> pd.DataFrame:
    """One row per record of results.csv, columns ``COLUMNS`` (all text).

    Normalized: the value in the normalized unit with its bound (``< 6 min``); Used: ``yes`` or
    ``set aside``; Why not used: the register entry's resolution (empty when used).
    """
    r = ctx.results
    return pd.DataFrame(
        {
            "Record": r["record_id"],
            "Vendor": r["vendor"],
            "Test": r["test_id"].str.replace("_", " "),
            "Phase": [ctx.label("phase", p) for p in r["phase"]],
            "Metric": r["metric"].str.replace("_", " "),
            "Statistic": r["statistic"],
            "Value as printed": r["value_text"],
            "Normalized": [
                fmt_value(v, u, b, h) for v, u, b, h in zip(r["value"], r["unit"], r["bound"], r["value_high"])
            ],
            "Vantage": [ctx.label("vantage", v) for v in r["vantage"]],
            "Condition": r["condition"],
            "Locator": r["locator"],
            "Line": r["line"].astype(str),
            "Quote": r["quote"],
            "Used": r["used_in_analysis"].map({True: "yes", False: "set aside"}),
            "Why not used": r["resolution"].fillna(""),
        }
    ).astype(str)


def explorer_html(ev: pd.DataFrame) -> str:
    """The explorer as HTML: an itables DataTable (id ``evidence``) with a global search box,
    one filter box per column and search panes for vendor, phase, metric, vantage and use.

    Needs the DataTables bundle in the page (``render`` inlines ``bundle_html()`` once).
    """
    from itables import to_html_datatable

    panes = [COLUMNS.index(c) for c in ("Vendor", "Phase", "Metric", "Vantage", "Used")]
    html = to_html_datatable(
        ev,
        table_id=TABLE_ID,
        connected=False,
        showIndex=False,
        maxBytes=0,
        pageLength=25,
        lengthMenu=[10, 25, 100, 1000],
        column_filters="footer",
        classes="display compact",
        layout={"top1": "searchPanes"},
        searchPanes={"columns": panes, "layout": "columns-3", "cascadePanes": True, "initCollapsed": False},
        autoWidth=False,
        allow_html=False,
        style={"table-layout": "fixed", "width": f"{sum(WIDTHS.values())}px", "margin": "0"},
        columnDefs=[{"targets": i, "width": f"{WIDTHS[c]}px"} for i, c in enumerate(COLUMNS)],
        display_logo_when_loading=False,
    )
    # Drop itables' static preview (it links to itables.org) and the help link of its loading
    # message: the report links to nothing outside the page.
    html = re.sub(r'<div id="evidence_fallback">.*?</table></div>', "", html, flags=re.DOTALL)
    html = re.sub(r"\(need <a href=[^>]*>help</a>\?\)", "", html)
    html = html.replace(f'<table id="{TABLE_ID}" hidden="hidden">', f'<table id="{TABLE_ID}">')
    html = re.sub(r"<script>document\.getElementById\([^<]*</script>", "", html)
    return f'<div class="vdi-explorer vdi-screen-only" id="evidence-explorer">{html}</div>'


def bundle_html() -> str:
    """DataTables (and its search panes) from the installed itables package, inlined once."""
    from itables import javascript, options

    html = javascript.generate_init_offline_itables_html(options.dt_bundle)
    return re.sub(r"<noscript>.*?</noscript>", "", html, flags=re.DOTALL)  # its logo links to itables.org
