"""The HTML report's evidence explorer: every digitized number with its provenance, searchable
and filterable offline (DataTables and its Buttons and FixedColumns extensions, bundled in the
PyPI package ``itables``; no CDN).

Made for a 1366 x 768 laptop: the columns shown (``SHOWN``) fit beside the contents sidebar, so
the verbatim quote is visible without scrolling sideways; the header and the record column stay
in place while the rows scroll; the other columns (``DETAILS``) are searched and exported like
the rest and shown in a details row under a record when it is clicked (or Enter on it). The
search matches a number with or without thousands separators (``117752`` finds ``117,752``,
through the hidden ``Numbers`` column). "Download CSV" saves the rows the search and filters
leave, every column but ``Numbers``."""

import json
import re

import pandas as pd

from .. import config
from . import page_head
from .tables import fmt_value

# Widths (px) of the columns shown: 1,020 px in all, the report's column beside the sidebar at 1366 px.
WIDTHS = {
    "Record": 78,
    "Vendor": 82,
    "Phase": 82,
    "Metric": 100,
    "Value as printed": 92,
    "Normalized": 92,
    "Used": 64,
    "Quote": 430,
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
    "Numbers",
]
SHOWN = list(WIDTHS)
DETAILS = [c for c in COLUMNS if c not in SHOWN and c != "Numbers"]
# A number printed with thousands separators: the digits alone are searchable too.
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def searchable_numbers(*texts: str) -> str:
    """The numbers printed with thousands separators in ``texts``, without them (``117,752`` ->
    ``117752``), space-separated: the explorer's hidden ``Numbers`` column."""
    return " ".join(dict.fromkeys(m.replace(",", "") for t in texts for m in _GROUPED.findall(str(t))))


def evidence_table(ctx) -> pd.DataFrame:
    """One row per record of results.csv, columns ``COLUMNS`` (all text).

    Normalized: the value in the normalized unit with its bound (``< 6 min``); Used: ``yes`` or
    ``set aside``; Why not used: the register entry's resolution (empty when used); Numbers: the
    numbers printed with thousands separators in any other column, without them (hidden, searched).
    """
    r = ctx.results
    out = pd.DataFrame(
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
    out["Numbers"] = [searchable_numbers(*row) for row in out.itertuples(index=False)]
    return out


def explorer_html(ev: pd.DataFrame) -> str:
    """The explorer as HTML: an itables DataTable (id ``evidence``) with a global search box, one
    filter box per column shown, search panes for vendor, phase, metric, vantage and use (folded),
    a "Download CSV" button, a fixed header and record column, and details rows (module docstring).

    Needs the DataTables bundle in the page (``render`` inlines ``page_head.explorer_bundle_html()`` once).
    """
    from itables import to_html_datatable

    panes = [COLUMNS.index(c) for c in ("Vendor", "Phase", "Metric", "Vantage", "Used")]
    hidden = [COLUMNS.index(c) for c in (*DETAILS, "Numbers")]
    exported = [i for i, c in enumerate(COLUMNS) if c != "Numbers"]
    csv_button = {
        "extend": "csvHtml5",
        "text": "Download CSV (rows shown by the search and filters)",
        "filename": "vdi-evidence",
        "footer": False,  # the footer holds the column filter boxes, not data
        "title": None,
        "exportOptions": {"columns": exported, "modifier": {"search": "applied", "order": "applied"}},
    }
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
        layout={"top1": "searchPanes", "top2Start": {"buttons": [csv_button]}},
        searchPanes={"columns": panes, "layout": "columns-5", "cascadePanes": True, "initCollapsed": True},
        autoWidth=False,
        allow_html=False,
        scrollX=True,
        scrollY="62vh",
        scrollCollapse=True,
        fixedColumns={"start": 1},
        style={"table-layout": "fixed", "width": f"{sum(WIDTHS.values())}px", "margin": "0"},
        columnDefs=[
            {"targets": hidden, "visible": False},
            *({"targets": COLUMNS.index(c), "width": f"{w}px"} for c, w in WIDTHS.items()),
        ],
        display_logo_when_loading=False,
    )
    # Drop itables' static preview (it links to itables.org) and the help link of its loading
    # message: the report links to nothing outside the page.
    html = re.sub(r'<div id="evidence_fallback">.*?</table></div>', "", html, flags=re.DOTALL)
    html = re.sub(r"\(need <a href=[^>]*>help</a>\?\)", "", html)
    html = html.replace(f'<table id="{TABLE_ID}" hidden="hidden">', f'<table id="{TABLE_ID}">')
    html = re.sub(r"<script>document\.getElementById\([^<]*</script>", "", html)
    details = {c: COLUMNS.index(c) for c in DETAILS}
    from itables import javascript  # its bundle's promise and ready event are named by its version

    script = (
        DETAILS_JS.replace("__DETAILS__", json.dumps(details))
        .replace("__TABLE__", TABLE_ID)
        .replace("_itables_underscore_version", javascript._itables_underscore_version())
        .replace("itables-version-ready", javascript._itables_ready_event())
    )
    # Set up when it comes into view (issue 27): the table's scripts wait as inert text until then.
    html = (html + script).replace('<script type="module">', f'<script type="{DEFERRED_TYPE}">')
    return f'<div class="vdi-explorer vdi-screen-only" id="{EXPLORER_ID}">{html}{START_JS}</div>'


EXPLORER_ID = "evidence-explorer"
DEFERRED_TYPE = page_head.EXPLORER_TYPE  # a script type the browser does not run
# Runs the explorer's deferred scripts (the DataTables bundle in the page's head first, then the
# table's own, as modules, in order) once the explorer is within a
# screen of the view (IntersectionObserver), or at once where the browser has no observer; the
# page is ready sooner (the table's set-up took 0.7 s of the load at 1366 x 768).
START_JS = (
    f'<script data-box="{EXPLORER_ID}" data-deferred="{DEFERRED_TYPE}">'
    + (config.STATIC_DIR / "explorer_start.js").read_text(encoding="utf-8")
    + "</script>"
)


# Details rows: a click (or Enter) on a record shows the columns not shown, under it.
DETAILS_JS = (
    '<script type="module">\n' + (config.STATIC_DIR / "explorer_details.js").read_text(encoding="utf-8") + "</script>"
)
