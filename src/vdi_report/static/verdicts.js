/*
 * Per-array verdicts at a sizing scenario: the JavaScript twin of vdi_report.models.verdicts.verdicts().
 * Same rules, same keys, same numbers (tests/…/test_verdicts.py runs both and compares).
 *
 *   capability of a phase: boot storm -> the configuration's boot figure; login and steady state ->
 *     the highest load of any user phase (login, steady state, login + steady state)
 *   verdict: floor >= interval top -> "covers the interval's top"; >= estimate -> "covers the estimate only";
 *     else "does not cover"; no figure -> "not tested"; only an upper bound -> "no lower bound stated"
 *   arrays_needed = ceil(demand / floor); arrays_needed_top = ceil(interval top / floor);
 *   arrays_needed_ports = ceil(throughput MB/s / port MB/s)
 *   one controller down, not tested, two controllers stated: proxy = 0.5 x the normal floor (kept apart)
 *   usd_per_desktop = arrays (binding: the most any phase needs by IOPS or ports) x price / desktops
 *
 * inputs: data/processed/sizing_inputs.json keys "capability", "arrays" and "lists" (the vocabulary's lists).
 * Works in a browser (global VdiVerdicts) and in Node (module.exports).
 */
(function (root, factory) {
  var api = factory();
  if (typeof module === "object" && module.exports) { module.exports = api; }
  else { root.VdiVerdicts = api; }
}(typeof self !== "undefined" ? self : this, function () {
  "use strict";
  // The scenario's phases, its user phases and clone types come with the inputs (inputs.lists,
  // vdi_report.models.scenario.vocabulary_lists, from data/raw/vocabulary.csv).
  var PHASE_WORDS = { boot: "boot storm", login: "login storm", steady_state: "steady state" };
  var PROXY_FACTOR = 0.5;
  var VERDICTS = ["covers the interval's top", "covers the estimate only", "does not cover", "not tested",
                  "no lower bound stated", "no load within the latency target"];
  var DEFAULT_LATENCY_TARGET_MS = 15;  // verdicts.DEFAULT_LATENCY_TARGET_MS (Hitachi's stated threshold)
  // verdicts.over_target: the load's latency is known to exceed the target
  function overTarget(c, target) {
    var v = c.latency_ms, b = c.latency_bound || "eq";
    if (!isNum(v) || b === "lt") { return false; }
    return b === "gt" ? v >= target : v > target;
  }
  function fmtG(x) { return String(Number(x.toPrecision(6))); }
  var COLUMNS = ["source_id", "vendor", "array", "configuration", "phase", "condition", "desktops", "demand_iops",
                 "demand_iops_top", "throughput_mbps", "demonstrated_iops", "demonstrated_bound", "demonstrated_phase",
                 "vantage", "latency_ms", "latency_text", "busiest_resource", "busiest_text", "at_limit",
                 "capability_status", "binding_resource", "status_text", "status_records", "verdict",
                 "arrays_needed", "arrays_needed_top", "port_mbps", "port_bound", "arrays_needed_ports",
                 "protection", "protection_source", "protection_write_penalty", "protection_be_iops",
                 "clone_type", "capacity_gb_per_desktop", "capacity_tb", "usable_tb", "usable_bound", "arrays_needed_capacity",
                 "capacity_text", "arrays_needed_binding", "binding_constraint", "arrays_needed_kind", "price_usd", "usd_per_desktop", "proxy_iops",
                 "proxy_verdict", "proxy_arrays_needed", "proxy_usd_per_desktop", "latency_target_ms", "note", "record_ids"];

  // arrays_needed_kind, most definite first (verdicts.KINDS)
  var KINDS = ["exact", "drive sets", "at most"];
  function kindOf(c) {
    if (c.capability_status !== "at_limit") { return KINDS[2]; }
    return c.controller_headroom ? KINDS[1] : KINDS[0];
  }
  function isNum(x) { return typeof x === "number" && isFinite(x); }
  function ceil(x) { return Math.ceil(Math.round(x * 1e9) / 1e9); }
  function fmt(x) {
    if (Math.abs(x) >= 100) { return Math.round(x).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
    return String(Number(x.toPrecision(6)));
  }
  // config.BOUND_SIGNS (the vocabulary's labels of the bounds, inputs.lists.bound_signs): one sign per bound
  function sign(signs, b) { return signs[b] || ""; }
  function verdict(floor, demand, top) {
    if (floor >= top) { return VERDICTS[0]; }
    if (floor >= demand) { return VERDICTS[1]; }
    return VERDICTS[2];
  }
  function priceFor(prices, sid, conf) {
    if (!prices) { return null; }
    if (conf && isNum(prices[sid + ":" + conf])) { return prices[sid + ":" + conf]; }
    return isNum(prices[sid]) ? prices[sid] : null;
  }

  function capacity(rows, inputs, sid, conf, clone, desktops, era) {
    var facts = inputs.capacity_by_clone || {};
    var per = ((facts.per_desktop || {})[era] || {})[clone];
    var lines = (facts.usable || []).filter(function (u) {
      return u.source_id === sid && (u.configuration === conf || u.configuration === "");
    });
    lines.sort(function (x, y) { return (x.configuration !== conf) - (y.configuration !== conf); });
    // only a usable line (never raw or physical) sizes capacity (verdicts.capacity_lines)
    var us = lines.filter(function (u) { return (u.kind || "usable") === "usable" && isNum(u.usable_tb); });
    rows.forEach(function (r) {
      r.clone_type = clone;
      r.capacity_text = lines.length ? lines[0].text : "capacity not stated";
      if (!per) { return; }
      r.capacity_gb_per_desktop = per.high;
      r.capacity_tb = desktops * per.high / 1000;
      if (us.length) {
        r.usable_tb = us[0].usable_tb; r.usable_bound = us[0].bound;
        r.arrays_needed_capacity = ceil(r.capacity_tb / us[0].usable_tb);
      }
    });
  }

  function verdicts(sizeRows, inputs, params, prices) {
    var clone = params.clone_type === undefined ? "linked" : params.clone_type;
    var era = params.era || inputs.default_era;  // capacity per desktop by era and clone type
    var target = params.latency_target_ms === undefined || params.latency_target_ms === null ?
      DEFAULT_LATENCY_TARGET_MS : Number(params.latency_target_ms);
    if (!(isFinite(target) && target > 0)) {
      throw new Error("latency_target_ms must be a positive number of milliseconds, got " +
                      JSON.stringify(params.latency_target_ms));
    }
    var lists = inputs.lists;
    if (lists.clone_types.indexOf(clone) < 0) {
      throw new Error("unknown clone_type " + JSON.stringify(clone) + "; use full or linked (how the desktops are cloned)");
    }
    var cap = inputs.capability || [];
    var arr = {};
    (inputs.arrays || []).forEach(function (a) { arr[a.source_id + "|" + a.configuration] = a; });
    var demand = {};
    sizeRows.forEach(function (r) { demand[r.phase] = r; });
    var configs = [], seenKey = {};
    cap.forEach(function (c) {
      var k = c.source_id + "|" + c.configuration;
      if (!seenKey[k] && lists.scenario_phases.indexOf(c.phase) >= 0) { seenKey[k] = true; configs.push([c.source_id, c.configuration]); }
    });
    var desktops = params.desktops, out = [];
    configs.forEach(function (sc) {
      var sid = sc[0], conf = sc[1];
      var mine = cap.filter(function (c) { return c.source_id === sid && c.configuration === conf; });
      var a = arr[sid + "|" + conf] || arr[sid + "|"] || {};
      var price = priceFor(prices, sid, conf);
      ["normal", "failover"].forEach(function (cond) {
        var rows = lists.scenario_phases.map(function (phase) {
          var d = demand[phase], fe = d.fe_iops, top = d.fe_iops_pi90_high, mbps = d.throughput_mbps;
          var want = phase === "boot" ? ["boot"] : lists.scenario_user_phases;
          function best(condition) {
            var c = mine.filter(function (x) { return want.indexOf(x.phase) >= 0 && x.condition === condition; });
            var over = c.filter(function (x) { return x.floor !== null && x.floor !== undefined && overTarget(x, target); });
            var wf = c.filter(function (x) {
              return x.floor !== null && x.floor !== undefined && over.indexOf(x) < 0;
            });
            wf.sort(function (x, y) { return y.floor - x.floor; });
            return [wf.length ? wf[0] : null, c, over];
          }
          var bs = best(cond), b = bs[0], seen = bs[1], over = bs[2];
          var overTxt = over.map(function (x) {
            return (PHASE_WORDS[x.phase] || x.phase) + " " + fmt(x.floor) + " IOPS at " + x.latency_text;
          }).join("; ");
          var row = { source_id: sid, vendor: mine[0].vendor, array: mine[0].array, configuration: conf, phase: phase,
                      condition: cond, desktops: desktops, demand_iops: fe, demand_iops_top: top, throughput_mbps: mbps,
                      port_mbps: isNum(a.port_mbps) ? a.port_mbps : null, port_bound: a.port_bound || "",
                      price_usd: price, latency_target_ms: target, note: "", at_limit: false, record_ids: "" };
          ["demonstrated_iops", "demonstrated_bound", "demonstrated_phase", "vantage", "latency_ms", "latency_text",
           "busiest_resource", "busiest_text", "arrays_needed", "arrays_needed_top", "arrays_needed_ports", "proxy_iops",
           "proxy_verdict", "proxy_arrays_needed", "proxy_usd_per_desktop", "usd_per_desktop", "arrays_needed_binding",
           "binding_constraint", "verdict", "clone_type", "capacity_gb_per_desktop", "capacity_tb", "usable_tb",
           "usable_bound", "arrays_needed_capacity", "capability_status", "binding_resource", "status_text",
           "status_records", "arrays_needed_kind", "protection_be_iops"].forEach(function (k) { row[k] = null; });
          // the array's own protection (verdicts.protection_of): a back end only where its document states a classic RAID
          var wp = isNum(a.protection_write_penalty) ? a.protection_write_penalty : null, rs = d.read_share;
          row.protection = a.protection || "not_stated"; row.protection_source = a.protection_source || "";
          row.protection_write_penalty = wp;
          if (wp !== null && isNum(rs)) { row.protection_be_iops = fe * (rs + (1 - rs) * wp); }
          // no I/O size known (the modern documents report no throughput): no port constraint
          if (isNum(a.port_mbps) && a.port_mbps > 0 && isNum(mbps)) { row.arrays_needed_ports = ceil(mbps / a.port_mbps); }
          if (b) {
            row.demonstrated_iops = b.floor; row.demonstrated_bound = b.bound; row.demonstrated_phase = b.phase;
            row.vantage = b.vantage; row.latency_ms = b.latency_ms; row.latency_text = b.latency_text;
            row.busiest_resource = b.busiest_resource; row.busiest_text = b.busiest_text; row.at_limit = !!b.at_limit;
            row.capability_status = b.capability_status; row.binding_resource = b.binding_resource;
            row.status_text = b.status_text; row.status_records = b.status_records; row._kind = kindOf(b);
            row.verdict = verdict(b.floor, fe, top); row.arrays_needed = ceil(fe / b.floor);
            row.arrays_needed_top = ceil(top / b.floor); row.record_ids = b.record_ids;
            var notes = [];
            if (b.derivation) { notes.push(b.derivation); }
            if (over.length) { notes.push("over the " + fmtG(target) + " ms latency target, left out: " + overTxt); }
            row.note = notes.join("; ");
          } else if (over.length) {
            var xo = over[0];
            row.verdict = VERDICTS[5]; row.demonstrated_phase = xo.phase; row.vantage = xo.vantage;
            row.latency_ms = xo.latency_ms; row.latency_text = xo.latency_text; row.record_ids = xo.record_ids;
            row.note = "every demonstrated load's latency exceeds the " + fmtG(target) + " ms target: " + overTxt;
          } else if (seen.length) {
            var x = seen[0];
            row.verdict = VERDICTS[4]; row.demonstrated_phase = x.phase; row.vantage = x.vantage; row.record_ids = x.record_ids;
            row.note = "only an upper bound is stated: " + sign(lists.bound_signs, x.bound) + fmt(x.iops) + " IOPS (" + x.record_ids + ")";
          } else {
            row.verdict = VERDICTS[3];
            if (cond === "failover") {
              var nb = best("normal")[0], ctl = a.controllers;
              if (nb && ctl === 2) {
                var p = nb.floor * PROXY_FACTOR;
                row.proxy_iops = p; row.proxy_verdict = verdict(p, fe, top); row.proxy_arrays_needed = ceil(fe / p);
                row.note = "not tested with a controller down; proxy (not a test): half the normal " + fmt(nb.floor) +
                           " IOPS (" + nb.record_ids + "), two controllers (" + a.controllers_record + ")";
              } else {
                row.note = "not tested with a controller down; no proxy: " +
                           (nb ? "the documents do not state two controllers" : "no lower bound of the normal load");
              }
            }
          }
          return row;
        });
        capacity(rows, inputs, sid, conf, clone, desktops, era);
        var determined = rows.every(function (r) { return r.arrays_needed !== null; });
        if (determined) {
          // the most arrays; among equals the most definite count (KINDS), then the tightest
          // (capacity x arrays / demand smallest)
          var bestN = 0, bestK = KINDS.length, bestM = Infinity, what = "", kind = KINDS[2];
          var c0 = rows[0], cands = [];
          rows.forEach(function (r) {
            cands.push([r.arrays_needed, r.demonstrated_iops, r.demand_iops, "IOPS, " + PHASE_WORDS[r.phase], r._kind || KINDS[2]]);
            cands.push([r.arrays_needed_ports, r.port_mbps, r.throughput_mbps, "ports, " + PHASE_WORDS[r.phase], KINDS[0]]);
          });
          cands.push([c0.arrays_needed_capacity, c0.usable_tb, c0.capacity_tb, "capacity, " + c0.clone_type + " clones", KINDS[1]]);
          cands.forEach(function (c) {
            if (c[0] === null) { return; }
            var m = c[2] ? c[1] * c[0] / c[2] : Infinity, k = KINDS.indexOf(c[4]);
            if (c[0] > bestN || (c[0] === bestN && (k < bestK || (k === bestK && m < bestM)))) {
              bestN = c[0]; bestK = k; bestM = m; what = c[3]; kind = c[4];
            }
          });
          rows.forEach(function (r) {
            r.arrays_needed_binding = bestN; r.binding_constraint = what; r.arrays_needed_kind = kind;
            if (price !== null) { r.usd_per_desktop = bestN * price / desktops; }
          });
        } else if (cond === "failover" && rows.every(function (r) { return r.arrays_needed !== null || r.proxy_arrays_needed !== null; })) {
          var pn = 0;
          rows.forEach(function (r) {
            pn = Math.max(pn, r.proxy_arrays_needed || r.arrays_needed || 0, r.arrays_needed_ports || 0,
                          r.arrays_needed_capacity || 0);
          });
          rows.forEach(function (r) { if (price !== null) { r.proxy_usd_per_desktop = pn * price / desktops; } });
        }
        rows.forEach(function (r) {
          var o = {};
          COLUMNS.forEach(function (k) { o[k] = (r[k] === undefined) ? null : r[k]; });
          out.push(o);
        });
      });
    });
    return out;
  }

  return { verdicts: verdicts, VERDICTS: VERDICTS, COLUMNS: COLUMNS };
}));
