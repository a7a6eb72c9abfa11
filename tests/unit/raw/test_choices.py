"""Analysis choices (data/raw/analysis_choices.csv, vdi_report.raw.choices): the declared list, a
reviewer's file validated with clear errors (file, line, column, the allowed values), the per-stage
stamps, and every declared choice read by the code that applies it."""

import os
import subprocess

import pytest

from vdi_report import config
from vdi_report.raw import choices as analysis

DECL = analysis.declared()


def ch(**opts):
    return DECL.defaults().with_options(**opts)


# --- the declared list -------------------------------------------------------------------------


def test_declared_list_is_valid_and_documented():
    assert len(DECL.ids) >= 10 and len(set(DECL.ids)) == len(DECL.ids)
    for cid in DECL.ids:
        assert DECL.default[cid] in DECL.options[cid] and len(DECL.options[cid]) >= 2
        assert any(c.isdigit() for c in DECL.reason[cid]), f"{cid}: the reason cites no record or register id"
    codebook = (config.RAW_DIR / "README.md").read_text(encoding="utf-8")
    assert "analysis_choices.csv" in codebook and "choice_id" in codebook


def test_declared_list_rejects_a_default_not_among_its_options(tmp_path):
    bad = tmp_path / "analysis_choices.csv"
    text = (config.RAW_DIR / "analysis_choices.csv").read_text(encoding="utf-8")
    bad.write_text(text.replace("monday|tuesday,monday", "monday|tuesday,sunday"), encoding="utf-8")
    with pytest.raises(
        analysis.ChoiceError, match=r"line \d+: column 'default' = 'sunday': not one of monday, tuesday"
    ):
        analysis.declared(bad)


# --- a reviewer's file -------------------------------------------------------------------------


def _file(tmp_path, text):
    p = tmp_path / "mine.csv"
    p.write_text(text, encoding="utf-8")
    return p


def test_reviewer_file_overrides_only_what_it_lists(tmp_path):
    c = analysis.resolve(_file(tmp_path, "choice_id,option\nlogin_variant,tuesday\nestimate_statistic,mean\n"))
    assert c["login_variant"] == "tuesday" and c["estimate_statistic"] == "mean"
    assert c["total_source"] == DECL.default["total_source"]
    assert [d[0] for d in c.differing()] == ["login_variant", "estimate_statistic"]
    assert c.key() == "login_variant=tuesday;estimate_statistic=mean"
    assert analysis.resolve(None).key() == analysis.DEFAULT_KEY == analysis.resolve("").key()


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "choice_id,option\nlogin_day,tuesday\n",
            r"mine.csv: line 2: column 'choice_id' = 'login_day': unknown choice",
        ),
        ("choice_id,option\nlogin_variant,friday\n", r"line 2: column 'option' = 'friday'.*one of monday, tuesday"),
        (
            "choice_id,option\nlogin_variant,tuesday\nlogin_variant,monday\n",
            r"line 3: .*listed twice \(first on line 2\)",
        ),
        ("choice,option\nlogin_variant,tuesday\n", r"line 1: missing column\(s\) choice_id"),
    ],
)
def test_reviewer_file_errors_name_file_line_column_and_allowed_values(tmp_path, text, message):
    with pytest.raises(analysis.ChoiceError, match=message):
        analysis.resolve(_file(tmp_path, text))


def test_missing_reviewer_file_is_named(tmp_path):
    with pytest.raises(analysis.ChoiceError, match="nope.csv: choices file"):
        analysis.resolve(tmp_path / "nope.csv")


def test_cli_rejects_a_bad_file_with_status_2(tmp_path):
    bad = _file(tmp_path, "choice_id,option\nmodel_spec,best\n")
    proc = subprocess.run(
        [os.sys.executable, "-m", "vdi_report.raw.choices", str(bad)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2 and "model_spec" in proc.stderr and "auto, pooled" in proc.stderr


def test_stamps_change_only_when_their_stage_options_change(tmp_path):
    out = tmp_path / "build"
    assert len(analysis.write_stamps(analysis.resolve(None), out)) == 1
    assert analysis.write_stamps(analysis.resolve(None), out) == []  # unchanged: not rewritten
    assert len(analysis.write_stamps(ch(login_variant="tuesday"), out)) == 1


def test_every_declared_choice_is_read_by_the_code():
    """Nothing is decided in an `if` the list does not name: every choice id appears in the code
    that applies it, and no code reads a choice the list does not declare."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in (config.PROJ_ROOT / "src/vdi_report/models").rglob("*.py"))
    for cid in DECL.ids:
        assert f'"{cid}"' in code, f"choice {cid} is declared but no model reads it"
    with pytest.raises(KeyError, match="no analysis choice"):
        DECL.defaults()["no_such_choice"]


@pytest.mark.parametrize("option", analysis.declared().options["login_variant"])
def test_set_aside_is_every_other_declared_option(option):
    # each declared login test: the other one is set aside (the models' Tuesday exclusions, issue 27)
    ch = analysis.resolve().with_options(login_variant=option)
    others = tuple(o for o in analysis.declared().options["login_variant"] if o != option)
    assert ch.set_aside("login_variant") == others and option not in others


def test_design_case_sets_aside_what_the_default_does_not_use():
    decl = analysis.declared()
    assert analysis.design_case_set_aside("login_variant") == tuple(
        o for o in decl.options["login_variant"] if o != decl.default["login_variant"]
    )
    assert analysis.design_case_set_aside("login_variant") == ("tuesday",)  # the file's design case: Monday
