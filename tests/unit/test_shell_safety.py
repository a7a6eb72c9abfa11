"""No value a user types reaches a shell (issue 28): every report parameter, every variable the
Makefile reads (JOBS, BUILD_LOCK_WAIT, VERBOSE) and every goal is passed as an argument or
through the environment, never as shell text. Each hostile value is tried in every variable of
one build at once, in a throw-away copy of the project; a canary file proves nothing ran."""

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from vdi_report import stages

MAKE_IN_COPY = ("make", "-o", ".venv/.installed")
MAKE_VARIABLES = ("JOBS", "BUILD_LOCK_WAIT", "VERBOSE")


def _hostile(canary: Path) -> dict[str, str]:
    """Values that would run ``touch CANARY`` if a shell (or make) read them as code."""
    c = shlex.quote(str(canary))
    return {
        "double quote": f'3000" ; touch {c} ; echo "',
        "single quote": f"3000' ; touch {c} ; echo '",
        "backticks": f"`touch {c}`",
        "command substitution": f"$(touch {c})",
        "semicolon": f"3000; touch {c}",
        "make function": f"$(shell touch {c})",
        "newline": f"3000\ntouch {c}",
        "pipe and ampersand": f"3000 | touch {c} & touch {c}",
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory, copy_project, make_in) -> Path:
    root = copy_project(tmp_path_factory.mktemp("shell") / "p", "data/raw")
    make_in(root, "build/stages.mk")
    return root


@pytest.fixture(scope="module")
def run(make_in):
    """``run(root, *args)``: make in the copy, whatever its exit status."""
    return lambda root, *args: make_in(root, *args, check=False)


@pytest.mark.parametrize("kind", list(_hostile(Path("x"))))
def test_no_parameter_value_runs_anything(project, run, make_env, tmp_path, kind):
    """Every parameter set to the hostile value at once: the parameter checks, the stamps, the
    cost and choices checks and a dry run of the whole report run nothing it holds; the build
    refuses with the parameters' own messages and writes no output."""
    canary = tmp_path / "ran"
    value = _hostile(canary)[kind]
    assigns = [f"{p.var}={value}" for p in stages.PARAMETERS]
    targets = ["build/params.stamp", "build/cost.stamp", "build/choices.iops_model.stamp", "check-params"]
    runs = [
        run(project, "-k", *targets, *assigns),
        run(project, "-n", "report", *assigns),
        run(project, "check-params", f"JOBS={value}"),
        run(project, "check-params", *(f"{v}={value}" for v in MAKE_VARIABLES if v != "JOBS")),
    ]
    # the same values from the environment (a wrapper setting DESKTOPS=... for make)
    env = {**make_env(project), **{p.var: value for p in stages.PARAMETERS}, "BUILD_LOCK_WAIT": value}
    runs.append(subprocess.run([*MAKE_IN_COPY, "-k", *targets], cwd=project, env=env, capture_output=True, text=True))
    if kind == "double quote":  # the example, as a whole build
        runs.append(run(project, "report", *assigns))
    out = "\n".join(r.stdout + r.stderr for r in runs)
    assert not canary.exists(), f"a value was run as code: {out[-3000:]}"
    assert runs[0].returncode != 0 and runs[2].returncode != 0 and runs[-1].returncode != 0
    assert "invalid report parameter DESKTOPS=" in runs[0].stderr, runs[0].stderr[-2000:]
    assert not (project / "data/processed").exists() and not (project / "reports").exists()
    assert not (project / "build/params.stamp").exists()


def test_a_goal_is_never_shell_text(project, run, tmp_path):
    canary = tmp_path / "ran"
    proc = run(project, f"help;touch {canary}")
    assert not canary.exists(), proc.stdout + proc.stderr
    proc = run(project, f"check-params$(touch {canary})")
    assert not canary.exists(), proc.stdout + proc.stderr


def test_jobs_must_be_a_count(project, run):
    proc = run(project, "check-params", "JOBS=2 --eval=x")
    assert proc.returncode != 0 and "JOBS=2 --eval=x: give a whole number" in proc.stderr


def test_generated_recipes_read_parameters_only_from_the_environment():
    """In build/stages.mk a parameter appears as "$$VAR" in recipes (the shell's variable), never
    as $(VAR) (make's text pasted into a command line)."""
    rules = stages.make_rules()
    recipes = "\n".join(line for line in rules.splitlines() if line.startswith("\t"))
    for p in stages.PARAMETERS:
        assert f"$({p.var})" not in recipes, p.var
        assert f"override {p.var} := $(value {p.var})" in rules, p.var
    assert re.search(r"^export " + " ".join(p.var for p in stages.PARAMETERS) + "$", rules, re.MULTILINE)
    makefile = (Path(stages.config.PROJ_ROOT) / "Makefile").read_text(encoding="utf-8")
    for var in (
        "COST_FILE",
        "CHOICES",
        "BUILD_LOCK_WAIT",
        "MAKECMDGOALS",
        "VDI_SEEDS_DIR",
        "VDI_EXTERNAL_DIR",
        "BENCH_BASELINE",
    ):
        for line in makefile.splitlines():
            if line.startswith("\t"):
                assert f"$({var})" not in line, line


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("/bin/py;touch RAN", "without spaces"),
        ("/usr/bin/python3$(id)", "is not accepted here"),
        ("/usr/bin/python3`id`", "is not accepted here"),
        ("/no/such/python", "no such file"),
    ],
)
def test_a_bad_vdi_python_is_refused_before_anything_runs(project, run, value, words):
    proc = run(project, "check-params", f"VDI_PYTHON={value}")
    assert proc.returncode != 0 and words in proc.stderr, proc.stderr[-1000:]
    assert not (project / "RAN").exists()


def test_vdi_python_builds_with_the_users_interpreter(project, run):
    """VDI_PYTHON (what `vdi-report report --this-python` passes): make uses that interpreter for
    every step, installs only its kernel, and `make lab` runs JupyterLab from it."""
    import sys

    proc = run(project, "check-params", f"VDI_PYTHON={sys.executable}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (project / "build/python.stamp").read_text().strip() == sys.executable
    dry = run(project, "-n", "lab", f"VDI_PYTHON={sys.executable}").stdout
    assert f"{sys.executable} -m jupyter lab" in dry and ".venv-lab" not in dry


def test_a_file_parameter_with_a_space_in_its_path_enters_the_stamp_by_its_content(project, run, tmp_path):
    """The parameter stamp holds a file parameter's content hash also when its path has a space
    (it was read unquoted: the shell refused the redirection and the hash was empty, so a changed
    price file re-ran nothing); the choices and cost stamps likewise."""
    import hashlib
    import shutil

    cost = tmp_path / "my prices.csv"
    shutil.copy(project / "data/raw/cost_assumptions.csv", cost)
    try:
        proc = run(project, "build/params.stamp", "build/cost.stamp", f"COST_FILE={cost}")
        assert proc.returncode == 0, proc.stderr[-2000:]
        sha = hashlib.sha256(cost.read_bytes()).hexdigest()
        assert f"cost_file={cost} cost_file_sha256={sha} " in (project / "build/params.stamp").read_text()
        assert (project / "build/cost.stamp").read_text().strip() == sha
        assert "profile_file_sha256= " in (project / "build/params.stamp").read_text()  # empty: no file, no hash
    finally:  # the module's other tests expect no stamp
        for stamp in ("build/params.stamp", "build/cost.stamp", "build/checked-params.json"):
            (project / stamp).unlink(missing_ok=True)
