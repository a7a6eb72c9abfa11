"""The sizing scenario (issues 11 and 16): validate(), size() by era against hand calculations
from specific records, the architect's profile file, rate warnings, the CLI the Makefile calls,
and the JavaScript twin (node)."""

import math

import numpy as np
import pytest
from scipy import stats
from scipy.stats import gmean  # the hand calculations' geometric mean

from vdi_report import config
from vdi_report.models import boot, scenario

EXAMPLE_PROFILE = config.RAW_DIR / "profile_example.csv"


@pytest.fixture(scope="module")
def inputs(processed):
    """``sizing_inputs.json`` as the model stage (notebook 04) wrote it (read through the catalogue):
    the tests size from the stage's own output, not from a re-implementation of the notebook, and
    check it against hand calculations from the records."""
    return processed("sizing_inputs")


@pytest.fixture
def seed_failover(done_when):
    """The "Done when" scenario on the seed era, RAID 6, one controller down."""
    return {**done_when, "era": "seed", "raid": "raid6", "failover": "controller"}


def doc_pi(docs, alpha=0.10):
    """Hand 90 % prediction interval over documents (intercept-only OLS on ln, n - 1 df)."""
    logs = np.log(docs)
    n, m, sd = len(logs), logs.mean(), logs.std(ddof=1)
    half = stats.t.ppf(1 - alpha / 2, n - 1) * sd * math.sqrt(1 + 1 / n)
    return math.exp(m), math.exp(m - half), math.exp(m + half)


# Modern whole runs: controller read + write averages of one run ÷ its desktops (exact).
RA2022 = [(16467 + 17281) / 880, (3545 + 24185) / 880, (17279 + 16403) / 960]  # RA2022-0105/0107, 0106/0108, 0133/0135
RA2053 = [
    (21745 + 21148) / 1040,
    (7199 + 33763) / 1040,
    (22598 + 24123) / 1040,
]  # RA2053-0073/0075, 0074/0076, 0094/0096
RA2136 = [(13195 + 14287) / 900, (3400 + 21466) / 900, (12618 + 12360) / 900]  # RA2136-0039/0041, 0040/0042, 0049/0051
# Modern login peaks (RA-2022, eight nodes, 880 desktops): one direction's peak is a lower bound, the sum an upper bound
MCS_LOGIN = (23820 / 880, (22960 + 23820) / 880)  # RA2022-0115 (reads), RA2022-0117 (writes)
PVS_LOGIN = (34555 / 880, (4900 + 34555) / 880)  # RA2022-0116, RA2022-0118
# Modern boot storms: average IOPS ÷ boot rate (a lower bound of the peak per desktop booted per minute)
MODERN_BOOT = [36480 / (880 / 18.9), 29426 / (1040 / 27.7)]  # RA2022-0071/0072, RA2053-0044/0045


# The modern rows are MCS rows (register D-RA2053-02, D-RA2136-02: Provisioning is not pooled with MCS)
MCS_WHOLE = {
    "ra2022": [(16467, 17281, 880), (17279, 16403, 960)],  # RA2022-0105/0107, 0133/0135
    "ra2053": [(21745, 21148, 1040), (22598, 24123, 1040)],  # RA2053-0073/0075, 0094/0096
    "ra2136": [(13195, 14287, 900), (12618, 12360, 900)],  # RA2136-0039/0041, 0049/0051
}


def _row(processed, era_name, cell, provisioning=None):
    """The planning row the scenario reads: its interval is checked by hand in tests/data/test_era.py (a
    prediction interval for a new lab, tau2 borrowed from the seed labs: choice tau2_source)."""
    p = processed("iops_per_desktop_model")
    p = p[(p["era"] == era_name) & (p["cell"] == cell)]
    return (p[p["provisioning"] == provisioning] if provisioning else p).iloc[0]


