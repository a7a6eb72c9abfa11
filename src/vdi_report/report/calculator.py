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
from pathlib import Path

from .. import config, parameters

SIZING_JS = Path(__file__).resolve().parents[1] / "static" / "sizing.js"
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


def calculator_html(ctx) -> str:
    """The calculator: form, result table, ``sizing.js`` and the inputs, all inline.

    Raises FileNotFoundError when ``sizing.js`` or ``sizing_inputs.json`` is missing."""
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
    profile = json.dumps(ctx.profile, sort_keys=True) if ctx.profile else "null"
    gt_sign = json.dumps(config.bound_sign("gt"))  # the vocabulary's sign of a lower bound
    heads = "".join(f"<th>{html.escape(h)}</th>" for h in RESULT_COLUMNS.values())
    labels = {r["value"]: r["label"] for r in ctx.vocabulary["phase"]}
    inputs = json.dumps(ctx.sizing_inputs, sort_keys=True).replace("</", "<\\/")
    js = SIZING_JS.read_text(encoding="utf-8")
    return f"""<div class="vdi-calculator vdi-screen-only" id="sizing-calculator" data-nav-label="Sizing calculator">
<form id="calc-form" onsubmit="return false;">{"".join(fields)}</form>
<p class="vdi-calc-actions"><button type="button" id="calc-share">Copy link to this scenario</button>
<button type="button" id="calc-csv">Download CSV (inputs and results)</button>
<span id="calc-status" role="status"></span></p>
<p class="vdi-calc-error" id="calc-error" role="alert"></p>
<table id="calc-result"><thead><tr>{heads}</tr></thead><tbody></tbody></table>
<script type="application/json" id="vdi-sizing-inputs">{inputs}</script>
<script>{js}</script>
<script>
(function () {{
  var COLUMNS = {json.dumps(list(RESULT_COLUMNS))};
  var ADDRESS_PAUSE_MS = {ADDRESS_PAUSE_MS};
  var PHASES = {json.dumps(labels, sort_keys=True)};
  var inputs = JSON.parse(document.getElementById("vdi-sizing-inputs").textContent);
  var last = [];
  var form = document.getElementById("calc-form");
  function num(x) {{ return Math.round(x).toLocaleString("en-US"); }}
  var LOWER_BOUND = {{fe_iops: 1, be_iops: 1}};  // a lower bound (bound gt) prints with its sign, no interval
  function cell(col, v, r) {{
    if (v === null || v === undefined || (typeof v === "number" && isNaN(v))) return "–";
    if (LOWER_BOUND[col] && r && r.bound === "gt") return {gt_sign} + num(v);
    if (col === "phase") return PHASES[v] || v;
    if (typeof v === "string") return v.replace(/&/g, "&amp;").replace(/</g, "&lt;");
    if (col === "read_share") return (v * 100).toFixed(0) + " %";
    return num(v);
  }}
  var profile = {profile};
  var edited = profile !== null;
  var figs = Array.prototype.slice.call(form.querySelectorAll(".vdi-calc-figure"));
  function fill() {{
    var e = inputs.eras[form.elements["era"].value];
    figs.forEach(function (el) {{
      var ph = el.dataset.phase, c = el.dataset.field, v;
      if (profile !== null && edited) {{ v = profile[ph][c]; }}
      else if (c === "iops_per_desktop") {{ v = e.per_desktop[ph].estimate; }}
      else {{ v = e[c][ph]; }}
      show(el, v);
    }});
  }}
  // A prefilled figure is shown to 4 significant digits but sized with its exact value while the
  // field still shows that text; a figure the user types is sized as typed.
  function show(el, v) {{
    var known = !(v === null || v === undefined);
    el.dataset.exact = known ? String(v) : "";
    el.value = known ? String(Number(Number(v).toPrecision(4))) : "";
    el.dataset.shown = el.value;
  }}
  function exact(el) {{
    var t = el.value.trim();
    return (t !== "" && t === el.dataset.shown && el.dataset.exact !== "") ? el.dataset.exact : t;
  }}
  function mine() {{
    var out = {{}};
    figs.forEach(function (el) {{
      var ph = el.dataset.phase, c = el.dataset.field;
      out[ph] = out[ph] || {{}};
      var t = exact(el);
      if (t === "" && c === "io_size_kb") {{ out[ph][c] = null; return; }}
      var v = Number(t);
      var bad = t === "" || !isFinite(v) || v < 0 || (c === "read_share" && v > 1)
        || (c === "iops_per_desktop" && v <= 0);
      if (bad) {{
        var want = c === "read_share" ? "a fraction in [0, 1]" : "a positive number";
        throw new Error(ph + " " + c + " must be " + want + ", got " + JSON.stringify(t));
      }}
      out[ph][c] = v;
    }});
    return out;
  }}
  function scenario() {{
    var f = new FormData(form), params = {{}};
    inputs.parameters.forEach(function (d) {{  // the declared scenario parameters (parameters.py)
      params[d.name] = d.kind === "choice" ? f.get(d.name) : Number(f.get(d.name));
    }});
    return {{ params: params, profile: edited ? mine() : null }};
  }}
  window.VdiCalcScenario = scenario;  // the per-array answers (verdict_calculator.py) size the same scenario
  function update() {{
    var body = document.querySelector("#calc-result tbody"), err = document.getElementById("calc-error");
    try {{
      var cur = scenario();
      var rows = last = VdiSizing.size(cur.params, inputs, cur.profile, "calculator");
      err.textContent = "";
      body.innerHTML = rows.map(function (r) {{
        return "<tr data-phase=\\"" + r.phase + "\\">" + COLUMNS.map(function (c) {{
          var v = r[c], raw = (v === null || v === undefined || typeof v === "string") ? "" : v;
          return "<td data-col=\\"" + c + "\\" data-value=\\"" + raw + "\\">" + cell(c, v, r) + "</td>";
        }}).join("") + "</tr>";
      }}).join("");
    }} catch (e) {{ err.textContent = e.message; body.innerHTML = ""; last = []; }}
    if (changed) toAddressSoon();
    form.dispatchEvent(new Event("vdi-scenario"));
  }}
  var status = document.getElementById("calc-status");
  function named(f) {{ return f ? Array.prototype.filter.call(f.elements, function (e) {{ return e.name; }}) : []; }}
  function fields() {{  // this form's, then the per-array answers' (clone type, prices), once it is in the page
    return named(form).concat(named(document.getElementById("calc-prices")));
  }}
  function fromAddress(root) {{  // #scenario?desktops=3000&... -> the named fields of root (a form)
    var h = location.hash || "";
    if (h.indexOf("#scenario?") !== 0) return false;
    var q = new URLSearchParams(h.slice("#scenario?".length));
    named(root).forEach(function (e) {{
      if (q.has(e.name) && !e.classList.contains("vdi-calc-figure")) e.value = q.get(e.name);
    }});
    if (root !== form) return true;  // the per-array answers' clone type and prices: as given
    fill();  // the shared era's figures, then the sender's own where they differ from them
    figs.forEach(function (el) {{
      if (!q.has(el.name)) return;
      var t = q.get(el.name).trim();
      if (t === el.dataset.exact || t === el.dataset.shown) return;
      el.value = t;
      edited = true;
    }});
    return true;
  }}
  function toAddress() {{
    var q = new URLSearchParams();
    fields().forEach(function (e) {{ q.set(e.name, e.classList.contains("vdi-calc-figure") ? exact(e) : e.value); }});
    history.replaceState(null, "", "#scenario?" + q.toString());
  }}
  // The address is written when typing pauses (ADDRESS_PAUSE_MS after the last change), not on
  // each key: rewriting it costs more than sizing the scenario.
  var addressTimer = null;
  function toAddressSoon() {{ clearTimeout(addressTimer); addressTimer = setTimeout(toAddress, ADDRESS_PAUSE_MS); }}
  window.VdiCalcFromAddress = fromAddress;
  window.VdiCalcToAddress = function () {{ if (changed) toAddressSoon(); }};
  function csvCell(v) {{
    v = (v === null || v === undefined || (typeof v === "number" && isNaN(v))) ? "" : String(v);
    return /[",\\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
  }}
  function csv() {{
    var lines = ["parameter,value"];
    fields().forEach(function (e) {{
      var v = e.classList.contains("vdi-calc-figure") ? exact(e) : e.value;
      lines.push(csvCell(e.name) + "," + csvCell(v));
    }});
    lines.push("");
    lines.push(COLUMNS.map(csvCell).join(","));
    last.forEach(function (r) {{ lines.push(COLUMNS.map(function (c) {{ return csvCell(r[c]); }}).join(",")); }});
    return lines.join("\\n") + "\\n";
  }}
  document.getElementById("calc-share").addEventListener("click", function () {{
    toAddress();
    var done = function () {{ status.textContent = "Link copied: " + location.href; }};
    if (navigator.clipboard && window.isSecureContext) {{
      navigator.clipboard.writeText(location.href).then(done, function () {{ status.textContent = location.href; }});
    }} else {{ status.textContent = "Link to this scenario: " + location.href; }}
  }});
  document.getElementById("calc-csv").addEventListener("click", function () {{
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([csv()], {{ type: "text/csv" }}));
    a.download = "vdi-sizing-scenario.csv";
    document.body.appendChild(a); a.click(); a.remove();
  }});
  fill();
  var shared = fromAddress(form), changed = false;
  update();
  changed = true;  // from now on each change is written into the address
  form.addEventListener("input", function (ev) {{
    if (ev.target.classList && ev.target.classList.contains("vdi-calc-figure")) {{ edited = true; }}
    update();
  }});
  form.addEventListener("change", function (ev) {{
    if (ev.target.name === "era") {{ edited = false; profile = null; fill(); }}
    update();
  }});
  document.getElementById("calc-reset").addEventListener("click", function () {{
    edited = false; profile = null; fill(); update();
  }});
  if (shared) {{ document.getElementById("sizing-calculator").scrollIntoView(); }}
}})();
</script>
</div>"""
