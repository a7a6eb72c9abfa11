"""What the HTML report's head inlines for its charts and its evidence explorer, and the script
types that keep their scripts inert until then. Imports no third-party package at module level,
so that the render (``publish.render``) need not import Altair or pandas to write the page.

``CHART_TYPE``: a chart's ``vegaEmbed`` call waits under this type (a type the browser does not
run) until ``static/charts_start.js`` draws it: near the view, when the page is idle, or before
printing. ``EXPLORER_TYPE``: the explorer's scripts (the DataTables bundle first, then the
table's own) wait under this type until ``static/explorer_start.js`` runs them, once the
explorer is within a screen of the view.
"""

import re

from .. import config

CHART_TYPE = "text/x-vdi-chart"
EXPLORER_TYPE = "text/x-vdi-deferred"
CHART_STARTER = config.STATIC_DIR / "charts_start.js"


def chart_starter_html() -> str:
    """The ``<script>`` (for the page's head, after the vega bundle) that draws the charts."""
    return f'<script data-deferred="{CHART_TYPE}">\n' + CHART_STARTER.read_text(encoding="utf-8") + "</script>\n"


def explorer_bundle_html() -> str:
    """DataTables (and its search panes) from the installed itables package, inlined once, inert
    (``EXPLORER_TYPE``) until the explorer comes into view."""
    from itables import javascript, options

    html = javascript.generate_init_offline_itables_html(options.dt_bundle)
    html = re.sub(r"<noscript>.*?</noscript>", "", html, flags=re.DOTALL)  # its logo links to itables.org
    # Run with the explorer's own scripts, when it comes into view (explorer_start.js), as a
    # classic script before them: decoding and injecting the bundle took 1.3 s of the page load.
    return html.replace("<script>", f'<script type="{EXPLORER_TYPE}" data-classic="1">')
