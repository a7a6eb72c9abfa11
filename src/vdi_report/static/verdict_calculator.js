// The HTML calculator's per-array answers (report/verdict_calculator.py writes its form and
// #vdi-verdict-config: the table's columns); the verdicts are VdiVerdicts.verdicts (verdicts.js)
// for the sizing calculator's scenario (window.VdiCalcScenario, calculator.js).
(function () {
  var COLUMNS = JSON.parse(document.getElementById("vdi-verdict-config").textContent).columns;
  var inputs = JSON.parse(document.getElementById("vdi-sizing-inputs").textContent);
  var form = document.getElementById("calc-form"), priceForm = document.getElementById("calc-prices");
  // an arrays count or $ per desktop that is not exact reads "at most" (verdicts.KINDS)
  var STATUS = { at_limit: "at a limit", not_stressed: "no: a lower bound", unknown: "not reported: a lower bound" };
  function num(x) { return VdiRows.integer(x); }  // table_rows.js
  function cell(c, v, r) {
    if (v === null || v === undefined || (typeof v === "number" && isNaN(v))) return "–";
    if (c === "capability_status") return STATUS[v] || v;
    if (typeof v === "string") return v.replace(/_/g, " ").replace(/&/g, "&amp;").replace(/</g, "&lt;");
    var pre = (c === "usd_per_desktop" || c === "arrays_needed_binding") && r.arrays_needed_kind &&
      r.arrays_needed_kind !== "exact" ? "at most " : "";
    if (c === "usd_per_desktop") return pre + "$" + (v >= 100 ? num(v) : v.toFixed(2));
    // GB per desktop and a write penalty as the report prints them (tables.fmt_number)
    if (c === "capacity_gb_per_desktop" || c === "protection_write_penalty") {
      if (Math.abs(v) >= 100) return num(v);
      if (Math.abs(v) >= 10) return String(Number(v.toFixed(1)));
      return String(Number(v.toPrecision(3)));
    }
    return pre + num(v);
  }
  var write = null;  // VdiRows.writer (table_rows.js, with the sizing calculator's scripts)
  function update() {
    var prices = {};
    if (!window.VdiCalcScenario) { return; }  // the sizing calculator's script defines it
    write = write || VdiRows.writer(document.querySelector("#calc-verdicts tbody"), COLUMNS);
    Array.prototype.forEach.call(priceForm.querySelectorAll(".calc-price"), function (el) {
      if (el.value !== "" && Number(el.value) > 0) { prices[el.dataset.key] = Number(el.value); }
    });
    try {
      // the sizing calculator's scenario (report/calculator.py: era, windows, your per-phase figures)
      var cur = window.VdiCalcScenario(), params = cur.params;
      var p = VdiSizing.validate(params, inputs);
      var ct = document.getElementById("calc-clone_type");
      p.clone_type = ct ? ct.value : params.clone_type;
      var lt = document.getElementById("calc-latency_target_ms");
      p.latency_target_ms = lt && lt.value !== "" ? Number(lt.value) : params.latency_target_ms;
      var cond = p.failover === "controller" ? "failover" : "normal";
      // the sizing rows carry the same clone type's capacity per desktop as the per-array rows
      var withClone = Object.assign({}, params, { clone_type: p.clone_type });
      var sized = VdiSizing.size(withClone, inputs, cur.profile, "calculator");
      var rows = VdiVerdicts.verdicts(sized, inputs, p, prices)
        .filter(function (r) { return r.condition === cond; });
      write(rows.map(function (r) {
        var key = r.source_id + (r.configuration ? ":" + r.configuration : "");
        return {
          attrs: { "data-key": key, "data-phase": r.phase },
          cells: COLUMNS.map(function (c) {
            var v = r[c], raw = (v === null || v === undefined || typeof v === "string") ? (v || "") : v;
            return { value: String(raw), html: cell(c, v, r) };
          })
        };
      }));
    } catch (e) { write([]); }
  }
  function changed() { update(); if (window.VdiCalcToAddress) { window.VdiCalcToAddress(); } }
  // The sizing calculator sends "vdi-scenario" after each of its own updates (input or change of
  // its form): listening to the form's input and change as well computed every answer twice.
  form.addEventListener("vdi-scenario", update);
  priceForm.addEventListener("input", changed);
  priceForm.addEventListener("change", changed);
  // a shared link (#scenario?...) also carries the clone type and the prices (calculator.py)
  if (window.VdiCalcFromAddress) { window.VdiCalcFromAddress(priceForm); }
  update();
})();