def test_done_when_modern_scenario_matches_hand_calculation(inputs, done_when, processed):
    t = scenario.size(done_when, inputs).set_index("phase")
    active, k = 3000 * 0.8, 1 / (1 - 0.2)
    # boot: every provisioned desktop (3,000) in 30 minutes = 100 per minute, not the concurrent 2,400; the
    # average boot IOPS bound the peak from below: a lower bound, no interval
    assert t.at["boot", "desktops_sized"] == 3000 and t.at["boot", "boot_rate_per_min"] == pytest.approx(100)
    assert t.at["boot", "fe_iops"] == pytest.approx(100 * gmean(MODERN_BOOT) * k, rel=1e-9)
    assert math.isnan(t.at["boot", "fe_iops_pi90_low"]) and math.isnan(t.at["boot", "fe_iops_pi90_high"])
    assert "lower bound" in t.at["boot", "note"]
    # steady state: no modern steady-state average; the MCS whole-run average stands in: one lab (three
    # documents), its documents' geometric mean and the planning row's interval for a new lab (wider than the
    # range of its runs)
    runs = {d: [(r + w) / n for r, w, n in v] for d, v in MCS_WHOLE.items()}
    s = gmean([gmean(v) for v in runs.values()])
    whole, login = (
        _row(processed, "modern", "whole-test average", "mcs"),
        _row(processed, "modern", "login peak", "mcs"),
    )
    s_lo, s_hi = whole["pi90_low"], whole["pi90_high"]
    assert s_lo < min(min(v) for v in runs.values()) and s_hi > max(max(v) for v in runs.values())
    assert login["pi90_low"] < MCS_LOGIN[0] and login["pi90_high"] > MCS_LOGIN[1]
    assert t.at["steady_state", "fe_iops"] == pytest.approx(active * s * k, rel=1e-9)
    assert t.at["steady_state", "fe_iops_pi90_low"] == pytest.approx(active * s_lo * k, rel=1e-9)
    assert t.at["steady_state", "fe_iops_pi90_high"] == pytest.approx(active * s_hi * k, rel=1e-9)
    # login (storm model): steady state + I/O per logon x login rate. RA-2022's MCS login peak (the geometric
    # midpoint of its bounds: writes 23,820 RA2022-0117 to reads + writes 46,780) over a 48-minute login phase
    # (RA2022-0011): I/O per logon = (peak - steady) x 48 x 60 s; 2,400 users in 30 minutes = 80 per minute
    p = math.sqrt(MCS_LOGIN[0] * MCS_LOGIN[1])
    assert t.at["login", "login_rate_per_min"] == pytest.approx(80)
    assert t.at["login", "reference_login_window_min"] == pytest.approx(48)
    for col, (pk, st) in (
        ("fe_iops", (p, s)),
        ("fe_iops_pi90_low", (login["pi90_low"], s_lo)),
        ("fe_iops_pi90_high", (login["pi90_high"], s_hi)),
    ):
        iol = max(0.0, pk - st) * 48 * 60
        assert t.at["login", col] == pytest.approx((active * st + iol * 80 / 60) * k, rel=1e-9), col
    # at the documents' own window the storm model gives back their peak
    own = scenario.size({**done_when, "login_window_min": 48}, inputs).set_index("phase")
    assert own.at["login", "per_desktop"] == pytest.approx(p, rel=1e-9)
    # read share per phase: whole MCS runs' reads / (reads + writes), mean per document, median over documents;
    # the login peak's from its read and write peaks (RA2022-0115, 0117); boot: the 2023 edition's two charts of the
    # one MCS boot, read / (read + write) averages: 17,674 / 8,537 (RA2022E-0008, 0006) and 18,113 / 8,389
    # (RA2022E-0030, 0026), averaged (D-RA2022E-01)
    whole = np.median([np.mean([r / (r + w) for r, w, _ in v]) for v in MCS_WHOLE.values()])
    assert t.at["steady_state", "read_share"] == pytest.approx(whole)
    assert t.at["boot", "read_share"] == pytest.approx(np.mean([17674 / (17674 + 8537), 18113 / (18113 + 8389)]))
    assert t.at["login", "read_share"] == pytest.approx(22960 / (22960 + 23820))
    assert t["throughput_mbps"].isna().all()  # the modern documents report no throughput: no I/O size
    # both storms lie outside the documents' tested rates (boot 37.5-46.6, login 18.3 per minute): said so
    assert t.at["boot", "warning"].startswith("boot rate 100.0 per minute is above")
    assert t.at["login", "warning"].startswith("login rate 80.0 per minute is above the documents' tested 18.3")
    assert t.at["steady_state", "warning"] == ""
    # every input is recorded
    for c, v in (
        ("era", "modern"),
        ("desktops", 3000),
        ("concurrency", 0.8),
        ("login_window_min", 30),
        ("boot_window_min", 30),
        ("headroom", 0.2),
        ("raid", "none"),
        ("figures", "era modern"),
    ):
        assert (t[c] == v).all(), c


