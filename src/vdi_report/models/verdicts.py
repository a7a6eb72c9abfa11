"""Per-array answers at N desktops: what each tested configuration demonstrably carried (with the
latency and the busiest resource at that load), and, for a sizing scenario, a verdict per phase,
the arrays of that configuration N desktops need, the port check and the cost from a buyer's quote.

Contract (shared with ``src/vdi_report/static/verdicts.js``, which implements ``verdicts`` with the
same rules and the same keys; tests run both and compare):

- ``capability(results, sources_df, claims_register, register)``: one row per tested configuration,
  phase (``boot``, ``login``, ``steady_state``, ``maintenance``: provisioning, patching, refresh,
  power-off; ``backend``: array back end, shown apart, never compared with a front-end demand) and
  condition (``normal``, ``failover`` = one controller down): the highest load the documents
  state it carried there (``CAPABILITY_COLUMNS``). Read from records only:

  * a total IOPS figure (peak for boot, login and maintenance; average for steady state) at the
    array front end, the ESXi host or the storage port; an ``approx`` figure counts at its low
    end (``value_low``), a ``gt`` figure at its value, a ``lt`` figure guarantees nothing (kept,
    with ``floor`` empty, so a verdict can say "no lower bound stated");
  * where a test states only read and write peaks, the total peak is at least the larger of the
    two (derived, bound ``gt``: AccelStor's boot write peak of 22,000 and provisioning read peak
    of 34,200 at the hosts);
  * a per-desktop figure the document states as a mean over the desktops (``aggregation =
    desktop_mean``) times the test's desktops (derived: Dell's "over 40 IOPS per user" x 5,000).

  A login + steady-state test's peak counts for login, its average for steady state. With the
  load, from the same test, the same phase (the capability phase's own figures first, e.g. the
  login storm's beside a login peak, then the load record's phase) and the same statistic where
  stated (``_latency``, ``_resources``): the latency (the highest of that phase and statistic,
  the others named) and the busiest reported resource (controller CPU, MPU, disk busy; a
  statement the claims table rates ``not testable`` is marked so), and the **capability status**
  (``capability_status``): ``at_limit`` when a resource is at ``SATURATED_PCT`` % or more or
  VSImax was reached (``binding_resource`` controller, drives or Login VSI; ``controller_headroom``
  when only the drives were), ``not_stressed`` when the reported resources are all below their
  limits (the load is a lower bound of capability), ``unknown`` when none is reported; the
  records behind it in ``status_records``.

- ``arrays(results, register)``: one row per tested configuration with its storage ports
  (``ports x Gb/s x 125`` MB/s, decimal; ``lt`` when the audit register says the ports also
  carried other traffic), its controllers (for the one-controller-down proxy) and its protection
  as its document states it (``protection_of``: test_setup.csv factor ``protection``; a classic
  RAID write penalty only for a classic RAID level the document states).

- ``capacity(results, sources_df)``: capacity per desktop by era and clone type (written space
  from the seed documents of the clone type, swap from the era's own desktops' memory), the
  provisioning modes each era's documents state, and each configuration's capacity line.

- ``verdicts(size_rows, inputs, params, prices)``: one row per configuration x phase (boot, login,
  steady state) x condition (``VERDICT_COLUMNS``). The capability compared with a demand is the
  configuration's boot capability for the boot storm, and the highest load of any user phase
  (login, steady state, login + steady state) for login and steady state: an array that carried
  31,088 IOPS in a login storm carried a 13,608-IOPS steady state's worth of I/O. Verdicts:
  ``covers the interval's top`` (floor >= the 90 % interval's top of the front-end demand),
  ``covers the estimate only``, ``does not cover``, ``not tested`` (no figure for that phase and
  condition), ``no lower bound stated`` (only an upper bound, e.g. "almost 125,000").
  ``arrays_needed = ceil(demand / floor)`` (estimate) and ``arrays_needed_top`` (interval's top):
  N desktops split over that many arrays, each carrying at most what one demonstrably carried.
  Ports: ``arrays_needed_ports = ceil(throughput MB/s / port MB/s)``. One controller down: the
  vendor's failover run where there is one; otherwise ``not tested``, and where the documents
  state two controllers a labelled proxy (``PROXY_FACTOR`` x the normal load: each controller of
  an active-active pair kept at half) in the ``proxy_*`` columns, never in the verdict.
  ``arrays_needed_kind`` (``KINDS``) says what the binding count is: ``exact`` where the binding
  phase's test reached a limit of the array (or ports or capacity bind), ``at most`` where it
  reached none (untested headroom is never a purchase quantity), ``drive sets`` where only the
  drives were at their limit (the tested drive set, not the array, bounds the load); USD per
  desktop carries the same kind.
  Protection: each row carries the array's ``protection`` and, only for a classic RAID level its
  document states, ``protection_write_penalty`` and ``protection_be_iops`` = demand x (read share
  + (1 - read share) x penalty); the scenario's ``RAID`` (your array) never enters these columns.
  Capacity: the scenario's era and clone type select one ``capacity`` figure, the one
  ``scenario.size`` reads too.
  Cost: ``usd_per_desktop = arrays x price / desktops``, the arrays by the binding constraint
  (the most arrays any phase needs by IOPS or ports, ``binding_constraint`` says which), only
  from a price the buyer gives (``prices``: ``{"<source_id>" or "<source_id>:<configuration>":
  USD}``); empty without one, or when a phase is not determined.

Nothing here reads files: the model stage passes the tables in and writes ``capability`` and
``arrays`` into ``sizing_inputs.json``; the report and the calculator call ``verdicts``.
"""

from __future__ import annotations

import math
import re

from .. import config
from ..config import SCENARIO_CLONE_TYPES, SCENARIO_PHASES, SCENARIO_USER_PHASES

PHASE_WORDS = {"boot": "boot storm", "login": "login storm", "steady_state": "steady state"}
CAPABILITY_PHASES = {  # capability phase -> (record phases, statistic)
    "boot": (("boot",), "peak"),
    "login": (("login", "login_and_steady_state"), "peak"),
    "steady_state": (("steady_state", "login_and_steady_state"), "average"),
    "maintenance": (("provisioning", "patching", "refresh", "power_off"), "peak"),
    "backend": (("boot", "provisioning", "login", "login_and_steady_state", "steady_state", "patching"), "peak"),
}
FRONT = ("array_frontend", "host", "storage_port")
UTILIZATION = {"storage_cpu_utilization": "array controller CPU", "mpu_utilization": "MPU", "disk_busy": "disk busy"}
SATURATED_PCT = 95.0  # density.SATURATED_PCT: at or above, the tested load is at a limit
PROXY_FACTOR = 0.5  # one of two active-active controllers carries what both carried at half load
MB_PER_GBIT = 125.0  # 1 Gb/s = 125 MB/s (decimal)
VERDICTS = (
    "covers the interval's top",
    "covers the estimate only",
    "does not cover",
    "not tested",
    "no lower bound stated",
    "no load within the latency target",
)
# LATENCY_TARGET_MS (stages.PARAMETERS): the only latency a document states as a criterion, Hitachi's
# "storage latency under 15 msec does not matter" (002:L542, L669, L671); the other documents report
# sub-millisecond results (NetApp < 1 ms 000:L459, AccelStor 003:L258, Nutanix < 1 ms), a target a
# buyer of all-flash may set with LATENCY_TARGET_MS=1.
DEFAULT_LATENCY_TARGET_MS = 15.0
# A per-array row's key: one tested configuration of a document's array, in one phase and condition.
ARRAY_ROW_KEY = ["source_id", "vendor", "array", "configuration", "phase", "condition"]
CAPABILITY_COLUMNS = [
    *ARRAY_ROW_KEY,
    "test_id",
    "statistic",
    "vantage",
    "iops",
    "bound",
    "floor",
    "derivation",
    "desktops",
    "latency_ms",
    "latency_bound",
    "latency_text",
    "busiest_resource",
    "busiest_pct",
    "busiest_bound",
    "busiest_text",
    "at_limit",
    "capability_status",
    "binding_resource",
    "controller_headroom",
    "status_text",
    "status_records",
    "record_ids",
]
VERDICT_COLUMNS = [
    *ARRAY_ROW_KEY,
    "desktops",
    "demand_iops",
    "demand_iops_top",
    "throughput_mbps",
    "demonstrated_iops",
    "demonstrated_bound",
    "demonstrated_phase",
    "vantage",
    "latency_ms",
    "latency_text",
    "busiest_resource",
    "busiest_text",
    "at_limit",
    "capability_status",
    "binding_resource",
    "status_text",
    "status_records",
    "verdict",
    "arrays_needed",
    "arrays_needed_top",
    "port_mbps",
    "port_bound",
    "arrays_needed_ports",
    "protection",
    "protection_source",
    "protection_write_penalty",
    "protection_be_iops",
    "clone_type",
    "capacity_gb_per_desktop",
    "capacity_tb",
    "usable_tb",
    "usable_bound",
    "arrays_needed_capacity",
    "capacity_text",
    "arrays_needed_binding",
    "binding_constraint",
    "arrays_needed_kind",
    "price_usd",
    "usd_per_desktop",
    "proxy_iops",
    "proxy_verdict",
    "proxy_arrays_needed",
    "proxy_usd_per_desktop",
    "latency_target_ms",
    "note",
    "record_ids",
]


