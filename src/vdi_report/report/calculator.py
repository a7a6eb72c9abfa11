"""The HTML report's sizing calculator: a form for the scenario parameters (era, editable
per-phase figures prefilled from the era, desktops, concurrency, headroom, boot and login windows,
RAID, failover; no worker class: the planning rows are knowledge-worker rows, so it could not
change the answer) and a result table computed in the page by ``VdiSizing.size``
(``src/vdi_report/static/sizing.js``, the JavaScript twin of ``vdi_report.models.scenario.size``)
from the embedded ``sizing_inputs.json``.

Everything is inlined: the page needs no network and no server.

A scenario can be kept and shared: a change writes the form's fields into the page address once
typing pauses (``ADDRESS_PAUSE_MS``)
(``#scenario?desktops=3000&era=seed...``), which opens the page on that scenario; "Copy link"
copies the address, "Download CSV" saves the inputs (one ``parameter,value`` row per field) and
the result table's unformatted numbers. Both read whatever named fields the two forms have: this
one and the per-array answers' (``verdict_calculator.py``: clone type and the price per
configuration, ``array_price_usd:<source_id>[:<configuration>]`` as in the cost file), which
restores its own fields from the address through ``window.VdiCalcFromAddress`` when it loads.
"""

import html
import json

from .. import config, parameters

SIZING_JS = config.STATIC_DIR / "sizing.js"
CALCULATOR_JS = SIZING_JS.with_name("calculator.js")  # the page's script: form, table, address, CSV
ROWS_JS = SIZING_JS.with_name("table_rows.js")  # writes the calculators' tables (only changed cells)
RESULT_COLUMNS = {  # scenario.size column -> header (the calculator and the PDF table agree)
    "phase": "Phase",
    "desktops_sized": "Desktops sized",
    "fe_iops": "Front-end IOPS (model)",
    "fe_iops_pi90_low": "Front-end IOPS, PI low",
    "fe_iops_pi90_high": "Front-end IOPS, PI high",
    "read_share": "Read share",
    "be_iops": "Back-end IOPS (model)",
    "be_iops_pi90_low": "Back-end IOPS, PI low",
    "be_iops_pi90_high": "Back-end IOPS, PI high",
    "throughput_mbps": "Throughput, MB/s (model)",
    "warning": "Warning",
}
ADDRESS_PAUSE_MS = 150  # the page address follows the form this long after the last change (not each key)
PROFILE_FIELDS = ("iops_per_desktop", "read_share", "io_size_kb")  # scenario.PROFILE_COLUMNS without phase


def _select(name: str, options, value) -> str:
    opts = "".join(
        f'<option value="{html.escape(o)}"{" selected" if o == value else ""}>{html.escape(label)}</option>'
        for o, label in options
    )
    return f'<select name="{name}" id="calc-{name}">{opts}</select>'


def _number_field(p: parameters.Param, value) -> str:
    """An ``<input type="number">`` of a numeric scenario parameter, bounded by its declared range
    (an open lower end of a whole number: the next whole number)."""
    low = p.low if p.low is None or p.closed[0] == "[" or p.kind != parameters.INTEGER else p.low + 1
    bounds = "".join(f' {k}="{v:g}"' for k, v in (("min", low), ("max", p.high)) if v is not None)
    return (
        f'<label>{html.escape(p.label)}<input type="number" name="{p.name}" id="calc-{p.name}"{bounds} '
        f'step="{p.step}" value="{value}"></label>'
    )


