"""One answer per quantity (issue 25): the ``scenario`` stage computes the report scenario and its
per-array answers once; the report only reads them (no model call that computes, no CSV written
by a chapter, no import cycle between chapters); a quote needs no range."""

import ast
from pathlib import Path

import pytest

from vdi_report import catalogue, config, stages

REPORT = Path(config.PROJ_ROOT) / "src" / "vdi_report" / "report"
# The functions that compute the scenario and its answers: only the scenario stage calls them.
COMPUTING = {
    "scenario": {"size", "build_inputs", "demonstrated"},
    "verdicts": {"verdicts", "capability", "arrays", "capacity"},
    "cost": {"load_assumptions", "array_prices", "cost_per_desktop", "validate_assumptions"},
    "scenario_stage": {"compute", "run", "main"},
}


def _models_names(tree: ast.AST) -> dict[str, str]:
    """Local name -> models module for every ``from ...models import x`` in ``tree``."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "models" and node.level >= 2:
            for a in node.names:
                out[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("vdi_report.models",)):
            for a in node.names:
                out[a.asname or a.name] = a.name
    return out


def test_the_scenario_stage_writes_the_answers_and_the_report_reads_them():
    s = stages.stage("scenario")
    assert set(s.writes) == {"sizing_scenario", "array_verdicts", "boot_demand"}
    assert {"sizing_scenario", "array_verdicts"} <= set(stages.stage("report").reads)
    assert not any("array_verdicts" in o or "sizing_scenario" in o for o in stages.stage("report").outputs)
    assert catalogue.table("array_verdicts").stage == "scenario" and not stages.problems()


@pytest.mark.parametrize("path", sorted(REPORT.rglob("*.py")), ids=lambda p: str(p.relative_to(REPORT)))
def test_the_report_calls_no_function_that_computes_the_scenario_or_writes_a_table(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _models_names(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in names:
            assert f.attr not in COMPUTING.get(names[f.value.id], ()), (
                f"{path.name}:{node.lineno}: {f.value.id}.{f.attr}"
            )
        if isinstance(f, ast.Attribute):
            assert f.attr not in ("write_csv", "to_csv") and not (
                f.attr == "write" and isinstance(f.value, ast.Name) and f.value.id == "catalogue"
            ), f"{path.name}:{node.lineno}: a chapter writes a file ({f.attr})"


def test_no_import_cycle_between_the_answers_and_models_chapters():
    sections = REPORT / "sections"

    def imports(name):
        tree = ast.parse((sections / f"{name}.py").read_text(encoding="utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module} if node.module else {a.name for a in node.names}
        return found

    assert "models" not in imports("answers")


def test_a_quote_without_a_range_is_accepted(tmp_path):
    from vdi_report.models import cost

    f = tmp_path / "quotes.csv"
    f.write_text(
        (config.RAW_DIR / "cost_assumptions.csv").read_text(encoding="utf-8").rstrip("\n")
        + '\narray_price_usd:netapp_tr4540,350000,USD,,,quote,"AFF8040 as tested",buyer\n',
        encoding="utf-8",
    )
    a = cost.load_assumptions(f)
    q = a[a["name"] == "array_price_usd:netapp_tr4540"].iloc[0]
    assert q["low"] == q["high"] == q["value"] == 350000
    f.write_text(f.read_text(encoding="utf-8").replace(",,,quote", ",,abc,quote"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"line \d+: column 'high' = 'abc' is not a number"):
        cost.load_assumptions(f)


def _boot_rows():
    import pandas as pd

    model = pd.DataFrame(
        [{"statistic": "peak_per_rate", "estimate": 2.0, "pi90_low": 1.0, "pi90_high": 3.0, "vendors": "A"}]
    )
    storms = pd.DataFrame(
        {
            "vendor": ["A", "B"],
            "role": ["seed", "seed"],
            "peak_per_rate_bound": ["eq", "eq"],
            "boot_rate_per_min": ["100", "400"],  # B's storm is not in the row: it sets no extent
            "peak_iops": ["200", ""],
            "average_iops": ["", "50"],
        }
    )
    return model, storms


@pytest.mark.parametrize(("rate", "extrapolated"), [(120.0, False), (300.0, True)])
def test_the_boot_demand_line_runs_to_the_scenario_rate(rate, extrapolated):
    """The scenario stage draws the boot-demand line once: fitted to 1.5 × the highest fitted boot
    rate, then (only when the scenario's rate lies beyond) extrapolated up to it."""
    from vdi_report.models import boot, scenario_stage

    model, storms = _boot_rows()
    line = scenario_stage.boot_demand_line(model, storms, rate)
    fitted = line[line["part"] == boot.FITTED]
    assert len(fitted) == 40 and fitted["boot_rate_per_min"].max() == pytest.approx(150.0)
    assert (line["part"] == boot.EXTRAPOLATED).any() == extrapolated
    assert line["boot_rate_per_min"].max() == pytest.approx(max(150.0, rate))
    assert (line["fe_iops"] == 2.0 * line["boot_rate_per_min"]).all()
    assert (line["scenario_boot_rate_per_min"] == rate).all()
    catalogue.table("boot_demand").schema.validate(line[catalogue.table("boot_demand").column_names])