def _sign(bound: str) -> str:
    return config.bound_sign(bound)


def _fmt(x: float) -> str:
    # half away from zero, as JavaScript's Math.round does for positive numbers (49,090.5 -> 49,091)
    return f"{math.floor(x + 0.5):,}" if abs(x) >= 100 else f"{x:g}"


def _vantage_label(v: str) -> str:
    return {
        "array_frontend": "array front end",
        "host": "ESXi host",
        "storage_port": "storage port",
        "array_backend": "array back end",
    }.get(v, v)


def _phase_rank(phase: str, cap_phase: str, rec_phase: str) -> int | None:
    """How well a latency or utilization figure's phase matches a load: 0 the capability phase
    itself (a login-storm figure beside a login peak), 1 the load record's own phase (a whole
    login + steady-state test), 2 a statement about every test (``overall``); None otherwise."""
    if phase == cap_phase:
        return 0
    if phase == rec_phase:
        return 1
    if phase in ("overall", ""):
        return 2
    return None


def _of_test(results, rec):
    """A boolean mask (Series) of the records of ``rec``'s test run used in the analysis: same ``source_id``,
    ``test_id``, ``condition`` and ``configuration`` as ``rec`` (a capability row or a record)."""
    return (
        (results["source_id"] == rec["source_id"])
        & (results["test_id"] == rec["test_id"])
        & (results["condition"] == rec["condition"])
        & (results["configuration"] == rec["configuration"])
        & results["used_in_analysis"]
    )


def _latency(results, rec, cap_phase: str = "", statistic: str = "") -> dict:
    """Latency of the load ``rec`` (same source, test, condition, configuration) from the same
    phase and, first, the same statistic as the load (a peak latency beside a peak load, an average
    beside an average): phase by ``_phase_rank``, then the statistic (the load's, then average,
    single, peak), then total before write before read latency, then stated values before bounds,
    then the highest. Where several figures of that phase and statistic are stated (Hitachi's port
    groups), the highest is taken and the others are named. Returns latency_ms, latency_bound,
    latency_text ('' when none is stated), latency_records."""
    r = results[
        _of_test(results, rec)
        & results["metric"].isin(["latency", "write_latency", "read_latency"])
        & (results["vantage"] != "guest")
    ]
    none = {"latency_ms": None, "latency_bound": "", "latency_text": "", "latency_records": ""}
    if r.empty:
        return none
    ph = [_phase_rank(p, cap_phase or rec["phase"], rec["phase"]) for p in r["phase"]]
    r = r.assign(_p=ph)
    r = r[r["_p"].notna()]
    if r.empty:
        return none
    stat_rank = {"average": 0, "single": 1, "peak": 2, **({statistic: -1} if statistic else {})}
    r = r.assign(
        _m=r["metric"].map({"latency": 0, "write_latency": 1, "read_latency": 2}),
        _s=r["statistic"].map(stat_rank).fillna(3),
        _b=~r["bound"].isin(["eq", "approx"]),
        _v=-r["value"],
    ).sort_values(["_p", "_s", "_m", "_b", "_v", "record_id"])
    x = r.iloc[0]
    same = r[(r["_p"] == x["_p"]) & (r["_s"] == x["_s"]) & (r["metric"] == x["metric"]) & (r["_b"] == x["_b"])]
    same = same.drop_duplicates("value")  # one figure printed in several places is one figure
    what = {"latency": "", "write_latency": "write ", "read_latency": "read "}[x["metric"]]
    stat = {"single": ""}.get(x["statistic"], x["statistic"] + " ")
    if x["statistic"] == "peak" and len(same) > 1:
        stat = "highest peak "
    others = same.iloc[1:]
    also = (
        "; also " + ", ".join(f"{_sign(o['bound'])}{o['value']:g} ms ({o['record_id']})" for _, o in others.iterrows())
        if len(others)
        else ""
    )
    return {
        "latency_ms": float(x["value"]),
        "latency_bound": x["bound"],
        "latency_text": (
            f"{_sign(x['bound'])}{x['value']:g} ms ({stat}{what}latency, {_vantage_label(x['vantage'])}, "
            f"{x['record_id']}{also})"
        )
        .replace("( ", "(")
        .replace("  ", " "),
        "latency_records": " ".join([x["record_id"], *others["record_id"]]),
    }


def _resource_kind(metric: str) -> str:
    """The part of the array a utilization figure measures: ``controller`` or ``drives``."""
    return "drives" if metric == "disk_busy" else "controller"


