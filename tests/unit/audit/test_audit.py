"""Source audit: consistency rules on synthetic tables (known errors and known-consistent data), real
findings in the four documents, the curated registers (quotes verbatim in the seed texts), and the
register's resolutions applied in results.csv."""

import math

import pandas as pd
import pytest

from vdi_report import audit, config
from vdi_report.raw import sources
from vdi_report.report import audit_tables
from vdi_report.transform import normalize

SEEDS_PRESENT = config.SEEDS_DIR.is_dir()

needs_seeds = pytest.mark.skipif(
    not SEEDS_PRESENT,
    reason=f"source texts not found at {config.SEEDS_DIR} "
    "(set VDI_SEEDS_DIR); quotes are verified where ../shared/seeds exists",
)

_n = iter(range(1, 10_000))


def rec(
    metric,
    value_text,
    value,
    *,
    unit="IOPS",
    bound="eq",
    statistic="average",
    test_id="t1",
    phase="steady_state",
    locator="Table 1",
    line=10,
    vantage="host",
    desktops=500.0,
    source_id="demo",
    condition="normal",
    variant="",
    configuration="",
    worker_class="",
    value_high=None,
    quote=None,
    reported=None,
):
    """One normalized record. ``reported``: the number as printed when its unit differs from the
    normalized one (``3.2K`` -> 3.2 kIOPS for value 3200 IOPS); by default a trailing ``K`` in
    ``value_text`` means thousands."""
    lo, hi = normalize.interval(value, value_high, bound, unit)
    if reported is None:
        reported = value / 1000 if value_text.endswith("K") else value
    return {
        "source_id": source_id,
        "vendor": "Demo",
        "record_id": f"DEMO-{next(_n):04d}",
        "test_id": test_id,
        "phase": phase,
        "metric": metric,
        "statistic": statistic,
        "value": value,
        "unit": unit,
        "value_low": lo,
        "value_high": hi,
        "bound": bound,
        "vantage": vantage,
        "condition": condition,
        "variant": variant,
        "configuration": configuration,
        "worker_class": worker_class,
        "desktops": desktops,
        "locator": locator,
        "line": line,
        "value_text": value_text,
        "quote": quote or f"... {value_text} ...",
        "reported_value": reported,
        "reported_unit": unit,
    }


def run(rows, rule):
    return audit.run_rules(pd.DataFrame(rows), rules=[rule])


@pytest.mark.parametrize(
    "text, value, half",
    [
        ("441µs", 441, 0.5),
        ("3.2K", 3.2, 0.05),
        ("0.59ms", 0.59, 0.005),
        ("216,000", 216000, 0.5),
        ("8,1", 8.1, 0.05),
        ("~12 min", 12, 0.5),
        ("approximately 41,021", 41021, 0.5),
        ("1.92TB", 1.92, 0.005),
    ],
)
def test_printed_half_step(text, value, half):
    assert math.isclose(audit.printed_half_step(text, value), half)


def test_same_quantity_flags_different_values_at_two_locators():
    rows = [
        rec("latency", "468µs", 0.468, unit="ms", locator="Table 1"),
        rec("latency", "498µs", 0.498, unit="ms", locator="Table 11"),
    ]
    f = run(rows, "same_quantity")
    assert len(f) == 1 and f.at[0, "locators"] == "Table 1 | Table 11"
    assert "468µs" in f.at[0, "message"] and "498µs" in f.at[0, "message"]


def test_same_quantity_no_false_alarm_within_precision_or_bounds():
    rows = [
        rec("iops", "3.9K", 3900, locator="Figure 30"),
        rec("iops", "3,900", 3900, locator="Table 13"),
        rec("iops", "3,930", 3930, locator="Section 7", test_id="t2"),
        rec("iops", "3.9K", 3900, locator="Figure 9", test_id="t2"),  # 3.9K covers 3,850-3,950
        rec("duration", "~12 min", 12, unit="min", bound="approx", locator="Table 8", test_id="t3"),
        rec("duration", "11 minutes", 11, unit="min", locator="Section 6", test_id="t3"),
        rec("latency", "< 1ms", 1, unit="ms", bound="lt", locator="Section 6", test_id="t4"),
        rec("latency", "0.45ms", 0.45, unit="ms", locator="Table 1", test_id="t4"),
    ]
    assert run(rows, "same_quantity").empty


def test_same_quantity_ignores_one_locator_and_other_tests():
    rows = [
        rec("disk_busy", "33%", 33, unit="%", locator="Figure 11"),
        rec("disk_busy", "76%", 76, unit="%", locator="Figure 11"),  # two tiers in one figure
        rec("iops", "100", 100, locator="Table 1", test_id="a"),
        rec("iops", "200", 200, locator="Table 2", test_id="b"),
    ]
    assert run(rows, "same_quantity").empty