def test_seed_scenario_matches_hand_calculation(inputs, seed_failover, processed):
    t = scenario.size(seed_failover, inputs).set_index("phase")
    active, k = 3000 * 0.8, 1 / (1 - 0.2)
    # boot: NetApp 117,752 IOPS peak (NTAP-0006), 1,500 desktops in ~12 min (NTAP-0005);
    # Hitachi ~41,021 / 42,692 / 42,013 (HDS-0216..0218), 580 desktops in "3 minutes and 4-20
    # seconds" (HDS-0213), at the middle of its range (approx_point = mid): 3 min 12 s
    ntap = 117752 / (1500 / 12)
    hds = gmean([41021, 42692, 42013]) / (580 / (3 + 12 / 60))
    assert t.at["boot", "fe_iops"] == pytest.approx(100 * gmean([ntap, hds]) * k, rel=1e-6)
    b = _row(processed, "seed", "boot peak per boot rate")  # an interval for a new lab, wider than the two storms
    assert b["pi90_low"] < hds and b["pi90_high"] > ntap
    assert t.at["boot", "fe_iops_pi90_low"] == pytest.approx(100 * b["pi90_low"] * k, rel=1e-6)
    assert t.at["boot", "fe_iops_pi90_high"] == pytest.approx(100 * b["pi90_high"] * k, rel=1e-6)
    # 100 per minute lies below the rates the two pooled storms were tested at (125 and 181 per minute)
    assert (
        t.at["boot", "warning"]
        == "boot rate 100.0 per minute is below the documents' tested 125.0–181.3 per minute: extrapolated"
    )
    # login peak, one figure per document: AccelStor 4,000 and 5,500 IOPS / 500 (ACCS-0180, ACCS-0189; knowledge and
    # power on one test bed count once), NetApp 31,088 / 1,500 (NTAP-0014); two documents: their range, no t-interval.
    # Login windows: AccelStor 500 sessions x 5.76 s (ACCS-0157) = 48 min, NetApp 75 min (NTAP-0317)
    p = gmean([gmean([8.0, 11.0]), 31088 / 1500])
    w_ref = gmean([500 * 5.76 / 60, 75])
    # steady state of a knowledge worker (analysis choice total_source = read_plus_write, D-ACCS-17): AccelStor
    # (2,600 + 296) / 500 (ACCS-0199/0200) and (3,200 + 377) / 500 (ACCS-0022/0023); Hitachi's task sample,
    # 3-4 IOPS per desktop (HDS-0259), is a task worker and not pooled
    steady = [2896 / 500, 3577 / 500]
    lp, sp = _row(processed, "seed", "login peak"), _row(processed, "seed", "steady-state average")
    assert lp["pi90_low"] < 8.0 and lp["pi90_high"] > 31088 / 1500  # intervals for a new lab, wider than the runs
    assert sp["pi90_low"] < min(steady) and sp["pi90_high"] > max(steady)
    assert t.at["login", "reference_login_window_min"] == pytest.approx(w_ref)
    # login storm: steady + I/O per logon ((peak - steady) x window) x login rate (80 per minute)
    for col, (pk, st) in (
        ("fe_iops", (p, gmean(steady))),
        ("fe_iops_pi90_low", (lp["pi90_low"], sp["pi90_low"])),
        ("fe_iops_pi90_high", (lp["pi90_high"], sp["pi90_high"])),
    ):
        iol = max(0.0, pk - st) * w_ref * 60
        assert t.at["login", col] == pytest.approx((active * st + iol * 80 / 60) * k, rel=1e-6), col
    assert t.at["steady_state", "fe_iops"] == pytest.approx(active * gmean(steady) * k, rel=1e-6)
    assert t.at["steady_state", "fe_iops_pi90_low"] == pytest.approx(active * sp["pi90_low"] * k, rel=1e-6)
    assert (t["write_penalty"] == 6).all() and (t["condition"] == "failover").all()
    # one controller down: NetApp booted with 75,772 IOPS (NTAP-0010)
    assert "NTAP-0010" in t.at["boot", "carried_by"]