def _resources(results, rec, not_testable: dict, cap_phase: str = "", statistic: str = "") -> dict:
    """Utilization beside the load ``rec`` and the capability status it implies.

    The figures: controller CPU, MPU and disk busy of the record's test (same source, test,
    condition, configuration; else the source's statements about every test, phase ``overall``)
    whose phase matches the load (``_phase_rank``), and Login VSI's response time as a share of its
    VSImax threshold (the whole test). A figure counts as evidence only where its statistic can
    speak for the load's: the same statistic; an average at its limit under a peak load (the peak
    is at least the average); a peak below its limit under an average load (the average is at most
    the peak). A statement the claims table rates ``not testable`` is shown and never makes a
    limit.

    Status (FIELD: only a saturated resource, or a latency target reached, bounds a test's
    capability from above): ``at_limit`` when a figure is at ``SATURATED_PCT`` % or more (Login
    VSI: 100 % of the threshold, VSImax reached); ``not_stressed`` when figures are reported and
    none is at its limit (the load is a lower bound of capability); ``unknown`` when none is
    reported. ``binding_resource``: the part at its limit (``controller``, ``drives``, ``Login
    VSI``); ``controller_headroom``: the controllers reported below their limit while the drives
    were at theirs (the tested drive set, not the array, is what the load bounds).

    Returns busiest_resource, busiest_pct, busiest_bound, busiest_text (the highest figure, as
    before), at_limit, capability_status, binding_resource, controller_headroom, status_text,
    status_records."""
    cap_phase = cap_phase or rec["phase"]
    base = results[
        (results["source_id"] == rec["source_id"])
        & results["used_in_analysis"]
        & results["metric"].isin(list(UTILIZATION))
        & results["statistic"].isin(["peak", "average"])
    ]
    r = base[_of_test(base, rec)]
    r = r.assign(_p=[_phase_rank(p, cap_phase, rec["phase"]) for p in r["phase"]])
    r = r[r["_p"].notna()]
    if r.empty:
        r = base[base["phase"].isin(["overall", ""])].assign(_p=2)
    vsi = results[_of_test(results, rec) & (results["metric"] == "vsi_response_percent_of_threshold")]
    out = {
        "busiest_resource": "",
        "busiest_pct": None,
        "busiest_bound": "",
        "busiest_text": "not reported",
        "at_limit": False,
        "capability_status": "unknown",
        "binding_resource": "",
        "controller_headroom": False,
        "status_text": "no utilization reported for this test",
        "status_records": "",
    }
    if r.empty and vsi.empty:
        return out
    from .density import _pool

    def name(x):
        return UTILIZATION[x["metric"]] + (_pool(x["quote"]) if x["metric"] == "disk_busy" else "")

    if len(r):
        # the busiest figure (shown beside the load): the closest phase, then the highest stated value
        b = r.assign(
            _s=(r["statistic"] != statistic).astype(int), _b=(r["bound"] == "lt").astype(int), _v=-r["value"]
        ).sort_values(["_p", "_s", "_b", "_v", "record_id"])
        x = b.iloc[0]
        claim = not_testable.get((x["source_id"], int(x["line"]))) if x["line"] == x["line"] else None
        text = f"{name(x)} {_sign(x['bound'])}{x['value']:g} % ({x['statistic']}, {x['record_id']}"
        text += f"; claims table: not testable, {claim})" if claim else ")"
        out.update(busiest_resource=name(x), busiest_pct=float(x["value"]), busiest_bound=x["bound"], busiest_text=text)
    at, below, aside = [], [], []
    for _, x in r.iterrows():
        claim = not_testable.get((x["source_id"], int(x["line"]))) if x["line"] == x["line"] else None
        full = x["value"] >= SATURATED_PCT and x["bound"] != "lt"
        same = statistic in ("", x["statistic"])
        words = f"{name(x)} {_sign(x['bound'])}{x['value']:g} % ({x['statistic']}, {x['record_id']}" + (
            f"; not testable, {claim})" if claim else ")"
        )
        if full and claim:
            aside.append(words)
        elif full and (same or (statistic == "peak" and x["statistic"] == "average")):
            at.append((_resource_kind(x["metric"]), words, x["record_id"]))
        elif not full and (same or (statistic == "average" and x["statistic"] == "peak")):
            below.append((_resource_kind(x["metric"]), words, x["record_id"]))
        else:  # its statistic cannot speak for the load's (an average below its limit beside a peak load)
            aside.append(words)
    for _, x in vsi.iterrows():
        words = f"Login VSI response {x['value']:g} % of its VSImax threshold ({x['record_id']})"
        if x["value"] >= 100 and x["bound"] != "lt":
            at.append(("Login VSI", words, x["record_id"]))
        else:
            below.append(("Login VSI", words, x["record_id"]))
    if at:
        kinds = list(dict.fromkeys(k for k, _, _ in at))
        headroom = kinds == ["drives"] and any(k == "controller" for k, _, _ in below)
        out.update(
            at_limit=True,
            capability_status="at_limit",
            binding_resource=", ".join(kinds),
            controller_headroom=headroom,
            status_text="at its limit: "
            + "; ".join(w for _, w, _ in at)
            + (
                "; controllers below theirs: " + "; ".join(w for k, w, _ in below if k == "controller")
                if headroom
                else ""
            ),
            status_records=" ".join(
                dict.fromkeys(
                    [i for _, _, i in at] + ([i for k, _, i in below if k == "controller"] if headroom else [])
                )
            ),
        )
    elif below:
        out.update(
            capability_status="not_stressed",
            status_text="no resource at its limit: " + "; ".join(w for _, w, _ in below),
            status_records=" ".join(dict.fromkeys(i for _, _, i in below)),
        )
    if aside:
        out["status_text"] += "; also reported, not evidence for this load's statistic: " + "; ".join(aside)
    return out


def _candidates(results):
    """Every IOPS figure that states a load carried: (phase, row dict) pairs before latency."""
    import pandas as pd

    ok = results[results["used_in_analysis"] & results["condition"].isin(["normal", "failover"])]
    out = []
    for cap, (phases, stat) in CAPABILITY_PHASES.items():
        vant = ("array_backend",) if cap == "backend" else FRONT
        x = ok[ok["phase"].isin(phases) & ok["vantage"].isin(vant)]
        tot = x[(x["metric"] == "iops") & (x["statistic"] == stat)]
        for _, t in tot.iterrows():
            floor = (
                None
                if t["bound"] == "lt"
                else float(t["value_low"] if pd.notna(t["value_low"]) and t["bound"] == "approx" else t["value"])
            )
            out.append((cap, t, float(t["value"]), t["bound"], floor, "", t["record_id"]))
        if cap == "backend":
            continue
        # a test stating only read and write peaks carried at least the larger of the two
        rw = x[
            x["metric"].isin(["read_iops", "write_iops"])
            & (x["statistic"] == stat)
            & x["bound"].isin(["eq", "approx", "gt"])
        ]
        for (sid, _cond, _conf, tid, ph), g in rw.groupby(
            ["source_id", "condition", "configuration", "test_id", "phase"]
        ):
            if stat != "peak" or len(tot[(tot["source_id"] == sid) & (tot["test_id"] == tid) & (tot["phase"] == ph)]):
                continue
            t = g.sort_values(["value", "record_id"], ascending=[False, True]).iloc[0]
            other = g[g["metric"] != t["metric"]]
            how = (
                f"a total peak is at least its larger part: {t['metric'].split('_')[0]} peak {t['value']:,.0f} "
                f"({t['record_id']})"
                + (
                    f" > {other['metric'].iloc[0].split('_')[0]} peak {other['value'].iloc[0]:,.0f} "
                    f"({other['record_id'].iloc[0]})"
                    if len(other)
                    else ""
                )
            )
            out.append(
                (
                    cap,
                    t,
                    float(t["value"]),
                    "gt",
                    float(t["value_low"] if t["bound"] == "approx" else t["value"]),
                    how,
                    " ".join([t["record_id"], *other["record_id"]]),
                )
            )
        # a per-desktop mean the document states, times the test's desktops
        pd_ = x[
            (x["metric"] == "iops_per_desktop")
            & (x["aggregation"] == "desktop_mean")
            & x["desktops"].notna()
            & x["bound"].isin(["eq", "approx", "gt"])
            & x["statistic"].isin(["single", stat])
            & (x["phase"] == (cap if cap in SCENARIO_USER_PHASES else "_"))
        ]
        for _, t in pd_.iterrows():
            low = float(t["value_low"] if t["bound"] == "approx" else t["value"])
            out.append(
                (
                    cap,
                    t,
                    float(t["value"]) * float(t["desktops"]),
                    t["bound"],
                    low * float(t["desktops"]),
                    f"{_sign(t['bound'])}{t['value']:g} IOPS per desktop ({t['record_id']}) x "
                    f"{t['desktops']:,.0f} desktops (derived)",
                    t["record_id"],
                )
            )
    return out


