"""data/raw: every file validates, and every record is checked against its source text."""

import re

import pandas as pd
import pytest

from vdi_report import config
from vdi_report.raw import provenance, sources

SOURCE_IDS = sources.load_sources()["source_id"].tolist()


def test_every_source_has_a_records_file_and_back(sources_df):
    on_disk = {p.stem for p in config.RECORDS_DIR.glob("*.csv")}
    assert on_disk == set(sources_df["source_id"])


@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_records_validate(source_id):
    recs = sources.load_records(source_id)
    assert len(recs) >= 50, "each document holds far more than 50 numbers"
    assert recs["record_id"].is_unique


@pytest.mark.usefixtures("source_texts")
@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_text_checksums(source_id, sources_df):
    row = sources_df.set_index("source_id").loc[source_id]
    for name, digest in zip(row["text_files"].split(), row["text_sha256"].split()):
        assert provenance.sha256(provenance.text_path(row["text_dir"], name)) == digest, name


@pytest.mark.usefixtures("source_texts")
@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_every_record_traces_to_its_source_text(source_id, sources_df):
    """Quote verbatim in the document, value inside the quote, quote near its line, locator exists."""
    row = sources_df.set_index("source_id").loc[source_id]
    problems = provenance.verify_source(row, sources.load_records(source_id))
    assert problems == [], "\n".join(problems[:20])


def test_verify_records_catches_a_misquote():
    text = "Table 8) results for full-clone boot storm.\nPeak IOPS\t117,752\tAvg IOPS 36,000\n"
    good = pd.DataFrame(
        [
            {
                "record_id": "X-0001",
                "locator": "Table 8",
                "line": 2,
                "quote": "Peak IOPS 117,752",
                "value_text": "117,752",
            }
        ]
    )
    assert provenance.verify_records(good, text) == []
    bad = good.assign(quote="Peak IOPS 117,725", value_text="117,725")
    assert any("not found verbatim" in p for p in provenance.verify_records(bad, text))
    wrong_locator = good.assign(locator="Table 9")
    assert any("locator" in p for p in provenance.verify_records(wrong_locator, text))
    wrong_value = good.assign(value_text="36,000")
    assert any("not in quote" in p for p in provenance.verify_records(wrong_value, text))


def test_every_metric_has_a_definition():
    metrics = pd.read_csv(config.RAW_DIR / "metrics.csv", keep_default_na=False)
    assert metrics["metric"].is_unique
    assert (metrics["definition"].str.len() > 5).all()


RATE_UNITS = {"IOPS", "MB/s"}  # normalized units of IOPS and throughput metrics (metrics.csv)


def _rate_or_latency(recs, metrics):
    unit = recs["metric"].map(metrics.set_index("metric")["unit"])
    return unit.isin(RATE_UNITS) | recs["metric"].str.contains("latency")


@pytest.fixture(scope="module")
def metrics_df():
    return pd.read_csv(config.RAW_DIR / "metrics.csv", dtype=str, keep_default_na=False)


def no_vantage_no_reason(recs, metrics) -> list[str]:
    """Record ids of IOPS, latency, throughput and utilization figures with neither a vantage nor
    a reason for none (vantage_note)."""
    needs = _rate_or_latency(recs, metrics) | recs["metric"].str.contains("utilization")
    bad = recs[needs & (recs["vantage"] == "") & (recs["vantage_note"].str.strip() == "")]
    return list(bad["record_id"])


@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_iops_latency_throughput_utilization_state_a_vantage_or_why_not(source_id, metrics_df):
    """An IOPS, latency, throughput or utilization figure without a vantage must say why
    (vantage_note): a reason in ``note`` is not enough (RA2022-0013)."""
    bad = no_vantage_no_reason(sources.load_records(source_id), metrics_df)
    assert not bad, f"no vantage and no reason: {', '.join(bad)}"