def test_same_quantity_inside_one_figure():
    """A value restated inside one figure (bullet vs narrative, two lines) is compared; three or
    more values of one key inside a figure are parallel components and are not."""
    restated = [
        rec("latency", "5.6 milliseconds", 5.6, unit="ms", locator="Figure 12", line=538, statistic="peak"),
        rec("latency", "5 msec", 5.0, unit="ms", locator="Figure 12", line=544, statistic="peak"),
    ]
    f = run(restated, "same_quantity")
    assert len(f) == 1 and "line 538" in f.at[0, "message"] and "line 544" in f.at[0, "message"]
    agree = [
        dict(restated[0]),
        rec("latency", "5.6 msec", 5.6, unit="ms", locator="Figure 12", line=544, statistic="peak"),
    ]
    assert run(agree, "same_quantity").empty
    tiers = [
        rec("disk_busy", v, float(v[:-1]), unit="%", locator="Figure 11", line=i, statistic="peak")
        for i, v in ((513, "33%"), (514, "97%"), (519, "33%"))
    ]
    assert run(tiers, "same_quantity").empty
    profile = [
        rec("io_size", "4KB", 4, unit="KB", locator="Table 16", line=1516, statistic="single"),
        rec("io_size", "8KB", 8, unit="KB", locator="Table 16", line=1517, statistic="single"),
    ]
    assert run(profile, "same_quantity").empty


def test_read_write_total():
    bad = [rec("write_iops", "3,200", 3200), rec("read_iops", "377", 377), rec("iops", "3,900", 3900)]
    f = run(bad, "read_write_total")
    assert len(f) == 1 and math.isclose(f.at[0, "recomputed"], 3577)
    good = [
        rec("write_iops", "3.2K", 3200),
        rec("read_iops", "377", 377),
        rec("iops", "3.6K", 3600),
        # peaks need not coincide: 4K <= 3.4K + 1.5K and >= 3.4K
        rec("write_iops", "3.4K", 3400, statistic="peak"),
        rec("read_iops", "1.5K", 1500, statistic="peak"),
        rec("iops", "4K", 4000, statistic="peak"),
    ]
    assert run(good, "read_write_total").empty
    bad_peak = [
        rec("write_iops", "3.4K", 3400, statistic="peak"),
        rec("read_iops", "1.5K", 1500, statistic="peak"),
        rec("iops", "6K", 6000, statistic="peak"),
    ]
    assert len(run(bad_peak, "read_write_total")) == 1


def test_read_write_total_combines_chart_legends_only_within_one_chart():
    """Two charts of one test may span different windows (D-RA2022E-01): their series are summed
    per chart; a chart whose own series do not add up is still found."""
    a, b = {"image_file": "img/a.png"}, {"image_file": "img/b.png"}
    rows = [
        rec("read_iops", "17,674", 17674) | a,
        rec("write_iops", "8,537", 8537) | a,
        rec("iops", "26,211", 26211) | a,
        rec("read_iops", "18,113", 18113) | b,
        rec("write_iops", "8,389", 8389) | b,
        rec("iops", "26,502", 26502) | b,
    ]
    assert run(rows, "read_write_total").empty
    wrong = rows[:2] + [rec("iops", "29,000", 29000) | a]
    assert len(run(wrong, "read_write_total")) == 1


def test_per_desktop():
    rows = [rec("iops", "3,900", 3900), rec("iops_per_desktop", "7.2", 7.2, vantage="")]
    f = run(rows, "per_desktop")
    assert len(f) == 1 and math.isclose(f.at[0, "recomputed"], 7.8)
    ok = [
        rec("iops", "3.2K", 3200),
        rec("iops_per_desktop", "6.4", 6.4),
        rec("iops", "21.1K", 21100, test_id="boot"),
        rec("iops_per_desktop", "42", 42, test_id="boot"),
        rec("iops", "65K", 65000, test_id="boot", vantage="array_backend"),
    ]  # other vantage: no alarm
    assert run(ok, "per_desktop").empty


def test_comparison_wrong_base_and_unstated_base():
    common = {"locator": "Table 15", "line": 20, "statistic": "average"}
    rows = [
        rec("iops", "21.1K", 21100, test_id="boot", **common),
        rec("iops", "3.6K", 3600, test_id="ss", **common),
        rec(
            "percent_difference",
            "83%",
            83,
            unit="%",
            statistic="single",
            test_id="",
            locator="Table 15",
            line=21,
            quote="% difference 83%",
        ),
    ]
    f = run(rows, "comparison")
    assert list(f["severity"]) == ["note"] and "larger" in f.at[0, "message"]
    rows[2]["quote"] = "An 83% IOPS increase is seen during boot"
    f = run(rows, "comparison")
    assert list(f["severity"]) == ["inconsistent"] and "increase" in f.at[0, "message"]
    rows[2].update(
        value=486.0,
        value_low=486.0,
        value_high=486.0,
        reported_value=486.0,
        value_text="486%",
        quote="a 486% increase during boot",
    )
    assert run(rows, "comparison").empty  # growth from the smaller value: consistent
    rows[2].update(value=50.0, value_low=50.0, value_high=50.0, reported_value=50.0, value_text="50%")
    assert "not reproduced" in run(rows, "comparison").at[0, "message"]


