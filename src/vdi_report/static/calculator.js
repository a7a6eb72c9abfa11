// The HTML report's sizing calculator (report/calculator.py writes its form and the two JSON
// blocks it reads: #vdi-sizing-inputs, the model's sizing_inputs.json, and #vdi-calc-config:
// the result columns, the phase labels, the sign of a lower bound, the address pause and a
// profile file's figures). Sizing itself is VdiSizing.size (sizing.js).
(function () {
  var CONFIG = JSON.parse(document.getElementById("vdi-calc-config").textContent);
  var COLUMNS = CONFIG.columns;
  var ADDRESS_PAUSE_MS = CONFIG.address_pause_ms;
  var PHASES = CONFIG.phases;
  var inputs = JSON.parse(document.getElementById("vdi-sizing-inputs").textContent);
  var last = [];
  var form = document.getElementById("calc-form");
  function num(x) { return VdiRows.integer(x); }  // table_rows.js
  // a lower bound (bound gt) prints with its sign, no interval, rounded down: it claims no more
  // than it holds (report/tables.py ROUND_TOWARD: "≥ 65,301" for 65,301.7)
  var LOWER_BOUND = {fe_iops: 1, be_iops: 1};
  function cell(col, v, r) {
    if (v === null || v === undefined || (typeof v === "number" && isNaN(v))) return "–";
    if (LOWER_BOUND[col] && r && r.bound === "gt") return CONFIG.gt_sign + num(Math.floor(v + 1e-9));
    if (col === "phase") return PHASES[v] || v;
    if (typeof v === "string") return v.replace(/&/g, "&amp;").replace(/</g, "&lt;");
    if (col === "read_share") return (v * 100).toFixed(0) + " %";
    return num(v);
  }
  var profile = CONFIG.profile;
  var edited = profile !== null;
  var figs = Array.prototype.slice.call(form.querySelectorAll(".vdi-calc-figure"));
  function fill() {
    var e = inputs.eras[form.elements["era"].value];
    figs.forEach(function (el) {
      var ph = el.dataset.phase, c = el.dataset.field, v;
      if (profile !== null && edited) { v = profile[ph][c]; }
      else if (c === "iops_per_desktop") { v = e.per_desktop[ph].estimate; }
      else { v = e[c][ph]; }
      show(el, v);
    });
  }
  // A prefilled figure is shown to 4 significant digits but sized with its exact value while the
  // field still shows that text; a figure the user types is sized as typed.
  function show(el, v) {
    var known = !(v === null || v === undefined);
    el.dataset.exact = known ? String(v) : "";
    el.value = known ? String(Number(Number(v).toPrecision(4))) : "";
    el.dataset.shown = el.value;
  }
  function exact(el) {
    var t = el.value.trim();
    return (t !== "" && t === el.dataset.shown && el.dataset.exact !== "") ? el.dataset.exact : t;
  }
  function mine() {
    var out = {};
    figs.forEach(function (el) {
      var ph = el.dataset.phase, c = el.dataset.field;
      out[ph] = out[ph] || {};
      var t = exact(el);
      if (t === "" && c === "io_size_kb") { out[ph][c] = null; return; }
      var v = Number(t);
      var bad = t === "" || !isFinite(v) || v < 0 || (c === "read_share" && v > 1)
        || (c === "iops_per_desktop" && v <= 0);
      if (bad) {
        var want = c === "read_share" ? "a fraction in [0, 1]" : "a positive number";
        throw new Error(ph + " " + c + " must be " + want + ", got " + JSON.stringify(t));
      }
      out[ph][c] = v;
    });
    return out;
  }
  function scenario() {
    var f = new FormData(form), params = {};
    inputs.parameters.forEach(function (d) {  // the declared scenario parameters (parameters.py)
      params[d.name] = d.kind === "choice" ? f.get(d.name) : Number(f.get(d.name));
    });
    return { params: params, profile: edited ? mine() : null };
  }
  window.VdiCalcScenario = scenario;  // the per-array answers (verdict_calculator.py) size the same scenario
  var write = VdiRows.writer(document.querySelector("#calc-result tbody"), COLUMNS);  // table_rows.js
  function update() {
    var err = document.getElementById("calc-error");
    try {
      var cur = scenario();
      var rows = last = VdiSizing.size(cur.params, inputs, cur.profile, "calculator");
      err.textContent = "";
      write(rows.map(function (r) {
        return {
          attrs: { "data-phase": r.phase },
          cells: COLUMNS.map(function (c) {
            var v = r[c], raw = (v === null || v === undefined || typeof v === "string") ? "" : v;
            return { value: String(raw), html: cell(c, v, r) };
          })
        };
      }));
    } catch (e) { err.textContent = e.message; write([]); last = []; }
    if (changed) toAddressSoon();
    form.dispatchEvent(new Event("vdi-scenario"));
  }
  var status = document.getElementById("calc-status");
  function named(f) { return f ? Array.prototype.filter.call(f.elements, function (e) { return e.name; }) : []; }
  function fields() {  // this form's, then the per-array answers' (clone type, prices), once it is in the page
    return named(form).concat(named(document.getElementById("calc-prices")));
  }
  function fromAddress(root) {  // #scenario?desktops=3000&... -> the named fields of root (a form)
    var h = location.hash || "";
    if (h.indexOf("#scenario?") !== 0) return false;
    var q = new URLSearchParams(h.slice("#scenario?".length));
    named(root).forEach(function (e) {
      if (q.has(e.name) && !e.classList.contains("vdi-calc-figure")) e.value = q.get(e.name);
    });
    if (root !== form) return true;  // the per-array answers' clone type and prices: as given
    fill();  // the shared era's figures, then the sender's own where they differ from them
    figs.forEach(function (el) {
      if (!q.has(el.name)) return;
      var t = q.get(el.name).trim();
      if (t === el.dataset.exact || t === el.dataset.shown) return;
      el.value = t;
      edited = true;
    });
    return true;
  }
  function toAddress() {
    var q = new URLSearchParams();
    fields().forEach(function (e) { q.set(e.name, e.classList.contains("vdi-calc-figure") ? exact(e) : e.value); });
    history.replaceState(null, "", "#scenario?" + q.toString());
  }
  // The address is written when typing pauses (ADDRESS_PAUSE_MS after the last change), not on
  // each key: rewriting it costs more than sizing the scenario.
  var addressTimer = null;
  function toAddressSoon() { clearTimeout(addressTimer); addressTimer = setTimeout(toAddress, ADDRESS_PAUSE_MS); }
  window.VdiCalcFromAddress = fromAddress;
  window.VdiCalcToAddress = function () { if (changed) toAddressSoon(); };
  function csvCell(v) {
    v = (v === null || v === undefined || (typeof v === "number" && isNaN(v))) ? "" : String(v);
    return /[",\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
  }
  function csv() {
    var lines = ["parameter,value"];
    fields().forEach(function (e) {
      var v = e.classList.contains("vdi-calc-figure") ? exact(e) : e.value;
      lines.push(csvCell(e.name) + "," + csvCell(v));
    });
    lines.push("");
    lines.push(COLUMNS.map(csvCell).join(","));
    last.forEach(function (r) { lines.push(COLUMNS.map(function (c) { return csvCell(r[c]); }).join(",")); });
    return lines.join("\n") + "\n";
  }
  document.getElementById("calc-share").addEventListener("click", function () {
    toAddress();
    var done = function () { status.textContent = "Link copied: " + location.href; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(location.href).then(done, function () { status.textContent = location.href; });
    } else { status.textContent = "Link to this scenario: " + location.href; }
  });
  document.getElementById("calc-csv").addEventListener("click", function () {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([csv()], { type: "text/csv" }));
    a.download = "vdi-sizing-scenario.csv";
    document.body.appendChild(a); a.click(); a.remove();
  });
  fill();
  var shared = fromAddress(form), changed = false;
  update();
  changed = true;  // from now on each change is written into the address
  form.addEventListener("input", function (ev) {
    if (ev.target.classList && ev.target.classList.contains("vdi-calc-figure")) { edited = true; }
    update();
  });
  form.addEventListener("change", function (ev) {
    if (ev.target.name === "era") { edited = false; profile = null; fill(); }
    update();
  });
  document.getElementById("calc-reset").addEventListener("click", function () {
    edited = false; profile = null; fill(); update();
  });
  if (shared) { document.getElementById("sizing-calculator").scrollIntoView(); }
})();
