/*
 * VDI storage sizing scenario: the JavaScript twin of vdi_report.models.scenario.size().
 * Same formulas, same keys, same numbers (tests/test_sizing.py runs both and compares).
 *
 *   active = desktops x concurrency
 *   login (peak) / steady state (average): FE IOPS = active x IOPS per desktop (estimate, 90 % PI ends)
 *   boot: rate = active / boot_window_min (desktops per minute); FE peak IOPS = rate x peak IOPS per
 *         desktop booted per minute (boot-rate model)
 *   every FE figure / (1 - headroom)
 *   BE IOPS = FE x (read_share + (1 - read_share) x write_penalty)
 *   throughput (MB/s) = FE x io_size_kb x 1024 / 1e6
 *
 * inputs: data/processed/sizing_inputs.json (written by notebooks/04_iops_model.py).
 * Works in a browser (global VdiSizing) and in Node (module.exports).
 */
(function (root, factory) {
  var api = factory();
  if (typeof module === "object" && module.exports) { module.exports = api; }
  else { root.VdiSizing = api; }
}(typeof self !== "undefined" ? self : this, function () {
  "use strict";
  var PHASES = ["boot", "login", "steady_state"];
  var PHASE_STATISTIC = { boot: "peak", login: "peak", steady_state: "average" };
  var WORKER_CLASSES = ["task", "office", "knowledge", "power"];
  var RAID = ["none", "raid10", "raid5", "raid6"];

  function num(name, x, hint) {
    var v = (typeof x === "string" && x.trim() === "") ? NaN : Number(x);
    if (!isFinite(v)) { throw new Error(name + " must be " + hint + ", got " + JSON.stringify(x)); }
    return v;
  }

  function validate(p) {
    var d = num("desktops", p.desktops, "a positive whole number");
    if (d <= 0 || Math.floor(d) !== d) { throw new Error("desktops must be a positive whole number, got " + JSON.stringify(p.desktops)); }
    if (WORKER_CLASSES.indexOf(p.worker_class) < 0) { throw new Error("unknown worker_class " + JSON.stringify(p.worker_class) + "; use one of " + WORKER_CLASSES.join(", ")); }
    var c = num("concurrency", p.concurrency === undefined ? 1.0 : p.concurrency, "a fraction in (0, 1]");
    if (!(c > 0 && c <= 1)) { throw new Error("concurrency must be a fraction in (0, 1], got " + JSON.stringify(p.concurrency)); }
    var h = num("headroom", p.headroom === undefined ? 0.2 : p.headroom, "a fraction in [0, 1)");
    if (!(h >= 0 && h < 1)) { throw new Error("headroom must be a fraction in [0, 1), got " + JSON.stringify(p.headroom)); }
    var b = num("boot_window_min", p.boot_window_min === undefined ? 30 : p.boot_window_min, "a positive number of minutes");
    if (!(b > 0)) { throw new Error("boot_window_min must be a positive number of minutes, got " + JSON.stringify(p.boot_window_min)); }
    var raid = p.raid === undefined ? "none" : p.raid;
    if (RAID.indexOf(raid) < 0) { throw new Error("unknown raid " + JSON.stringify(raid) + "; use one of " + RAID.join(", ")); }
    var fo = p.failover === undefined ? "none" : p.failover;
    if (fo !== "none" && fo !== "controller") { throw new Error("unknown failover " + JSON.stringify(fo) + "; use none or controller"); }
    return { desktops: d, worker_class: p.worker_class, concurrency: c, headroom: h, boot_window_min: b, raid: raid, failover: fo };
  }

  function fmtInt(x) { return Math.round(x).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  function size(params, inputs) {
    var p = validate(params);
    var active = p.desktops * p.concurrency;
    var k = 1.0 / (1.0 - p.headroom);
    var wp = inputs.write_penalty[p.raid];
    var cond = p.failover === "controller" ? "failover" : "normal";
    var cap = inputs.capacity_gb_per_desktop || {};
    return PHASES.map(function (phase) {
      var per, fe, wc, rate;
      if (phase === "boot") {
        var b = inputs.boot;
        rate = active / p.boot_window_min;
        per = [b.peak_per_rate, b.pi90_low, b.pi90_high];
        fe = per.map(function (x) { return rate * x * k; });
        wc = "any";
      } else {
        var table = inputs.per_desktop[phase] || {};
        wc = (p.worker_class in table) ? p.worker_class : "any";
        if (!(wc in table)) { throw new Error("sizing inputs have no " + phase + " estimate for " + p.worker_class + " nor a pooled row"); }
        var e = table[wc];
        rate = NaN;
        per = [e.estimate, e.pi90_low, e.pi90_high];
        fe = per.map(function (x) { return active * x * k; });
      }
      var rs = inputs.read_share[phase];
      var factor = rs + (1 - rs) * wp;
      var io = inputs.io_size_kb[phase];
      // carried: the least the statement guarantees covers the demand (scenario.size)
      var carried = inputs.demonstrated.filter(function (d) {
        var floor = (d.fe_iops_floor === undefined || d.fe_iops_floor === null) ? d.fe_iops : d.fe_iops_floor;
        return d.phase === phase && d.condition === cond && floor >= fe[0];
      }).map(function (d) {
        return d.array + " (" + (d.bound === "approx" ? "\u2248 " : "") + fmtInt(d.fe_iops) + " IOPS, " + d.record_id + ")";
      });
      var high = (cap.high === null || cap.high === undefined) ? null : cap.high;
      return {
        phase: phase, worker_class: wc, statistic: PHASE_STATISTIC[phase], active_desktops: active,
        boot_rate_per_min: rate, per_desktop: per[0], per_desktop_pi90_low: per[1], per_desktop_pi90_high: per[2],
        fe_iops: fe[0], fe_iops_pi90_low: fe[1], fe_iops_pi90_high: fe[2], read_share: rs, write_penalty: wp,
        be_iops: fe[0] * factor, be_iops_pi90_low: fe[1] * factor, be_iops_pi90_high: fe[2] * factor,
        io_size_kb: io, throughput_mbps: fe[0] * io * 1024 / 1e6,
        capacity_gb_per_desktop_low: (cap.low === undefined ? null : cap.low), capacity_gb_per_desktop_high: high,
        capacity_tb_high: high === null ? null : p.desktops * high / 1000,
        condition: cond, carried_by: carried.length ? carried.join("; ") : "none demonstrated"
      };
    });
  }

  return { size: size, validate: validate, PHASES: PHASES };
}));