def scenario_fields(ctx) -> list[str]:
    """The calculator's scenario fields, one per scenario parameter (``parameters.SCENARIO``):
    the era first (only the eras the sizing inputs have), then the numbers and the other choices
    in declared order, each starting at the report's value (``ctx.params``)."""
    from ..models import scenario

    p = ctx.params
    options = {  # a choice's options with their labels
        "era": [(e, ctx.label("era", e)) for e in config.ERAS if e in ctx.sizing_inputs["eras"]],
        "raid": [(r, f"{r} (write penalty {w})") for r, w in scenario.WRITE_PENALTY.items()],
    }
    ordered = sorted(parameters.SCENARIO, key=lambda d: (d.name != "era", d.kind == parameters.CHOICE))
    return [
        f"<label>{html.escape(d.label)}{_select(d.name, options.get(d.name, [(c, c) for c in d.choices]), p[d.name])}"
        "</label>"
        if d.kind == parameters.CHOICE
        else _number_field(d, p[d.name])
        for d in ordered
    ]


def json_block(obj) -> str:
    """``obj`` as the text of a ``<script type="application/json">`` block (sorted keys; ``</``
    escaped so no string can close the block)."""
    return json.dumps(obj, sort_keys=True, allow_nan=False).replace("</", "<\\/")


def calculator_html(ctx) -> str:
    """The calculator: form, result table, ``sizing.js`` and the inputs, all inline.

    Raises FileNotFoundError when ``sizing.js``, ``calculator.js`` or ``sizing_inputs.json`` is
    missing."""
    from ..models import scenario

    fields = scenario_fields(ctx)
    units = {
        "iops_per_desktop": "IOPS per desktop",
        "read_share": "read share",
        "io_size_kb": "KB per I/O",
    }
    per_phase = "".join(
        f'<fieldset class="vdi-calc-phase"><legend>{html.escape(ctx.label("phase", ph))} '
        f"({html.escape(scenario.PROFILE_UNITS[ph])})</legend>"
        + "".join(
            f'<label>{html.escape(units[c])}<input type="number" step="any" min="0" name="{ph}.{c}" '
            f'id="calc-{ph}-{c}" data-phase="{ph}" data-field="{c}" class="vdi-calc-figure"></label>'
            for c in PROFILE_FIELDS
        )
        + "</fieldset>"
        for ph in config.SCENARIO_PHASES
    )
    fields.append(
        '<div class="vdi-calc-figures"><p>Per-phase figures, prefilled from the era (or your profile); edit '
        "them to size with your own assessment (no interval then). "
        '<button type="button" id="calc-reset">Reset to the era</button></p>' + per_phase + "</div>"
    )
    heads = "".join(f"<th>{html.escape(h)}</th>" for h in RESULT_COLUMNS.values())
    page_config = {  # what calculator.js reads from #vdi-calc-config
        "columns": list(RESULT_COLUMNS),
        "address_pause_ms": ADDRESS_PAUSE_MS,
        "phases": {r["value"]: r["label"] for r in ctx.vocabulary["phase"]},
        "gt_sign": config.bound_sign("gt"),  # the vocabulary's sign of a lower bound
        "profile": ctx.profile or None,  # a profile file's per-phase figures (PROFILE_FILE)
    }
    calc_config = json_block(page_config)
    inputs = json_block(ctx.sizing_inputs)
    js = SIZING_JS.read_text(encoding="utf-8")
    page_js = CALCULATOR_JS.read_text(encoding="utf-8")
    rows_js = ROWS_JS.read_text(encoding="utf-8")
    return f"""<div class="vdi-calculator vdi-screen-only" id="sizing-calculator" data-nav-label="Sizing calculator">
<form id="calc-form" onsubmit="return false;">{"".join(fields)}</form>
<p class="vdi-calc-actions"><button type="button" id="calc-share">Copy link to this scenario</button>
<button type="button" id="calc-csv">Download CSV (inputs and results)</button>
<span id="calc-status" role="status"></span></p>
<p class="vdi-calc-error" id="calc-error" role="alert"></p>
<table id="calc-result"><thead><tr>{heads}</tr></thead><tbody></tbody></table>
<script type="application/json" id="vdi-sizing-inputs">{inputs}</script>
<script type="application/json" id="vdi-calc-config">{calc_config}</script>
<script>{js}</script>
<script>{rows_js}</script>
<script>{page_js}</script>
</div>"""
