"""Reader-facing defects of the report's model chapter and charts (issue: polish): bound
verdicts, the out-of-sample prose, table 13, readable term labels, log-axis ticks, chart titles
that repeat the caption, the boot-demand chart's line extent, and the latency chart's bounds."""

import re

from vdi_report.models import boot, iops


def _section(text, start, end):
    i = text.index(start)
    return text[i : text.index(end, i)]


def test_out_of_sample_prose_has_no_empty_clauses(pdf_text, sources_df):
    s = _section(
        pdf_text, "Out of sample: every external figure with its true status", "Leave one document out, per era"
    )
    assert "– to –" not in s and "from – " not in s
    assert not re.search(r"\b0 (exact|fall|figure|document)", s)
    assert not re.search(r"\b1 (documents|figures)\b", s)
    for sid in sources_df["source_id"]:
        assert sid not in s, f"raw source id {sid} in the out-of-sample prose"
    assert not re.search(r"\((eq|lt|gt|approx);", s)


def test_out_of_sample_prose_names_documents_by_number(pdf_text, processed, sources_df):
    s = _section(
        pdf_text, "Out of sample: every external figure with its true status", "Leave one document out, per era"
    )
    labels = iops.document_labels(sources_df)
    for sid in set(processed("iops_model_external")["source_id"]) | set(processed("boot_external")["source_id"]):
        assert labels[sid] in s


def test_boot_section_says_the_fitted_arrays_were_at_a_limit(pdf_text, processed, seed_boot):
    s = _section(pdf_text, "Boot storms by rate", "The rules of thumb the documents quote")
    model, storms = seed_boot
    summ = processed("density_summary")
    limits = summ[
        summ["vendor"].isin(boot.fitted_storms(model, storms)["vendor"]) & summ["boot_limit"].fillna("").ne("")
    ]
    assert len(limits)
    for text in limits["boot_limit"]:
        assert re.sub(r"\s+", " ", text) in s
    assert "Dashed vertical line" in s and "grey band" in s