def test_vantage_check_catches_a_utilization_row_with_its_reason_in_note(metrics_df):
    row = {
        "record_id": "X-0001",
        "metric": "host_cpu_utilization",
        "vantage": "",
        "vantage_note": "",
        "note": "evaluation target, not a measurement",
    }
    assert no_vantage_no_reason(pd.DataFrame([row]), metrics_df) == ["X-0001"]
    assert no_vantage_no_reason(pd.DataFrame([dict(row, vantage="host")]), metrics_df) == []


# Qualifier printed right before (or at the start of) the value -> the bound it implies (codebook: bound).
QUALIFIERS = [
    (r"<|almost|up to|under|less than|below|did not rise above|stays below|sub(?=-)", "lt"),
    (r">|at least|minimum|over|more than|exceeded|just over|as low as", "gt"),
    (r"~|about|approximately|nearly|roughly", "approx"),
]


def _qualifier_bound(quote: str, value_text: str) -> str | None:
    """Bound implied by a qualifier printed right before ``value_text`` in ``quote`` (only
    ``of``, ``US$`` or ``$`` between them) or at its start; None when there is none."""
    at = quote.find(value_text)
    head = quote[:at] if at >= 0 else ""
    if re.search(r"\d\s*[A-Za-z()]*\+$", value_text.strip()):  # "26+", "2vCPU+": the value or more
        return "gt"
    for pattern, bound in QUALIFIERS:
        if re.search(rf"(?:^|\W)(?:{pattern})\s*(?:of\s*)?(?:US)?\$?\s*$", head, re.IGNORECASE):
            return bound
        if re.match(rf"(?:{pattern})(?:\W|$)", value_text, re.IGNORECASE):
            return bound
    return None


@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_qualifiers_are_recorded_as_bounds(source_id):
    """'almost 125,000', 'up to 500', 'as low as US$30', 'minimum 30 minutes' ... are bounds, not
    exact values; a record that keeps eq against its qualifier must say why in its note."""
    recs = sources.load_records(source_id)
    wrong = []
    for r in recs.itertuples(index=False):
        implied = _qualifier_bound(r.quote, r.value_text)
        if implied and r.bound != implied and "qualifier" not in r.note:
            wrong.append(f"{r.record_id}: {r.quote!r} implies {implied}, record has {r.bound}")
    assert not wrong, "\n".join(wrong)


def test_qualifier_detection():
    assert _qualifier_bound("almost 125,000 IOPS at 12.5GB/Sec", "almost 125,000") == "lt"
    assert _qualifier_bound("as low as US$30 per power-desktop", "US$30") == "gt"
    assert _qualifier_bound("up to 500 VMs could be allocated", "500") == "lt"
    assert _qualifier_bound("at approximately 14 minutes", "approximately 14 minutes") == "approx"
    assert _qualifier_bound("a peak of 191K with an average of 38K IOPS", "191K") is None
    assert _qualifier_bound("119% 133% 123% 10,8 2GB 2vCPU+", "2vCPU+") == "gt"
    assert _qualifier_bound("The Power Worker is designed for 2(v)CPU+", "2(v)CPU+") == "gt"
    assert _qualifier_bound("while keeping sub-millisecond latency", "sub-millisecond") == "lt"
    assert _qualifier_bound("10,8 2GB 2vCPU+", "2GB") is None


CONTEXT_PHASES = (*config.CONTEXT_PHASES, "")
# Phases without user sessions (codebook: ``load`` is empty where not applicable)
SESSIONLESS_PHASES = ("provisioning", "boot", "patching", "power_off", "refresh", "recompose")


