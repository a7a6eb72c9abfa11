"""The tables the stages write for the report to read (issue 25, item 5): each holds what the
report computed at render time before, computed once by the stage that owns the figure."""

import pandas as pd
import pytest

from vdi_report.models import boot, iops, sensitivity

pytestmark = pytest.mark.data


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("sensitivity_ranking", sensitivity.ranking),
        ("sensitivity_movers", sensitivity.row_movers),
        ("sensitivity_tornado", sensitivity.tornado),
    ],
)
def test_the_sensitivity_summaries_are_those_of_sensitivity_csv(processed, name, summary):
    written = processed(name)
    again = summary(processed("sensitivity"))
    assert list(written.columns) == list(again.columns) and len(written) == len(again)
    for c in written.columns:
        if pd.api.types.is_float_dtype(again[c]):
            assert written[c].to_numpy() == pytest.approx(again[c].to_numpy(), rel=1e-9, nan_ok=True), (name, c)
        else:
            assert written[c].astype(str).tolist() == again[c].astype(str).tolist(), (name, c)


def test_the_headline_cells_are_the_models_values_under_the_defaults(processed, results, sources_df):
    """The built choices are the declared defaults (no CHOICES file in a plain build)."""
    written = processed("headline_iops").set_index(["source_id", "test_id", "statistic"])
    again = iops.headline_iops(results, sources_df=sources_df).set_index(["source_id", "test_id", "statistic"])
    assert sorted(written.index) == sorted(again.index)
    assert written["iops_per_desktop"].to_numpy() == pytest.approx(
        again.loc[written.index, "iops_per_desktop"].to_numpy(), rel=1e-9
    )
    assert (written["set_aside"] == again.loc[written.index, "set_aside"]).all()


def test_the_storms_in_the_boot_rate_model_are_those_its_row_pools(processed):
    plan = processed("iops_per_desktop_model")
    storms = processed("boot_storms")
    rows = plan[(plan["era"] == "seed") & (plan["phase"] == "boot")]
    pooled = boot.fitted_storms(rows, storms)
    assert set(storms.loc[storms["in_rate_model"], "source_id"]) == set(pooled["source_id"]) != set()


def test_the_boot_demand_line_reaches_the_scenario_rate(processed):
    line = processed("boot_demand")
    sizing = processed("sizing_scenario")
    rate = float(sizing["desktops"].iloc[0]) / float(sizing["boot_window_min"].iloc[0])
    assert line["scenario_boot_rate_per_min"].to_numpy() == pytest.approx(rate, rel=1e-9)
    assert line["boot_rate_per_min"].max() == pytest.approx(
        max(rate, line.loc[line["part"] == boot.FITTED, "boot_rate_per_min"].max())
    )