def test_shares_sum():
    row = {"locator": "Table 11", "line": 5, "statistic": "single", "phase": "boot", "unit": "%"}
    bad = [
        rec("random_read_percent", "53", 53, **row),
        rec("random_write_percent", "24", 24, **row),
        rec("sequential_read_percent", "18", 18, **row),
        rec("sequential_write_percent", "10", 10, **row),
    ]
    assert len(run(bad, "shares_sum")) == 1  # 105: beyond 4 x 0.5
    ok = [dict(r) for r in bad]
    ok[3].update(value=6.0, value_low=6.0, value_high=6.0, reported_value=6.0, value_text="6")  # 101: rounding
    assert run(ok, "shares_sum").empty
    profile = [
        rec("workload_percent", str(v), v, unit="%", statistic="single", locator="Table 16", line=i, test_id="boot")
        for i, v in enumerate([17, 7, 7, 17, 18, 33, 1])
    ]
    assert run(profile, "shares_sum").empty
    profile[0].update(value=27.0, value_low=27.0, value_high=27.0, reported_value=27.0, value_text="27")
    assert len(run(profile, "shares_sum")) == 1


def test_capacity():
    tb = {"unit": "GB", "statistic": "single", "phase": "testbed", "test_id": "testbed", "locator": "Section 3"}
    rows = [
        rec(
            "drives",
            "60",
            60,
            unit="count",
            statistic="single",
            phase="testbed",
            test_id="testbed",
            locator="Section 3",
        ),
        rec("drive_capacity", "1.92TB", 1920, **tb),
        rec("raw_capacity", "99TB", 99000, **tb),
    ]
    rows[1]["reported_value"], rows[1]["reported_unit"] = 1.92, "TB"
    rows[2]["reported_value"], rows[2]["reported_unit"] = 99, "TB"
    f = run(rows, "capacity")
    assert len(f) == 1 and math.isclose(f.at[0, "recomputed"], 115200)
    rows[2].update(value=115000.0, value_low=115000.0, value_high=115000.0, reported_value=115, value_text="115TB")
    assert run(rows, "capacity").empty  # 115TB within 60 x (1.915-1.925) TB and its own rounding
    rows[2].update(
        metric="usable_capacity",
        value=80000.0,
        value_low=80000.0,
        value_high=80000.0,
        reported_value=80,
        value_text="80TB",
    )
    assert run(rows, "capacity").empty  # usable below raw is fine
    rows[2].update(value=130000.0, value_low=130000.0, value_high=130000.0, reported_value=130, value_text="130TB")
    assert len(run(rows, "capacity")) == 1


def test_count_product():
    tb = {
        "unit": "count",
        "statistic": "single",
        "phase": "testbed",
        "test_id": "testbed",
        "locator": "Section 3",
        "vantage": "",
    }
    bad = [
        rec("management_servers", "four", 4, **tb),
        rec("desktops_per_management_server", "875", 875, **tb),
        rec("desktops", "5,000", 5000, **{**tb, "locator": "Section 1"}),
    ]
    f = run(bad, "count_product")
    assert len(f) == 1 and math.isclose(f.at[0, "recomputed"], 3500)
    good = [
        rec("hosts", "2", 2, worker_class="task", **tb),
        rec("desktops_per_host", "200", 200, worker_class="task", **tb),
        rec("desktops", "400", 400, worker_class="task", **tb),
        rec("volumes", "5", 5, **tb),
        rec("desktops_per_volume", "500", 500, **{**tb, "phase": "sizing"}),
    ]
    assert run(good, "count_product").empty
    # a caption's pool count and a script's per-pool count are different statements: not paired
    caption_vs_script = [
        rec("pools", "10 pools", 10, **{**tb, "locator": "Figure 7", "line": 391}),
        rec("desktops_per_pool", "130", 130, **{**tb, "locator": "Figure 7", "line": 416}),
        rec("desktops", "1,500", 1500, **{**tb, "locator": "Section 1"}),
    ]
    assert run(caption_vs_script, "count_product").empty
    caption_vs_script[1]["line"] = 391  # the same statement: 10 x 130 = 1,300 is a finding
    assert len(run(caption_vs_script, "count_product")) == 1


