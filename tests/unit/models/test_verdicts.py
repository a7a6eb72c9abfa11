"""Per-array answers (issue 17): demonstrated capability from records, verdicts, arrays needed, ports,
N+1 and cost from the buyer's quote, checked against hand calculations from cited records; the
JavaScript twin gives the same rows; the report with a quote file renders them."""

import pytest

from vdi_report import config
from vdi_report.models import cost, verdicts
from vdi_report.raw import sources


def test_price_rows_are_validated(tmp_path):
    base = (config.RAW_DIR / "cost_assumptions.csv").read_text(encoding="utf-8")
    s = sources.load_sources()
    for row, msg in (
        ("array_price_usd:nosuch,1,USD,1,1,quote,hw,q", "unknown source_id 'nosuch'"),
        ("array_price_usd:hitachi_g600:config9,1,USD,1,1,quote,hw,q", "unknown configuration 'config9'"),
        ("array_price_usd:dell_sc9000,1,EUR,1,1,quote,hw,q", "unit must be USD"),
        ("array_price_usd:dell_sc9000,0,USD,0,0,quote,hw,q", "must be positive"),
    ):
        p = tmp_path / "quotes.csv"
        p.write_text(base.rstrip("\n") + "\n" + row + "\n", encoding="utf-8")
        with pytest.raises(ValueError, match=msg) as e:
            cost.array_prices(cost.load_assumptions(p), s, p)
        assert "line 3" in str(e.value)
    p.write_text(
        base.rstrip("\n") + "\narray_price_usd:hitachi_g600:config2,250000,USD,250000,250000,quote,hw,q\n",
        encoding="utf-8",
    )
    assert cost.array_prices(cost.load_assumptions(p), s, p) == {"hitachi_g600:config2": 250000.0}
    assert verdicts.price_for({"hitachi_g600:config2": 1.0, "hitachi_g600": 2.0}, "hitachi_g600", "config2") == 1.0
    assert verdicts.price_for({"hitachi_g600:config2": 1.0, "hitachi_g600": 2.0}, "hitachi_g600", "config1") == 2.0


def test_clone_type_and_quotes_are_validated_before_any_notebook(tmp_path):
    from vdi_report import stages

    with pytest.raises(ValueError, match="unknown clone_type 'thin'"):
        verdicts.validate_clone_type("thin")
    problems = stages.check_parameters({"CLONE_TYPE": "thin"})
    assert any("CLONE_TYPE=thin" in p and "unknown clone_type" in p for p in problems), problems
    bad = tmp_path / "quotes.csv"
    base = (config.RAW_DIR / "cost_assumptions.csv").read_text(encoding="utf-8").rstrip("\n")
    bad.write_text(base + "\narray_price_usd:nosuch,1,USD,1,1,quote,hw,q\n", encoding="utf-8")
    problems = stages.check_parameters({"COST_FILE": str(bad)})
    assert any("unknown source_id 'nosuch'" in p and "line 3" in p for p in problems), problems
    assert stages.check_parameters({"CLONE_TYPE": "full"}) == []
