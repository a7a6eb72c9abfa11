"""The head's chart and explorer scripts (report/page_head.py): inert under their types until the
page's starters run them, and available to the render without Altair (about 1.5 s of imports)."""

import subprocess
import sys

from vdi_report.report import charts, explorer, page_head


def test_the_scripts_wait_under_the_types_charts_and_explorer_write():
    assert charts.DEFERRED_TYPE == page_head.CHART_TYPE != page_head.EXPLORER_TYPE == explorer.DEFERRED_TYPE
    starter = page_head.chart_starter_html()
    assert starter.startswith(f'<script data-deferred="{page_head.CHART_TYPE}">')
    assert page_head.CHART_STARTER.read_text(encoding="utf-8") in starter
    bundle = page_head.explorer_bundle_html()
    assert "<script>" not in bundle and f'<script type="{page_head.EXPLORER_TYPE}" data-classic="1">' in bundle
    assert "<noscript>" not in bundle and "injectModule(" in bundle  # the bundle, base64-encoded


def test_the_render_writes_the_head_without_importing_altair():
    code = (
        "import sys\n"
        "from vdi_report.publish import render\n"
        "from vdi_report.report import page_head\n"
        "page_head.chart_starter_html(); page_head.explorer_bundle_html()\n"
        "print(sorted(m for m in ('altair', 'vl_convert', 'statsmodels') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