def test_average_above_peak():
    rows = [
        rec("latency", "0.27ms", 0.27, unit="ms", test_id="refresh", locator="Table 1"),
        rec("latency", "0.14ms", 0.14, unit="ms", statistic="peak", test_id="refresh", locator="Table 14"),
        rec("read_iops", "860", 860, test_id="refresh", locator="Table 1"),
        rec("iops", "527", 527, statistic="peak", test_id="refresh", locator="Table 14"),
    ]
    assert len(run(rows, "average_above_peak")) == 2
    ok = [
        rec("latency", "0.59ms", 0.59, unit="ms"),
        rec("latency", "0.59ms", 0.59, unit="ms", statistic="peak"),
        rec("iops", "< 40%", 40, unit="%", bound="lt", statistic="peak"),
        rec("iops", "39%", 39, unit="%"),
    ]
    assert run(ok, "average_above_peak").empty


def test_testbed_cpu():
    tb = {"statistic": "single", "phase": "testbed", "test_id": "testbed", "locator": "Table 4", "vantage": ""}
    bad = [
        rec("cpu_clock", "2.50GHz", 2.5, unit="GHz", line=365, **tb),
        rec("logical_processors", "40", 40, unit="count", line=369, **tb),
        rec("host_cpu_capacity", "44 GHz", 44, unit="GHz", line=373, **tb),
    ]
    f = run(bad, "testbed_cpu")
    assert len(f) == 1 and "50 GHz" in f.at[0, "message"] and "44 GHz" in f.at[0, "message"]
    good = [dict(r, locator="Table 3") for r in bad]
    good[1].update(value=32.0, value_low=32.0, value_high=32.0, reported_value=32.0, value_text="32")
    good[2].update(value=40.0, value_low=40.0, value_high=40.0, reported_value=40.0, value_text="40 GHz")
    assert run(good, "testbed_cpu").empty  # 32 logical = 16 cores x 2.5 GHz = 40 GHz
    threads = [
        rec("host_cores", "12 cores", 12, unit="count", line=271, **tb),
        rec("host_threads", "24 with hyperthreading", 24, unit="count", line=271, **tb),
    ]
    assert run(threads, "testbed_cpu").empty
    threads[1].update(value=30.0, value_low=30.0, value_high=30.0, reported_value=30.0, value_text="30")
    assert len(run(threads, "testbed_cpu")) == 1
    # a capacity in another table (another host type) is not paired
    other = bad[:2] + [dict(bad[2], locator="Section 4.1.3")]
    assert run(other, "testbed_cpu").empty


def test_every_registered_rule_has_its_own_tests_and_report_text():
    """Each rule in the registry has a test function here named after it (fires on a planted error,
    silent on a clean case), a label and a description; the report's rule list is the registry."""
    here = globals()
    for name, r in audit.RULES.items():
        assert any(t.startswith(f"test_{name}") for t in here), f"no test_{name}* in tests/test_audit.py"
        assert r.label and len(r.description) > 20 and r.name == name
    listed = audit_tables.rules_list()
    assert list(listed["Check"]) == [r.label for r in audit.RULES.values()]
    assert [r.order for r in audit.RULES.values()] == sorted(r.order for r in audit.RULES.values())


def test_rule_registry_rejects_a_duplicate_name():
    with pytest.raises(ValueError, match="registered twice"):
        audit.rule(1, "same_quantity", "x", "y")(lambda df: [])


def test_run_rules_is_deterministic_and_rejects_unknown_rule():
    rows = [
        rec("latency", "468µs", 0.468, unit="ms", locator="Table 1"),
        rec("latency", "498µs", 0.498, unit="ms", locator="Table 11"),
    ]
    a, b = audit.run_rules(pd.DataFrame(rows)), audit.run_rules(pd.DataFrame(rows[::-1]))
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == audit.FINDING_COLUMNS
    with pytest.raises(KeyError, match="unknown rule"):
        audit.run_rules(pd.DataFrame(rows), rules=["no_such_rule"])
    with pytest.raises(KeyError, match="lack columns"):
        audit.run_rules(pd.DataFrame(rows).drop(columns="vantage"))


@pytest.fixture(scope="module")
def register():
    return audit.load_discrepancies()


@pytest.fixture(scope="module")
def claims():
    return audit.load_claims()


def test_register_valid_and_covers_every_source(register):
    assert list(register.columns) == audit.DISCREPANCY_COLUMNS + audit.OPTIONAL_DISCREPANCY_COLUMNS
    assert set(register["source_id"]) == set(sources.load_sources()["source_id"])
    assert len(register) >= 40
    assert set(register["category"]) <= set(audit.CATEGORIES)
    assert (register["resolution"].str.len() > 20).all() and (register["impact"].str.len() > 0).all()


def test_claims_valid(claims):
    assert set(claims["verdict"]) <= set(audit.VERDICTS)
    assert set(claims["source_id"]) == set(sources.load_sources()["source_id"])
    assert (claims.groupby("source_id").size() >= 5).all()