def missing_qualifiers(recs, metrics) -> list[str]:
    """``record_id: column`` for every result of a test (a record with a vantage, outside the
    test-bed, sizing, overall, capacity and cost phases) whose window or load is empty, or whose
    aggregation is empty while its metric is not a count (codebook: aggregation is empty for
    counts)."""
    unit = recs["metric"].map(metrics.set_index("metric")["unit"])
    res = recs[(recs["vantage"] != "") & ~recs["phase"].isin(CONTEXT_PHASES)]
    out = []
    for col in ("aggregation", "window", "load"):
        miss = res[(res[col] == "") & ((col != "aggregation") | (unit[res.index] != "count"))]
        if col == "load":  # a boot storm, provisioning or patching runs no user sessions: no workload
            miss = miss[~miss["phase"].isin(SESSIONLESS_PHASES)]
        out += [f"{r}: {col}" for r in miss["record_id"]]
    loaded = recs[recs["phase"].isin(SESSIONLESS_PHASES) & (recs["load"] != "")]
    out += [f"{r}: load of a phase without sessions" for r in loaded["record_id"]]
    return out


@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_every_result_says_what_it_aggregates_over_which_window_and_load(source_id, metrics_df):
    """Every result of every source (a record with a vantage in a test phase: IOPS, latency,
    CPU, login and application times, VSImax ...) names its aggregation, window and load
    (vocabulary.csv), as the external documents do; RA-2053's 205 guest and per-session rows
    once lacked them."""
    bad = missing_qualifiers(sources.load_records(source_id), metrics_df)
    assert not bad, "\n".join(bad[:30])


def test_qualifier_check_catches_a_result_without_window(metrics_df):
    row = {
        "record_id": "X-0001",
        "metric": "login_time",
        "phase": "login",
        "vantage": "guest",
        "aggregation": "single_desktop",
        "window": "phase",
        "load": "standard",
    }
    assert missing_qualifiers(pd.DataFrame([row]), metrics_df) == []
    assert missing_qualifiers(pd.DataFrame([dict(row, window="")]), metrics_df) == ["X-0001: window"]
    count = dict(row, metric="vsimax", aggregation="")
    assert missing_qualifiers(pd.DataFrame([count]), metrics_df) == []  # a count aggregates nothing
    boot = dict(row, phase="boot", load="")
    assert missing_qualifiers(pd.DataFrame([boot]), metrics_df) == []  # a boot storm runs no sessions
    assert missing_qualifiers(pd.DataFrame([dict(boot, load="boosted")]), metrics_df) == [
        "X-0001: load of a phase without sessions"
    ]
    assert missing_qualifiers(pd.DataFrame([dict(row, aggregation="")]), metrics_df) == ["X-0001: aggregation"]


def test_fixed_metadata_of_the_re_reading():
    """The gaps a re-reading against the texts found stay fixed (issue 18, item 5)."""
    r = pd.concat([sources.load_records(s) for s in SOURCE_IDS]).set_index("record_id")
    for rid in ("ACCS-0147", "ACCS-0152", "ACCS-0153", "ACCS-0160", "ACCS-0165", "ACCS-0166"):
        assert r.at[rid, "vantage"] == "guest", rid  # as the VSIbase rows of the same tables
    assert r.at["HDS-0120", "vantage"] == r.at["HDS-0121", "vantage"] == "array_controller"
    assert r.at["NTAP-0337", "vantage"] == "array_frontend" and r.at["RA2022-0013", "vantage"] == "host"
    assert not r.loc[["HDS-0179", "HDS-0180", "HDS-0181"], "locator"].str.startswith("Table").any()
    assert (r.loc[["ACCS-0110", "ACCS-0111"], "statistic"] == "average").all()
    assert r.at["NTAP-0341", "condition"] == "failover" and r.at["NTAP-0341", "test_id"] == "monday_login_failover"
    assert r.at["ACCS-0099", "bound"] == "gt"
    assert r.at["DELL-0090", "value"] == 4953 and r.at["ACCS-0279", "value"] == 8 and r.at["ACCS-0280", "bound"] == "lt"


