"""Planning figures by era (issue 16) in the built report: the external evidence's verdicts the same
in the CSV, the table and the prose of the PDF."""

import re


def test_external_csv_table_and_prose_agree_on_every_verdict(pdf_text, processed):
    ext = processed("iops_model_external")
    i = pdf_text.index("Out of sample: every external figure with its true status")
    section = pdf_text[i : pdf_text.index("Leave one document out, per era", i)]
    prose, tab = section.split("External figures against the seed rows", 1)
    tab = tab.split("Boot storms of the external documents")[0]
    for status, g in ext.groupby("status"):
        counts = g["verdict"].value_counts()
        for verdict, k in counts.items():
            assert f"{k} {verdict}" in prose, (status, verdict, k)
    # the table lists every figure with the CSV's verdict: as many verdict words as rows per verdict
    for verdict in ("inside", "above", "below", "uninformative"):
        n = len(re.findall(rf"\b{verdict}\b", tab.replace("uninformativ e", "uninformative")))
        assert n == int((ext["verdict"] == verdict).sum()), verdict
    assert "covered means the seed interval contains the figure" in prose.replace("`", "")


def _num(x: float) -> str:
    from vdi_report.report.formatting import num

    return num(x)


def test_page_one_tells_task_workers_what_the_documents_hold(pages, processed):
    """Task workers have no planning row: page 1 says so, gives the documents' task-worker figure
    (the model's task observation, with its records) and the seed knowledge row of that phase."""
    first = " ".join(pages[:3])
    obs = processed("iops_model_observations")
    task = obs[obs["worker_class"] == "task"]
    assert len(task)
    i = first.index("Task workers have no planning row")
    sentence = first[i : i + 700]
    for _, t in task.iterrows():
        assert _num(t["iops_per_desktop"]) in sentence and t["record_ids"].split()[0] in sentence
    plan = processed("iops_per_desktop_model")
    k = plan[(plan["era"] == "seed") & (plan["phase"] == task["phase"].iloc[0]) & (plan["statistic"] == "average")]
    assert _num(k["estimate"].iloc[0]) in sentence


def pct(x: float) -> str:
    from vdi_report.report.formatting import pct

    return pct(x)


def test_page_one_names_where_the_modern_boot_read_share_comes_from(pages, processed):
    """The modern boot rows' read share is a boot's own split (the 2023 edition's boot charts),
    said beside the planning table with the whole runs' share it replaces."""
    first = " ".join(pages[:3])
    plan = processed("iops_per_desktop_model")
    b = plan[(plan["era"] == "modern") & (plan["phase"] == "boot")].iloc[0]
    w = plan[(plan["era"] == "modern") & (plan["provisioning"] == b["provisioning"]) & (plan["phase"] == "full_run")]
    i = first.index("the modern boot's read share")
    clause = first[i : i + 400]
    assert pct(b["read_share"]) in clause and pct(w["read_share"].iloc[0]) in clause
    assert b["read_share_vendors"] in clause