def test_claims_reject_an_unknown_topic(tmp_path, claims):
    bad = claims.copy()
    bad.loc[2, "topic"] = "sizing"
    path = tmp_path / "claims.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(audit.RegisterError) as exc:
        audit.load_claims(path)
    assert f"{path}: line 4: column 'topic' = 'sizing'" in str(exc.value) and "claim_topic" in str(exc.value)


def test_every_seed_has_a_claim_on_page_one(claims):
    """Each seed document states how many desktops it supports or what one desktop needs."""
    from vdi_report.report.sections.answers import SIZING_TOPICS

    seeds = sources.load_sources().query("role == 'seed'")["source_id"]
    on_page_one = claims[claims["topic"].isin(SIZING_TOPICS)]
    assert set(seeds) <= set(on_page_one["source_id"])


def test_register_rejects_bad_input(tmp_path, register):
    bad = register.copy()
    bad.loc[0, "category"] = "typo"
    bad.loc[1, "rejected_records"] = "NTAP-9999"
    path = tmp_path / "discrepancies.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(audit.RegisterError) as exc:
        audit.load_discrepancies(path)
    assert "line 2: column 'category'" in str(exc.value) and "NTAP-9999" in str(exc.value)


@needs_seeds
def test_register_quotes_occur_in_the_seed_text(register):
    problems = audit.verify_quotes(
        register, [("a_quote", "a_line", "a_text_file"), ("b_quote", "b_line", "b_text_file")], audit.source_texts()
    )
    assert problems == [], "\n".join(problems)


@needs_seeds
def test_claim_quotes_occur_in_the_seed_text(claims):
    problems = audit.verify_quotes(claims, [("quote", "line", "text_file")], audit.source_texts(), id_col="claim_id")
    assert problems == [], "\n".join(problems)


def test_verify_quotes_catches_a_wrong_quote():
    df = pd.DataFrame([{"id": "X", "source_id": "s", "q": "the quick fox", "l": "1"}])
    assert audit.verify_quotes(df, [("q", "l")], {"s": "the quick\n  brown fox"}) != []
    assert audit.verify_quotes(df.assign(q="quick\tbrown   fox"), [("q", "l")], {"s": "the quick\n  brown fox"}) == []
    # a source in several files: the quote is checked in the file its text-file column names
    files = {"s": {"a.md": "first file", "b.md": "the quick\n  brown fox"}}
    two = df.assign(q="brown fox", f="b.md")
    assert audit.verify_quotes(two, [("q", "l", "f")], files) == []
    assert audit.verify_quotes(two.assign(f=""), [("q", "l", "f")], files) != []  # empty: the first file


def test_claim_verdicts_follow_their_evidence(claims, register):
    assert audit.check_claim_verdicts(claims, register) == []


def test_claim_verdict_check_catches_planted_errors(claims, register):
    bad = claims.copy()
    i = bad.index[(bad["verdict"] == "not supported") & (bad["claim_id"] != "C-NTAP-01")][0]
    bad.loc[i, "evidence_against"] = ""  # "not supported" with no evidence against
    # "supported" for a statement the register calls a contradiction
    j = bad.index[bad["claim_id"] == "C-NTAP-01"][0]
    bad.loc[j, "verdict"] = "supported"
    problems = audit.check_claim_verdicts(bad, register)
    assert any(p.startswith(bad.at[i, "claim_id"]) and "evidence_against is empty" in p for p in problems)
    assert any(p.startswith("C-NTAP-01") and "D-NTAP-06" in p for p in problems)


def test_register_reports_the_documents_errors_behind_corrected_labels(register):
    """Where the digitizer rebuilt swapped or shifted labels, a register entry still reports the
    document's error: every record whose note says so is named by an entry (set aside, or at one of
    its two statements' locator and line)."""
    spots = {
        (r.source_id, loc, str(ln))
        for r in register.itertuples()
        for loc, ln in ((r.a_locator, r.a_line), (r.b_locator, r.b_line))
        if loc
    }
    named = {x for ids in register["rejected_records"] for x in ids.split()}
    missing = []
    for sid in sources.load_sources()["source_id"]:
        recs = sources.load_records(sid)
        fixed = recs[recs["note"].str.contains(r"\b(?:swapped|shifted|mislabell?ed)\b", case=False, regex=True)]
        for r in fixed.itertuples():
            if (
                r.record_id not in named
                and (sid, r.locator, str(r.line)) not in spots
                and not any(s[0] == sid and s[1] == r.locator for s in spots)
            ):
                missing.append(r.record_id)
    assert not missing, f"corrected labels without a register entry: {missing}"


# --------------------------------------------------------------------------------------------
# Statements of one fact across sections (data/raw/facts.csv) and a figure derived from a target
# --------------------------------------------------------------------------------------------

from vdi_report.raw import facts as facts_mod  # noqa: E402
from vdi_report.raw import provenance  # noqa: E402

SEEDS_PRESENT = config.SEEDS_DIR.is_dir()


