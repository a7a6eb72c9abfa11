"""The HTML calculator's per-array answers: for the calculator's scenario (its form, ``#calc-form``),
the verdict per phase, arrays needed, binding constraint and $ per desktop of each tested
configuration, computed in the page by ``VdiVerdicts.verdicts`` (``static/verdicts.js``, the
JavaScript twin of ``vdi_report.models.verdicts.verdicts``) with the buyer's price per
configuration typed in the page (pre-filled from the cost file's ``array_price_usd`` rows).

Everything is inline; it reads the calculator's embedded ``sizing_inputs.json``. Its named fields
(``clone_type`` and ``array_price_usd:<source_id>[:<configuration>]``, the cost file's parameter
names) are part of the calculator's shared link and CSV (``calculator.py``).
"""

import html

from .. import config
from . import calculator

VERDICTS_JS = config.STATIC_DIR / "verdicts.js"
PAGE_JS = VERDICTS_JS.with_name("verdict_calculator.js")  # the page's script: prices, table
COLUMNS = {
    "array": "Array",
    "phase": "Phase",
    "demonstrated_iops": "Demonstrated IOPS (reported)",
    "verdict": "Verdict",
    "capability_status": "Test at a limit?",
    "arrays_needed": "Arrays (estimate)",
    "arrays_needed_top": "Arrays (interval top)",
    "arrays_needed_ports": "Arrays (ports)",
    "capacity_gb_per_desktop": "GB per desktop (era, clone type)",
    "arrays_needed_capacity": "Arrays (capacity)",
    "arrays_needed_binding": "Arrays needed (binding)",
    "arrays_needed_kind": "Count",
    "usd_per_desktop": "$ per desktop",
    "proxy_arrays_needed": "Proxy arrays (not a test)",
    "protection": "Protection (document)",
    "protection_write_penalty": "Write penalty (classic RAID stated)",
}


def verdicts_html(ctx, prices: dict) -> str:
    """Price inputs (one per tested configuration) and the verdict table; raises
    FileNotFoundError when ``verdicts.js`` or ``verdict_calculator.js`` is missing."""
    seen, fields = set(), []
    for c in ctx.sizing_inputs.get("capability", []):
        key = c["source_id"] + (f":{c['configuration']}" if c["configuration"] else "")
        if key in seen or c["phase"] not in config.SCENARIO_PHASES:
            continue
        seen.add(key)
        v = prices.get(key, prices.get(c["source_id"], ""))
        fields.append(
            f'<label>{html.escape(c["array"])}, USD per array<input type="number" min="0" step="1000" '
            f'class="calc-price" data-key="{html.escape(key)}" name="array_price_usd:{html.escape(key)}" '
            f'id="calc-price-{html.escape(key.replace(":", "-"))}" '
            f'value="{v}" placeholder="your quote"></label>'
        )
    clone = ctx.params.get("clone_type", "linked")
    opts = "".join(
        f'<option value="{c}"{" selected" if c == clone else ""}>{c} clones</option>'
        for c in config.SCENARIO_CLONE_TYPES
    )
    fields.insert(0, f'<label>Clone type<select name="clone_type" id="calc-clone_type">{opts}</select></label>')
    target = ctx.params.get("latency_target_ms", 15.0)
    fields.insert(
        1,
        '<label>Latency target, ms<input type="number" min="0.01" step="0.1" name="latency_target_ms" '
        f'id="calc-latency_target_ms" value="{float(target):g}"></label>',
    )
    heads = "".join(f"<th>{html.escape(h)}</th>" for h in COLUMNS.values())
    js = VERDICTS_JS.read_text(encoding="utf-8")
    page_js = PAGE_JS.read_text(encoding="utf-8")
    page_config = calculator.json_block({"columns": list(COLUMNS)})  # what verdict_calculator.js reads
    return f"""<div class="vdi-calculator vdi-screen-only" id="verdict-calculator">
<p>Per-array answers for the scenario above: verdict per phase, arrays needed by the binding constraint and,
with your quote per array (no document states a price), $ per desktop = arrays × price ÷ desktops.</p>
<form id="calc-prices" onsubmit="return false;">{"".join(fields)}</form>
<table id="calc-verdicts"><thead><tr>{heads}</tr></thead><tbody></tbody></table>
<script>{js}</script>
<script type="application/json" id="vdi-verdict-config">{page_config}</script>
<script>{page_js}</script>
</div>"""
