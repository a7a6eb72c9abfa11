"""Per-array answers (issue 17): demonstrated capability from records, verdicts, arrays needed, ports,
N+1 and cost from the buyer's quote, checked against hand calculations from cited records; the
JavaScript twin gives the same rows; the report with a quote file renders them."""

import json
import math
import shutil
import subprocess

import pandas as pd
import pytest

from vdi_report import config
from vdi_report.models import scenario, verdicts
from vdi_report.raw import sources

JS = config.PROJ_ROOT / "src" / "vdi_report" / "static" / "verdicts.js"


def _value(results, record_id):
    return float(results.loc[results["record_id"] == record_id, "value"].iloc[0])


@pytest.fixture(scope="module")
def cap(results):
    claims = sources.read_csv_text(config.RAW_DIR / "claims.csv")
    return verdicts.capability(results, sources.load_sources(), claims)


@pytest.fixture(scope="module")
def inputs(results, cap):
    """The written sizing inputs; their capability and arrays are what the records give now."""
    reg = sources.read_csv_text(config.RAW_DIR / "discrepancies.csv")
    written = scenario.read_inputs()
    s = sources.load_sources()
    fresh = verdicts.to_inputs(cap, verdicts.arrays(results, s, reg), verdicts.capacity(results, s))
    assert json.loads(json.dumps(fresh)) == {k: written[k] for k in fresh}, "sizing_inputs.json is stale"
    return written


