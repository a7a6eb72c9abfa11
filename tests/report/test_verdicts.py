"""Per-array answers (issue 17): demonstrated capability from records, verdicts, arrays needed, ports,
N+1 and cost from the buyer's quote, checked against hand calculations from cited records; the
JavaScript twin gives the same rows; the report with a quote file renders them."""

import pandas as pd

from vdi_report import config
from vdi_report.models import verdicts


def test_report_writes_array_verdicts_with_the_contract_columns(report_pdf):
    """reports/array_verdicts.csv of the build: one row per configuration x phase x condition."""
    df = pd.read_csv(config.REPORTS_DIR / "array_verdicts.csv", keep_default_na=False)
    need = [
        "source_id",
        "configuration",
        "phase",
        "condition",
        "demonstrated_iops",
        "latency_ms",
        "busiest_resource",
        "verdict",
        "arrays_needed",
        "usd_per_desktop",
        "record_ids",
    ]
    assert set(need) <= set(df.columns)
    assert len(df) == len(df.drop_duplicates(["source_id", "configuration", "phase", "condition"]))
    assert set(df["verdict"]) <= set(verdicts.VERDICTS)
    assert set(df["phase"]) == set(verdicts.PHASES) and set(df["condition"]) == {"normal", "failover"}


def test_page_one_answers_which_array_how_many_and_says_no_document_states_a_price(pages):
    """Page 1 names, for every tested configuration, the arrays the build's scenario needs (from
    reports/array_verdicts.csv) and says that no document states a price; the table follows."""
    pages = pages[:2]
    first = pages[0]
    assert "Which array, how many, at what margin, at what cost" in first
    assert "No document states an array price" in first
    assert "Per-array answers at the scenario" in " ".join(pages)
    df = pd.read_csv(config.REPORTS_DIR / "array_verdicts.csv")
    built = pd.read_csv(config.REPORTS_DIR / "sizing_scenario.csv")
    cond = "failover" if (built["condition"] == "failover").all() else "normal"
    for (vendor, conf), g in df[df["condition"] == cond].groupby(["vendor", "configuration"], dropna=False):
        n = g["arrays_needed_binding"].iloc[0]
        if pd.notna(n):
            label = f"Config {conf[-1]}" if isinstance(conf, str) and conf.startswith("config") else ""
            name = f"{vendor} {label}" if label else g["array"].iloc[0]
            assert f"{name}: {int(n)} array" in first, name
