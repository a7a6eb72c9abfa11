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
import json
from pathlib import Path

from .. import config

VERDICTS_JS = Path(__file__).resolve().parents[1] / "static" / "verdicts.js"
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
    FileNotFoundError when ``verdicts.js`` is missing."""
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
    return f"""<div class="vdi-calculator vdi-screen-only" id="verdict-calculator">
<p>Per-array answers for the scenario above: verdict per phase, arrays needed by the binding constraint and,
with your quote per array (no document states a price), $ per desktop = arrays × price ÷ desktops.</p>
<form id="calc-prices" onsubmit="return false;">{"".join(fields)}</form>
<table id="calc-verdicts"><thead><tr>{heads}</tr></thead><tbody></tbody></table>
<script>{js}</script>
<script>
(function () {{
  var COLUMNS = {json.dumps(list(COLUMNS))};
  var inputs = JSON.parse(document.getElementById("vdi-sizing-inputs").textContent);
  var form = document.getElementById("calc-form"), priceForm = document.getElementById("calc-prices");
  // an arrays count or $ per desktop that is not exact reads "at most" (verdicts.KINDS)
  var STATUS = {{ at_limit: "at a limit", not_stressed: "no: a lower bound", unknown: "not reported: a lower bound" }};
  function cell(c, v, r) {{
    if (v === null || v === undefined || (typeof v === "number" && isNaN(v))) return "–";
    if (c === "capability_status") return STATUS[v] || v;
    if (typeof v === "string") return v.replace(/_/g, " ").replace(/&/g, "&amp;").replace(/</g, "&lt;");
    var pre = (c === "usd_per_desktop" || c === "arrays_needed_binding") && r.arrays_needed_kind &&
      r.arrays_needed_kind !== "exact" ? "at most " : "";
    if (c === "usd_per_desktop") return pre + "$" + (v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(2));
    // GB per desktop and a write penalty as the report prints them (tables.fmt_number)
    if (c === "capacity_gb_per_desktop" || c === "protection_write_penalty") {{
      if (Math.abs(v) >= 100) return Math.round(v).toLocaleString("en-US");
      if (Math.abs(v) >= 10) return String(Number(v.toFixed(1)));
      return String(Number(v.toPrecision(3)));
    }}
    return pre + Math.round(v).toLocaleString("en-US");
  }}
  function update() {{
    var prices = {{}};
    if (!window.VdiCalcScenario) {{ return; }}  // the sizing calculator's script defines it
    Array.prototype.forEach.call(priceForm.querySelectorAll(".calc-price"), function (el) {{
      if (el.value !== "" && Number(el.value) > 0) {{ prices[el.dataset.key] = Number(el.value); }}
    }});
    var body = document.querySelector("#calc-verdicts tbody");
    try {{
      // the sizing calculator's scenario (report/calculator.py: era, windows, your per-phase figures)
      var cur = window.VdiCalcScenario(), params = cur.params;
      var p = VdiSizing.validate(params, inputs);
      var ct = document.getElementById("calc-clone_type");
      p.clone_type = ct ? ct.value : params.clone_type;
      var lt = document.getElementById("calc-latency_target_ms");
      p.latency_target_ms = lt && lt.value !== "" ? Number(lt.value) : params.latency_target_ms;
      var cond = p.failover === "controller" ? "failover" : "normal";
      // the sizing rows carry the same clone type's capacity per desktop as the per-array rows
      var withClone = Object.assign({{}}, params, {{ clone_type: p.clone_type }});
      var sized = VdiSizing.size(withClone, inputs, cur.profile, "calculator");
      var rows = VdiVerdicts.verdicts(sized, inputs, p, prices)
        .filter(function (r) {{ return r.condition === cond; }});
      body.innerHTML = rows.map(function (r) {{
        var key = r.source_id + (r.configuration ? ":" + r.configuration : "");
        return "<tr data-key=\\"" + key + "\\" data-phase=\\"" + r.phase + "\\">" +
          COLUMNS.map(function (c) {{
            var v = r[c], raw = (v === null || v === undefined || typeof v === "string") ? (v || "") : v;
            var val = String(raw).replace(/"/g, "&quot;");
            return "<td data-col=\\"" + c + "\\" data-value=\\"" + val + "\\">" + cell(c, v, r) + "</td>";
          }}).join("") + "</tr>";
      }}).join("");
    }} catch (e) {{ body.innerHTML = ""; }}
  }}
  function changed() {{ update(); if (window.VdiCalcToAddress) {{ window.VdiCalcToAddress(); }} }}
  form.addEventListener("input", update); form.addEventListener("change", update);
  form.addEventListener("vdi-scenario", update);
  priceForm.addEventListener("input", changed);
  priceForm.addEventListener("change", changed);
  // a shared link (#scenario?...) also carries the clone type and the prices (calculator.py)
  if (window.VdiCalcFromAddress) {{ window.VdiCalcFromAddress(priceForm); }}
  update();
}})();
</script>
</div>"""
