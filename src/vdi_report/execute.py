"""Run a notebook stage with papermill, all or nothing: ``python -m vdi_report.execute ARGS``.

Takes papermill's command-line arguments (``INPUT.ipynb OUTPUT.ipynb`` and options). Papermill
writes its output notebook cell by cell, so a failed or killed run would leave a half-executed
notebook in ``reports/notebooks`` newer than its inputs (Make would take it as built). Here the
notebook executes into ``build/executing/`` and replaces ``OUTPUT`` in one rename only when it
ran to the end. A failed notebook is kept as ``build/failed/<name>.ipynb`` with its error; the
message gives the error's type and text and where the whole traceback is (``VERBOSE=1`` prints
it). Exit status 0, or 1 when the notebook failed.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def _paths(argv: list[str]) -> tuple[int, int]:
    """Indexes of the input and output notebooks (the first two ``*.ipynb`` arguments)."""
    idx = [i for i, a in enumerate(argv) if a.endswith(".ipynb") and not a.startswith("-")]
    if len(idx) < 2:
        raise SystemExit("usage: python -m vdi_report.execute [papermill options] INPUT.ipynb OUTPUT.ipynb [options]")
    return idx[0], idx[1]


def main(argv: list[str]) -> int:
    """Execute the notebook (papermill) into a scratch file; publish it only on success."""
    from papermill.cli import papermill
    from papermill.exceptions import PapermillExecutionError

    from .config import PROJ_ROOT

    _, i_out = _paths(argv)
    out = Path(argv[i_out])
    scratch_dir = PROJ_ROOT / "build" / "executing"
    failed_dir = PROJ_ROOT / "build" / "failed"
    scratch_dir.mkdir(parents=True, exist_ok=True)
    for stale in scratch_dir.glob(f"{out.stem}.*.ipynb"):  # left by a killed run (the build lock is ours)
        stale.unlink(missing_ok=True)
    scratch = scratch_dir / f"{out.stem}.{os.getpid()}.ipynb"
    args = [*argv[:i_out], str(scratch), *argv[i_out + 1 :]]
    verbose = os.environ.get("VERBOSE", "") not in ("", "0")
    try:
        papermill.main(args=args, prog_name="papermill", standalone_mode=False)
    except PapermillExecutionError as exc:
        failed_dir.mkdir(parents=True, exist_ok=True)
        kept = failed_dir / out.name
        if scratch.exists():
            os.replace(scratch, kept)
        if verbose:
            print(str(exc), file=sys.stderr)
        evalue = exc.evalue.strip()
        print(
            f"\n{out.stem} failed: {exc.ename}: {evalue}\n"
            f"{out} was left as it was; the failed notebook with the full traceback is "
            f"{kept.relative_to(PROJ_ROOT) if kept.is_relative_to(PROJ_ROOT) else kept}"
            f"{'' if verbose else ' (VERBOSE=1 prints it)'}.",
            file=sys.stderr,
        )
        return 1
    except BaseException:
        scratch.unlink(missing_ok=True)
        raise
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(scratch, out)
    except OSError:  # another file system: copy next to the target, then rename
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        shutil.copyfile(scratch, tmp)
        os.replace(tmp, out)
        scratch.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
