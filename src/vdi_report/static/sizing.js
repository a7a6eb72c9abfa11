/*
 * VDI storage sizing scenario: the JavaScript twin of vdi_report.models.scenario.size().
 * Same formulas, same keys, same numbers (the tests run both and compare).
 *
 *   inputs.eras[era]: the era's per-desktop figures (seed: 2016-2018 documents; modern: 2022-2024)
 *   a profile {phase: {iops_per_desktop, read_share, io_size_kb, login_window_min}} replaces them (no interval)
 *   k = 1 / (1 - headroom)
 *   boot: rate = desktops (all provisioned) / boot_window_min; FE = rate x peak IOPS per desktop
 *         booted per minute x k
 *   login (storm model): active = desktops x concurrency; rate = active / login_window_min;
 *          FE = (active x steady IOPS per desktop + I/O per logon x rate / 60) x k
 *          (inputs.eras[era].io_per_logon; a profile without a login window: active x its login peak x k)
 *   steady state: FE = active x average IOPS per desktop x k
 *   BE IOPS = FE x (read_share + (1 - read_share) x write_penalty)
 *   throughput (MB/s) = FE x io_size_kb x 1024 / 1e6 (null I/O size: NaN)
 *   warning: a boot or login rate outside the documents' tested rates
 *
 * inputs: data/processed/sizing_inputs.json (written by notebooks/04_iops_model.py); validate(params, inputs).
 * Works in a browser (global VdiSizing) and in Node (module.exports).
 */
