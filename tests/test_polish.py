"""Reader-facing defects of the report's model chapter and charts (issue: polish): bound
verdicts, the out-of-sample prose, table 13, readable term labels, log-axis ticks, chart titles
that repeat the caption, the boot-demand chart's line extent, and the latency chart's bounds."""

import math
import re

import pandas as pd
import pytest
from pypdf import PdfReader

from vdi_report.models import boot, iops
from vdi_report.report import charts
from vdi_report.report import model_tables as mtables

# --- bound verdicts (unit) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "observed,bound,expected",
    [
        (20, "eq", ("yes", "inside")),
        (40, "eq", ("no", "above")),
        (2, "approx", ("no", "below")),
        (20, "lt", ("consistent", "inside")),
        (48.7, "lt", ("uninformative", "above")),
        (3, "lt", ("no", "below")),
        (20, "gt", ("consistent", "inside")),
        (3, "gt", ("uninformative", "below")),
        (40, "gt", ("no", "above")),
    ],
)
def test_bound_verdict(observed, bound, expected):
    assert iops.bound_verdict(observed, bound, 5.33, 28.0) == expected


def test_an_upper_bound_far_above_the_interval_is_uninformative_not_consistent():
    words = mtables.bound_verdict_words(48.7, "lt", 5.33, 28.0)
    assert words.startswith("uninformative") and "consistent" not in words


def test_bound_verdict_rejects_bad_input():
    with pytest.raises(ValueError, match="unknown bound"):
        iops.bound_verdict(1, "between", 0, 2)
    with pytest.raises(ValueError, match="needs observed"):
        iops.bound_verdict(float("nan"), "eq", 0, 2)


def test_document_labels_use_the_document_number_not_the_source_id(sources_df):
    labels = iops.document_labels(sources_df)
    for r in sources_df.itertuples():
        assert labels[r.source_id].startswith(r.vendor)
        assert r.source_id not in labels[r.source_id]
        if re.fullmatch(r"[A-Z]{1,6}-\d+", str(r.document_number)):
            assert labels[r.source_id] == f"{r.vendor} {r.document_number}"


# --- table 13 and table 11 formatters (unit) -----------------------------------------------------


def _ext(**kw):
    row = {
        "source_id": "x_doc",
        "vendor": "V",
        "broker": "b",
        "load_tool": "t",
        "guest_os": "o",
        "platform": "p",
        "test_id": "mcs_w11_login",
        "configuration": "c",
        "variant": "",
        "cell": "login peak",
        "worker_class": "knowledge",
        "observed": 48.7,
        "bound": "lt",
        "predicted": 12.2,
        "pi90_low": 5.33,
        "pi90_high": 28.0,
        "ratio": 3.98,
        "covered": True,
        "record_ids": "RA2022-0173+RA2022-0175",
    }
    row.update(kw)
    return pd.DataFrame([row])


def test_external_table_says_uninformative_and_keeps_record_ids_whole():
    t = mtables.external_table(_ext(), {"x_doc": "V RA-1"})
    assert t.loc[0, "Document"] == "V RA-1"
    assert t.loc[0, "Against the 90 % PI"].startswith("uninformative")
    assert t.loc[0, "Records"] == '<span class="vdi-id">RA2022-0173</span>, <span class="vdi-id">RA2022-0175</span>'
    assert set(mtables.EXTERNAL_WIDTHS) == set(t.columns)


def test_external_table_value_inside_is_yes_and_outside_is_no():
    t = mtables.external_table(
        pd.concat([_ext(observed=20.0, bound="eq"), _ext(observed=40.0, bound="eq")], ignore_index=True)
    )
    assert list(t["Against the 90 % PI"]) == ["yes", "no: above the interval"]


def test_record_ids_are_separated_between_ids():
    assert mtables.record_ids("A-1 B-2;C-3") == ", ".join(
        f'<span class="vdi-id">{i}</span>' for i in ("A-1", "B-2", "C-3")
    )


@pytest.mark.parametrize(
    "term,label",
    [
        ("cell[login peak]", "login peak"),
        ("cell[steady_state average]", "steady state average"),
        ("vantage[T.host]", "vantage: host (against the reference)"),
        ("Intercept", "intercept"),
    ],
)
def test_term_labels_are_readable(term, label):
    assert mtables.term_label(term) == label


def test_coefficient_table_of_the_model_has_no_raw_term_names(processed):
    t = mtables.coefficient_table(processed("iops_model_coefficients"))
    assert not t["Term"].str.contains(r"[\[\]]").any()


