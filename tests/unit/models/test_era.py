"""Planning figures by era (issue 16, ``vdi_report.models.era``) on small inputs: the verdict of a
figure with its status, and the interval of two or three documents (the data: tests/data/test_era.py;
the report: tests/report/test_era.py)."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from vdi_report.models import era


@pytest.mark.parametrize(
    "observed, status, want",
    [
        (5.0, "exact", "inside"),
        (9.0, "exact", "above"),
        (1.0, "exact", "below"),
        (9.0, "lower bound", "above"),  # at least 9, above an interval ending at 8: contradicts it
        (5.0, "lower bound", "uninformative"),  # at least 5: may be inside, cannot contradict
        (1.0, "lower bound", "uninformative"),
        (1.0, "upper bound", "below"),  # at most 1, below an interval starting at 2
        (5.0, "upper bound", "uninformative"),
        (9.0, "upper bound", "uninformative"),
    ],
)
def test_verdict_is_uninformative_only_when_a_figure_cannot_contradict(observed, status, want):
    assert era.verdict(observed, status, 2.0, 8.0) == want


def test_verdict_rejects_an_unknown_status_and_missing_numbers():
    with pytest.raises(ValueError, match="unknown status 'roughly'"):
        era.verdict(1.0, "roughly", 0.0, 2.0)
    with pytest.raises(ValueError, match="needs observed, low and high"):
        era.verdict(float("nan"), "exact", 0.0, 2.0)


def test_two_labs_give_their_range_and_three_a_prediction_interval_for_a_new_lab():
    two = era.pool(pd.Series([10.0, 40.0]))  # no labs given: every document its own lab
    assert two["estimate"] == pytest.approx(20.0) and (two["pi90_low"], two["pi90_high"]) == (10.0, 40.0)
    assert two["interval_kind"].startswith("range of 2 labs") and two["n_documents"] == 2 and two["n_labs"] == 2
    assert two["interval_spans"] == "range of 2 labs"
    one = era.pool(pd.Series([7.0]), pd.Series([6.0]), pd.Series([8.0]))
    assert (one["pi90_low"], one["pi90_high"]) == (6.0, 8.0) and one["interval_kind"].startswith("one lab's runs")
    three = era.pool(pd.Series([10.0, 20.0, 40.0]))
    logs = np.log([10.0, 20.0, 40.0])
    half = stats.t.ppf(0.95, 2) * logs.std(ddof=1) * math.sqrt(1 + 1 / 3)
    assert three["pi90_low"] == pytest.approx(math.exp(logs.mean() - half))
    assert three["pi90_high"] == pytest.approx(math.exp(logs.mean() + half))
    assert three["interval_kind"].startswith("90 % prediction interval for a new lab over 3 labs")
    assert three["interval_spans"] == "prediction interval for a new lab"


def test_documents_of_one_lab_are_one_replicate_never_a_prediction_interval():
    """Three documents of one lab (the modern era: n_vendors = 1) give that lab's range, not a 90 % PI;
    a lab's figure is the geometric mean of its documents, so two documents of one lab and one of another
    weigh as two labs."""
    one_lab = era.pool(pd.Series([30.0, 40.0, 50.0]), labs=pd.Series(["Nutanix"] * 3))
    assert one_lab["n_documents"] == 3 and one_lab["n_labs"] == 1 and one_lab["labs"] == ["Nutanix"]
    assert (one_lab["pi90_low"], one_lab["pi90_high"]) == (30.0, 50.0)
    assert one_lab["interval_spans"] == "one lab's runs" and "90 %" not in one_lab["interval_kind"]
    mixed = era.pool(pd.Series([10.0, 40.0, 90.0]), labs=pd.Series(["A", "A", "B"]))
    assert mixed["n_labs"] == 2 and mixed["estimate"] == pytest.approx(math.sqrt(20.0 * 90.0))
    assert mixed["interval_spans"] == "range of 2 labs"