def capability(results, sources_df, claims_register=None):
    """Demonstrated capability per tested configuration, phase and condition (module docstring):
    the candidate with the highest floor (ties: ``gt`` before ``eq`` before ``approx``, then the
    lowest record id); a phase with only upper bounds keeps its best bound with ``floor`` None.
    Columns ``CAPABILITY_COLUMNS``; iops and floor in IOPS, latency_ms in ms, busiest_pct in %."""
    import pandas as pd

    from .. import config

    arrays = sources_df.set_index("source_id")["array"]
    seeds = set(
        sources_df.loc[sources_df.get("role", pd.Series("seed", index=sources_df.index)) == "seed", "source_id"]
    )
    nt = {}
    if claims_register is not None:
        c = claims_register[claims_register["verdict"].str.strip() == "not testable"]
        nt = {(sid, int(line)): cid for sid, line, cid in zip(c["source_id"], c["line"], c["claim_id"])}
    rank = {"gt": 0, "eq": 1, "approx": 2, "lt": 3}
    cands = [c for c in _candidates(results) if c[1]["source_id"] in seeds]
    rows = []

    def keyf(c):
        return c[1]["source_id"], c[1]["configuration"], c[0], c[1]["condition"]

    order = {sid: i for i, sid in enumerate(sources_df["source_id"])}  # sources.csv order
    # each load's latency and resources come from its own document's records: looked up in that
    # document's rows (the same rows in the same order as in the whole table; 0.8 s -> 0.3 s)
    by_source = dict(tuple(results.groupby("source_id", sort=False)))
    for key in sorted({keyf(c) for c in cands}, key=lambda k: (order.get(k[0], len(order)), *k)):
        group = [c for c in cands if keyf(c) == key]
        group.sort(key=lambda c: (-(c[4] if c[4] is not None else -1.0), rank.get(c[3], 9), c[6]))
        cap, t, iops, bound, floor, how, ids = group[0]
        sid, conf, _, cond = key
        label = config.label("configuration", conf) if conf else ""
        rec = {"source_id": sid, "test_id": t["test_id"], "condition": cond, "configuration": conf, "phase": t["phase"]}
        stat = CAPABILITY_PHASES[cap][1]
        own = by_source[sid]
        lat = (
            _latency(own, rec, cap, stat)
            if cap != "backend"
            else {"latency_ms": None, "latency_bound": "", "latency_text": "", "latency_records": ""}
        )
        bz = _resources(own, rec, nt, cap if cap in SCENARIO_PHASES else "", stat)
        rows.append(
            {
                "source_id": sid,
                "vendor": t["vendor"],
                "array": f"{t['vendor']} {arrays.get(sid, '')} {label}".replace("  ", " ").strip(),
                "configuration": conf,
                "phase": cap,
                "condition": cond,
                "test_id": t["test_id"],
                "statistic": CAPABILITY_PHASES[cap][1],
                "vantage": t["vantage"],
                "iops": iops,
                "bound": bound,
                "floor": floor,
                "derivation": how,
                "desktops": float(t["desktops"]) if pd.notna(t["desktops"]) else None,
                **{k: v for k, v in lat.items() if k != "latency_records"},
                **bz,
                "record_ids": " ".join(dict.fromkeys(f"{ids} {lat['latency_records']}".split())),
            }
        )
    return pd.DataFrame(rows, columns=CAPABILITY_COLUMNS)


def protection_of(setup_wide, source_id: str, configuration: str) -> dict:
    """How a tested configuration protects its data as its document states it: test_setup.csv
    factor ``protection`` (the configuration's line, else the document's; ``not_stated`` when
    neither). Keys: protection (``test_setup.PROTECTION``), protection_source
    (``text_file:L<line>``), protection_write_penalty (``scenario.WRITE_PENALTY`` of a classic RAID
    level the document states, back-end I/Os per front-end write; None for any other protection:
    RAID DP, FlexiRemap or not stated pay no classic penalty the document states)."""
    from ..raw import test_setup
    from .scenario import WRITE_PENALTY

    value, src = test_setup.lookup(setup_wide, source_id, configuration, "protection")
    value = value or "not_stated"
    classic = value in WRITE_PENALTY and value != "none"
    return {
        "protection": value,
        "protection_source": src,
        "protection_write_penalty": float(WRITE_PENALTY[value]) if classic else None,
    }


def arrays(results, sources_df, register=None, setup_wide=None):
    """Per tested configuration (source and configuration of its capability rows): storage
    ports and controllers from test-bed records, and the protection its document states
    (``protection_of``). Columns: source_id, configuration, ports, gbps, port_mbps (ports x Gb/s
    x 125), port_bound (``eq``; ``lt`` when an audit register entry names a port record: the
    ports also carried other traffic), port_text, controllers, controllers_record, protection,
    protection_source, protection_write_penalty. ``setup_wide``: ``test_setup.setup_wide()``
    of test_setup.csv (required: TypeError when None).

    Ports: a ``storage_ports`` record with a speed (``port_speed``, ``network_speed``,
    ``fc_port_speed``) on the same line; else ``fc_ports_per_adapter`` x
    ``fc_adapters_per_controller`` x controllers (derived). Controllers: ``controllers``,
    ``storage_controllers`` or ``storage_nodes``."""
    import pandas as pd

    from ..raw import test_setup

    setup_wide = test_setup.required(setup_wide, "verdicts.arrays")
    tb = results[(results["phase"] == "testbed") & results["used_in_analysis"]]
    speeds = ("port_speed", "network_speed", "fc_port_speed")
    named = {}
    if register is not None:
        for _, e in register.iterrows():
            for rid in str(e.get("resolution", "")).replace(",", " ").replace(")", " ").replace("(", " ").split():
                named.setdefault(rid, e["id"])
    rows = []
    for sid in (
        sources_df.loc[sources_df["role"] == "seed", "source_id"] if "role" in sources_df else sources_df["source_id"]
    ):
        s = tb[tb["source_id"] == sid].sort_values("record_id")
        ctl = s[s["metric"].isin(["controllers", "storage_controllers", "storage_nodes"])]
        controllers = float(ctl["value"].iloc[0]) if len(ctl) else None
        ports = gbps = None
        ids, text = [], ""
        sp = s[s["metric"] == "storage_ports"]
        for _, p in sp.iterrows():
            sd = s[s["metric"].isin(speeds) & (s["line"] == p["line"])]
            if len(sd):
                ports, gbps = float(p["value"]), float(sd["value"].iloc[0])
                ids = [p["record_id"], sd["record_id"].iloc[0]]
                text = f"{ports:g} × {gbps:g} Gb/s ({' '.join(ids)})"
                break
        if ports is None:
            per = s[s["metric"] == "fc_ports_per_adapter"]
            ad = s[s["metric"] == "fc_adapters_per_controller"]
            sd = s[s["metric"] == "fc_port_speed"]
            if len(per) and len(ad) and len(sd) and controllers:
                ports = float(per["value"].iloc[0] * ad["value"].iloc[0] * controllers)
                gbps = float(sd["value"].iloc[0])
                ids = [
                    per["record_id"].iloc[0],
                    ad["record_id"].iloc[0],
                    ctl["record_id"].iloc[0],
                    sd["record_id"].iloc[0],
                ]
                text = (
                    f"{per['value'].iloc[0]:g} ports per adapter × {ad['value'].iloc[0]:g} adapters per controller × "
                    f"{controllers:g} controllers = {ports:g} × {gbps:g} Gb/s (derived; {' '.join(ids)})"
                )
        reg = [named[i] for i in ids if i in named]
        bound = "lt" if reg else "eq"
        if reg:
            text += f"; at most: the ports also carried other traffic ({reg[0]})"
        confs = sorted(
            set(results.loc[(results["source_id"] == sid) & (results["configuration"] != ""), "configuration"]) - set()
        ) or [""]
        confs = [c for c in confs if not c.startswith("_")]
        for conf in confs:
            rows.append(
                {
                    "source_id": sid,
                    "configuration": conf,
                    "ports": ports,
                    "gbps": gbps,
                    "port_mbps": ports * gbps * MB_PER_GBIT if ports else None,
                    "port_bound": bound if ports else "",
                    "port_text": text,
                    "controllers": controllers,
                    "controllers_record": ctl["record_id"].iloc[0] if len(ctl) else "",
                    **protection_of(setup_wide, sid, conf),
                }
            )
    return pd.DataFrame(
        rows,
        columns=[
            "source_id",
            "configuration",
            "ports",
            "gbps",
            "port_mbps",
            "port_bound",
            "port_text",
            "controllers",
            "controllers_record",
            "protection",
            "protection_source",
            "protection_write_penalty",
        ],
    )


CAPACITY_METRICS = ("used_capacity_per_desktop", "unreduced_capacity", "used_capacity")