# --- charts (unit) -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lo,hi,nice,expected",
    [
        (2.6, 400, True, [1, 10, 100, 1000]),
        (0.5, 9, True, [0.1, 1, 10]),
        (2.1, 30, False, [5, 10, 20]),
        (1.9, 35, False, [2, 5, 10, 20]),
    ],
)
def test_log_ticks(lo, hi, nice, expected):
    """With an explicit domain and one power inside, 2 and 5 times the powers are added."""
    assert charts.log_ticks(lo, hi, nice=nice) == expected


def test_log_ticks_rejects_a_non_positive_range():
    with pytest.raises(ValueError, match="0 < lo"):
        charts.log_ticks(0, 10)


def _axis_values(spec):
    found = []

    def walk(x):
        if isinstance(x, dict):
            if isinstance(x.get("axis"), dict) and "values" in x["axis"]:
                found.append(x["axis"]["values"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(spec)
    return found


def test_per_desktop_chart_has_power_of_ten_ticks_and_no_title(results):
    spec = charts.per_desktop_iops_chart(results).to_dict()
    assert "title" not in spec
    (values,) = _axis_values(spec)
    assert all(v > 0 and abs(math.log10(v) % 1) < 1e-9 for v in values)


def test_prediction_chart_labels_are_not_truncated_and_no_title(processed):
    pred, obs = processed("iops_per_desktop_model"), processed("iops_model_observations")
    spec = charts.prediction_chart(pred[pred["phase"] != "boot"], obs).to_dict()
    assert "title" not in spec
    labels = (pred["phase"] + " " + pred["statistic"]).str.replace("_", " ") + " · " + pred["worker_class"]
    limits = [
        lay["encoding"]["y"]["axis"]["labelLimit"] for lay in spec["layer"] if "axis" in lay["encoding"].get("y", {})
    ]
    # about 7 px per character at the axis font size (11 px DejaVu Sans)
    assert limits and min(limits) >= 7 * labels.str.len().max()


def test_latency_chart_draws_normal_condition_only_with_open_marks_for_bounds(results):
    d = charts.latency_data(results)
    assert set(d["condition"].fillna("").replace("", "normal")) == {"normal"}
    failover = results[
        (results["metric"] == "latency") & (results["condition"] == "failover") & results["used_in_analysis"]
    ]
    assert not set(failover["record_id"]) & set(d["record_id"])
    spec = charts.latency_chart(results).to_dict()
    assert "title" not in spec
    marks = {lay["mark"].get("filled") for lay in spec["layer"]}
    assert marks == {True, False}
    assert any(t.get("field") == "vantage" for lay in spec["layer"] for t in lay["encoding"]["tooltip"])
    lt = d[d["bound"] == "lt"]
    assert (lt["shown"].str.startswith("< ")).all()


def _boot(processed):
    pred = processed("iops_per_desktop_model")
    storms = processed("boot_storms")
    storms = storms.assign(**{c: pd.to_numeric(storms[c]) for c in ("boot_rate_per_min", "peak_iops", "average_iops")})
    return pred[pred["phase"] == "boot"], storms


def _line_x(spec, color):
    return [
        r["boot_rate_per_min"]
        for lay in spec["layer"]
        if lay.get("mark", {}).get("type") == "line" and lay["mark"].get("color") == color
        for r in spec["datasets"][lay["data"]["name"]]
    ]


def test_boot_line_stops_at_one_and_a_half_times_the_highest_fitted_rate(processed):
    model, storms = _boot(processed)
    fitted = boot.fitted_storms(model, storms)
    assert len(fitted) >= 1
    limit = boot.EXTRAPOLATION_FACTOR * fitted["boot_rate_per_min"].max()
    spec = charts.demand_chart(model, storms, scenario_rate=1.0).to_dict()
    assert max(_line_x(spec, "black")) == pytest.approx(limit)
    assert not _line_x(spec, "#666")  # no extrapolated part
    assert boot.EXTRAPOLATED not in str(spec["datasets"])


def test_boot_line_beyond_the_tested_rates_is_labelled_extrapolated(processed):
    model, storms = _boot(processed)
    limit = boot.EXTRAPOLATION_FACTOR * boot.fitted_storms(model, storms)["boot_rate_per_min"].max()
    spec = charts.demand_chart(model, storms, scenario_rate=3 * limit).to_dict()
    assert max(_line_x(spec, "black")) == pytest.approx(limit)
    assert max(_line_x(spec, "#666")) == pytest.approx(3 * limit)
    assert boot.EXTRAPOLATED in str(spec["datasets"])


# --- the built report (report) -----------------------------------------------------------------


@pytest.fixture(scope="module")
def pdf_text(report_pdf):
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(report_pdf).pages))