(function (root, factory) {
  var api = factory();
  if (typeof module === "object" && module.exports) { module.exports = api; }
  else { root.VdiSizing = api; }
}(typeof self !== "undefined" ? self : this, function () {
  "use strict";
  // The vocabulary's lists (scenario phases, eras) come with the inputs:
  // inputs.lists, written by vdi_report.models.scenario.vocabulary_lists from data/raw/vocabulary.csv.
  var PHASE_STATISTIC = { boot: "peak", login: "peak", steady_state: "average" };

  function num(name, x, hint) {
    var v = (typeof x === "string" && x.trim() === "") ? NaN : Number(x);
    if (!isFinite(v)) { throw new Error(name + " must be " + hint + ", got " + JSON.stringify(x)); }
    return v;
  }

  // Each scenario parameter as declared once (vdi_report.parameters.PARAMETERS), read from
  // inputs.parameters: kind (integer, number, choice), default, low/high/closed or choices, hint.
  function inside(v, d) {
    var lowOk = d.low === null || (d.closed.charAt(0) === "[" ? v >= d.low : v > d.low);
    var highOk = d.high === null || (d.closed.charAt(1) === "]" ? v <= d.high : v < d.high);
    return lowOk && highOk;
  }

  function validate(p, inputs) {
    var out = {};
    inputs.parameters.forEach(function (d) {
      var x = p[d.name] === undefined ? d.default : p[d.name];
      if (d.kind === "choice") {
        if (d.choices.indexOf(x) < 0) { throw new Error("unknown " + d.name + " " + JSON.stringify(x) + "; use " + d.hint); }
        out[d.name] = x;
        return;
      }
      var v = num(d.name, x, d.hint);
      if (!inside(v, d) || (d.kind === "integer" && Math.floor(v) !== v)) {
        throw new Error(d.name + " must be " + d.hint + ", got " + JSON.stringify(x));
      }
      out[d.name] = v;
    });
    return out;
  }

  function fmtInt(x) { return Math.round(x).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function fmt1(x) {
    var s = (Math.round(x * 10) / 10).toFixed(1);
    var parts = s.split(".");
    return parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ",") + "." + parts[1];
  }

  function rateWarning(what, rate, tested) {
    if (!tested || tested[0] === null || tested[1] === null || (rate >= tested[0] && rate <= tested[1])) { return ""; }
    var side = rate > tested[1] ? "above" : "below";
    var span = tested[0] === tested[1] ? fmt1(tested[0]) : fmt1(tested[0]) + "\u2013" + fmt1(tested[1]);
    return what + " rate " + fmt1(rate) + " per minute is " + side + " the documents' tested " + span + " per minute: extrapolated";
  }

  function fl(x) { return (x === null || x === undefined) ? NaN : x; }

  // I/O per logon beyond the steady state: (login peak - steady) x window (s), never below 0
  function ioPerLogon(loginPeak, steady, windowMin) {
    if ([loginPeak, steady, windowMin].some(function (x) { return x === null || x === undefined || isNaN(x); })) { return null; }
    return Math.max(0, loginPeak - steady) * windowMin * 60;
  }

  function loginDemand(active, steady, ioLogon, windowMin) {
    if (isNaN(steady) || isNaN(ioLogon)) { return NaN; }
    return active * steady + ioLogon * (active / windowMin) / 60;
  }

  // profile: {phase: {iops_per_desktop, read_share, io_size_kb, login_window_min}} or null; profileFile: its name (recorded)
  function size(params, inputs, profile, profileFile) {
    var p = validate(params, inputs);
    var e = inputs.eras[p.era];
    if (!e) { throw new Error("sizing inputs have no " + p.era + " era"); }
    var active = p.desktops * p.concurrency;
    var k = 1.0 / (1.0 - p.headroom);
    var wp = inputs.write_penalty[p.raid];
    var cond = p.failover === "controller" ? "failover" : "normal";
    // the one capacity per desktop (verdicts.capacity): the era's swap, the clone type's written space
    var clone = params.clone_type === undefined || params.clone_type === null || params.clone_type === "" ?
      "linked" : params.clone_type;
    if (inputs.lists.clone_types.indexOf(clone) < 0) {
      throw new Error("unknown clone_type " + JSON.stringify(clone) + "; use " + inputs.lists.clone_types.join(" or "));
    }
    var cap = (((inputs.capacity_by_clone || {}).per_desktop || {})[p.era] || {})[clone] || {};
    var wRef = e.login_window_min, steady, iol;
    if (profile) {
      wRef = (profile.login.login_window_min === undefined) ? null : profile.login.login_window_min;
      var sp = profile.steady_state.iops_per_desktop;
      steady = [sp, sp, sp];
      var one = ioPerLogon(profile.login.iops_per_desktop, sp, wRef);
      iol = [one, one, one];
    } else {
      var st = e.per_desktop.steady_state;
      steady = [st.estimate, st.pi90_low, st.pi90_high];
      iol = [e.io_per_logon.estimate, e.io_per_logon.pi90_low, e.io_per_logon.pi90_high];
    }
    steady = steady.map(fl); iol = iol.map(fl);
    return inputs.lists.scenario_phases.map(function (phase) {
      var fig = e.per_desktop[phase], per, rs, io, source, note, fe, warn, sized;
      if (profile) {
        var x = profile[phase];
        per = [x.iops_per_desktop, x.iops_per_desktop, x.iops_per_desktop];
        rs = x.read_share; io = (x.io_size_kb === undefined) ? null : x.io_size_kb;
        source = ("profile " + (profileFile || "")).trim(); note = "";
        if (phase === "login") {
          note = wRef !== null
            ? "your login peak over your " + wRef + "-minute window: steady state + I/O per logon x login rate"
            : "your login peak as given, not rescaled (the file gives no login window)";
        }
      } else {
        per = [fig.estimate, fig.pi90_low, fig.pi90_high];
        rs = e.read_share[phase]; io = e.io_size_kb[phase];
        source = "era " + p.era; note = e.notes[phase] || "";
      }
      per = per.map(fl);
      var bootRate = NaN, loginRate = NaN;
      if (phase === "boot") {
        sized = p.desktops;
        bootRate = sized / p.boot_window_min;
        fe = per.map(function (v) { return bootRate * v * k; });
        warn = rateWarning("boot", bootRate, e.tested_rates.boot);
      } else if (phase === "login") {
        sized = active;
        loginRate = active / p.login_window_min;
        if (profile && wRef === null) {
          fe = per.map(function (v) { return active * v * k; });
        } else {
          fe = [0, 1, 2].map(function (i) { return loginDemand(active, steady[i], iol[i], p.login_window_min) * k; });
          per = fe.map(function (f) { return f / k / active; });
        }
        warn = rateWarning("login", loginRate, e.tested_rates.login);
      } else {
        sized = active;
        fe = per.map(function (v) { return active * v * k; });
        warn = "";
      }
      // an unknown read share leaves the back end unknown (NaN), never write-only
      var factor = (rs === null || rs === undefined) ? NaN : rs + (1 - rs) * wp;
      var carried = inputs.demonstrated.filter(function (d) {
        var floor = (d.fe_iops_floor === undefined || d.fe_iops_floor === null) ? d.fe_iops : d.fe_iops_floor;
        return d.phase === phase && d.condition === cond && floor >= fe[0];
      }).map(function (d) {
        return d.array + " (" + (d.bound === "approx" ? inputs.lists.bound_signs.approx : "") + fmtInt(d.fe_iops) + " IOPS, " + d.record_id + ")";
      });
      var high = (cap.high === null || cap.high === undefined) ? null : cap.high;
      return {
        phase: phase, worker_class: phase === "boot" ? "any" : "knowledge", statistic: PHASE_STATISTIC[phase],
        era: p.era, figures: source, note: note, bound: profile ? "eq" : (fig.bound || "eq"), desktops: p.desktops, concurrency: p.concurrency, headroom: p.headroom,
        boot_window_min: p.boot_window_min, login_window_min: p.login_window_min,
        reference_login_window_min: phase === "login" ? fl(wRef) : NaN, raid: p.raid, failover: p.failover,
        clone_type: clone, active_desktops: active, desktops_sized: sized, boot_rate_per_min: bootRate, login_rate_per_min: loginRate,
        per_desktop: per[0], per_desktop_pi90_low: per[1], per_desktop_pi90_high: per[2],
        fe_iops: fe[0], fe_iops_pi90_low: fe[1], fe_iops_pi90_high: fe[2], read_share: rs, write_penalty: wp,
        be_iops: fe[0] * factor, be_iops_pi90_low: fe[1] * factor, be_iops_pi90_high: fe[2] * factor,
        io_size_kb: io === null ? NaN : io, throughput_mbps: io === null ? NaN : fe[0] * io * 1024 / 1e6,
        capacity_gb_per_desktop_low: (cap.low === undefined ? null : cap.low), capacity_gb_per_desktop_high: high,
        capacity_tb_high: high === null ? null : p.desktops * high / 1000,
        condition: cond, carried_by: carried.length ? carried.join("; ") : "none demonstrated", warning: warn
      };
    });
  }

  return { size: size, validate: validate, ioPerLogon: ioPerLogon, loginDemand: loginDemand };
}));