def stmt(
    fact_id,
    fact,
    value,
    *,
    value_text=None,
    section="method",
    locator="Section 4.3",
    line=10,
    record_ids="",
    about="the Windows version of the desktops",
    source_id="demo",
):
    vt = value_text or value
    return {
        "fact_id": fact_id,
        "source_id": source_id,
        "text_file": "",
        "fact": fact,
        "about": about,
        "value": value,
        "value_text": vt,
        "section": section,
        "locator": locator,
        "line": line,
        "quote": f"... {vt} ...",
        "record_ids": record_ids,
        "note": "",
    }


def run_facts(facts, records, rule):
    return audit.run_rules(pd.DataFrame(records), rules=[rule], facts=pd.DataFrame(facts))


BASE = [rec("iops", "1,000", 1000.0)]  # any records: the statement rules read the facts


def test_statement_changes_flags_one_fact_stated_two_ways():
    bad = [
        stmt("S-DEMO-01", "guest_os_version", "1709"),
        stmt("S-DEMO-02", "guest_os_version", "1703", section="sizing", locator="Section 8", line=90),
    ]
    f = run_facts(bad, BASE, "statement_changes")
    assert len(f) == 1 and "1709" in f.at[0, "message"] and "1703" in f.at[0, "message"]
    assert f.at[0, "record_ids"] == "S-DEMO-01 S-DEMO-02" and f.at[0, "locators"] == "Section 4.3 | Section 8"
    same = [bad[0], dict(bad[1], value="1709", value_text="1709")]
    assert run_facts(same, BASE, "statement_changes").empty
    other_fact = [bad[0], dict(bad[1], fact="office_version")]
    assert run_facts(other_fact, BASE, "statement_changes").empty


def test_similar_claim_flags_similar_figures_that_differ():
    r = [rec("login_time", "7.7 sec", 7.7, unit="s"), rec("login_time", "5.8 sec", 5.8, unit="s")]
    ids = " ".join(x["record_id"] for x in r)
    bad = [stmt("S-DEMO-03", "w10_w11", "similar", record_ids=ids)]
    f = run_facts(bad, r, "similar_claim")
    assert len(f) == 1 and "33 %" in f.at[0, "message"]
    close = [rec("cpu", "68.1%", 68.1, unit="%"), rec("cpu", "70.6%", 70.6, unit="%")]
    ok = [stmt("S-DEMO-04", "cpu", "similar", record_ids=" ".join(x["record_id"] for x in close))]
    assert run_facts(ok, close, "similar_claim").empty  # 4 % apart: similar within 10 %
    assert run_facts([dict(bad[0], value="different")], r, "similar_claim").empty


def test_per_session_target_flags_a_figure_derived_from_a_target():
    tb = {"phase": "testbed", "test_id": "testbed", "statistic": "single", "vantage": ""}
    rows = []
    for cfg, cores, mhz, users, per in (
        ("g7", 36, 2200, 70, 905),
        ("g8", 48, 2800, 120, 896),
        ("g9", 48, 2600, 130, 768),
    ):
        rows += [
            rec("host_cores", str(cores), cores, unit="count", configuration=cfg, **tb),
            rec("cpu_frequency", str(mhz), mhz, unit="MHz", configuration=cfg, **tb),
            rec("desktops_per_host", str(users), users, unit="count", configuration=cfg),
            rec("cpu_mhz_per_session", str(per), per, unit="MHz", configuration=cfg),
        ]
    f = audit.run_rules(pd.DataFrame(rows), rules=["per_session_target"])
    assert len(f) == 1 and "80 %" in f.at[0, "message"]
    # the stated and recomputed shares in the unit the finding names (percent: 80, not 0.8)
    assert f.at[0, "unit"] == "%" and math.isclose(f.at[0, "recomputed"], 80)
    assert math.isclose(f.at[0, "stated"], 100 * 905 * 70 / (36 * 2200), rel_tol=1e-9)
    measured = [dict(r) for r in rows]
    for r in measured:
        if r["metric"] == "cpu_mhz_per_session" and r["configuration"] == "g8":
            r.update(value=950.0, value_low=950.0, value_high=950.0, reported_value=950.0, value_text="950")
    assert audit.run_rules(pd.DataFrame(measured), rules=["per_session_target"]).empty


def test_fact_rules_without_facts_find_nothing():
    assert audit.run_rules(pd.DataFrame(BASE), rules=["statement_changes", "similar_claim"]).empty


# --- the facts file ------------------------------------------------------------------------------


def test_facts_file_validates_and_names_bad_input(tmp_path):
    f = facts_mod.load_facts()
    assert f["fact_id"].is_unique and len(f) >= 10
    bad = tmp_path / "facts.csv"
    text = (config.RAW_DIR / "facts.csv").read_text(encoding="utf-8")
    bad.write_text(
        text.replace(",summary,Section: Executive summary", ",abstract,Section: Executive summary", 1), encoding="utf-8"
    )
    with pytest.raises(facts_mod.FactError, match=r"line 2: column 'section' = 'abstract'"):
        facts_mod.load_facts(bad)


