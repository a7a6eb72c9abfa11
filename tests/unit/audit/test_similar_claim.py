"""Rule ``similar_claim``: figures a document calls similar that differ by more than 10 %."""


def test_similar_claim_flags_similar_figures_that_differ(rec, stmt, run):
    r = [rec("login_time", "7.7 sec", 7.7, unit="s"), rec("login_time", "5.8 sec", 5.8, unit="s")]
    ids = " ".join(x["record_id"] for x in r)
    bad = [stmt("S-DEMO-03", "w10_w11", "similar", record_ids=ids)]
    f = run(r, "similar_claim", facts=bad)
    assert len(f) == 1 and "33 %" in f.at[0, "message"]
    close = [rec("cpu", "68.1%", 68.1, unit="%"), rec("cpu", "70.6%", 70.6, unit="%")]
    ok = [stmt("S-DEMO-04", "cpu", "similar", record_ids=" ".join(x["record_id"] for x in close))]
    assert run(close, "similar_claim", facts=ok).empty  # 4 % apart: similar within 10 %
    assert run(r, "similar_claim", facts=[dict(bad[0], value="different")]).empty
