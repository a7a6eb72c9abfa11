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
