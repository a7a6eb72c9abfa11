"""The table catalogue: typed, validated, atomic reads and writes; the README's contract is the catalogue's."""

import pytest

from vdi_report import catalogue
from vdi_report.raw import sources


@pytest.mark.data
@pytest.mark.parametrize("name", [n for n, t in catalogue.TABLES.items() if not t.keys])
def test_built_table_matches_its_schema(name, processed):
    processed(name)  # fails with the make target when missing
    df = catalogue.read(name, validate=True)
    if catalogue.table(name).format == "json":
        assert sorted(df) == sorted(catalogue.table(name).column_names)
    else:
        assert list(df.columns) == catalogue.table(name).column_names


@pytest.mark.data
@pytest.mark.parametrize("source_id", sources.load_sources()["source_id"].tolist())
def test_normalized_source_matches_its_schema(source_id, processed):
    df = processed("normalized", source_id=source_id)
    catalogue.validate("normalized", df)
    assert set(df["source_id"]) == {source_id}