def validate_clone_type(clone_type) -> str:
    """``clone_type`` if it is one of ``SCENARIO_CLONE_TYPES``; raises ValueError with a plain message."""
    if clone_type not in SCENARIO_CLONE_TYPES:
        raise ValueError(f"unknown clone_type {clone_type!r}; use full or linked (how the desktops are cloned)")
    return clone_type


# Where a modern template-image table names its provisioning mode (the record's locator), else
# test_setup.csv's provisioning of the record's configuration, else not stated.
MODE_IN_LOCATOR = {"(MCS)": "mcs", "(Provisioning)": "pvs", "(PVS)": "pvs"}


def _swap(tb, m) -> tuple[float, str, str, float | None]:
    """(swap GB, how, memory record, reservation GB or None) of one desktop ``memory`` record ``m``
    with the reservation stated beside it in test-bed rows ``tb`` (``memory_reservation`` GB or
    ``memory_reservation_percent``); the whole memory where no reservation is stated."""
    res = tb[tb["metric"] == "memory_reservation"]
    pct = tb[tb["metric"] == "memory_reservation_percent"]
    if len(res):
        r = float(res["value"].iloc[0])
        how = f"{m['value']:g} - {r:g} GB reserved ({m['record_id']}, {res['record_id'].iloc[0]})"
        return float(m["value"]) - r, how, m["record_id"], r
    if len(pct):
        r = float(m["value"]) * float(pct["value"].iloc[0]) / 100
        how = f"{m['value']:g} GB, {pct['value'].iloc[0]:g} % reserved ({m['record_id']}, {pct['record_id'].iloc[0]})"
        return float(m["value"]) - r, how, m["record_id"], r
    return float(m["value"]), f"{m['value']:g} GB, no reservation stated ({m['record_id']})", m["record_id"], None


def _first(x: tuple):
    return x[0]


def memory_lines(results, sources_df, setup_wide) -> list[dict]:
    """Memory per desktop as each document states it: one line per desktop ``memory`` test-bed
    record (infrastructure, launcher and controller VMs have their own metrics), with its era
    (``era.ERA_OF_ROLE`` of the document's role), the reservation stated beside it and the swap it
    leaves (memory - reservation, GB; the whole memory where none is stated), and how the desktops
    were provisioned. Keys: era, source_id, record_id, memory_gb, reservation_gb (None: not
    stated), swap_gb, how, clone_type (sources.csv, without ``_clone``), provisioning (``mcs``,
    ``pvs``, ``linked_clone``, ``full_clone`` or ``not stated``: the locator's ``MODE_IN_LOCATOR``,
    else test_setup.csv's provisioning of the record's configuration, else the document's clone
    type when it has one, else not stated), provisioning_source. ``setup_wide``:
    ``test_setup.setup_wide()`` of test_setup.csv (TypeError when None).

    Seed documents: only those of one scenario clone type (a mixed test bed's memory belongs to
    no clone type) and only records without a worker class (the desktops, not a sizing table's
    workload definition)."""
    from ..raw import test_setup
    from .era import ERA_OF_ROLE

    setup_wide = test_setup.required(setup_wide, "verdicts.memory_lines")
    ok = results[results["used_in_analysis"] & (results["phase"] == "testbed")]
    out = []
    for _, d in sources_df.iterrows():
        era = ERA_OF_ROLE.get(d.get("role", "seed"), "")
        clone = str(d.get("clone_type", "")).removesuffix("_clone")
        if not era or (era == "seed" and clone not in SCENARIO_CLONE_TYPES):
            continue
        tb = ok[ok["source_id"] == d["source_id"]]
        if era == "seed":
            tb = tb[tb["worker_class"] == ""]
        seen = set()
        for _, m in tb[tb["metric"] == "memory"].sort_values("record_id").iterrows():
            sw, how, rid, res = _swap(tb[tb["configuration"] == m["configuration"]], m)
            mode = next((v for k, v in MODE_IN_LOCATOR.items() if k in str(m["locator"])), "")
            if (m["value"], m["configuration"], mode) in seen:  # a table restating the memory: one line
                continue
            seen.add((m["value"], m["configuration"], mode))
            src = f"{m['record_id']} locator" if mode else ""
            if not mode and m["configuration"]:
                mode, src = test_setup.lookup(setup_wide, d["source_id"], m["configuration"], "provisioning")
            if not mode and era == "seed":
                mode, src = f"{clone}_clone", "sources.csv clone_type"
            out.append(
                {
                    "era": era,
                    "source_id": d["source_id"],
                    "record_id": rid,
                    "memory_gb": float(m["value"]),
                    "reservation_gb": res,
                    "swap_gb": sw,
                    "how": how,
                    "clone_type": clone,
                    "provisioning": mode or "not stated",
                    "provisioning_source": src,
                }
            )
    return out


def capacity(results, sources_df, setup_wide) -> dict:
    """Capacity per desktop by era and clone type, the memory behind its swap, and the usable
    capacity of each tested configuration. Returns ``{"per_desktop": {era: {clone_type: {high, low,
    written_gb, reduced_gb, swap_gb, swap_gb_low, text, records}}}, "memory": [memory_lines],
    "modes": {era: [{provisioning, memory_gb_low, memory_gb_high, swap_gb, written_gb, records}]},
    "usable": [{source_id, configuration, usable_tb, bound, text, records}]}``, GB per desktop and
    TB (decimal). ``setup_wide``: ``test_setup.setup_wide()`` of test_setup.csv (TypeError when
    None; ``memory_lines`` reads it).

    written_gb: the most a desktop of that clone type wrote, before the vendor's data reduction
    (``unreduced_capacity`` / desktops, derived, or a measured ``used_capacity_per_desktop``), from
    the seed documents of that clone type (sources.csv ``clone_type`` ``full_clone`` or
    ``linked_clone``; a mixed test bed is left out): the only documents that measured it (the modern
    documents state no capacity per desktop), so both eras take it; reduced_gb: the least after it
    (``used_capacity`` / desktops, derived, or a measured per-desktop figure). swap_gb: memory -
    reservation (``memory_lines``) of the era's own desktops: the seed documents of that clone type
    for ``seed``, every modern document's desktops for ``modern`` (their memory does not depend on
    the clone type; no reservation stated: the whole memory). high = written + the largest swap
    (what the scenario sizes with: no data-reduction credit, since the reduction of identical
    synthetic clones is a test artefact); low = reduced + the smallest swap.

    modes: per era, the provisioning modes its documents state (``memory_lines`` provisioning: MCS,
    Citrix Provisioning, linked or full clones; ``not stated`` where a template table names none)
    with their memory and swap; ``written_gb`` is None (not stated) where no document of the era
    measured the space a desktop of that mode writes (every modern mode).

    Usable: ``capacity_lines`` of each seed document."""
    from ..raw import test_setup

    test_setup.required(setup_wide, "verdicts.capacity")
    ok = results[results["used_in_analysis"]]
    seeds = sources_df[sources_df["role"] == "seed"] if "role" in sources_df else sources_df
    mem = memory_lines(results, sources_df, setup_wide)
    eras = list(dict.fromkeys(m["era"] for m in mem)) or ["seed"]
    per = {e: {} for e in eras}
    for clone in SCENARIO_CLONE_TYPES:
        docs = seeds[seeds["clone_type"] == f"{clone}_clone"]
        written, reduced = [], []
        for _, d in docs.iterrows():
            r = ok[ok["source_id"] == d["source_id"]]
            n = float(d["desktops"])
            cap_rows = r[(r["phase"] == "capacity") & r["metric"].isin(CAPACITY_METRICS)]
            for _, x in cap_rows[cap_rows["metric"] == "used_capacity_per_desktop"].iterrows():
                txt = f"{_sign(x['bound'])}{x['value']:g} GB ({x['record_id']})"
                written.append((float(x["value"]), txt, x["record_id"]))
                reduced.append((float(x["value"]), txt, x["record_id"]))
            for metric, into in (("unreduced_capacity", written), ("used_capacity", reduced)):
                # the document's whole-population figure: its largest total (a table may give one volume's)
                tot = cap_rows[(cap_rows["metric"] == metric) & cap_rows["statistic"].isin(["single", "total"])]
                if len(tot):
                    x = tot.sort_values(["value", "record_id"], ascending=[False, True]).iloc[0]
                    how = f"{x['value']:,.0f} GB / {n:,.0f} desktops ({x['record_id']}, derived)"
                    into.append((float(x["value"]) / n, how, x["record_id"]))
        if not written:
            continue
        w, rd = max(written), min(reduced) if reduced else max(written)
        for e in eras:
            swap = [
                (m["swap_gb"], m["how"], m["record_id"])
                for m in mem
                if m["era"] == e and (e != "seed" or m["clone_type"] == clone)
            ]
            # among equal swaps, the first record
            sw_hi, sw_lo = (
                (max(swap, key=_first), min(swap, key=_first))
                if swap
                else ((0.0, "swap not stated", ""), (0.0, "", ""))
            )
            whose = "" if e == "seed" else " (the seed documents': the modern documents state no capacity per desktop)"
            mine = "" if e == "seed" else f" of the {e} desktops"
            per[e][clone] = {
                "written_gb": w[0],
                "reduced_gb": rd[0],
                "swap_gb": sw_hi[0],
                "swap_gb_low": sw_lo[0],
                "high": w[0] + sw_hi[0],
                "low": rd[0] + sw_lo[0],
                "text": (
                    f"written {w[1]}{whose} + swap{mine} {sw_hi[1]}; after the vendor's data reduction {rd[1]}"
                    + (f" + the smallest swap {sw_lo[1]}" if sw_lo[2] and sw_lo[2] != sw_hi[2] else "")
                ),
                "records": " ".join(dict.fromkeys(x for x in (w[2], sw_hi[2], rd[2], sw_lo[2]) if x)),
            }
    modes = {e: [] for e in eras}
    for e in eras:
        for mode in dict.fromkeys(m["provisioning"] for m in mem if m["era"] == e):
            ms = [m for m in mem if m["era"] == e and m["provisioning"] == mode]
            clone = mode.removesuffix("_clone")
            measured = e == "seed" and clone in per[e]
            modes[e].append(
                {
                    "provisioning": mode,
                    "memory_gb_low": min(m["memory_gb"] for m in ms),
                    "memory_gb_high": max(m["memory_gb"] for m in ms),
                    "swap_gb": max(m["swap_gb"] for m in ms),
                    "written_gb": per[e][clone]["written_gb"] if measured else None,  # None: not stated
                    "records": " ".join(m["record_id"] for m in ms),
                }
            )
    usable = []
    for sid in seeds["source_id"]:
        usable += capacity_lines(results, sid)
    return {"per_desktop": per, "memory": mem, "modes": modes, "usable": usable}