def test_fixed_metadata_of_issue_26():
    """The metadata errors a re-reading found (issue 26): boot rows carry no load, every MPU
    headroom row its controller vantage, Hitachi's Figures 13/14 the in-guest vantage the document
    states, DELL-0090 reads '4953 / 5000' as the active-session counter, and Dell's page size stays
    a binary 512 KB."""
    from vdi_report.transform import normalize

    r = pd.concat([sources.load_records(s) for s in SOURCE_IDS]).set_index("record_id")
    boot = r[r["phase"] == "boot"]
    assert (boot["load"] == "").all(), boot.index[boot["load"] != ""].tolist()[:10]
    assert (r.loc[["HDS-0273", "HDS-0278", "HDS-0283"], "vantage"] == "array_controller").all()
    fig = r[
        (r["source_id"] == "hitachi_g600")
        & r["locator"].isin(["Figure 13", "Figure 14"])
        & (r["metric"] != "sample_desktops")
    ]
    assert len(fig) == 6 and (fig["vantage"] == "guest").all()
    assert "Active VSI Sessions" in r.at["DELL-0090", "note"] and "launched-sessions" not in r.at["DELL-0090", "note"]
    dell = normalize.normalize_source("dell_sc9000").set_index("record_id")
    assert dell.at["DELL-0021", "value"] == 512 and dell.at["DELL-0021", "unit"] == "KB"


def _legend_record(**kw):
    row = {
        "record_id": "X-0001",
        "text_file": "doc/text.md",
        "locator": "Figure: Eight-Node IOPS (time axis 01:02-01:28)",
        "line": 2,
        "quote": "Controller IOPS - 8_Nodes_MCS_1000VMs 36,164 26,502",
        "value_text": "26,502",
        "statistic": "average",
        "note": "chart legend, columns Max Mean: column 'Mean' of the legend row",
        "image_file": "doc/images/chart.png",
        "image_sha256": "",
    }
    row.update(kw)
    return pd.DataFrame([row])


def test_chart_legend_records_are_checked_against_image_link_and_legend(tmp_path, monkeypatch):
    """A number read from a chart's legend: the image exists with its SHA-256, the text links it
    at the record's line with the locator's caption, the quote is a legend row and the value the
    number of the column its statistic names (issue 24 item 3)."""
    (tmp_path / "doc" / "images").mkdir(parents=True)
    png = tmp_path / "doc" / "images" / "chart.png"
    png.write_bytes(b"\x89PNG not really")
    text = 'Some words.\n![Eight-Node IOPS](images/chart.png "Eight-Node IOPS")\n'
    monkeypatch.setitem(config.TEXT_DIRS, "external", tmp_path)
    good = _legend_record(image_sha256=provenance.sha256(png))
    texts = {"doc/text.md": text}
    assert provenance.verify_image_records(good, "external", texts) == []
    peak = good.assign(statistic="peak", value_text="36,164")
    assert provenance.verify_image_records(peak, "external", texts) == []
    cases = {
        "SHA-256": good.assign(image_sha256="0" * 64),
        "not found": good.assign(image_file="doc/images/other.png"),
        "not the legend's Mean": good.assign(value_text="36,164"),
        "is not a legend row": good.assign(quote="Controller IOPS peaked at 26,502", value_text="26,502"),
        "legend's columns": good.assign(note="read off the chart"),
        "time axis": good.assign(locator="Figure: Eight-Node IOPS"),
        "start before it ends": good.assign(locator="Figure: Eight-Node IOPS (time axis 02:00-01:00)"),
        "no image link": good.assign(line=1),
        "locator caption": good.assign(locator="Figure: MCS Eight-Node IOPS (time axis 01:02-01:28)"),
        "Mean": good.assign(quote="Controller IOPS - 8_Nodes_MCS_1000VMs 26,502 36,164", value_text="36,164"),
        "prints only Max": good.assign(statistic="single"),
    }
    for words, bad in cases.items():
        found = provenance.verify_image_records(bad, "external", texts)
        assert any(words in p for p in found), (words, found)
    # the column order is the note's: a 'Mean Max' legend reads the other way round
    swapped = good.assign(
        quote="8_Nodes_MCS_1000VMs 70.1% 98.8%",
        value_text="70.1%",
        note="chart legend, columns Mean Max: column 'Mean'",
    )
    assert provenance.check_legend_rows(swapped) == []
    assert provenance.check_legend_rows(swapped.assign(statistic="peak"))