def _size(inp, clone_type="linked", **p):
    # the hand calculations below are against the seed era's demand (issue 16 made modern the default)
    scenario_params = scenario.validate(**{"desktops": 10000, "worker_class": "knowledge", "era": "seed", **p})
    rows = [
        {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
        for r in scenario.size(scenario_params, inp).to_dict("records")
    ]
    return {**scenario_params, "clone_type": clone_type}, rows


def _row(rows, source_id, phase, condition, configuration=""):
    (r,) = [
        r
        for r in rows
        if r["source_id"] == source_id
        and r["phase"] == phase
        and r["condition"] == condition
        and r["configuration"] == configuration
    ]
    return r


def test_accelstor_capability_is_no_longer_understated(cap, results):
    """AccelStor's host peaks: boot writes 22,000 (ACCS-0139) > reads 15,800 (ACCS-0141), so the
    boot total peak is at least 22,000; provisioning reads 34,200 (ACCS-0125); back end 200,000
    (ACCS-0131) kept apart; user phases 5,500 (ACCS-0189)."""
    a = cap[cap["source_id"] == "accelstor_p710"].set_index("phase")
    assert a.at["boot", "floor"] == _value(results, "ACCS-0139") == 22000 and a.at["boot", "bound"] == "gt"
    assert "ACCS-0141" in a.at["boot", "record_ids"]
    assert a.at["maintenance", "floor"] == _value(results, "ACCS-0125") == 34200
    assert a.at["backend", "floor"] == _value(results, "ACCS-0131") and a.at["backend", "vantage"] == "array_backend"
    assert a.at["login", "floor"] == _value(results, "ACCS-0189") == 5500
    assert "not testable" in a.at["login", "busiest_text"] and not a.at["login", "at_limit"]


def test_dell_steady_state_figures_are_shown(cap, results):
    """Dell: 'over 40 IOPS per user' (DELL-0067) x 5,000 desktops = more than 200,000 IOPS in steady
    state (derived), at 1.25 ms write latency (DELL-0068); the boot figure is only an upper bound."""
    d = cap[cap["source_id"] == "dell_sc9000"].set_index("phase")
    assert d.at["steady_state", "floor"] == _value(results, "DELL-0067") * 5000 == 200000
    assert d.at["steady_state", "latency_ms"] == _value(results, "DELL-0068") == 1.25
    assert "write" in d.at["steady_state", "latency_text"]
    assert pd.isna(d.at["boot", "floor"]) and d.at["boot", "bound"] == "lt"


def test_netapp_failover_latency_and_busiest_resource_from_records(cap, results):
    n = cap[(cap["source_id"] == "netapp_tr4540")].set_index(["phase", "condition"])
    boot = n.loc[("boot", "failover")]
    assert boot["floor"] == _value(results, "NTAP-0010") and boot["latency_ms"] == _value(results, "NTAP-0012") == 12.1
    assert boot["busiest_pct"] == 100 and boot["at_limit"]
    login = n.loc[("login", "failover")]
    assert login["floor"] == _value(results, "NTAP-0018") == 40000 and "NTAP-0107" in login["busiest_text"]


def test_done_when_verdicts_at_10000_desktops_with_failover(inputs, results):
    """Hand calculation: login demand 10,000 x 12.2 IOPS / 0.8 (scenario); NetApp one controller
    down carried 40,000 (NTAP-0018): ceil(demand / 40,000) arrays; Dell, Hitachi: not tested with a
    controller down, proxy = half the normal load, apart; AccelStor: no proxy (controllers not
    stated)."""
    params, size_rows = _size(inputs, failover="controller")
    prices = {"netapp_tr4540": 400000.0}
    rows = verdicts.verdicts(size_rows, inputs, params, prices)
    login = {r["phase"]: r for r in size_rows}["login"]
    n = _row(rows, "netapp_tr4540", "login", "failover")
    assert n["demonstrated_iops"] == _value(results, "NTAP-0018")
    assert n["arrays_needed"] == math.ceil(login["fe_iops"] / 40000)
    assert n["arrays_needed_top"] == math.ceil(login["fe_iops_pi90_high"] / 40000)
    assert n["verdict"] == ("does not cover" if login["fe_iops"] > 40000 else n["verdict"])
    boot = {r["phase"]: r for r in size_rows}["boot"]
    b = _row(rows, "netapp_tr4540", "boot", "failover")
    assert b["arrays_needed"] == math.ceil(boot["fe_iops"] / _value(results, "NTAP-0010")) and b["at_limit"]
    binding = max(
        r["arrays_needed"] for r in rows if r["source_id"] == "netapp_tr4540" and r["condition"] == "failover"
    )
    assert n["arrays_needed_binding"] == binding
    assert n["usd_per_desktop"] == pytest.approx(binding * 400000 / 10000)
    d = _row(rows, "dell_sc9000", "login", "failover")
    assert d["verdict"] == "not tested" and d["usd_per_desktop"] is None
    assert d["proxy_iops"] == _value(results, "DELL-0064") / 2 and "DELL-0030" in d["note"]
    a = _row(rows, "accelstor_p710", "login", "failover")
    assert a["verdict"] == "not tested" and a["proxy_iops"] is None


def test_interval_top_is_checked_not_only_the_estimate(inputs, results):
    """At 10,000 desktops, both controllers: Dell's 216,000 login IOPS (DELL-0064) cover the
    estimate but not the interval's top; its boot figure is only an upper bound (DELL-0060)."""
    params, size_rows = _size(inputs)
    rows = verdicts.verdicts(size_rows, inputs, params, {})
    login = {r["phase"]: r for r in size_rows}["login"]
    d = _row(rows, "dell_sc9000", "login", "normal")
    expected = (
        "covers the interval's top"
        if 216000 >= login["fe_iops_pi90_high"]
        else "covers the estimate only"
        if 216000 >= login["fe_iops"]
        else "does not cover"
    )
    assert d["verdict"] == expected
    assert _row(rows, "dell_sc9000", "boot", "normal")["verdict"] == "no lower bound stated"
    assert _row(rows, "dell_sc9000", "boot", "normal")["arrays_needed_binding"] is None


def test_steady_state_is_judged_against_the_highest_user_phase_load(inputs):
    """2,000 desktops: NetApp's 31,088 login peak (NTAP-0014) carries a steady state far smaller."""
    params, size_rows = _size(inputs, desktops=2000)
    rows = verdicts.verdicts(size_rows, inputs, params, {})
    s = _row(rows, "netapp_tr4540", "steady_state", "normal")
    assert s["demonstrated_iops"] == 31088 and s["verdict"] != "does not cover"


def test_port_check_against_the_tested_ports(inputs, results):
    """AccelStor: 2 data ports (ACCS-0044) x 10 Gb/s (ACCS-0043) x 125 = 2,500 MB/s; Dell: 4 x 2 x 2
    = 16 ports at 16 Gb/s (DELL-0032, DELL-0033, DELL-0030, DELL-0031) = 32,000 MB/s."""
    params, size_rows = _size(inputs)
    rows = verdicts.verdicts(size_rows, inputs, params, {})
    a = _row(rows, "accelstor_p710", "boot", "normal")
    assert a["port_mbps"] == 2 * 10 * 125
    assert a["arrays_needed_ports"] == math.ceil(a["throughput_mbps"] / 2500)
    assert _row(rows, "dell_sc9000", "login", "normal")["port_mbps"] == 16 * 16 * 125


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed: the JavaScript twin cannot be run here")
def test_javascript_twin_gives_the_same_verdicts(inputs):
    runner = (
        "const v=require(process.argv[1]);const d=JSON.parse(require('fs').readFileSync(0,'utf8'));"
        "console.log(JSON.stringify(d.cases.map(c=>v.verdicts(c.s,d.i,c.p,c.pr))))"
    )
    cases = []
    for p, prices in (
        ({"failover": "controller"}, {"netapp_tr4540": 400000.0, "hitachi_g600:config2": 250000.0}),
        ({"desktops": 2000}, {"dell_sc9000": 900000.0}),
        ({"desktops": 777, "headroom": 0.3, "clone_type": "full"}, {}),
    ):
        params, size_rows = _size(inputs, **p)
        cases.append(
            {"s": size_rows, "p": params, "pr": prices, "py": verdicts.verdicts(size_rows, inputs, params, prices)}
        )
    out = subprocess.run(
        ["node", "-e", runner, str(JS)],
        input=json.dumps({"cases": [{k: c[k] for k in ("s", "p", "pr")} for c in cases], "i": inputs}),
        capture_output=True,
        text=True,
        check=True,
    )
    for c, js in zip(cases, json.loads(out.stdout)):
        assert len(c["py"]) == len(js) > 0
        for a, b in zip(c["py"], js):
            assert list(a) == list(b)
            for k in a:
                if isinstance(a[k], float) and b[k] is not None:
                    assert a[k] == pytest.approx(b[k], rel=1e-12), k
                else:
                    assert a[k] == b[k], (k, a[k], b[k])


QUOTES = (
    'array_price_usd:netapp_tr4540,400000,USD,380000,420000,quote,"AFF8040 HA pair as tested, 3 years support",test\n'
    'array_price_usd:hitachi_g600:config2,250000,USD,250000,250000,quote,"VSP G600 Config 2 as tested",test\n'
)


def test_done_when_the_report_answers_which_array_how_many_at_what_cost(tmp_path, results):
    """`make report DESKTOPS=10000 FAILOVER=controller COST_FILE=quotes.csv`: the answers chapter's
    per-array table for that scenario and a quote file (written here) gives NetApp's arrays and
    USD per desktop by hand: login demand / 40,000 IOPS (NTAP-0018) arrays x $400,000 / 10,000."""
    from vdi_report.report.context import Context
    from vdi_report.report.sections import answers

    quotes = tmp_path / "quotes.csv"
    quotes.write_text(
        (config.RAW_DIR / "cost_assumptions.csv").read_text(encoding="utf-8").rstrip("\n") + "\n" + QUOTES,
        encoding="utf-8",
    )
    params = {
        "desktops": 10000,
        "worker_class": "knowledge",
        "concurrency": 1.0,
        "headroom": 0.2,
        "boot_window_min": 30,
        "raid": "none",
        "failover": "controller",
        "era": "seed",
        "report_date": "2026-01-01",
        "cost_file": str(quotes),
    }
    ctx = Context(params)
    rows = answers.verdict_rows(ctx)
    demand = ctx.sizing.set_index("phase")
    n = rows[(rows["source_id"] == "netapp_tr4540") & (rows["condition"] == "failover")].set_index("phase")
    expected = max(
        math.ceil(demand.at["login", "fe_iops"] / _value(results, "NTAP-0018")),
        math.ceil(demand.at["steady_state", "fe_iops"] / _value(results, "NTAP-0018")),
        math.ceil(demand.at["boot", "fe_iops"] / _value(results, "NTAP-0010")),
    )
    assert (n["arrays_needed_binding"] == expected).all()
    assert n.at["login", "usd_per_desktop"] == pytest.approx(expected * 400000 / 10000)
    table = answers.verdict_table(ctx, rows).set_index("Array")
    cell = table.loc["NetApp AFF8040", "USD per desktop (your quote)"]
    assert cell.startswith(f"${expected * 400000 / 10000:,.0f} ({expected} × $400,000 ÷ 10,000)"), cell
    assert table.loc["NetApp AFF8040", "Arrays needed (binding constraint)"].startswith(str(expected))
    h2 = table.loc["Hitachi Data Systems VSP G600 with active flash Config 2"]
    assert h2["Verdict per phase (one array)"] == "not tested"
    proxy = rows[(rows["configuration"] == "config2") & (rows["condition"] == "failover")]
    pn = int(proxy["proxy_arrays_needed"].max())
    assert (
        h2["One controller down, untested: proxy (not a test)"]
        == f"{pn} arrays at half the normal load; ${pn * 250000 / 10000:,.0f} per desktop"
    )
    assert table.loc["AccelStor NeoSapphire P710", "USD per desktop (your quote)"] == "no quote given"


def test_capacity_by_clone_type_from_cited_records(inputs, results):
    """Full clones: NetApp's 20.3 TB without its data reduction (NTAP-0302) / 1,500 desktops, plus
    its 2 GB of memory as swap (NTAP-0286; no reservation stated); linked clones: Dell's about 3 GB
    per desktop after profiles (DELL-0015) plus 2 GB swap (DELL-0045); AccelStor's 100 %-reserved
    memory swaps nothing. Usable: Dell 57 active drives x 1.75 TB (DELL-0036, DELL-0026)."""
    per = inputs["capacity_by_clone"]["per_desktop"]
    assert per["full"]["high"] == pytest.approx(_value(results, "NTAP-0302") / 1500 + _value(results, "NTAP-0286"))
    assert per["full"]["low"] == pytest.approx(_value(results, "NTAP-0303") / 1500 + _value(results, "NTAP-0286"))
    assert per["linked"]["high"] == pytest.approx(_value(results, "DELL-0015") + _value(results, "DELL-0045"))
    assert per["linked"]["low"] == pytest.approx(_value(results, "ACCS-0245"))  # + 0 GB swap: memory 100 % reserved
    usable = {(u["source_id"], u["configuration"]): u for u in inputs["capacity_by_clone"]["usable"]}
    assert usable[("dell_sc9000", "")]["usable_tb"] == pytest.approx(57 * 1.75)
    assert usable[("accelstor_p710", "")]["usable_tb"] == pytest.approx(420 / 0.04 / 1000)
    params, size_rows = _size(inputs, desktops=20000, clone_type="full")
    rows = verdicts.verdicts(size_rows, inputs, params, {})
    d = _row(rows, "dell_sc9000", "login", "normal")
    assert d["capacity_tb"] == pytest.approx(20000 * per["full"]["high"] / 1000)
    assert d["arrays_needed_capacity"] == math.ceil(d["capacity_tb"] / (57 * 1.75))
    a = _row(rows, "accelstor_p710", "login", "normal")
    assert a["arrays_needed_binding"] >= a["arrays_needed_capacity"] > 1
    assert _row(rows, "netapp_tr4540", "login", "normal")["arrays_needed_capacity"] is None  # usable not stated