def test_profile_file_overrides_the_era(inputs, tmp_path, done_when):
    f = tmp_path / "my_profile.csv"
    f.write_text(
        "phase,iops_per_desktop,read_share,io_size_kb\nboot,600,0.7,32\nlogin,25,0.5,\nsteady_state,12,0.25,16\n",
        encoding="utf-8",
    )
    prof = scenario.read_profile(f)
    t = scenario.size(done_when, inputs, prof, f.name).set_index("phase")
    k = 1 / 0.8
    assert t.at["boot", "fe_iops"] == pytest.approx(100 * 600 * k)
    # your login peak as given: never rescaled by the documents' 48 minutes (the file gives no window)
    assert t.at["login", "fe_iops"] == pytest.approx(2400 * 25 * k) and "not rescaled" in t.at["login", "note"]
    # with the file's own window (20 minutes), the storm model: 12 steady + (25 - 12) x 20 x 60 I/O per logon
    f.write_text(
        "phase,iops_per_desktop,read_share,io_size_kb,login_window_min\nboot,600,0.7,32,\nlogin,25,0.5,,20\n"
        "steady_state,12,0.25,16,\n",
        encoding="utf-8",
    )
    w = scenario.size(done_when, inputs, scenario.read_profile(f), f.name).set_index("phase")
    assert w.at["login", "fe_iops"] == pytest.approx((2400 * 12 + (25 - 12) * 20 * 60 * 80 / 60) * k)
    assert w.at["login", "reference_login_window_min"] == 20
    assert t.at["steady_state", "fe_iops"] == pytest.approx(2400 * 12 * k)
    assert t.at["steady_state", "throughput_mbps"] == pytest.approx(2400 * 12 * k * 16 * 1024 / 1e6)
    assert math.isnan(t.at["login", "throughput_mbps"])  # an empty I/O size: not known
    assert t.at["boot", "be_iops"] == pytest.approx(t.at["boot", "fe_iops"])  # raid none
    assert (t["fe_iops_pi90_low"] == t["fe_iops"]).all()  # your own figures carry no interval
    assert (t["figures"] == "profile my_profile.csv").all()


def test_example_profile_reproduces_the_default_era_exactly(inputs, done_when):
    """The example profile holds the default era's estimates and its login window: sized, it gives the era's
    figures at any login window (the storm model with the file's window)."""
    prof = scenario.read_profile(EXAMPLE_PROFILE)
    e = inputs["eras"][inputs["default_era"]]
    assert prof["login"]["login_window_min"] == e["login_window_min"]
    for ph in config.SCENARIO_PHASES:
        assert prof[ph]["iops_per_desktop"] == e["per_desktop"][ph]["estimate"]
        assert prof[ph]["read_share"] == e["read_share"][ph]
        assert prof[ph]["io_size_kb"] == e["io_size_kb"][ph]
    a = scenario.size(done_when, inputs).set_index("phase")
    b = scenario.size(done_when, inputs, prof, EXAMPLE_PROFILE.name).set_index("phase")
    for c in ("fe_iops", "be_iops", "per_desktop", "read_share", "warning"):
        assert list(a[c]) == list(b[c]), c


def test_peak_boot_demand_grows_with_the_boot_rate_and_login_with_the_login_rate(inputs, done_when):
    slow = scenario.size({**done_when, "boot_window_min": 60, "login_window_min": 60}, inputs).set_index("phase")
    fast = scenario.size({**done_when, "boot_window_min": 15, "login_window_min": 15}, inputs).set_index("phase")
    assert fast.at["boot", "fe_iops"] == pytest.approx(4 * slow.at["boot", "fe_iops"])
    # the login storm's part above the steady state grows with the login rate (I/O per logon x rate)
    st = slow.at["steady_state", "fe_iops"]
    assert fast.at["login", "fe_iops"] - st == pytest.approx(4 * (slow.at["login", "fe_iops"] - st))
    assert fast.at["steady_state", "fe_iops"] == pytest.approx(slow.at["steady_state", "fe_iops"])


def test_boot_is_sized_on_every_provisioned_desktop(inputs, done_when):
    full = scenario.size({**done_when, "concurrency": 1.0}, inputs).set_index("phase")
    part = scenario.size({**done_when, "concurrency": 0.5}, inputs).set_index("phase")
    assert full.at["boot", "fe_iops"] == pytest.approx(part.at["boot", "fe_iops"])
    assert full.at["steady_state", "fe_iops"] == pytest.approx(2 * part.at["steady_state", "fe_iops"])