_RAID = re.compile(r"RAID-?(\d+)\s*\((\d+)D\+(\d+)[DP]\)")


def _tb(gb: float) -> str:
    return f"{gb / 1000:g} TB"


def capacity_lines(results, source_id: str) -> list[dict]:
    """The capacity of each tested configuration of a document as the document states it, one line
    per configuration (``configuration`` "" for the whole document): ``kind`` ``usable``, ``raw``,
    ``physical`` or ``not stated`` (never one for another), ``usable_tb`` only for ``usable`` (TB,
    decimal), ``bound``, ``text`` (the figures with their records), ``records``.

    - usable from the document's own RAID layout: per pool, parity groups x data drives of its
      RAID group (``RAID-10 (2D+2D)``: 2) x drive capacity, from one row of the layout table
      (``parity_groups``, ``drive_capacity`` and ``drives`` on one line, the drives matching the
      RAID groups), summed over the configuration's pools (Hitachi Config 1: the 6.4 TB FMD
      pool and the 7.2 TB SAS pool); a stated ``usable_capacity`` of the configuration is named;
    - else a stated test-bed ``usable_capacity``;
    - else raw: the document's ``raw_capacity`` (also where the register sets it aside, with the
      active drives x formatted capacity behind it: Dell's "99TB of raw space"), or drives x drive
      capacity (derived);
    - else physical: used capacity / its share of the physical capacity (AccelStor: 420 GB = 4 %).

    Usable capacity is never derived from raw or physical capacity (no protection overhead is
    assumed), so only a usable line enters the arrays needed for capacity."""
    r = results[(results["source_id"] == source_id) & (results["phase"].isin(["testbed", "capacity"]))]
    tb = r[(r["phase"] == "testbed") & r["used_in_analysis"]]
    confs = sorted(c for c in set(tb["configuration"]) if c and not c.startswith("_")) or [""]
    out = []
    for conf in confs:
        mine = tb[tb["configuration"] == conf]
        pools = []
        for _, pg in mine[mine["metric"] == "parity_groups"].sort_values("record_id").iterrows():
            size = mine[(mine["metric"] == "drive_capacity") & (mine["line"] == pg["line"])]
            count = mine[(mine["metric"] == "drives") & (mine["line"] == pg["line"])]
            m = _RAID.search(str(pg["quote"]))
            # one pool per layout-table row: its parity groups, drive size and drive count on one line,
            # the count matching the RAID groups (prose restating a pool is not a second pool)
            if size.empty or count.empty or not m:
                continue
            data = int(m.group(2))
            if float(count["value"].iloc[0]) != float(pg["value"]) * (data + int(m.group(3))):
                continue
            gb = float(pg["value"]) * data * float(size["value"].iloc[0])
            pools.append(
                (
                    gb,
                    f"{pg['value']:g} RAID-{m.group(1)} ({m.group(2)}D+{m.group(3)}D) parity groups × {data} data "
                    f"drives × {_tb(float(size['value'].iloc[0]))} = {_tb(gb)} ({pg['record_id']}, "
                    f"{size['record_id'].iloc[0]})",
                    [pg["record_id"], size["record_id"].iloc[0]],
                )
            )
        stated = mine[mine["metric"] == "usable_capacity"]
        if pools:
            total = sum(g for g, _, _ in pools)
            text = " + ".join(t for _, t, _ in pools)
            text += f" = {_tb(total)} usable (derived from the document's RAID layout)"
            ids = [i for _, _, x in pools for i in x]
            for _, x in stated.iterrows():
                text += f"; the document's {_sign(x['bound'])}{_tb(x['value'])} ({x['record_id']})"
                if len(pools) > 1 and any(abs(g - x["value"]) < 1e-6 for g, _, _ in pools):
                    text += " is one pool's alone"
                ids.append(x["record_id"])
            out.append(_cap_line(source_id, conf, "usable", total / 1000, "eq", text, ids))
            continue
        if len(stated):
            x = stated.iloc[0]
            text = f"{_sign(x['bound'])}{_tb(x['value'])} usable ({x['record_id']})"
            out.append(_cap_line(source_id, conf, "usable", x["value"] / 1000, x["bound"], text, [x["record_id"]]))
            continue
        raw = r[(r["metric"] == "raw_capacity") & (r["phase"] == "testbed")]
        act, per_drive = mine[mine["metric"] == "active_drives"], mine[mine["metric"] == "drive_usable_capacity"]
        if len(raw):
            x = raw.iloc[0]
            text = f"{_tb(x['value'])} of raw space as the document says ({x['record_id']})"
            ids = [x["record_id"]]
            if len(act) and len(per_drive):
                a, d = act.iloc[0], per_drive.iloc[0]
                reg = str(x.get("resolution", "")).split(":")[0]
                text += (
                    f", which is {a['value']:g} active drives × {_tb(d['value'])} formatted per drive = "
                    f"{_tb(a['value'] * d['value'])} ({a['record_id']}, {d['record_id']}"
                    + (f"; {reg}" if reg else "")
                    + ")"
                )
                ids += [a["record_id"], d["record_id"]]
            text += "; usable after RAID not stated"
            out.append(_cap_line(source_id, conf, "raw", None, x["bound"], text, ids))
            continue
        drives, size = mine[mine["metric"] == "drives"], mine[mine["metric"] == "drive_capacity"]
        if len(drives) and len(size):
            n, d = drives.sort_values("record_id").iloc[0], size.sort_values("record_id").iloc[0]
            text = (
                f"{n['value']:g} drives × {_tb(d['value'])} = {_tb(n['value'] * d['value'])} raw (derived; "
                f"{n['record_id']}, {d['record_id']}); usable not stated"
            )
            out.append(_cap_line(source_id, conf, "raw", None, "eq", text, [n["record_id"], d["record_id"]]))
            continue
        used = r[(r["metric"] == "used_capacity") & (r["statistic"] == "total") & r["used_in_analysis"]]
        pct = r[(r["metric"] == "used_capacity_percent") & r["used_in_analysis"]]
        if len(used) and len(pct) and float(pct["value"].iloc[0]) > 0:
            a, p = used.iloc[0], pct.iloc[0]
            v = float(a["value"]) * 100 / float(p["value"])
            text = (
                f"{a['value']:g} GB = {p['value']:g} % of the physical capacity → {_tb(v)} physical (derived; "
                f"{a['record_id']}, {p['record_id']}); usable not stated"
            )
            out.append(_cap_line(source_id, conf, "physical", None, "eq", text, [a["record_id"], p["record_id"]]))
            continue
        out.append(_cap_line(source_id, conf, "not stated", None, "", "capacity not stated", []))
    return out


