"""Statements of one fact across sections (``vdi_report.raw.facts``): data/raw/facts.csv and the
declared checklist of fact kinds (data/raw/fact_checklist.csv) validate, name bad input, and quote
their documents verbatim."""

import pytest

from vdi_report import config
from vdi_report.raw import facts as facts_mod
from vdi_report.raw import provenance, sources


def test_facts_file_validates_and_names_bad_input(tmp_path):
    f = facts_mod.load_facts()
    assert f["fact_id"].is_unique and len(f) >= 10
    bad = tmp_path / "facts.csv"
    text = (config.RAW_DIR / "facts.csv").read_text(encoding="utf-8")
    bad.write_text(
        text.replace(",summary,Section: Executive summary", ",abstract,Section: Executive summary", 1), encoding="utf-8"
    )
    with pytest.raises(facts_mod.FactError, match=r"line 2: column 'section' = 'abstract'"):
        facts_mod.load_facts(bad)


@pytest.mark.usefixtures("source_texts")
def test_fact_quotes_occur_in_their_documents():
    f = facts_mod.load_facts()
    srcs = sources.load_sources().set_index("source_id")
    problems = []
    for (sid, tf), g in f.groupby(["source_id", "text_file"]):
        text = provenance.text_path(srcs.at[sid, "text_dir"], tf).read_text(encoding="utf-8")
        recs = g.rename(columns={"fact_id": "record_id"})[["record_id", "locator", "line", "quote", "value_text"]]
        problems += provenance.verify_records(recs, text)
    assert not problems, "\n".join(problems)


def test_every_fact_has_a_declared_kind_and_the_checklist_covers_every_document():
    """facts.csv: every statement has a kind of vocabulary.csv (field fact_kind); fact_checklist.csv
    names, for every document and every kind on the checklist, whether its statements are all in
    (complete), some are (partial) or the search finds none (not_stated), and how they were sought."""
    f = facts_mod.load_facts()
    assert set(f["kind"]) <= set(facts_mod.fact_kinds())
    checklist = facts_mod.load_checklist()
    have = f.groupby(["source_id", "kind"]).size()
    problems = []
    for r in checklist.itertuples(index=False):
        n = int(have.get((r.source_id, r.kind), 0))
        if r.status in ("complete", "partial") and n == 0:
            problems.append(f"{r.source_id} {r.kind}: {r.status} but no statement in facts.csv")
        if r.status == "not_stated" and n:
            problems.append(f"{r.source_id} {r.kind}: not_stated but {n} statement(s) in facts.csv")
    assert not problems, "\n".join(problems)
    kinds = facts_mod.checklist_kinds()
    assert {"os_build", "desktop_count", "duration", "caption", "cross_reference", "similarity"} <= set(kinds)
    assert len(checklist) == len(sources.load_sources()) * len(kinds)


def test_checklist_names_a_missing_pair_and_a_bad_status(tmp_path):
    text = (config.RAW_DIR / "fact_checklist.csv").read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "fact_checklist.csv"
    bad.write_text("\n".join(text[:-1]) + "\n", encoding="utf-8")  # the last pair dropped
    with pytest.raises(facts_mod.FactError, match=r"no row for document"):
        facts_mod.load_checklist(bad)
    first = text[1].split(",")
    broken = text[0] + "\n" + ",".join([first[0], first[1], "done"] + first[3:]) + "\n" + "\n".join(text[2:]) + "\n"
    bad.write_text(broken, encoding="utf-8")
    with pytest.raises(facts_mod.FactError, match=r"line 2: column 'status' = 'done'"):
        facts_mod.load_checklist(bad)


def test_facts_name_an_unknown_kind(tmp_path):
    bad = tmp_path / "facts.csv"
    text = (config.RAW_DIR / "facts.csv").read_text(encoding="utf-8")
    bad.write_text(text.replace(",worker_class,load_tool,", ",worker_class,workload,", 1), encoding="utf-8")
    with pytest.raises(facts_mod.FactError, match=r"line 2: column 'kind' = 'workload'"):
        facts_mod.load_facts(bad)
