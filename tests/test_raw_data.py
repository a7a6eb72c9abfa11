"""data/raw: every file validates, and every record is checked against its source text."""

import pandas as pd
import pytest

from vdi_report import config, provenance, sources

SOURCE_IDS = sources.load_sources()["source_id"].tolist()
SEEDS_PRESENT = config.SEEDS_DIR.is_dir()
needs_seeds = pytest.mark.skipif(not SEEDS_PRESENT, reason=f"source texts not found at {config.SEEDS_DIR} "
                                 "(set VDI_SEEDS_DIR); provenance is verified in CI where ../shared/seeds exists")


def test_every_source_has_a_records_file_and_back(sources_df):
    on_disk = {p.stem for p in config.RECORDS_DIR.glob("*.csv")}
    assert on_disk == set(sources_df["source_id"])


@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_records_validate(source_id):
    recs = sources.load_records(source_id)
    assert len(recs) >= 50, "each document holds far more than 50 numbers"
    assert recs["record_id"].is_unique


@needs_seeds
@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_text_checksums(source_id, sources_df):
    row = sources_df.set_index("source_id").loc[source_id]
    for name, digest in zip(row["text_files"].split(), row["text_sha256"].split()):
        assert provenance.sha256(provenance.text_path(row["text_dir"], name)) == digest, name


@needs_seeds
@pytest.mark.parametrize("source_id", SOURCE_IDS)
def test_every_record_traces_to_its_source_text(source_id, sources_df):
    """Quote verbatim in the document, value inside the quote, quote near its line, locator exists."""
    row = sources_df.set_index("source_id").loc[source_id]
    problems = provenance.verify_source(row, sources.load_records(source_id))
    assert problems == [], "\n".join(problems[:20])


def test_verify_records_catches_a_misquote():
    text = "Table 8) results for full-clone boot storm.\nPeak IOPS\t117,752\tAvg IOPS 36,000\n"
    good = pd.DataFrame([{"record_id": "X-0001", "locator": "Table 8", "line": 2,
                          "quote": "Peak IOPS 117,752", "value_text": "117,752"}])
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
