"""The table catalogue: typed, validated, atomic reads and writes; the README's contract is the catalogue's."""

import math
import re

import pandas as pd
import pytest

from vdi_report import catalogue, config
from vdi_report.catalogue import Col
from vdi_report.raw import sources
from vdi_report.transform import normalize


@pytest.fixture
def processed_dir(tmp_path, monkeypatch):
    """Point data/processed at a temporary directory."""
    monkeypatch.setattr(config, "PROCESSED_DIR", tmp_path)
    return tmp_path


def _results_rows(n=2) -> pd.DataFrame:
    """A small, valid results table (from the first source's raw records)."""
    first = sources.load_sources()["source_id"].iloc[0]
    return normalize.normalize_source(first).head(n)


def test_readme_data_contract_is_the_catalogue():
    readme = (config.PROJ_ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- catalogue:begin -->\n(.*?)\n<!-- catalogue:end -->", readme, re.DOTALL)
    assert m, "README.md lacks the <!-- catalogue:begin/end --> data contract"
    assert m.group(1) == catalogue.contract_markdown(), (
        "README data contract differs from the catalogue: run make readme"
    )


def test_every_table_has_a_stage_and_unique_columns():
    for t in catalogue.TABLES.values():
        names = t.column_names
        assert len(names) == len(set(names)), t.name
        assert set(t.key) <= set(names), t.name
        assert t.stage


def test_results_columns_carry_the_record_context():
    for col in ("text_file", "aggregation", "window", "load", "locator", "line", "quote", "value_text"):
        assert col in catalogue.RESULT_COLUMNS


def test_round_trip_keeps_types_and_bytes(processed_dir):
    df = _results_rows(3).assign(value_high=[1.0, math.inf, 2.5], value_low=[0.0, 0.0, 0.5])
    p = catalogue.write("results", df)
    assert p == processed_dir / "results.csv"
    back = catalogue.read("results", validate=True)
    assert back["line"].dtype == "int64" and back["comparable"].dtype == bool
    assert back["value_high"].tolist() == [1.0, math.inf, 2.5]
    assert back["vantage"].map(type).eq(str).all()
    first = p.read_bytes()
    catalogue.write("results", back)
    assert p.read_bytes() == first


def test_write_rejects_an_unknown_vocabulary_value_naming_line_and_column(processed_dir):
    df = _results_rows(3)
    df.loc[1, "phase"] = "lunch_break"
    with pytest.raises(catalogue.TableError, match=r"line 3: column 'phase' = 'lunch_break'"):
        catalogue.write("results", df)
    assert not (processed_dir / "results.csv").exists()


def test_write_rejects_missing_and_undeclared_columns(processed_dir):
    df = _results_rows().drop(columns=["quote"]).assign(extra=1)
    with pytest.raises(catalogue.TableError, match="missing: quote; not declared: extra"):
        catalogue.write("results", df)


def test_write_rejects_a_duplicate_key(processed_dir):
    df = _results_rows(2)
    df.loc[1, "record_id"] = df.loc[0, "record_id"]
    with pytest.raises(catalogue.TableError, match="record_id"):
        catalogue.write("results", df)


def test_read_names_file_line_and_column_of_a_bad_value(processed_dir):
    catalogue.write("results", _results_rows(3))
    p = processed_dir / "results.csv"
    lines = p.read_text().splitlines()
    header = lines[0].split(",")
    cells = lines[2].split(",")
    cells[header.index("source_id") + header[header.index("source_id") :].index("desktops")] = "many"
    lines[2] = ",".join(cells)
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(catalogue.TableError, match=r"results.csv: line 3: column 'desktops' = 'many'"):
        catalogue.read("results")


def test_read_of_a_missing_table_names_the_build_target(processed_dir):
    with pytest.raises(FileNotFoundError, match="make .*tests.csv"):
        catalogue.read("tests")


def test_per_source_tables_need_their_key():
    with pytest.raises(TypeError, match="source_id"):
        catalogue.path("normalized")
    assert catalogue.locate(catalogue.path("normalized", source_id="abc")) == ("normalized", {"source_id": "abc"})
    with pytest.raises(KeyError, match="known:"):
        catalogue.table("nope")


def test_json_documents_round_trip_atomically(processed_dir, monkeypatch):
    doc = catalogue.Table("doc", "doc.json", "combine", "inputs of a calculation", (), format="json")
    monkeypatch.setitem(catalogue.TABLES, "doc", doc)
    p = catalogue.write("doc", {"b": [1, 2.5], "a": "x"})
    assert p.read_text() == '{\n  "a": "x",\n  "b": [\n    1,\n    2.5\n  ]\n}\n'  # sorted keys: deterministic
    assert catalogue.read("doc") == {"a": "x", "b": [1, 2.5]}
    with pytest.raises(ValueError):
        catalogue.write("doc", {"a": float("nan")})
    with pytest.raises(catalogue.TableError, match="JSON document"):
        catalogue.write("doc", _results_rows(1))
    assert catalogue.read("doc") == {"a": "x", "b": [1, 2.5]}  # a failed write leaves the file


def test_json_documents_with_declared_keys_refuse_others(processed_dir, monkeypatch):
    doc = catalogue.Table("doc", "doc.json", "combine", "inputs", (Col("a"), Col("b")), format="json")
    monkeypatch.setitem(catalogue.TABLES, "doc", doc)
    with pytest.raises(catalogue.TableError, match="missing: b; not declared: c"):
        catalogue.write("doc", {"a": 1, "c": 2})
    assert not (processed_dir / "doc.json").exists()
    (processed_dir / "doc.json").write_text('{"a": 1}\n')
    with pytest.raises(catalogue.TableError, match="doc.json.*missing: b"):
        catalogue.read("doc", validate=True)


def test_every_stage_notebook_writes_exactly_its_catalogue_tables_through_the_catalogue():
    """Every notebook that writes processed data writes through ``catalogue.write`` (schema
    enforced on write), exactly the catalogue's tables of its stage; and the report reads every
    table of the stages it reads (a ``Context`` attribute: no table is written that nobody reads)."""
    from vdi_report import stages
    from vdi_report.report.context import TABLES

    report = stages.stage("report")
    for st in (s for s in stages.STAGES if s.notebook):
        text = (config.NOTEBOOKS_DIR / f"{st.notebook}.py").read_text(encoding="utf-8")
        written = set(re.findall(r'catalogue\.write\("(\w+)"', text))
        assert written == set(st.writes), st.name
        assert "write_csv" not in text and "PROCESSED_DIR" not in text, st.name
        if st.name in report.reads_stages:
            assert written <= set(TABLES.values()), (st.name, written - set(TABLES.values()))
    assert stages.problems() == []


def test_draft_declares_every_column_with_its_type(tmp_path):
    csv = tmp_path / "t.csv"
    csv.write_text("name,n,share,flag,note\nx,1,0.5,True,\ny,2,,False,z\n")
    text = catalogue.draft("t", csv, "combine")
    assert 'Col("n", int)' in text and 'Col("share", float)' in text and 'Col("flag", bool)' in text
    assert 'Col("name")' in text and 'Col("note")' in text


def test_a_stage_reads_and_writes_only_the_tables_it_declares(monkeypatch):
    """Issue 27 (OWID's rule): within a build stage (VDI_STAGE), catalogue.read and write refuse a
    table the stage does not declare in stages.py, naming the stage, the table and its own."""
    from vdi_report import stages

    audit = stages.stage("audit")
    monkeypatch.setenv(catalogue.STAGE_ENV, "audit")
    monkeypatch.setenv(catalogue.READS_ENV, " ".join(audit.reads))
    monkeypatch.setenv(catalogue.WRITES_ENV, " ".join(audit.writes))
    with pytest.raises(catalogue.TableError, match=r"stage audit reads table 'sensitivity'.*results"):
        catalogue.read("sensitivity")
    with pytest.raises(catalogue.TableError, match=r"stage audit writes table 'results'.*audit_findings"):
        catalogue.write("results", _results_rows(1))
    catalogue.check_declared("results", "read")  # declared: no error
    catalogue.check_declared("audit_findings", "write")
    monkeypatch.delenv(catalogue.STAGE_ENV)
    catalogue.check_declared("sensitivity", "read")  # outside the build nothing is checked
    rules = stages.make_rules()
    for s in stages.STAGES:
        if s.exists and s.notebook:
            declared = f"{catalogue.READS_ENV}='{' '.join(s.reads)}' {catalogue.WRITES_ENV}='{' '.join(s.writes)}'"
            render = f" {stages.RENDER} {s.render}" if s.render else ""  # the report's stage renders it too
            go = f" {stages.WAIT_GO}" if s.while_starting else ""  # after the steps its recipe runs first
            command = f"{catalogue.STAGE_ENV}={s.name} {declared} $(NOTEBOOK){go}{render} notebooks/{s.notebook}.py"
            assert command in rules
    # catalogue never imports stages (stages imports catalogue): no cycle
    assert "import stages" not in (config.PROJ_ROOT / "src/vdi_report/catalogue.py").read_text(encoding="utf-8")


def test_a_table_left_empty_is_written_with_its_declared_columns(processed_dir):
    """A choice that leaves a table without rows (no model to fit: front_end_vantage = array_only)
    writes the whole declared header, never a partial one (issue 26: an empty
    iops_model_coefficients with only ``term`` stopped the model stage)."""
    want = catalogue.table("iops_model_coefficients").column_names
    assert list(catalogue.empty("iops_model_coefficients").columns) == want
    p = catalogue.write("iops_model_coefficients", pd.DataFrame(columns=["term"]))
    assert p.read_text(encoding="utf-8").splitlines() == [",".join(want)]
    back = catalogue.read("iops_model_coefficients", validate=True)
    assert back.empty and list(back.columns) == want
    # rows with a partial header are still refused, and so are undeclared columns
    with pytest.raises(catalogue.TableError, match="missing: coef"):
        catalogue.write("iops_model_coefficients", pd.DataFrame({"term": ["x"]}))
    with pytest.raises(catalogue.TableError, match="not declared: nonsense"):
        catalogue.write("iops_model_coefficients", pd.DataFrame(columns=["term", "nonsense"]))
