"""The colophon: what this report was built from (the package version, git commit, parameters, SHA-256 of every input
file, package versions), so a reviewer can rebuild it and check the bytes."""

import hashlib
import importlib.metadata
import subprocess

import pandas as pd

from .. import __version__, config
from .show import say, table

PACKAGES = (
    "pandas",
    "statsmodels",
    "altair",
    "vl-convert-python",
    "nbconvert",
    "papermill",
    "playwright",
    "pikepdf",
    "itables",
    "pandera",
    "pint",
)


INPUT_PATHS = ("src", "data/raw", "notebooks", "templates")  # what the report is built from
# Documentation under INPUT_PATHS that no stage reads: the columns' units and meanings (the README's
# data contract), so a commit that edits only them leaves the report's bytes unchanged.
NOT_INPUTS = ("src/vdi_report/catalogue_columns.csv",)


def git_commit() -> str:
    """The last commit that changed the report's inputs (``INPUT_PATHS``), with ``+ local
    changes`` when they differ from it, or a note when the project is not a git checkout. A
    commit that changes only tests or docs (``NOT_INPUTS`` included) leaves the report's bytes unchanged."""
    try:

        def run(*a):
            return subprocess.run(
                ["git", "-C", str(config.PROJ_ROOT), *a], capture_output=True, text=True, check=True
            ).stdout.strip()

        paths = [*INPUT_PATHS, *(f":(exclude){p}" for p in NOT_INPUTS)]
        sha = run("log", "-1", "--format=%H", "--", *paths)
        dirty = run("status", "--porcelain", "--untracked-files=no", "--", *paths)
        return sha + (" + local changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"


def input_files(extra=()) -> list:
    """The inputs of the report: data/raw (all CSV files), ``extra`` files (a reviewer's choices
    file) and the processed tables it reads."""
    from pathlib import Path

    raw = sorted(config.RAW_DIR.rglob("*.csv")) + [Path(x).resolve() for x in extra if x]
    processed = sorted(p for p in config.PROCESSED_DIR.glob("*") if p.is_file() and p.suffix in (".csv", ".json"))
    return raw + processed


def sha256_table(extra=()) -> pd.DataFrame:
    """Columns: File (relative to the project, or its name when outside), SHA-256."""
    rows = []
    for p in input_files(extra):
        rows.append(
            {
                "File": str(p.relative_to(config.PROJ_ROOT)) if p.is_relative_to(config.PROJ_ROOT) else p.name,
                "SHA-256": f"<code>{hashlib.sha256(p.read_bytes()).hexdigest()}</code>",
            }
        )
    return pd.DataFrame(rows)


def versions() -> str:
    out = []
    for name in PACKAGES:
        try:
            out.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return ", ".join(out)


def _rel(v):
    """A path inside the project relative to it (so the colophon does not depend on the checkout's place)."""
    if isinstance(v, str) and v.startswith(str(config.PROJ_ROOT)):
        return v[len(str(config.PROJ_ROOT)) + 1 :]
    return v


def render(ctx) -> None:
    p = ctx.params
    say(
        "Built by vdi-report {version} from commit `{commit}` on {date} with the parameters {params}. "
        "Packages: {versions}. The texts of the "
        "vendor documents are identified by the SHA-256 in `data/raw/sources.csv`; the files this report read:",
        version=__version__,
        commit=git_commit(),
        date=ctx.report_date,
        versions=versions(),
        params=", ".join(f"`{k}={_rel(v)}`" for k, v in p.items() if k != "report_date"),
    )
    diff = ctx.choices.differing()
    say(
        "Analysis choices (`data/raw/analysis_choices.csv`): {choices}.",
        choices=(
            "the declared defaults"
            if not diff
            else "differ from the defaults in " + "; ".join(f"`{k}={v}` (default `{d}`)" for k, d, v in diff)
        ),
    )
    table(
        sha256_table([p.get("choices_file", "")]),
        "Input files and their SHA-256",
        "colophon-inputs",
        {"File": "38%", "SHA-256": "62%"},
    )