def _cap_line(sid, conf, kind, usable_tb, bound, text, ids) -> dict:
    return {
        "source_id": sid,
        "configuration": conf,
        "kind": kind,
        "usable_tb": usable_tb,
        "bound": bound if kind == "usable" else "",
        "text": text,
        "records": " ".join(dict.fromkeys(ids)),
    }


def to_inputs(cap, arr, capacity_facts: dict | None = None) -> dict:
    """The JSON-able part of ``sizing_inputs.json`` the verdicts need: ``capability`` (rows of
    ``capability``) and ``arrays`` (rows of ``arrays``), NaN as null."""

    def clean(v):
        if isinstance(v, float) and math.isnan(v):
            return None
        if hasattr(v, "item"):
            v = v.item()
        return v

    return {
        "capability": [{k: clean(v) for k, v in r.items()} for r in cap.to_dict("records")],
        "arrays": [{k: clean(v) for k, v in r.items()} for r in arr.to_dict("records")],
        "capacity_by_clone": capacity_facts or {"per_desktop": {}, "usable": []},
    }


def _ceil(x: float) -> int:
    # 2.0000000001 from floating point is 2 arrays, not 3
    return int(math.ceil(round(x, 9)))


def price_for(prices: dict, source_id: str, configuration: str):
    """The buyer's price of one array: ``source_id:configuration`` before ``source_id``; None."""
    if not prices:
        return None
    if configuration and f"{source_id}:{configuration}" in prices:
        return prices[f"{source_id}:{configuration}"]
    return prices.get(source_id)


def _verdict(floor, demand, top) -> str:
    # a demand known as a lower bound has no interval (top None or NaN): no verdict can claim its top
    if top is not None and not math.isnan(top) and floor >= top:
        return VERDICTS[0]
    if floor >= demand:
        return VERDICTS[1]
    return VERDICTS[2]


