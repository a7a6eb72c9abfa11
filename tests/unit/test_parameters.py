"""The report parameters declared once (``vdi_report.parameters``): each scenario parameter's
range decides its check in Python, in the JavaScript twin's inputs and in the calculator's field,
and a new declaration reaches every place without another edit (issue 27)."""

import dataclasses
from types import SimpleNamespace

import pytest

from vdi_report import parameters, stages
from vdi_report.models import scenario
from vdi_report.report import calculator

pytestmark = pytest.mark.unit

FOO = parameters.Param(
    "FOO",
    "foo",
    "3",
    "a throwaway whole number from 0 to 10",
    kind=parameters.INTEGER,
    low=0,
    high=10,
    hint="a whole number from 0 to 10",
    label="Foo",
    step="1",
)


@pytest.fixture
def with_foo(monkeypatch):
    """The declaration with one more scenario parameter, FOO (an integer in [0, 10], default 3)."""
    declared = (*parameters.PARAMETERS, FOO)
    monkeypatch.setattr(parameters, "PARAMETERS", declared)
    monkeypatch.setattr(stages, "PARAMETERS", declared)
    monkeypatch.setattr(parameters, "SCENARIO", tuple(p for p in declared if p.kind))
    monkeypatch.setattr(parameters, "SCENARIO_NAMES", tuple(p.name for p in declared if p.kind))
    return FOO


@pytest.mark.parametrize(
    "name,good,bad",
    [
        ("desktops", [("1", 1), (2000, 2000)], ["0", "-5", "2.5", "many", "inf"]),
        ("concurrency", [("1", 1.0), ("0.01", 0.01)], ["0", "1.5", "nan"]),
        ("headroom", [("0", 0.0), ("0.95", 0.95)], ["1", "-0.1"]),
        ("boot_window_min", [("0.5", 0.5)], ["0", "-1"]),
        ("login_window_min", [("45", 45.0)], ["0"]),
        ("raid", [("raid6", "raid6")], ["raid7", ""]),
        ("failover", [("controller", "controller")], ["both"]),
        ("era", [("seed", "seed"), ("modern", "modern")], ["ceo"]),
    ],
)
def test_each_scenario_parameter_is_checked_by_its_declared_range(name, good, bad):
    p = next(p for p in parameters.SCENARIO if p.name == name)
    for value, typed in good:
        assert parameters.check(p, value) == typed
        assert type(parameters.check(p, value)) is type(typed)
    for value in bad:
        with pytest.raises(ValueError) as err:
            parameters.check(p, value)
        said = str(err.value)
        assert said.startswith(f"unknown {name} {value!r}; use {p.hint}" if p.choices else f"{name} must be {p.hint}")


def test_raid_choices_are_the_write_penalties_and_defaults_are_valid():
    raid = next(p for p in parameters.SCENARIO if p.name == "raid")
    assert raid.choices == tuple(scenario.WRITE_PENALTY)
    assert scenario.validate() == {d["name"]: d["default"] for d in parameters.declaration()}
    with pytest.raises(TypeError, match="not a scenario parameter: worker"):
        scenario.validate(worker="power")


def test_a_new_declaration_reaches_every_place(with_foo):
    """FOO declared only: Make variables, `make help`, the README table, the checks, the
    scenario's validation, the JavaScript twin's inputs, the calculator and the notebook."""
    assert "FOO" in stages.parameters_help() and "| `FOO` | `3` |" in stages.parameters_markdown()
    assert "export " in stages.make_rules() and " FOO" in stages.make_rules().split("export ", 1)[1].split("\n")[0]
    assert stages.check_parameters({"FOO": "4"}) == []
    assert stages.check_parameters({"FOO": "11"}) == ["FOO=11: foo must be a whole number from 0 to 10, got '11'"]
    assert scenario.validate(foo="7")["foo"] == 7 and scenario.validate()["foo"] == 3
    (js,) = [d for d in parameters.declaration() if d["name"] == "foo"]
    assert (js["kind"], js["default"], js["low"], js["high"], js["closed"]) == ("integer", 3, 0, 10, "[]")
    assert parameters.notebook_defaults()["foo"] == "3"
    assert parameters.cli_flag(with_foo) == "--foo"
    ctx = SimpleNamespace(
        params={**scenario.validate(), "foo": 5},
        sizing_inputs={"eras": {"modern": {}}},
        label=lambda field, v: v,
    )
    fields = calculator.scenario_fields(ctx)
    assert '<label>Foo<input type="number" name="foo" id="calc-foo" min="0" max="10" step="1" value="5">' in "".join(
        fields
    )


def test_the_calculator_fields_follow_the_declared_ranges():
    ctx = SimpleNamespace(params=scenario.validate(), sizing_inputs={"eras": {"modern": {}}}, label=lambda f, v: v)
    fields = calculator.scenario_fields(ctx)
    assert fields[0].startswith('<label>Era<select name="era"') and 'value="seed"' not in fields[0]
    assert 'name="desktops" id="calc-desktops" min="1" step="1" value="2000"' in fields[1]
    assert 'name="concurrency" id="calc-concurrency" min="0" max="1" step="0.05"' in fields[2]
    open_end = dataclasses.replace(next(p for p in parameters.SCENARIO if p.name == "boot_window_min"))
    assert 'min="0"' in calculator._number_field(open_end, 30)


def test_a_checked_value_is_not_checked_again_until_it_or_its_file_changes(tmp_path, monkeypatch):
    """`make report DESKTOPS=...` does not re-read the cost file: a file parameter's check (the
    cost model's loader) runs again only when the file's content, the value or the code changes;
    a bad file is refused however often it was seen."""
    from vdi_report.models import cost

    calls = []
    real = cost.check_cost_file
    monkeypatch.setattr(cost, "check_cost_file", lambda path: calls.append(path) or real(path))
    good = tmp_path / "cost.csv"
    good.write_bytes((stages.config.RAW_DIR / "cost_assumptions.csv").read_bytes())
    memo = tmp_path / "checked.json"
    values = {"COST_FILE": str(good), "DESKTOPS": "2000"}
    assert stages.check_parameters(values, memo) == [] and len(calls) == 1
    assert stages.check_parameters({**values, "DESKTOPS": "2500"}, memo) == [] and len(calls) == 1
    good.write_bytes(good.read_bytes() + b"\n")  # same path, other content: checked again
    assert stages.check_parameters(values, memo) == [] and len(calls) == 2
    assert stages.check_parameters(values, None) == [] and len(calls) == 3  # no memo: always checked
    good.write_text("not,a,cost,file\n", encoding="utf-8")
    for _ in range(2):
        (problem,) = stages.check_parameters(values, memo)
        assert problem.startswith(f"COST_FILE={good}: ")
    assert len(calls) == 5
    memo.write_text("not json", encoding="utf-8")  # an unreadable memo: every check runs
    good.write_bytes((stages.config.RAW_DIR / "cost_assumptions.csv").read_bytes())
    assert stages.check_parameters(values, memo) == [] and len(calls) == 6