def test_validate_names_file_line_and_column_of_a_bad_chart_record(tmp_path):
    """The validate stage checks chart-legend records too, naming the records file and CSV line."""
    import shutil

    from vdi_report.raw import validate

    raw = tmp_path / "raw"
    shutil.copytree(config.RAW_DIR, raw)
    path = raw / "records" / "nutanix_ra2022_2023.csv"
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    i = df.index[(df["image_file"] != "") & (df["statistic"] == "average")][0]
    df.loc[i, "value_text"] = df.loc[i, "quote"].split()[-2]  # the Max, recorded as the Mean
    df.loc[i, "value"] = str(sources.parse_printed(df.loc[i, "value_text"])[0][0])
    df.to_csv(path, index=False)
    found = validate.problems(raw)
    assert any(f"nutanix_ra2022_2023.csv: line {i + 2}:" in p and "not the legend's Mean" in p for p in found), found


def test_the_2023_edition_holds_its_within_lab_comparisons():
    """RA-2022's 2023 edition: MCS against Provisioning (boot and test), FSLogix on Nutanix Files
    colocated against dedicated, and the EUX 2023 harness statement (benchmarking file line 48)."""
    r = sources.load_records("nutanix_ra2022_2023")
    iops = r[(r["metric"] == "iops") & (r["vantage"] == "array_frontend")]
    confs = set(zip(iops["configuration"], iops["phase"]))
    assert {("g8_mcs_8n", "boot"), ("g8_pvs_8n", "boot")} <= confs
    assert {("g8_mcs_8n", "login_and_steady_state"), ("g8_pvs_8n", "login_and_steady_state")} <= confs
    files = {"g8_mcs_8n_files_colocated", "g8_mcs_8n_files_dedicated"}
    assert {(c, "login_and_steady_state") for c in files} <= confs
    assert (r["image_file"] != "").sum() >= 100 and (r.loc[r["image_file"] != "", "image_sha256"] != "").all()
    eux = r[(r["metric"] == "iops_ratio") & (r["line"] == 48)]
    assert len(eux) == 1 and eux.iloc[0]["bound"] == "lt" and eux.iloc[0]["value"] == 10
    boot = r[r["phase"] == "boot"]
    assert (boot["load"] == "").all(), "a boot storm runs no sessions: no workload"


def test_bar_chart_labels_are_checked_as_one_value_per_bar(tmp_path, monkeypatch):
    """A bar chart prints one value per bar (the 2023 edition's boot times): quote '<series>
    <value>', locator 'Figure: <caption> (bar chart)', statistic single."""
    bar = _legend_record(
        locator="Figure: Eight-Node IOPS (bar chart)",
        quote="8_Nodes_MCS_1000VMs 23.5 min",
        value_text="23.5 min",
        statistic="single",
        note="chart bar label: the bar's printed value",
    )
    assert provenance.check_legend_rows(bar) == []
    assert provenance.check_legend_rows(bar.assign(value_text="25.6 min"))
    assert provenance.check_legend_rows(bar.assign(statistic="average"))
    assert provenance.check_legend_rows(bar.assign(locator="Figure: Eight-Node IOPS (time axis 01:00-01:10)"))
    from vdi_report.models.iops import document_labels

    labels = document_labels(sources.load_sources())
    assert (
        labels["nutanix_ra2022_2023"] == "Nutanix RA-2022 (2023)"
        and labels["nutanix_ra2022"] == "Nutanix RA-2022 (2024)"
    )