def validate_latency_target(value) -> float:
    """``LATENCY_TARGET_MS`` as a positive number of milliseconds; raises ValueError."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"latency_target_ms must be a positive number of milliseconds, got {value!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"latency_target_ms must be a positive number of milliseconds, got {value!r}")
    return v


def over_target(cap_row: dict, target: float) -> bool:
    """True when the load's own latency (same test, phase and vantage) is known to exceed the
    latency target: a stated or approximate value above it, or a lower bound (``> 1.5 ms``) at or
    above it. A latency not stated, an upper bound, or a lower bound below the target says
    nothing against the load."""
    v, b = cap_row.get("latency_ms"), cap_row.get("latency_bound") or "eq"
    if v is None or (isinstance(v, float) and math.isnan(v)) or b == "lt":
        return False
    return v >= target if b == "gt" else v > target


def _best(mine: list[dict], want: tuple, condition: str, target: float = DEFAULT_LATENCY_TARGET_MS):
    """(the capability row of ``want`` phases under ``condition`` with the highest floor whose
    latency met the target or None, every such row, the rows left out for their latency)."""
    c = [x for x in mine if x["phase"] in want and x["condition"] == condition]
    over = [x for x in c if x["floor"] is not None and over_target(x, target)]
    with_floor = sorted((x for x in c if x["floor"] is not None and x not in over), key=lambda x: -x["floor"])
    return (with_floor[0] if with_floor else None), c, over


def _failover_proxy(row: dict, mine: list[dict], want: tuple, a: dict, fe: float, top: float) -> None:
    """One controller down, not tested: the labelled proxy (``PROXY_FACTOR`` x the normal floor)
    where the documents state two controllers; else why there is none (in ``note``)."""
    nb = _best(mine, want, "normal", row["latency_target_ms"])[0]
    if nb is not None and a.get("controllers") == 2:
        p = nb["floor"] * PROXY_FACTOR
        row.update(proxy_iops=p, proxy_verdict=_verdict(p, fe, top), proxy_arrays_needed=_ceil(fe / p))
        row["note"] = (
            f"not tested with a controller down; proxy (not a test): half the normal {_fmt(nb['floor'])} IOPS "
            f"({nb['record_ids']}), two controllers ({a.get('controllers_record')})"
        )
    else:
        why = "no lower bound of the normal load" if nb is None else "the documents do not state two controllers"
        row["note"] = "not tested with a controller down; no proxy: " + why


def _phase_row(head: dict, phase: str, cond: str, d: dict, mine: list[dict], a: dict) -> dict:
    """One verdict row: the demand ``d`` (a scenario.size row) against the configuration's
    capability rows ``mine`` and array facts ``a``."""
    fe, top, mbps = d["fe_iops"], d["fe_iops_pi90_high"], d["throughput_mbps"]
    want = ("boot",) if phase == "boot" else SCENARIO_USER_PHASES
    row = {**head, "phase": phase, "condition": cond, "demand_iops": fe, "demand_iops_top": top}
    target = head["latency_target_ms"]
    row.update({k: None for k in VERDICT_COLUMNS if k not in row})
    row.update(
        throughput_mbps=mbps,
        port_mbps=a.get("port_mbps"),
        port_bound=a.get("port_bound") or "",
        at_limit=False,
        record_ids="",
        note="",
    )
    # the array's own protection (protection_of): a back end only where its document states a classic RAID
    wp, rs = a.get("protection_write_penalty"), d.get("read_share")
    row.update(
        protection=a.get("protection") or "not_stated",
        protection_source=a.get("protection_source") or "",
        protection_write_penalty=wp,
    )
    if wp is not None and rs is not None and not math.isnan(rs):
        row["protection_be_iops"] = fe * (rs + (1 - rs) * wp)
    if a.get("port_mbps") and mbps is not None and not math.isnan(mbps):  # no I/O size known: no port constraint
        row["arrays_needed_ports"] = _ceil(mbps / a["port_mbps"])
    b, seen, over = _best(mine, want, cond, target)
    over_txt = "; ".join(
        f"{PHASE_WORDS.get(x['phase'], x['phase'])} {_fmt(x['floor'])} IOPS at {x['latency_text']}" for x in over
    )
    if b is not None:
        row.update(
            {
                k: b[k]
                for k in (
                    "vantage",
                    "latency_ms",
                    "latency_text",
                    "busiest_resource",
                    "busiest_text",
                    "capability_status",
                    "binding_resource",
                    "status_text",
                    "status_records",
                    "record_ids",
                )
            }
        )
        row["_kind"] = _kind(b)
        row.update(
            demonstrated_iops=b["floor"],
            demonstrated_bound=b["bound"],
            demonstrated_phase=b["phase"],
            at_limit=bool(b["at_limit"]),
            verdict=_verdict(b["floor"], fe, top),
            arrays_needed=_ceil(fe / b["floor"]),
            arrays_needed_top=_ceil(top / b["floor"]) if top is not None and not math.isnan(top) else None,
            note="; ".join(
                x
                for x in (
                    b["derivation"],
                    f"over the {target:g} ms latency target, left out: {over_txt}" if over else "",
                )
                if x
            ),
        )
    elif over or seen:
        # no load to size with: the first load over the latency target, else the first upper bound, named
        x = (over or seen)[0]
        row.update(demonstrated_phase=x["phase"], vantage=x["vantage"], record_ids=x["record_ids"])
        if over:
            row.update(
                verdict=VERDICTS[5],
                latency_ms=x["latency_ms"],
                latency_text=x["latency_text"],
                note=f"every demonstrated load's latency exceeds the {target:g} ms target: {over_txt}",
            )
        else:
            row.update(
                verdict=VERDICTS[4],
                note=f"only an upper bound is stated: {_sign(x['bound'])}{_fmt(x['iops'])} IOPS ({x['record_ids']})",
            )
    else:
        row["verdict"] = VERDICTS[3]
        if cond == "failover":
            _failover_proxy(row, mine, want, a, fe, top)
    return row


KINDS = ("exact", "drive sets", "at most")  # arrays_needed_kind, most definite first


def _kind(cap_row: dict) -> str:
    """What ``ceil(demand / floor)`` counts for a capability row: ``exact`` arrays where the test
    reached a limit of the array (controllers, Login VSI); ``drive sets`` where only the drives
    were at their limit while the controllers had headroom (the tested drive set bounds the load,
    not the array: fewer arrays may hold that many drive sets); ``at most`` where no resource was
    at its limit or none was reported (the load is a lower bound of capability, so the arrays it
    implies are an upper bound)."""
    if cap_row.get("capability_status") != "at_limit":
        return KINDS[2]
    return KINDS[1] if cap_row.get("controller_headroom") else KINDS[0]


def _capacity(rows: list[dict], inputs: dict, sid: str, conf: str, clone: str, desktops: int, era: str) -> None:
    """Capacity for the scenario's desktops by era and clone type (``capacity``: the figure
    ``scenario.size`` also reads), beside the configuration's usable capacity, and the arrays that
    capacity needs (``ceil(capacity_tb / usable_tb)``)."""
    facts = inputs.get("capacity_by_clone") or {}
    per = ((facts.get("per_desktop") or {}).get(era) or {}).get(clone)
    lines = [u for u in facts.get("usable") or [] if u["source_id"] == sid and u["configuration"] in (conf, "")]
    lines.sort(key=lambda u: u["configuration"] != conf)
    us = [u for u in lines if u.get("kind", "usable") == "usable" and u.get("usable_tb") is not None]
    for r in rows:
        r["clone_type"] = clone
        r["capacity_text"] = lines[0]["text"] if lines else "capacity not stated"
        if per is None:
            continue
        r["capacity_gb_per_desktop"] = per["high"]
        r["capacity_tb"] = desktops * per["high"] / 1000
        if us:
            r["usable_tb"], r["usable_bound"] = us[0]["usable_tb"], us[0]["bound"]
            r["arrays_needed_capacity"] = _ceil(r["capacity_tb"] / us[0]["usable_tb"])


def _bind(rows: list[dict], cond: str, price, desktops: int) -> None:
    """The binding constraint over the phases of one configuration and condition: the most
    arrays any phase needs by IOPS or ports; USD per desktop from it (and, one controller down
    and untested, from the proxy, kept apart)."""
    if all(r["arrays_needed"] is not None for r in rows):
        # the most arrays; among equals the most definite count (KINDS), then the tightest
        # (capacity x arrays / demand smallest)
        best = (0, len(KINDS), math.inf, "", KINDS[2])  # arrays, kind rank, margin, constraint, kind
        c = rows[0]
        cands = [
            (n, have, need, f"{what}, {PHASE_WORDS[r['phase']]}", kind)
            for r in rows
            for n, have, need, what, kind in (
                (r["arrays_needed"], r["demonstrated_iops"], r["demand_iops"], "IOPS", r.get("_kind", KINDS[2])),
                (r["arrays_needed_ports"], r["port_mbps"], r["throughput_mbps"], "ports", KINDS[0]),
            )
        ]
        cands.append(
            (
                c["arrays_needed_capacity"],
                c["usable_tb"],
                c["capacity_tb"],
                f"capacity, {c['clone_type']} clones",
                KINDS[1],  # the tested drive set's usable capacity: an array may hold more drives
            )
        )
        for n, have, need, what, kind in cands:
            if n is None:
                continue
            m = have * n / need if need else math.inf
            key = (n, -KINDS.index(kind), -m)
            if key > (best[0], -best[1], -best[2]):
                best = (n, KINDS.index(kind), m, what, kind)
        best_n, _, _, what, kind = best
        for r in rows:
            r["arrays_needed_binding"], r["binding_constraint"], r["arrays_needed_kind"] = best_n, what, kind
            if price is not None:
                r["usd_per_desktop"] = best_n * price / desktops
    elif cond == "failover" and all(
        r["arrays_needed"] is not None or r["proxy_arrays_needed"] is not None for r in rows
    ):
        pn = max(
            max(
                r["proxy_arrays_needed"] or r["arrays_needed"] or 0,
                r["arrays_needed_ports"] or 0,
                r["arrays_needed_capacity"] or 0,
            )
            for r in rows
        )
        for r in rows:
            if price is not None:
                r["proxy_usd_per_desktop"] = pn * price / desktops


def verdicts(size_rows: list[dict], inputs: dict, params: dict, prices: dict | None = None) -> list[dict]:
    """Verdict rows (``VERDICT_COLUMNS``, as dicts) for the scenario: ``size_rows`` are
    ``scenario.size`` rows as dicts (phase, fe_iops, fe_iops_pi90_high, io_size_kb,
    throughput_mbps); ``inputs`` has ``capability`` and ``arrays`` (``to_inputs``);
    ``params`` the validated scenario (desktops, era: the capacity's era, default
    ``inputs["default_era"]``; clone_type; latency_target_ms); ``prices`` USD per array by
    ``source_id[:configuration]``. Sorted by source (inputs order), configuration, condition,
    phase. The JavaScript twin (static/verdicts.js ``verdicts``) returns the same rows."""
    cap = inputs.get("capability", [])
    arr = {(a["source_id"], a["configuration"]): a for a in inputs.get("arrays", [])}
    demand = {r["phase"]: r for r in size_rows}
    configs = list(dict.fromkeys((c["source_id"], c["configuration"]) for c in cap if c["phase"] in SCENARIO_PHASES))
    out = []
    desktops = params["desktops"]
    clone = validate_clone_type(params.get("clone_type", "linked"))
    target = validate_latency_target(params.get("latency_target_ms", DEFAULT_LATENCY_TARGET_MS))
    era = params.get("era") or inputs.get("default_era")
    for sid, conf in configs:
        mine = [c for c in cap if c["source_id"] == sid and c["configuration"] == conf]
        a = arr.get((sid, conf), arr.get((sid, ""), {}))
        price = price_for(prices or {}, sid, conf)
        head = {
            "source_id": sid,
            "vendor": mine[0]["vendor"],
            "array": mine[0]["array"],
            "configuration": conf,
            "desktops": desktops,
            "price_usd": price,
            "latency_target_ms": target,
        }
        for cond in ("normal", "failover"):
            rows = [_phase_row(head, phase, cond, demand[phase], mine, a) for phase in SCENARIO_PHASES]
            _capacity(rows, inputs, sid, conf, clone, desktops, era)
            _bind(rows, cond, price, desktops)
            out += rows
    return [{k: r.get(k) for k in VERDICT_COLUMNS} for r in out]
