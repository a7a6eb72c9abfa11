"""Every catalogue column documented: catalogue_columns.csv gives each column of each processed
table a unit and a meaning, names no table or column that does not exist, uses only the
catalogue's units, is read strictly (errors name file, line and column) and ships with the package."""

import tomllib
from fnmatch import fnmatch

import pytest

from vdi_report import catalogue, config
from vdi_report.catalogue import COLUMN_DOCS_FILE, COLUMN_UNITS, ColumnDoc

HEADER = "table,column,unit,meaning\n"


def _write(tmp_path, body: str):
    p = tmp_path / "columns.csv"
    p.write_text(HEADER + body, encoding="utf-8")
    return p


def test_every_catalogue_column_has_a_unit_and_a_meaning():
    assert catalogue.column_doc_problems() == []
    n = 0
    for t in catalogue.TABLES.values():
        for c in t.columns:
            doc = catalogue.column_doc(t.name, c.name)
            assert doc.meaning.strip(), (t.name, c.name)
            n += 1
    assert n == sum(len(t.columns) for t in catalogue.TABLES.values())


def test_units_are_from_the_allowed_list():
    for doc in catalogue.column_docs().values():
        assert doc.unit in COLUMN_UNITS or doc.unit_column, (doc.table, doc.column, doc.unit)


# Numbers without a unit: a 1-based line number and a 1/0 flag kept as a float (empty = not predicted).
UNITLESS_NUMBERS = {("normalized", "line"), ("results", "line"), ("iops_model_cv", "covered")}


def test_every_number_has_a_unit():
    missing = [
        (t.name, c.name)
        for t in catalogue.TABLES.values()
        for c in t.columns
        if c.dtype in (float, int) and not catalogue.column_doc(t.name, c.name).unit
    ]
    assert sorted(missing) == sorted(UNITLESS_NUMBERS)


def test_a_flag_or_a_text_column_has_no_numeric_unit():
    # a bool column is a flag: a unit there would be a copy-paste slip
    for t in catalogue.TABLES.values():
        for c in t.columns:
            if c.dtype is bool:
                assert catalogue.column_doc(t.name, c.name).unit == "", (t.name, c.name)


def test_no_inline_doc_in_the_declarations():
    # one place for a column's meaning: catalogue_columns.csv, not Col(doc=...)
    inline = [(t.name, c.name) for t in catalogue.TABLES.values() for c in t.columns if c.doc]
    assert inline == [], f"move these meanings to {COLUMN_DOCS_FILE.name}: {inline}"


def test_the_contract_prints_each_unit_and_meaning():
    text = catalogue.contract_markdown()
    assert "  - `per_desktop` (float, the row's `per_desktop_unit` per desktop): derived: value / desktops" in text
    assert "  - `boot_rate_per_min` (float, desktops per minute): derived: desktops / duration_min" in text
    for t in catalogue.TABLES.values():
        for c in t.columns:
            assert catalogue.column_doc(t.name, c.name).meaning in text


def test_a_missing_row_is_a_problem():
    docs = dict(catalogue.column_docs())
    del docs[("boot_storms", "io_per_boot")]
    assert catalogue.column_doc_problems(docs) == [
        "catalogue_columns.csv: no row documents column 'io_per_boot' of table 'boot_storms'"
    ]
    with pytest.raises(KeyError, match="'io_per_boot' of table 'boot_storms' is not documented"):
        catalogue.column_doc("boot_storms", "io_per_boot", docs)


def test_a_row_for_no_table_or_no_column_is_a_problem():
    docs = dict(catalogue.column_docs())
    docs[("boot_storm", "desktops")] = ColumnDoc("boot_storm", "desktops", "desktops", "typo in the table", 998)
    docs[("cost", "price_eur")] = ColumnDoc("cost", "price_eur", "", "a column cost does not have", 999)
    docs[("*", "nowhere")] = ColumnDoc("*", "nowhere", "", "a shared row no table uses", 1000)
    assert catalogue.column_doc_problems(docs) == [
        "catalogue_columns.csv: line 998: no table 'boot_storm' in the catalogue",
        "catalogue_columns.csv: line 999: table 'cost' has no column 'price_eur'",
        "catalogue_columns.csv: line 1000: no table uses the shared row of 'nowhere'",
    ]