def _section(text, start, end):
    i = text.index(start)
    return text[i : text.index(end, i)]


def test_out_of_sample_prose_has_no_empty_clauses(pdf_text, sources_df):
    s = _section(pdf_text, "Out of sample: the external documents", "Boot storms by rate")
    assert "– to –" not in s and "from – " not in s
    assert not re.search(r"\b0 (exact|fall|figure|document)", s)
    assert not re.search(r"\b1 (documents|figures)\b", s)
    for sid in sources_df["source_id"]:
        assert sid not in s, f"raw source id {sid} in the out-of-sample prose"
    assert not re.search(r"\((eq|lt|gt|approx);", s)


def test_out_of_sample_prose_names_documents_by_number(pdf_text, processed, sources_df):
    s = _section(pdf_text, "Out of sample: the external documents", "Boot storms by rate")
    labels = iops.document_labels(sources_df)
    for sid in set(processed("iops_model_external")["source_id"]) | set(processed("boot_external")["source_id"]):
        assert labels[sid] in s


def test_boot_section_says_the_fitted_arrays_were_at_a_limit(pdf_text, processed):
    s = _section(pdf_text, "Boot storms by rate", "The rules of thumb the documents quote")
    model, storms = _boot(processed)
    summ = processed("density_summary")
    limits = summ[
        summ["vendor"].isin(boot.fitted_storms(model, storms)["vendor"]) & summ["boot_limit"].fillna("").ne("")
    ]
    assert len(limits)
    for text in limits["boot_limit"]:
        assert re.sub(r"\s+", " ", text) in s
    assert "Dashed vertical line" in s and "grey band" in s


def _external_prose(monkeypatch, ext, sources_df):
    """The out-of-sample prose of the models section for ``ext`` (tables and boot storms aside)."""
    from types import SimpleNamespace

    from vdi_report.report.sections import models as section

    said = []
    monkeypatch.setattr(section, "say", lambda t, **v: said.append(section.fill(t, **v)))
    monkeypatch.setattr(section, "table", lambda *a, **k: None)
    ctx = SimpleNamespace(
        sources=sources_df,
        seeds=sources_df[sources_df["role"] == "seed"],
        boot_external=pd.DataFrame(),
        pred=pd.DataFrame(),
    )
    section._external(ctx, ext, "90 %")
    return " ".join(said)


def test_external_prose_counts_and_plurals(monkeypatch, sources_df):
    sid = sources_df["source_id"].iloc[0]
    one_exact = _ext(source_id=sid, observed=20.0, bound="eq", ratio=1.64)
    text = _external_prose(monkeypatch, one_exact, sources_df)
    assert "1 external figure from" in text and "1 figure reported as values, 1 falls inside" in text
    assert "observed ÷ predicted is 1.6×" in text and "upper bound" not in text and "– to –" not in text
    two = pd.concat(
        [
            one_exact,
            _ext(source_id=sid, observed=40.0, bound="eq", ratio=3.3),
            _ext(source_id=sid, observed=48.7, bound="lt", ratio=3.98),
        ],
        ignore_index=True,
    )
    text = _external_prose(monkeypatch, two, sources_df)
    assert "3 external figures" in text and "2 figures reported as values, 1 falls inside" in text
    assert "runs from 1.6× to 3.3×" in text and "1 figure is an upper bound" in text and "uninformative" in text
    assert sid not in text


def test_observation_table_keeps_bounds_and_printed_ranges():
    """Table 'What each observation was measured with': a boot storm known only as a bound keeps
    its sign, and an observation printed as a range shows the range beside the midpoint used."""
    import pandas as pd

    from vdi_report.report import model_tables as mt

    ctx = pd.DataFrame(
        {
            "vendor": ["A", "B", "C"],
            "what": ["boot storm", "steady_state average", "login peak"],
            "worker_class": ["any", "task", "office"],
            "value": [84.4, 3.5, 20.7],
            "low": [float("nan"), 3.0, 20.7],
            "high": [float("nan"), 4.0, 20.7],
            "bound": ["gt", "eq", "eq"],
            "records": ["R-1", "R-2", "R-3"],
            "load_tool": "",
            "guest_os": "",
            "clone_type": "",
            "broker": "",
        }
    )
    cells = list(mt.context_table(ctx)["Value (derived)"])
    assert cells == ["≥ 84.4", "3–4 (midpoint 3.5)", "20.7"]
