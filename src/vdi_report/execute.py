"""Run a notebook stage with papermill, all or nothing: ``python -m vdi_report.execute ARGS``.

Takes papermill's command-line arguments (``INPUT OUTPUT.ipynb`` and options; INPUT is a notebook
or a percent-format script, ``notebooks/*.py``, converted here with jupytext). Papermill
writes its output notebook cell by cell, so a failed or killed run would leave a half-executed
notebook in ``reports/notebooks`` newer than its inputs (Make would take it as built). Here the
notebook executes into ``build/executing/`` and replaces ``OUTPUT`` in one rename only when it
ran to the end. A failed notebook is kept as ``build/failed/<name>.ipynb`` with its error; the
message gives the error's type and text and where the whole traceback is (``VERBOSE=1`` prints
it). Exit status 0, 1 when the notebook failed, 128 + N when stopped by signal N.

The stage's tables are all or nothing too: before the notebook runs, every existing file of
the tables its stage writes (``stages.STAGES``: ``writes``) is kept aside as a hard link in
``build/rollback/<name>/``; when the notebook fails or is stopped (SIGINT, SIGTERM, SIGHUP:
the kernel is shut down first), those files are put back byte for byte, with their times, and
files the run created are removed, so ``data/processed`` is as it was. A run killed outright
(SIGKILL) is rolled back by the next run of the same stage before it starts.

The kernel talks to this process over Unix sockets (IPC transport, in a private folder under
``$TMPDIR``), not TCP: no open port, no port race between stages run side by side, and no
warning about unencrypted TCP. One line reports the stage's time; the papermill command is
echoed by Make only with ``VERBOSE=1``.

``--render OUT_BASE`` (the report's stage): the executed notebook is then rendered to
OUT_BASE.html and OUT_BASE.pdf (``publish.render``) by this process, with Chromium opened and the
renderer's modules imported while the kernel runs the notebook (not while it starts: on 2 cores
that slowed its start); OUTPUT is replaced only when both are written
(a render that fails fails the stage, with its reason, and leaves OUTPUT as it was).

``--wait-go`` (the report's stage, ``stages.Stage.while_starting``): the recipe pipes into this
process the steps it runs first (the scenario, the data package), which print "go" once they
have all succeeded; the kernel starts meanwhile and the notebook runs only after "go". When the
input ends without it (a step failed, its message above), the notebook does not run: exit
status 1, the stage's tables and OUTPUT as they were.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

from click.exceptions import Abort  # click turns Ctrl-C into Abort (papermill's command line)

ENGINE = "vdi-report-ipc"  # papermill engine name registered by ``_register_engine``
# Papermill writes the scratch notebook once, at the end (or with the error cell when a cell
# fails), not before and after every cell: nothing reads it before this process publishes it,
# and the writes (each one validated by nbformat) cost about 0.5 s in the report's stage and
# more in the IOPS model's 30 cells (measured).
PAPERMILL_OPTIONS = ("--engine", ENGINE, "--no-request-save-on-cell-execute", "--autosave-cell-every", "0")
LEFT_AS_THEY_WERE = " and the stage's tables were left as they were."


USAGE = (
    "usage: python -m vdi_report.execute [--render OUT_BASE] [--wait-go] [papermill options] "
    "INPUT.py|INPUT.ipynb OUTPUT.ipynb [options]"
)


class NotStarted(RuntimeError):
    """``--wait-go``: the steps before the notebook (a pipeline's first commands) ended without
    saying "go": one of them failed, and the notebook does not run."""


def _wait_go(argv: list[str]) -> tuple[list[str], bool]:
    """``argv`` without ``--wait-go`` (``stages.WAIT_GO``), and whether it was there."""
    from .stages import WAIT_GO

    return [a for a in argv if a != WAIT_GO], WAIT_GO in argv


def wait_go(stream=None) -> None:
    """Read one line from ``stream`` (default: standard input), the end of the steps that the
    stage's recipe runs while this process starts the kernel (``stages.Stage.while_starting``):
    returns when it is "go"; raises NotStarted at the end of the input (a step failed: its own
    message is above) or for any other line."""
    line = (stream or sys.stdin).readline()
    if line.strip() != "go":
        raise NotStarted("the steps before it failed (their message is above)" if not line else f"read {line!r}")


class RenderError(RuntimeError):
    """The executed notebook could not be rendered (no Chromium, a failed print, a reference to a
    missing table or figure, a file that could not be written): the message says why."""


def _render_option(argv: list[str]) -> tuple[list[str], Path | None]:
    """``argv`` without ``--render OUT_BASE`` (or ``--render=OUT_BASE``), and OUT_BASE (None
    when absent; ``stages.RENDER``). Raises SystemExit with the usage when OUT_BASE is missing."""
    from .stages import RENDER

    out, base, i = [], None, 0
    while i < len(argv):
        a = argv[i]
        if a == RENDER:
            if i + 1 >= len(argv) or argv[i + 1].startswith("-"):
                raise SystemExit(USAGE)
            base, i = Path(argv[i + 1]), i + 2
            continue
        if a.startswith(RENDER + "="):
            base = Path(a.split("=", 1)[1])
        else:
            out.append(a)
        i += 1
    return out, base


def _paths(argv: list[str]) -> tuple[int, int]:
    """Indexes of the input notebook (the first ``*.py`` or ``*.ipynb`` argument) and the output
    notebook (the next ``*.ipynb``)."""
    idx = [i for i, a in enumerate(argv) if a.endswith((".ipynb", ".py")) and not a.startswith("-")]
    if len(idx) < 2 or not argv[idx[1]].endswith(".ipynb"):
        raise SystemExit(USAGE)
    return idx[0], idx[1]


def as_notebook(source: Path, folder: Path) -> Path:
    """``source`` when it is a notebook; a percent-format script (``notebooks/*.py``, jupytext)
    converted into ``folder/input-<name>.<pid>.ipynb`` otherwise. The build passes the scripts:
    converting them here, in a process that has already imported papermill (0.1 s), replaced
    seven jupytext processes that a clean build ran before its first stage.
    Raises FileNotFoundError when ``source`` does not exist."""
    if source.suffix != ".py":
        return source
    import jupytext

    if not source.is_file():
        raise FileNotFoundError(f"{source}: no such notebook")
    nb = jupytext.read(source)
    out = folder / f"input-{source.stem}.{os.getpid()}.ipynb"
    jupytext.write(nb, out)
    return out


def _absolute_file_parameters(argv: list[str]) -> list[str]:
    """``argv`` with the value of each ``-p NAME VALUE`` whose NAME is a file parameter
    (``stages.PARAMETERS``, ``path=True``) made absolute against the current folder (the
    notebook runs elsewhere); an empty value (an optional file left out) stays empty. The values
    arrive as arguments, never through a shell, so any character is kept as it is."""
    from .stages import PARAMETERS

    files = {p.name for p in PARAMETERS if p.path}
    out = list(argv)
    for i in range(len(out) - 2):
        if out[i] in ("-p", "--parameters") and out[i + 1] in files and out[i + 2] != "":
            out[i + 2] = os.path.abspath(out[i + 2])
    return out


# --------------------------------------------------------------------------------------------
# The kernel over IPC
# --------------------------------------------------------------------------------------------


def _kernel_config(socket_dir: Path):
    """The kernel manager's configuration: the IPC transport, its socket files ``socket_dir/kernel-N``."""
    from traitlets.config import Config

    cfg = Config()
    cfg.KernelManager.transport = "ipc"
    cfg.KernelManager.ip = str(socket_dir / "kernel")
    return cfg


def _manager_class():
    """The kernel manager class: it stops the kernel at once (SIGKILL), without interrupting it
    first (jupyter_client sends SIGINT before every shutdown, which an idle kernel reports as
    "KeyboardInterrupt caught in kernel" after a successful run) and without asking it to exit.
    When nbclient shuts the kernel down, every cell has been answered and its output received:
    the kernel has nothing left to do, and asking it to exit cost 0.6 to 0.7 s on every notebook
    stage (its interpreter tearing down pandas, altair and statsmodels, measured). When the stage
    is being stopped (a signal), the kernel is killed as well."""
    from jupyter_client.manager import AsyncKernelManager

    class QuietShutdownKernelManager(AsyncKernelManager):
        async def _async_interrupt_kernel(self) -> None:
            if self.shutting_down:  # about to ask it to exit (or kill it): no interrupt first
                return
            await super()._async_interrupt_kernel()

        interrupt_kernel = _async_interrupt_kernel

        async def _async_shutdown_kernel(self, now: bool = False, restart: bool = False) -> None:
            await super()._async_shutdown_kernel(now=True, restart=restart)

        shutdown_kernel = _async_shutdown_kernel

    return QuietShutdownKernelManager


def preload_modules(source: Path) -> list[str]:
    """The modules the notebook ``source`` (a percent-format script or an ``.ipynb``) imports at
    the top level of its code cells, in order: ``import a.b`` gives ``a.b``; ``from a.b import c``
    gives ``a.b`` and ``a.b.c`` (which may be a name, not a module: the kernel skips what does not
    import). A cell that does not parse (a magic) is skipped; [] for a file that cannot be read."""
    import ast
    import json

    try:
        text = source.read_text(encoding="utf-8")
        cells = (
            ["".join(c.get("source", "")) for c in json.loads(text).get("cells", []) if c.get("cell_type") == "code"]
            if source.suffix == ".ipynb"
            else re.split(r"^# %%.*$", text, flags=re.MULTILINE)  # a percent script's cells
        )
    except (OSError, ValueError, AttributeError):
        return []
    out: list[str] = []
    for cell in cells:
        try:
            tree = ast.parse(cell)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.Import):
                out += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                out += [node.module, *(f"{node.module}.{a.name}" for a in node.names if a.name != "*")]
    return list(dict.fromkeys(out))


# Run by the kernel as it starts (IPKernelApp.exec_lines), leaving no name behind: the
# notebook's modules imported while this process is still importing papermill and preparing the
# run. The notebook's own import lines then find them loaded; a module that fails to import here
# fails there again, in its cell, with its error.
PRELOAD = """import importlib as _vdi_importlib
for _vdi_module in {modules!r}:
    try:
        _vdi_importlib.import_module(_vdi_module)
    except Exception:
        pass
del _vdi_importlib, _vdi_module
"""
# Run first by the report stage's kernel (``--render``), before ``PRELOAD``: the chart converter's
# process (report/svg_convert.py) starts its JavaScript runtime (0.7 s) on the other core while
# the kernel imports pandas and Altair, instead of when the chapters convert their first chart.
RENDER_FIRST = """try:
    from vdi_report.report import svg_convert as _vdi_svg
    _vdi_svg.start()
    del _vdi_svg
except Exception:
    pass
"""


def _kernel_name(argv: list[str]) -> str | None:
    """The kernel papermill is asked for (``-k NAME``, ``--kernel NAME``, ``--kernel=NAME``), or None."""
    for i, a in enumerate(argv):
        if a in ("-k", "--kernel") and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--kernel="):
            return a.split("=", 1)[1]
    return None


def start_kernel(kernel_name: str, socket_dir: Path, modules: list[str], first: str = ""):
    """Start the stage's kernel now (a manager of ``_manager_class``, over IPC in ``socket_dir``)
    with ``modules`` imported as it starts (``PRELOAD``; the code ``first`` run before them), and
    return its manager: papermill runs
    the notebook on it (``_register_engine``) and nbclient shuts it down as it would its own. The
    kernel starts while this process imports papermill and prepares the run (0.5 to 0.7 s): a
    notebook stage no longer waits for that, then for the kernel, then for its imports, one
    after the other. The same history setting as nbclient's (in memory, no file).
    Raises what jupyter_client raises for an unknown kernel or a kernel that cannot start."""
    from jupyter_core.utils import run_sync

    km = _manager_class()(kernel_name=kernel_name, config=_kernel_config(socket_dir))
    args = ["--HistoryManager.hist_file=:memory:"]
    if modules or first:
        args.append("--IPKernelApp.exec_lines=" + first + PRELOAD.format(modules=modules))
    run_sync(km.start_kernel)(extra_arguments=args)
    return km


def _register_engine(socket_dir: Path, km=None, on_kernel_ready=None) -> None:
    """Register papermill engine ``ENGINE``: nbclient as papermill runs it, with a kernel manager
    of ``_manager_class`` for the IPC transport whose socket files are ``socket_dir/kernel-N`` (a
    folder of this process: two stages side by side never pick the same name). ``km``: a kernel
    already started (``start_kernel``) that the notebook runs on; nbclient then owns it as it owns
    the kernels it starts (it shuts it down at the end, or kills it when the run is stopped).
    ``on_kernel_ready``: called (keyword arguments only) when the kernel answers, before the first
    cell (nbclient's ``on_notebook_start``); it must return at once."""
    from papermill.clientwrap import PapermillNotebookClient
    from papermill.engines import NBClientEngine, logger, papermill_engines
    from papermill.utils import merge_kwargs, remove_args

    class StartedKernelClient(PapermillNotebookClient):
        def __init__(self, nb_man, km=None, **kw):
            super().__init__(nb_man, km=km, **kw)
            self.owns_km = True  # started for this run: shut down (or killed) like nbclient's own

    class IPCEngine(NBClientEngine):
        @classmethod
        def execute_managed_notebook(
            cls,
            nb_man,
            kernel_name,
            log_output=False,
            stdout_file=None,
            stderr_file=None,
            start_timeout=60,
            execution_timeout=None,
            **kwargs,
        ):
            if on_kernel_ready is not None:
                kwargs["on_notebook_start"] = on_kernel_ready
            if km is None:
                return super().execute_managed_notebook(
                    nb_man,
                    kernel_name,
                    log_output=log_output,
                    stdout_file=stdout_file,
                    stderr_file=stderr_file,
                    start_timeout=start_timeout,
                    execution_timeout=execution_timeout,
                    config=_kernel_config(socket_dir),
                    kernel_manager_class=_manager_class(),
                    **kwargs,
                )
            # papermill's NBClientEngine.execute_managed_notebook (2.7), with the kernel given
            kwargs = remove_args(["input_path"], **kwargs)
            safe_kwargs = remove_args(["timeout", "startup_timeout"], **kwargs)
            final_kwargs = merge_kwargs(
                safe_kwargs,
                timeout=execution_timeout if execution_timeout else kwargs.get("timeout"),
                startup_timeout=start_timeout,
                kernel_name=kernel_name,
                log=logger,
                log_output=log_output,
                stdout_file=stdout_file,
                stderr_file=stderr_file,
            )
            return StartedKernelClient(nb_man, km=km, **final_kwargs).execute()

    papermill_engines.register(ENGINE, IPCEngine)


# --------------------------------------------------------------------------------------------
# The stage's tables: kept aside, put back on failure
# --------------------------------------------------------------------------------------------


def _table_patterns(notebook: str) -> list[str]:
    """Glob patterns (relative to data/processed) of the tables the stage of ``notebook`` writes;
    [] for a notebook that writes no table (the report)."""
    from . import catalogue, stages

    st = next((s for s in stages.STAGES if s.notebook == notebook), None)
    if st is None:
        return []
    return [re.sub(r"\{[^}]+\}", "*", catalogue.table(t).path) for t in st.writes]


def _current(patterns: list[str]) -> set[Path]:
    from .config import PROCESSED_DIR

    return {p for pat in patterns for p in PROCESSED_DIR.glob(pat) if p.is_file()}


def keep_aside(notebook: str, rollback: Path) -> list[str]:
    """Hard-link every existing table file of ``notebook``'s stage into ``rollback`` (relative
    paths kept; a copy where links are impossible) and record the patterns; returns them."""
    from .config import PROCESSED_DIR

    patterns = _table_patterns(notebook)
    shutil.rmtree(rollback, ignore_errors=True)
    (rollback / "files").mkdir(parents=True)
    for f in sorted(_current(patterns)):
        dst = rollback / "files" / f.relative_to(PROCESSED_DIR)
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(f, dst)
        except OSError:
            shutil.copy2(f, dst)
    (rollback / "patterns").write_text("\n".join(patterns) + "\n", encoding="utf-8")
    return patterns


def put_back(rollback: Path) -> int:
    """Undo a stage's writes: every file kept in ``rollback`` back in data/processed (one rename
    each, times kept), every file of its patterns that was not there before removed; then
    ``rollback`` is deleted. Returns how many files were put back or removed (0: nothing to do)."""
    from .config import PROCESSED_DIR

    if not (rollback / "patterns").is_file():
        shutil.rmtree(rollback, ignore_errors=True)
        return 0
    patterns = [p for p in (rollback / "patterns").read_text(encoding="utf-8").splitlines() if p]
    kept = {f.relative_to(rollback / "files") for f in (rollback / "files").rglob("*") if f.is_file()}
    changed = 0
    for rel in sorted(kept):
        target = PROCESSED_DIR / rel
        src = rollback / "files" / rel
        if target.is_file() and os.path.samefile(src, target):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, target)
        changed += 1
    for f in _current(patterns):
        if f.relative_to(PROCESSED_DIR) not in kept:
            f.unlink()
            changed += 1
    shutil.rmtree(rollback, ignore_errors=True)
    return changed


# --------------------------------------------------------------------------------------------
# Signals
# --------------------------------------------------------------------------------------------

_STOPPED_BY: list[int] = []


def _stop(signum, frame):  # noqa: ARG001 - signal handler signature
    """SIGINT, SIGTERM and SIGHUP end the run as Ctrl-C does (KeyboardInterrupt): the kernel is
    killed and the stage's tables are put back before this process exits."""
    _STOPPED_BY.append(signum)
    raise KeyboardInterrupt


class _DeclaredParameters(logging.Filter):
    """Drops papermill's "Passed unknown parameter: NAME" for a NAME ``parameters.PARAMETERS``
    declares: the report notebook sets its defaults from that declaration (no name typed in its
    parameters cell, so papermill cannot see them); an undeclared name still gets the warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        from .parameters import PARAMETERS

        msg = record.getMessage()
        prefix = "Passed unknown parameter: "
        return not (msg.startswith(prefix) and msg[len(prefix) :] in {p.name for p in PARAMETERS})


def _execution_error():
    """papermill's PapermillExecutionError once papermill is imported, else () (an except clause
    of () catches nothing): main imports papermill only after the kernel has started."""
    module = sys.modules.get("papermill.exceptions")
    return module.PapermillExecutionError if module is not None else ()


def _stop_kernel(km) -> None:
    """Kill the kernel of ``start_kernel`` if it is still running: a run stopped or failed before
    nbclient took the kernel over (nbclient shuts it down itself once it has run the notebook)."""
    if km is None or not km.has_kernel:
        return
    from jupyter_core.utils import run_sync

    try:
        run_sync(km.shutdown_kernel)(now=True)
    except Exception:  # noqa: BLE001 - already gone: nothing left to stop
        pass


def _report_failed(exc, out: Path, scratch: Path, failed_dir: Path) -> None:
    """A notebook that failed in a cell (papermill's ``exc``): kept as ``failed_dir/<name>`` with
    its traceback, and one message naming the error and that file (``VERBOSE=1``: the whole
    traceback too)."""
    from .config import PROJ_ROOT

    verbose = os.environ.get("VERBOSE", "") not in ("", "0")
    failed_dir.mkdir(parents=True, exist_ok=True)
    kept = failed_dir / out.name
    if scratch.exists():
        os.replace(scratch, kept)
    if verbose:
        print(str(exc), file=sys.stderr)
    print(
        f"\n{out.stem} failed: {exc.ename}: {exc.evalue.strip()}\n"
        f"{out} and the stage's tables were left as they were; the failed notebook with the full "
        f"traceback is {kept.relative_to(PROJ_ROOT) if kept.is_relative_to(PROJ_ROOT) else kept}"
        f"{'' if verbose else ' (VERBOSE=1 prints it)'}.",
        file=sys.stderr,
    )


def _open_printer():
    """A ``publish.pdf.Printer`` on the system Chromium, opening in its own thread (about 1 s)
    while the kernel runs the notebook. Raises RenderError when there is no Chromium."""
    from .publish import pdf, system

    try:
        return pdf.Printer(system.check_pdf_dependencies())
    except system.SystemLibraryError as exc:
        raise RenderError(str(exc)) from None


class _PrinterOpening:
    """Chromium and the renderer's modules, opened in a thread of this process once the kernel is
    ready (``start``, nbclient's ``on_notebook_start`` hook): while the kernel starts, importing
    its modules, this process's imports and Chromium's start took CPU from it on 2 cores (the
    kernel's start is on the stage's critical path), whereas while the kernel runs the notebook
    this process is idle. ``printer()`` waits for it and returns the ``publish.pdf.Printer``
    (RenderError when there is no Chromium); ``close()`` closes it (also when it is still
    opening, or never started)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._thread = None
        self._printer = None
        self._error: BaseException | None = None

    def start(self, **_hook_arguments) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._open, name="open-chromium", daemon=True)
                self._thread.start()

    def _open(self) -> None:
        try:
            self._printer = _open_printer()
        except BaseException as exc:  # noqa: BLE001 - raised again by printer()
            self._error = exc

    def printer(self):
        self.start()
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._printer

    def close(self) -> None:
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join()
        if self._printer is not None:
            self._printer.close()


def _render(scratch: Path, base: Path, printer) -> list[Path]:
    """Render the executed notebook ``scratch`` to ``base``.html and ``base``.pdf on the open
    ``printer`` (``publish.render.render``); raises RenderError with the reason."""
    from .publish import render

    try:
        return render.render(scratch, base, printer=printer)
    except (RuntimeError, ValueError, OSError) as exc:
        raise RenderError(f"{base}.html and .pdf not rendered: {exc}") from None


def _run_papermill(
    argv: list[str],
    i_in: int,
    i_out: int,
    scratch: Path,
    socket_dir: Path,
    run: dict,
    render: bool = False,
    go: bool = False,
) -> None:
    """Start the kernel (when papermill is told which), import papermill meanwhile, convert the
    input notebook and run papermill into ``scratch``. ``render``: Chromium is opened too, once
    the kernel is ready (``run["printer"]``, a ``_PrinterOpening``). ``go``: wait for "go" on
    standard input before running (``wait_go``: raises NotStarted). ``run`` receives ``km`` (the
    kernel's manager), ``printer`` and ``converted`` (the converted copy) as soon as they exist,
    for the caller's clean-up. Raises what papermill raises (PapermillExecutionError for a failed
    cell)."""
    source = Path(argv[i_in])
    kernel = _kernel_name(argv)
    if kernel and source.is_file():  # started first: papermill's import below runs meanwhile
        run["km"] = start_kernel(kernel, socket_dir, preload_modules(source), RENDER_FIRST if render else "")
    if render:  # Chromium and the renderer's modules, opened once the kernel is ready (_PrinterOpening)
        run["printer"] = _PrinterOpening()
    from papermill.cli import papermill

    logging.getLogger("papermill").addFilter(_DeclaredParameters())
    _register_engine(socket_dir, run.get("km"), run["printer"].start if render else None)
    notebook_in = as_notebook(source, scratch.parent)
    if notebook_in != source:
        run["converted"] = notebook_in
    args = [*argv[:i_in], str(notebook_in), *argv[i_in + 1 : i_out], str(scratch), *argv[i_out + 1 :]]
    if go:
        wait_go()
    papermill.main(args=[*args, *PAPERMILL_OPTIONS], prog_name="papermill", standalone_mode=False)


def _prepare(source: Path, out: Path, scratch_dir: Path, rollback: Path) -> bool:
    """Before the run: the scratch files a killed run left removed, every folder the stage writes
    checked, tables a killed run left half written put back, the stage's tables kept aside
    (``keep_aside``). False, with a message, when a folder cannot be written."""
    from .config import PROCESSED_DIR
    from .files import check_writable

    notebook = source.stem
    scratch_dir.mkdir(parents=True, exist_ok=True)
    # left by a killed run (the build lock is ours)
    for pattern in (f"{out.stem}.*.ipynb", f"input-{source.stem}.*.ipynb"):
        for stale in scratch_dir.glob(pattern):
            stale.unlink(missing_ok=True)
    try:  # every folder the stage writes, before anything runs
        for folder in ([PROCESSED_DIR] if _table_patterns(notebook) else []) + [out.parent, rollback.parent]:
            check_writable(folder)
    except PermissionError as exc:
        print(f"\n{notebook} not run: {exc}", file=sys.stderr)
        return False
    if put_back(rollback):  # a run killed outright (SIGKILL) left its tables half written
        print(f"{notebook}: put back the tables a killed run had left half written", file=sys.stderr)
    keep_aside(notebook, rollback)
    return True


def _move_into_place(scratch: Path, out: Path) -> None:
    """The executed notebook ``scratch`` becomes ``out`` in one rename (copied next to ``out``
    first when they are on different file systems). Raises OSError."""
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(scratch, out)
    except OSError:  # another file system: copy next to the target, then rename
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        try:
            shutil.copyfile(scratch, tmp)
            os.replace(tmp, out)
        finally:
            tmp.unlink(missing_ok=True)
        scratch.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    """Execute the notebook (papermill) into a scratch file; publish it only on success; put the
    stage's tables back when it fails or is stopped."""
    import tempfile

    from .config import PROJ_ROOT

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) is not signal.SIG_IGN:  # a signal ignored by who started us stays ignored
            signal.signal(sig, _stop)
    argv, render_base = _render_option(argv)
    argv, go = _wait_go(argv)
    argv = _absolute_file_parameters(argv)
    i_in, i_out = _paths(argv)
    out = Path(argv[i_out])
    source = Path(argv[i_in])
    notebook = source.stem
    scratch_dir = PROJ_ROOT / "build" / "executing"
    failed_dir = PROJ_ROOT / "build" / "failed"
    rollback = PROJ_ROOT / "build" / "rollback" / notebook
    start = time.monotonic()
    if not _prepare(source, out, scratch_dir, rollback):
        return 1
    from .files import fault_message

    scratch = scratch_dir / f"{out.stem}.{os.getpid()}.ipynb"
    socket_dir = Path(tempfile.mkdtemp(prefix="vdi-kernel-"))  # short: a Unix socket path has ~100 bytes
    run: dict = {}  # the kernel, Chromium and the converted notebook, for the clean-up
    try:
        _run_papermill(argv, i_in, i_out, scratch, socket_dir, run, render=render_base is not None, go=go)
        if render_base is not None:  # before the notebook replaces OUTPUT: all or nothing
            written = _render(scratch, render_base, run["printer"].printer())
            print("    wrote " + " and ".join(f"{p} ({p.stat().st_size / 1e6:.1f} MB)" for p in written))
    except _execution_error() as exc:
        put_back(rollback)
        _report_failed(exc, out, scratch, failed_dir)
        return 1
    except RenderError as exc:
        scratch.unlink(missing_ok=True)
        put_back(rollback)
        print(f"\n{out.stem}: {exc}\n{out}{LEFT_AS_THEY_WERE}", file=sys.stderr)
        return 1
    except NotStarted as exc:
        put_back(rollback)
        print(f"\n{notebook} not run: {exc}; {out}{LEFT_AS_THEY_WERE}", file=sys.stderr)
        return 1
    except BaseException as exc:
        scratch.unlink(missing_ok=True)
        put_back(rollback)
        if isinstance(exc, (KeyboardInterrupt, Abort)):  # click turns Ctrl-C into Abort
            sig = _STOPPED_BY[0] if _STOPPED_BY else signal.SIGINT
            name = signal.Signals(sig).name
            print(f"\n{out.stem} stopped ({name}): {out}{LEFT_AS_THEY_WERE}", file=sys.stderr)
            return 128 + sig
        if isinstance(exc, OSError):  # a full disk, a folder that became read-only
            print(f"\n{fault_message(exc, notebook)}; {out}{LEFT_AS_THEY_WERE}", file=sys.stderr)
            return 1
        raise
    finally:
        _stop_kernel(run.get("km"))
        if run.get("printer") is not None:
            run["printer"].close()
        shutil.rmtree(socket_dir, ignore_errors=True)
        if run.get("converted") is not None:
            run["converted"].unlink(missing_ok=True)
    try:
        _move_into_place(scratch, out)
    except OSError as exc:
        scratch.unlink(missing_ok=True)
        put_back(rollback)
        print(f"\n{fault_message(exc, notebook)}; {out}{LEFT_AS_THEY_WERE}", file=sys.stderr)
        return 1
    shutil.rmtree(rollback, ignore_errors=True)
    print(f"    {notebook} done in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    from .files import end_process

    end_process(main(sys.argv[1:]))