def test_a_unit_naming_a_missing_column_is_a_problem():
    docs = dict(catalogue.column_docs())
    docs[("cost", "price_usd")] = ColumnDoc("cost", "price_usd", "{currency}", "assumed price", 7)
    assert catalogue.column_doc_problems(docs) == [
        "catalogue_columns.csv: line 7: unit '{currency}' of 'price_usd' names a column table 'cost' lacks"
    ]


def test_a_table_row_overrides_the_shared_row():
    assert catalogue.column_doc("results", "desktops").table == "*"
    own = catalogue.column_doc("boot_storms", "desktops")
    assert own.table == "boot_storms" and own.meaning.startswith("desktops booted")


@pytest.mark.parametrize(
    "body, message",
    [
        ("cost,price_usd,EUR,assumed price\n", r"columns\.csv: line 2: column 'unit' = 'EUR': not a unit"),
        ("cost,price_usd,USD,\n", r"columns\.csv: line 2: column 'meaning' is empty"),
        (",price_usd,USD,assumed price\n", r"columns\.csv: line 2: column 'table' is empty"),
        ("cost,price_usd ,USD,assumed price\n", r"columns\.csv: line 2: column 'column' = 'price_usd ': spaces"),
        ("cost,price_usd,USD\n", r"columns\.csv: line 2: 3 fields, expected 4"),
        (
            "cost,price_usd,USD,assumed price\ncost,price_low,USD,low end\ncost,price_usd,USD,again\n",
            r"columns\.csv: line 4: column 'column' = 'price_usd': table 'cost' documents it already on line 2",
        ),
    ],
)
def test_bad_rows_are_named_by_file_line_and_column(tmp_path, body, message):
    with pytest.raises(ValueError, match=message):
        catalogue.read_column_docs(_write(tmp_path, body))


def test_a_bad_header_is_named(tmp_path):
    p = tmp_path / "columns.csv"
    p.write_text("table,column,meaning\ncost,price_usd,assumed price\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"columns\.csv: line 1: header"):
        catalogue.read_column_docs(p)


def test_a_quoted_meaning_may_span_commas(tmp_path):
    docs = catalogue.read_column_docs(_write(tmp_path, 'cost,price_usd,USD,"assumed price, low to high"\n'))
    assert docs[("cost", "price_usd")] == ColumnDoc("cost", "price_usd", "USD", "assumed price, low to high", 2)


def test_the_file_ships_with_the_package():
    assert COLUMN_DOCS_FILE.parent == config.PROJ_ROOT / "src" / "vdi_report"
    pyproject = tomllib.loads((config.PROJ_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["vdi_report"]
    assert any(fnmatch(COLUMN_DOCS_FILE.name, p) for p in patterns), patterns


def test_each_bound_prints_one_sign_everywhere():
    """Issue 27: the sign of a bound comes from the vocabulary's label, in one map (config.BOUND_SIGNS):
    no module keeps its own, and the JavaScript twin prints the same signs."""
    import re

    from vdi_report import config

    assert config.BOUND_SIGNS == {"eq": "", "approx": "≈ ", "lt": "≤ ", "gt": "≥ "}
    src = config.PROJ_ROOT / "src" / "vdi_report"
    own = [
        f"{p.relative_to(src)}: {m.group(0)}"
        for p in src.rglob("*.py")
        for m in re.finditer(r'"(gt|lt)": "[<>≤≥] "', p.read_text(encoding="utf-8"))
    ]
    assert own == [], own
    # the JavaScript twin types no sign: it reads config.BOUND_SIGNS from sizing_inputs.json
    from vdi_report.models import scenario

    js = (src / "static" / "verdicts.js").read_text(encoding="utf-8")
    assert "lists.bound_signs" in js and not re.search(r'(gt|lt|approx): "\\u22', js)
    assert scenario.vocabulary_lists()["bound_signs"] == config.BOUND_SIGNS