def test_in_range_rates_carry_no_warning(inputs, done_when):
    # modern: 880 desktops (rate 18.3 per minute in 48 minutes); boot 42 per minute lies in 37.5-46.6
    t = scenario.size(
        {**done_when, "desktops": 880, "concurrency": 1.0, "login_window_min": 48, "boot_window_min": 880 / 42}, inputs
    ).set_index("phase")
    assert (t["warning"] == "").all()


def test_raid_penalty_and_concurrency(inputs, seed_failover):
    none = scenario.size({**seed_failover, "raid": "none"}, inputs)
    r10 = scenario.size({**seed_failover, "raid": "raid10"}, inputs)
    assert np.allclose(none["be_iops"], none["fe_iops"])
    assert np.allclose(r10["be_iops"], r10["fe_iops"] * (r10["read_share"] + 2 * (1 - r10["read_share"])))
    half = scenario.size({**seed_failover, "concurrency": 0.4}, inputs).set_index("phase")
    full = scenario.size(seed_failover, inputs).set_index("phase")
    assert half.at["steady_state", "fe_iops"] * 2 == pytest.approx(full.at["steady_state", "fe_iops"])
    # login: half the users in the same window is half the login rate, so half the demand
    assert half.at["login", "fe_iops"] * 2 == pytest.approx(full.at["login", "fe_iops"])


def test_normal_and_failover_compare_with_their_own_tests(inputs, seed_failover):
    small = {**seed_failover, "desktops": 500, "failover": "none"}
    normal = scenario.size(small, inputs).set_index("phase")
    failover = scenario.size({**small, "failover": "controller"}, inputs).set_index("phase")
    # NetApp booted 1,500 desktops at 117,752 IOPS (NTAP-0006); with one controller down at 75,772 (NTAP-0010)
    assert "NTAP-0006" in normal.at["boot", "carried_by"] and "NTAP-0010" not in normal.at["boot", "carried_by"]
    assert "NTAP-0010" in failover.at["boot", "carried_by"] and "NTAP-0006" not in failover.at["boot", "carried_by"]
    assert (normal["condition"] == "normal").all() and (failover["condition"] == "failover").all()


def test_written_sizing_inputs_read_back_the_same_everywhere(inputs):
    assert scenario.read_inputs() == inputs == scenario.read_inputs(config.PROCESSED_DIR / "sizing_inputs.json")
    # the model stage's keys, and those verdicts.to_inputs adds (capability, arrays: tests/data/test_verdicts.py)
    assert {"default_era", "eras", "write_penalty", "demonstrated"} <= set(inputs)
    # one capacity per desktop: the per-array answers' (capacity_by_clone), never a second range
    assert "capacity_gb_per_desktop" not in inputs
    assert {"capability", "arrays"} <= set(inputs)
    for e in config.ERAS:
        assert set(inputs["eras"][e]["per_desktop"]) == set(config.SCENARIO_PHASES)


def test_boot_storm_table_hand_calculation(results, sources_df):
    s = boot.boot_storms(results, sources_df=sources_df).set_index("source_id")
    # NetApp: 57,231 IOPS average (NTAP-0080) over ~12 min (NTAP-0005) / 1,500 desktops = I/O per boot
    n = s.loc["netapp_tr4540"]
    assert n["io_per_boot"] == pytest.approx(57231 * 12 * 60 / 1500) and n["io_per_boot_bound"] == "approx"
    # Dell: booted 5,000 in under 6 minutes (DELL-0063): the rate is a lower bound, the peak per rate an upper bound
    d = s.loc["dell_sc9000"]
    assert d["rate_bound"] == "gt" and d["peak_per_rate_bound"] == "lt" and d["io_per_boot_bound"] == "lt"
    assert d["boot_rate_per_min"] == pytest.approx(5000 / 6)


def _size_in_javascript(javascript_twin, cases: list[dict], inputs: dict) -> list[list[dict]]:
    """sizing.js's ``size`` of each case (``params``, optional ``profile`` and ``profile_file``), run
    by ``javascript_twin``: per case, its rows as JSON objects (NaN read back as None)."""
    calls = [[c["params"], c.get("profile"), c.get("profile_file", "")] for c in cases]
    return javascript_twin("sizing.js", "size", calls, inputs)