@pytest.mark.skipif(not SEEDS_PRESENT, reason="source texts not found (set VDI_SEEDS_DIR)")
def test_fact_quotes_occur_in_their_documents():
    f = facts_mod.load_facts()
    srcs = sources.load_sources().set_index("source_id")
    problems = []
    for (sid, tf), g in f.groupby(["source_id", "text_file"]):
        text = provenance.text_path(srcs.at[sid, "text_dir"], tf).read_text(encoding="utf-8")
        recs = g.rename(columns={"fact_id": "record_id"})[["record_id", "locator", "line", "quote", "value_text"]]
        problems += provenance.verify_records(recs, text)
    assert not problems, "\n".join(problems)


# --- the declared checklist of fact kinds (issue 26 item 3) -------------------------------------


def test_every_fact_has_a_declared_kind_and_the_checklist_covers_every_document():
    """facts.csv: every statement has a kind of vocabulary.csv (field fact_kind); fact_checklist.csv
    names, for every document and every kind on the checklist, whether its statements are all in
    (complete), some are (partial) or the search finds none (not_stated), and how they were sought."""
    f = facts_mod.load_facts()
    assert set(f["kind"]) <= set(facts_mod.fact_kinds())
    checklist = facts_mod.load_checklist()
    have = f.groupby(["source_id", "kind"]).size()
    problems = []
    for r in checklist.itertuples(index=False):
        n = int(have.get((r.source_id, r.kind), 0))
        if r.status in ("complete", "partial") and n == 0:
            problems.append(f"{r.source_id} {r.kind}: {r.status} but no statement in facts.csv")
        if r.status == "not_stated" and n:
            problems.append(f"{r.source_id} {r.kind}: not_stated but {n} statement(s) in facts.csv")
    assert not problems, "\n".join(problems)
    kinds = facts_mod.checklist_kinds()
    assert {"os_build", "desktop_count", "duration", "caption", "cross_reference", "similarity"} <= set(kinds)
    assert len(checklist) == len(sources.load_sources()) * len(kinds)


def test_checklist_names_a_missing_pair_and_a_bad_status(tmp_path):
    text = (config.RAW_DIR / "fact_checklist.csv").read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "fact_checklist.csv"
    bad.write_text("\n".join(text[:-1]) + "\n", encoding="utf-8")  # the last pair dropped
    with pytest.raises(facts_mod.FactError, match=r"no row for document"):
        facts_mod.load_checklist(bad)
    first = text[1].split(",")
    broken = text[0] + "\n" + ",".join([first[0], first[1], "done"] + first[3:]) + "\n" + "\n".join(text[2:]) + "\n"
    bad.write_text(broken, encoding="utf-8")
    with pytest.raises(facts_mod.FactError, match=r"line 2: column 'status' = 'done'"):
        facts_mod.load_checklist(bad)


def test_facts_name_an_unknown_kind(tmp_path):
    bad = tmp_path / "facts.csv"
    text = (config.RAW_DIR / "facts.csv").read_text(encoding="utf-8")
    bad.write_text(text.replace(",worker_class,load_tool,", ",worker_class,workload,", 1), encoding="utf-8")
    with pytest.raises(facts_mod.FactError, match=r"line 2: column 'kind' = 'workload'"):
        facts_mod.load_facts(bad)


def test_statements_found_by_the_rules_from_the_systematic_facts():
    """The restatements the systematic reading digitized are found by statement_changes, among
    them the G8/G8/G9 table titles (D-RA2053-07) and NetApp's pools (D-NTAP-13)."""
    from vdi_report.raw import facts as fm

    f = audit.run_rules(pd.DataFrame(BASE), rules=["statement_changes"], facts=fm.load_facts())
    facts_found = set(f["metric"])
    assert {"generations_compared", "desktop_pools", "task_logon_interval", "config1_fmd_raid"} <= facts_found


