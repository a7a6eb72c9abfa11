"""The curated registers (``vdi_report.raw.registers``, re-exported by ``vdi_report.audit``):
data/raw/discrepancies.csv and data/raw/claims.csv valid, their quotes verbatim in the source texts,
verdicts following their evidence, bad input named by file, line and column."""

import pandas as pd
import pytest

from vdi_report import audit
from vdi_report.raw import sources


@pytest.fixture(scope="module")
def register():
    return audit.load_discrepancies()


@pytest.fixture(scope="module")
def claims():
    return audit.load_claims()


def test_register_valid_and_covers_every_source(register):
    assert list(register.columns) == audit.DISCREPANCY_COLUMNS + audit.OPTIONAL_DISCREPANCY_COLUMNS
    assert set(register["source_id"]) == set(sources.load_sources()["source_id"])
    assert len(register) >= 40
    assert set(register["category"]) <= set(audit.CATEGORIES)
    assert (register["resolution"].str.len() > 20).all() and (register["impact"].str.len() > 0).all()


def test_claims_valid(claims):
    assert set(claims["verdict"]) <= set(audit.VERDICTS)
    assert set(claims["source_id"]) == set(sources.load_sources()["source_id"])
    assert (claims.groupby("source_id").size() >= 5).all()


def test_claims_reject_an_unknown_topic(tmp_path, claims):
    bad = claims.copy()
    bad.loc[2, "topic"] = "sizing"
    path = tmp_path / "claims.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(audit.RegisterError) as exc:
        audit.load_claims(path)
    assert f"{path}: line 4: column 'topic' = 'sizing'" in str(exc.value) and "claim_topic" in str(exc.value)


def test_every_seed_has_a_claim_on_page_one(claims):
    """Each seed document states how many desktops it supports or what one desktop needs."""
    from vdi_report.report.sections.answers import SIZING_TOPICS

    seeds = sources.load_sources().query("role == 'seed'")["source_id"]
    on_page_one = claims[claims["topic"].isin(SIZING_TOPICS)]
    assert set(seeds) <= set(on_page_one["source_id"])


def test_register_rejects_bad_input(tmp_path, register):
    bad = register.copy()
    bad.loc[0, "category"] = "typo"
    bad.loc[1, "rejected_records"] = "NTAP-9999"
    path = tmp_path / "discrepancies.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(audit.RegisterError) as exc:
        audit.load_discrepancies(path)
    assert "line 2: column 'category'" in str(exc.value) and "NTAP-9999" in str(exc.value)


@pytest.mark.usefixtures("source_texts")
def test_register_quotes_occur_in_the_seed_text(register):
    problems = audit.verify_quotes(
        register, [("a_quote", "a_line", "a_text_file"), ("b_quote", "b_line", "b_text_file")], audit.source_texts()
    )
    assert problems == [], "\n".join(problems)


@pytest.mark.usefixtures("source_texts")
def test_claim_quotes_occur_in_the_seed_text(claims):
    problems = audit.verify_quotes(claims, [("quote", "line", "text_file")], audit.source_texts(), id_col="claim_id")
    assert problems == [], "\n".join(problems)


def test_verify_quotes_catches_a_wrong_quote():
    df = pd.DataFrame([{"id": "X", "source_id": "s", "q": "the quick fox", "l": "1"}])
    assert audit.verify_quotes(df, [("q", "l")], {"s": "the quick\n  brown fox"}) != []
    assert audit.verify_quotes(df.assign(q="quick\tbrown   fox"), [("q", "l")], {"s": "the quick\n  brown fox"}) == []
    # a source in several files: the quote is checked in the file its text-file column names
    files = {"s": {"a.md": "first file", "b.md": "the quick\n  brown fox"}}
    two = df.assign(q="brown fox", f="b.md")
    assert audit.verify_quotes(two, [("q", "l", "f")], files) == []
    assert audit.verify_quotes(two.assign(f=""), [("q", "l", "f")], files) != []  # empty: the first file


def test_claim_verdicts_follow_their_evidence(claims, register):
    assert audit.check_claim_verdicts(claims, register) == []


def test_claim_verdict_check_catches_planted_errors(claims, register):
    bad = claims.copy()
    i = bad.index[(bad["verdict"] == "not supported") & (bad["claim_id"] != "C-NTAP-01")][0]
    bad.loc[i, "evidence_against"] = ""  # "not supported" with no evidence against
    # "supported" for a statement the register calls a contradiction
    j = bad.index[bad["claim_id"] == "C-NTAP-01"][0]
    bad.loc[j, "verdict"] = "supported"
    problems = audit.check_claim_verdicts(bad, register)
    assert any(p.startswith(bad.at[i, "claim_id"]) and "evidence_against is empty" in p for p in problems)
    assert any(p.startswith("C-NTAP-01") and "D-NTAP-06" in p for p in problems)


def test_register_reports_the_documents_errors_behind_corrected_labels(register):
    """Where the digitizer rebuilt swapped or shifted labels, a register entry still reports the
    document's error: every record whose note says so is named by an entry (set aside, or at one of
    its two statements' locator and line)."""
    spots = {
        (r.source_id, loc, str(ln))
        for r in register.itertuples()
        for loc, ln in ((r.a_locator, r.a_line), (r.b_locator, r.b_line))
        if loc
    }
    named = {x for ids in register["rejected_records"] for x in ids.split()}
    missing = []
    for sid in sources.load_sources()["source_id"]:
        recs = sources.load_records(sid)
        fixed = recs[recs["note"].str.contains(r"\b(?:swapped|shifted|mislabell?ed)\b", case=False, regex=True)]
        for r in fixed.itertuples():
            if (
                r.record_id not in named
                and (sid, r.locator, str(r.line)) not in spots
                and not any(s[0] == sid and s[1] == r.locator for s in spots)
            ):
                missing.append(r.record_id)
    assert not missing, f"corrected labels without a register entry: {missing}"


def test_wrong_entries_of_issue_26_stay_fixed():
    """The register and claims entries a re-reading found wrong (issue 26): NetApp's 5-way
    concurrency is in the document (lines 389, 545), D-NTAP-24 quotes Section 6.1, Dell's two
    capacity maximums agree, and D-HDS-21 no longer misreads 'Configuration 1 to Configuration 3'."""
    reg = audit.load_discrepancies().set_index("id")
    claims = audit.load_claims().set_index("claim_id")
    assert "389" in reg.at["D-NTAP-14", "explanation"] and "does not say so" not in reg.at["D-NTAP-14", "explanation"]
    assert "389" in claims.at["C-NTAP-12", "evidence_against"]
    assert "unless 5-way concurrency is meant" not in claims.at["C-NTAP-12", "evidence_against"]
    assert reg.at["D-NTAP-24", "a_locator"] == "Section 6.1"
    assert "two different maximums" not in claims.at["C-DELL-12", "evidence_against"]
    assert " / " not in claims.at["C-DELL-12", "claim"]
    assert "Configuration 1 to 3 only" not in reg.at["D-HDS-21", "explanation"]