def test_javascript_twin_matches_python(inputs, done_when, seed_failover, javascript_twin):
    mine = {
        "boot": {"iops_per_desktop": 500.0, "read_share": 0.6, "io_size_kb": 24.0},
        "login": {"iops_per_desktop": 30.0, "read_share": 0.4, "io_size_kb": None},
        "steady_state": {"iops_per_desktop": 12.5, "read_share": 0.3, "io_size_kb": 16.0},
    }
    cases = [
        {"params": done_when},
        {"params": seed_failover},
        {"params": {**done_when, "failover": "controller", "raid": "raid5", "era": "seed"}},
        {
            "params": {
                "desktops": 500,
                "concurrency": 1.0,
                "headroom": 0.0,
                "boot_window_min": 5,
                "raid": "raid10",
                "failover": "none",
                "era": "modern",
                "login_window_min": 48,
            }
        },
        {
            "params": {**done_when, "desktops": 12345, "concurrency": 0.55, "headroom": 0.35},
            "profile": mine,
            "profile_file": "mine.csv",
        },
        {"params": {**seed_failover, "login_window_min": 90}, "profile": mine, "profile_file": "mine.csv"},
        {
            "params": {**done_when, "login_window_min": 7},
            "profile": {**mine, "login": {**mine["login"], "login_window_min": 25.0}},
            "profile_file": "mine.csv",
        },
    ]
    js = _size_in_javascript(javascript_twin, cases, inputs)
    for c, rows in zip(cases, js):
        py = scenario.size(c["params"], inputs, c.get("profile"), c.get("profile_file", ""))
        assert [r["phase"] for r in rows] == list(py["phase"])
        for r, (_, q) in zip(rows, py.iterrows()):
            assert set(r) == set(scenario.SIZE_COLUMNS)
            for c in scenario.SIZE_COLUMNS:
                a, b = r[c], q[c]
                if isinstance(b, str):
                    assert a == b, (c, a, b)
                elif b is None or (isinstance(b, float) and math.isnan(b)):
                    assert a is None, (c, a)  # JSON has no NaN: JS NaN serializes as null
                else:
                    assert a == pytest.approx(b, rel=1e-12), (c, a, b)


def test_an_approximate_demonstration_must_cover_the_demand_at_its_low_end(inputs, seed_failover):
    """'Approximately 41,021 IOPS' guarantees about 36,919 (less the 10 % of an approximate value):
    it demonstrates a demand between the two only when its low end covers it."""
    import copy

    fe = float(scenario.size(seed_failover, inputs).set_index("phase").at["boot", "fe_iops"])
    demo = {
        "vendor": "V",
        "array": "V Array",
        "configuration": "",
        "phase": "boot",
        "statistic": "peak",
        "condition": "failover",
        "desktops": 100.0,
        "record_id": "V-0001",
    }
    trial = copy.deepcopy(inputs)
    trial["demonstrated"] = [
        dict(demo, fe_iops=fe * 1.05, bound="approx", fe_iops_floor=fe * 1.05 * 0.9),
        dict(demo, fe_iops=fe * 1.05, bound="eq", fe_iops_floor=fe * 1.05, record_id="V-0002"),
    ]
    carried = scenario.size(seed_failover, trial).set_index("phase").at["boot", "carried_by"]
    assert "V-0002" in carried and "V-0001" not in carried


@pytest.mark.parametrize("era", config.ERAS)
def test_login_storm_never_below_steady_state_at_any_window_python_and_javascript(
    inputs, done_when, era, javascript_twin
):
    """Done when (issue 24): for every LOGIN_WINDOW from 5 to 240 minutes and every era, login demand >= steady
    demand (estimate and each interval end that exists), in scenario.size and in its JavaScript twin."""
    cases = [{"params": {**done_when, "era": era, "login_window_min": w}} for w in range(5, 241)]
    for c in cases:
        t = scenario.size(c["params"], inputs).set_index("phase")
        for col in ("fe_iops", "fe_iops_pi90_low", "fe_iops_pi90_high"):
            lo, st = t.at["login", col], t.at["steady_state", col]
            assert math.isnan(lo) == math.isnan(st) and (math.isnan(lo) or lo >= st - 1e-9), (c, col, lo, st)
    for c, rows in zip(cases, _size_in_javascript(javascript_twin, cases, inputs)):
        by = {r["phase"]: r for r in rows}
        for col in ("fe_iops", "fe_iops_pi90_low", "fe_iops_pi90_high"):
            lo, st = by["login"][col], by["steady_state"][col]
            assert (lo is None) == (st is None) and (lo is None or lo >= st - 1e-9), (c, col, lo, st)