def test_register_coverage_says_stated_only_when_a_finding_cites_every_statement():
    reg = pd.DataFrame(
        [
            {
                "id": "D-DEMO-01",
                "source_id": "demo",
                "a_locator": "Table 1",
                "a_line": "10",
                "b_locator": "Table 2",
                "b_line": "20",
                "rejected_records": "",
            },
            {
                "id": "D-DEMO-02",
                "source_id": "demo",
                "a_locator": "Table 1",
                "a_line": "10",
                "b_locator": "",
                "b_line": "",
                "rejected_records": "",
            },
            {
                "id": "D-DEMO-03",
                "source_id": "demo",
                "a_locator": "Table 9",
                "a_line": "90",
                "b_locator": "",
                "b_line": "",
                "rejected_records": "",
            },
        ]
    )
    one = {"source_id": "demo", "record_ids": "DEMO-0001", "locators": "Table 1", "lines": "10"}
    cov = audit.register_coverage(pd.DataFrame([one]), reg)
    assert cov.to_dict() == {"D-DEMO-01": "linked", "D-DEMO-02": "stated", "D-DEMO-03": "none"}
    both = dict(one, record_ids="DEMO-0001 DEMO-0002", locators="Table 1 | Table 2", lines="10 20")
    assert audit.register_coverage(pd.DataFrame([both]), reg)["D-DEMO-01"] == "stated"
    chart = dict(one, locators="Figure: X (time axis 01:02-01:27)", lines="42")
    reg_chart = reg.assign(a_locator="Figure: X", a_line="42").iloc[[1]]
    assert audit.register_coverage(pd.DataFrame([chart]), reg_chart).iloc[0] == "stated"


def test_wrong_entries_of_issue_26_stay_fixed():
    """The register and claims entries a re-reading found wrong (issue 26): NetApp's 5-way
    concurrency is in the document (lines 389, 545), D-NTAP-24 quotes Section 6.1, Dell's two
    capacity maximums agree, and D-HDS-21 no longer misreads 'Configuration 1 to Configuration 3'."""
    reg = audit.load_discrepancies().set_index("id")
    claims = audit.load_claims().set_index("claim_id")
    assert "389" in reg.at["D-NTAP-14", "explanation"] and "does not say so" not in reg.at["D-NTAP-14", "explanation"]
    assert "389" in claims.at["C-NTAP-12", "evidence_against"]
    assert "unless 5-way concurrency is meant" not in claims.at["C-NTAP-12", "evidence_against"]
    assert reg.at["D-NTAP-24", "a_locator"] == "Section 6.1"
    assert "two different maximums" not in claims.at["C-DELL-12", "evidence_against"]
    assert " / " not in claims.at["C-DELL-12", "claim"]
    assert "Configuration 1 to 3 only" not in reg.at["D-HDS-21", "explanation"]


def test_same_quantity_says_less_than_and_over_as_printed():
    """'less than 50%' and 'over 50%' are two statements, not '50% in Section 6.6, Section 7' (F040)."""
    cpu = dict(metric="storage_cpu_utilization", unit="%", test_id="monday_login_failover")
    rows = [
        rec(value_text="40%", value=40.0, locator="Table 11", line=729, **cpu),
        rec(value_text="50%", value=50.0, bound="lt", locator="Section 6.6", line=778, **cpu),
        rec(value_text="50%", value=50.0, bound="gt", locator="Section 7", line=1465, **cpu),
    ]
    f = run(rows, "same_quantity")
    assert len(f) == 1
    msg = f.at[0, "message"]
    assert "less than 50% in Section 6.6" in msg and "over 50% in Section 7" in msg, msg


def test_per_desktop_reports_one_conflict_between_two_totals_once():
    """Two per-desktop figures, each reproduced by one of two conflicting totals, are one finding
    listing both (F011 and F012 were one pair reported twice)."""
    rows = [
        rec("iops", "3.6K", 3600, locator="Table 15", line=1541),
        rec("iops", "3,900", 3900, locator="Section 1", line=29),
        rec("iops_per_desktop", "7.8", 7.8, locator="Figure 30", line=1340),
        rec("iops_per_desktop", "7.2", 7.2, locator="Section 8", line=1561),
    ]
    f = run(rows, "per_desktop")
    assert len(f) == 1 and len(f.at[0, "record_ids"].split()) == 4
    assert "7.8" in f.at[0, "message"] and "7.2" in f.at[0, "message"]


def test_findings_in_plain_words():
    """The report names a test, a metric and a configuration as a reader knows them, never by
    the internal id ("vsibase of test knowledge_login" once stood in the audit chapter)."""
    tests = pd.DataFrame(
        [
            {
                "source_id": "accelstor_p710",
                "test_id": "knowledge_login",
                "phase": "login_and_steady_state",
                "variant": "",
                "configuration": "",
                "worker_class": "knowledge",
            },
            {
                "source_id": "nutanix_ra2053",
                "test_id": "w11_mcs_1n",
                "phase": "full_run",
                "variant": "",
                "configuration": "",
                "worker_class": "knowledge",
            },
        ]
    )
    words = audit_tables.PlainWords(tests)
    got = words(
        "vsibase of test knowledge_login is stated as 1087 ms; average iops of test other_test", "accelstor_p710"
    )
    assert got.startswith("Login VSI VSIbase of the Login + steady state (knowledge) test is stated as 1087 ms")
    assert "average IOPS of test other test" in got  # an unknown test id is not invented, only spelled out
    assert words("80 % (g8_1n)", "nutanix_ra2053") == "80 % (G8, 1 node)"
    assert words("knowledge_login", "nutanix_ra2053") == "knowledge login"  # another document's test: not its label
