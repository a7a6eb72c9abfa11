"""Reader-facing defects of the report's model chapter and charts (issue: polish): bound
verdicts, the out-of-sample prose, table 13, readable term labels, log-axis ticks, chart titles
that repeat the caption, the boot-demand chart's line extent, and the latency chart's bounds."""

import re

import pandas as pd
import pytest

from vdi_report.models import iops
from vdi_report.report import charts
from vdi_report.report import model_tables as mtables


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
    words = iops.bound_verdict_words(48.7, "lt", 5.33, 28.0)
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
            label = f"{r.vendor} {r.document_number}"  # two editions of one number: with the year
            assert labels[r.source_id] in (label, f"{label} ({str(r.published)[:4]})")
    assert len(set(labels.values())) == len(labels), "two documents share a label"


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
        "status": "upper bound",
        "verdict": "uninformative",
        "covered": False,
        "record_ids": "RA2022-0173+RA2022-0175",
    }
    row.update(kw)
    return pd.DataFrame([row])


def test_external_table_says_uninformative_and_keeps_record_ids_whole():
    t = mtables.external_table(_ext(), {"x_doc": "V RA-1"})
    assert t.loc[0, "Document"] == "V RA-1"
    assert t.loc[0, "Verdict"] == "uninformative" and t.loc[0, "Status"] == "upper bound"
    assert t.loc[0, "Observed (derived)"].startswith("≤ ")
    assert t.loc[0, "Records"] == '<span class="vdi-id">RA2022-0173</span>, <span class="vdi-id">RA2022-0175</span>'
    assert set(mtables.EXTERNAL_WIDTHS) == set(t.columns)


def test_external_table_shows_the_csv_verdict_as_it_stands():
    """One meaning everywhere: the table prints the CSV's verdict (era.verdict), not a recomputation."""
    t = mtables.external_table(
        pd.concat(
            [
                _ext(observed=20.0, bound="eq", status="exact", verdict="inside", covered=True),
                _ext(observed=40.0, bound="eq", status="exact", verdict="above"),
                _ext(observed=30.0, bound="gt", status="lower bound", verdict="above"),
            ],
            ignore_index=True,
        )
    )
    assert list(t["Verdict"]) == ["inside", "above", "above"]
    assert list(t["Status"]) == ["exact", "exact", "lower bound"]


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


def _external_prose(monkeypatch, ext, sources_df, plan):
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
        plan=plan,
        lodo=pd.DataFrame(),
        label=lambda field, v: v,
    )
    section._external(ctx, ext, "90 %")
    return " ".join(said)


def test_external_prose_counts_and_plurals(monkeypatch, sources_df):
    sid = sources_df["source_id"].iloc[0]
    plan = pd.DataFrame(
        [
            {"era": "seed", "cell": "login peak", "estimate": 12.2, "pi90_low": 5.33, "pi90_high": 28.0},
            {"era": "seed", "cell": "whole-test average", "estimate": 5.8, "pi90_low": 4.8, "pi90_high": 6.6},
        ]
    )
    average = {"source_id": sid, "cell": "whole-test average", "bound": "eq", "status": "exact"}
    one_exact = _ext(**average, observed=6.0, ratio=1.03, verdict="inside", covered=True)
    text = _external_prose(monkeypatch, one_exact, sources_df, plan)
    assert "1 external figure from" in text and "1 whole-test average (read + write" in text
    assert "1 inside" in text and "login-peak upper bound" not in text and "– to –" not in text
    two = pd.concat(
        [
            one_exact,
            _ext(**average, observed=40.0, ratio=6.9, verdict="above"),
            _ext(source_id=sid),
        ],
        ignore_index=True,
    )
    text = _external_prose(monkeypatch, two, sources_df, plan)
    assert "3 external figures" in text and "2 whole-test averages" in text and "1 inside and 1 above" in text
    assert "1 login-peak upper bound (" in text and "1 uninformative" in text
    assert "1.03–6.9×" in text
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
