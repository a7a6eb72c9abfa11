"""Writing processed outputs: atomic (temporary file, then rename) and byte-for-byte deterministic.

CSV tables (``write_csv``) and JSON documents (``write_json``), which ``catalogue.write`` uses,
and bytes (``write_bytes``: the rendered report). The report's files (executed notebook, scenario
CSVs, HTML, PDF, stamp) are made in ``build/publish`` and published into ``reports/`` all at once
(``publish``; ``python -m vdi_report.files --publish ...``, the build's last step)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from . import config

if TYPE_CHECKING:  # pandas is imported by the caller that has a DataFrame; the render need not load it
    import pandas as pd

FLOAT_FORMAT = "%.10g"  # fixed formatting so two runs give identical bytes


def end_process(code: int | None) -> NoReturn:
    """End a build step's process (the ``__main__`` block of a ``python -m`` step) with exit status
    ``code`` (None: 0) as soon as its work is done: standard output and error flushed, then
    ``os._exit``, skipping the interpreter's teardown. Every file a step writes is closed by then
    (``write_bytes``, ``write_csv``, ``write_json`` and the stamps close each file before renaming
    it; the notebook stages' kernel is already stopped, Chromium closed), and the teardown, which
    frees every loaded module's objects and does nothing the build needs, took 0.5 to 0.8 s in a
    process that had imported pandas, pandera, altair and statsmodels (measured; a one-parameter
    rebuild runs five steps one after the other). An exception raised by the step's ``main`` still
    ends the process the usual way, with its traceback; functions called from the tests or a
    notebook are not affected."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0 if code is None else int(code))


def digest(paths) -> str:
    """SHA-256 (hex) over the files ``paths`` (under the project root), in sorted order: each
    file's path relative to the project and its bytes. The build caches key on it (the parameters'
    checks, ``stages.check_parameters``; the chapters, ``report.chapter_cache``): a file renamed,
    added, removed or changed changes it. Raises OSError for a file that cannot be read."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted(paths):
        h.update(f.relative_to(config.PROJ_ROOT).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _atomic(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file beside it and a rename, unless
    ``path`` already holds exactly these bytes: then the file, and its modification time, are
    left alone, so the build (``stages.make_rules``) re-runs no later stage for an output whose
    content did not change."""
    path = Path(path).resolve()
    if config.RAW_DIR.resolve() in path.parents:
        raise PermissionError(f"refusing to write {path}: data/raw is never written by code")
    if unchanged(path, data):
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp creates 0600
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def unchanged(path: Path, data: bytes) -> bool:
    """Whether the file ``path`` exists and holds exactly ``data`` (its size is compared first)."""
    try:
        if os.stat(path).st_size != len(data):
            return False
        return Path(path).read_bytes() == data
    except (FileNotFoundError, NotADirectoryError):
        return False


def write_bytes(data: bytes, path: Path) -> Path:
    """Write ``data`` to ``path`` atomically (readable by all, 0644), or leave ``path`` untouched
    when it already holds these bytes. Raises PermissionError under ``data/raw``."""
    return _atomic(path, data)


def write_json(obj, path: Path) -> Path:
    """Write a JSON-able ``obj`` to ``path`` atomically and deterministically (sorted keys,
    two-space indent, ``\n`` at the end; NaN and infinities refused: ValueError), or leave
    ``path`` untouched when its bytes would not change. Raises PermissionError under ``data/raw``."""
    import json

    return _atomic(path, (json.dumps(obj, sort_keys=True, indent=2, allow_nan=False) + "\n").encode("utf-8"))


def write_csv(df: pd.DataFrame, path: Path) -> Path:
    """Write ``df`` to ``path`` atomically with a fixed float format and ``\\n`` line endings.

    The file appears complete or not at all: an error leaves any previous file untouched, and a
    file that already holds the same bytes is not rewritten (its time stays: no later stage re-runs).
    Raises PermissionError when asked to write under ``data/raw`` (raw data is read-only).
    """
    text = df.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n")
    return _atomic(path, text.encode("utf-8"))


# --------------------------------------------------------------------------------------------
# Faults in plain words: a folder that cannot be written, a full disk
# --------------------------------------------------------------------------------------------

NO_SPACE = {28, 122, 27}  # ENOSPC, EDQUOT, EFBIG (a file size limit)


def _shown(path: Path) -> str:
    """``path`` relative to the project when inside it (``reports/``), else as given."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(config.PROJ_ROOT.resolve()))
    except ValueError:
        return str(path)


def check_writable(folder: Path) -> None:
    """Raise PermissionError with a plain message when ``folder`` (or, when it does not exist
    yet, the nearest folder above it) cannot be written: which folder, why (a read-only file
    system, or its mode and owner against the user's id) and what to do. Root passes a mode
    check, so for root only a read-only file system fails."""
    import pwd
    import stat

    folder = Path(folder)
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if os.access(probe, os.W_OK | os.X_OK):
        return
    st = os.stat(probe)
    if os.statvfs(probe).f_flag & os.ST_RDONLY:
        why = "it is on a read-only file system"
    else:
        try:
            owner = pwd.getpwuid(st.st_uid).pw_name
        except KeyError:
            owner = str(st.st_uid)
        why = (
            f"permission denied: mode {stat.filemode(st.st_mode)}, owner {owner}, "
            f"and this build runs as uid {os.geteuid()}"
        )
    raise PermissionError(
        f"cannot write into {_shown(folder)}/: {why}. Make it writable (e.g. chmod u+w {_shown(probe)}) "
        "and run make again; nothing was changed."
    )


def fault_message(exc: OSError, doing: str) -> str:
    """A plain sentence for an OSError met while ``doing`` (e.g. "publishing reports/"): a full
    disk (or a file size limit) named with the device's free space, a folder that cannot be
    written, else the system's own words with the path."""
    import errno

    where = _shown(Path(exc.filename)) if exc.filename else ""
    if exc.errno in NO_SPACE:
        free = ""
        if exc.filename:
            probe = Path(exc.filename)
            while not probe.exists() and probe != probe.parent:
                probe = probe.parent
            v = os.statvfs(probe)
            free = f" ({v.f_bavail * v.f_frsize / 1e6:.1f} MB free there)"
        return (
            f"{doing}: no space left on the device holding {where or 'the output'}{free}; "
            "free some space and run make again"
        )
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        kind = "read-only file system" if exc.errno == errno.EROFS else "permission denied"
        return f"{doing}: cannot write {where or 'the output'}: {kind}; make it writable and run make again"
    return f"{doing}: {exc.strerror or exc}{': ' + where if where else ''}"


# --------------------------------------------------------------------------------------------
# Publishing the report: every file at once
# --------------------------------------------------------------------------------------------

PUBLISHED_STAMP = "params.stamp"  # in the published folder: the parameters of the set beside it
_RENAME_EXCHANGE = 2  # linux/fs.h


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one system call (Linux ``renameat2(RENAME_EXCHANGE)``); False where the
    system or file system cannot."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: not supported here
        return False
    raise OSError(err, os.strerror(err), str(a))


def _link_or_copy(src: Path, dst: Path) -> None:
    """``dst`` becomes ``src``'s bytes and time: a hard link, or a copy on another file system."""
    import shutil

    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.unlink(missing_ok=True)
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _old_and_next(dest: Path) -> tuple[Path, Path]:
    """Scratch folders of a publication into ``dest``: in ``build/`` beside it (same file system)."""
    base = dest.parent / "build"
    return base / f"{dest.name}.old", base / f"{dest.name}.next"


def recover_publication(dest: Path) -> None:
    """Finish or undo a publication a crash interrupted (only where the folder swap is not one
    system call): ``dest`` missing but its previous set kept aside -> put it back. Leftover
    scratch folders are removed."""
    import shutil

    dest = Path(dest)
    old, nxt = _old_and_next(dest)
    if not dest.exists() and old.is_dir():
        os.replace(old, dest)
    for d in (old, nxt):
        shutil.rmtree(d, ignore_errors=True)


def publish(staged: Path, names: list[str], dest: Path, stamp: str) -> list[Path]:
    """Publish the report set all at once: ``dest`` (``reports/``) afterwards holds either its
    previous files or the previous files with every ``staged/<name>`` replaced and
    ``dest/params.stamp`` = ``stamp`` (the parameters the set was built with), never a mix.

    ``names`` are paths relative to ``staged`` (e.g. ``notebooks/10_report.ipynb``). A new
    folder is made in ``build/`` beside ``dest`` (``build/<dest>.next``: hard links to the files of ``dest``, then
    copies of the staged ones, then the stamp) and swapped with ``dest`` in one ``renameat2``
    exchange; where the system cannot, two renames, and ``recover_publication`` (run first)
    puts the previous set back after a crash between them. The published copies get one
    common modification time, the publication's, so Make sees them as up to date.
    Raises FileNotFoundError naming a staged file that is missing (nothing is published).
    Returns the published paths.
    """
    import shutil

    staged, dest = Path(staged), Path(dest)
    missing = [n for n in names if not (staged / n).is_file()]
    if missing:
        raise FileNotFoundError(f"not published, {staged} lacks: {', '.join(missing)} (run make report)")
    check_writable(dest)
    check_writable(dest.parent)
    recover_publication(dest)
    old, nxt = _old_and_next(dest)
    nxt.mkdir(parents=True)
    try:
        return _publish_into(staged, names, dest, stamp, old, nxt)
    except BaseException:
        shutil.rmtree(nxt, ignore_errors=True)  # a half-made next set (a full disk): the previous stays
        raise


def _publish_into(staged: Path, names: list[str], dest: Path, stamp: str, old: Path, nxt: Path) -> list[Path]:
    import shutil
    import time

    replaced = {Path(n) for n in names} | {Path(PUBLISHED_STAMP)}
    if dest.is_dir():  # the files the report does not replace (e.g. the data stages' notebooks)
        for f in dest.rglob("*"):
            rel = f.relative_to(dest)
            if rel in replaced:
                continue  # never a link to a file of the published set: it is written below
            if f.is_symlink():
                (nxt / rel).parent.mkdir(parents=True, exist_ok=True)
                (nxt / rel).symlink_to(os.readlink(f))
            elif f.is_file():
                _link_or_copy(f, nxt / rel)
    now = time.time_ns()
    for n in names:  # copies (a few MB): the staged files keep their own times (make bench reads them)
        (nxt / n).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(staged / n, nxt / n)
        os.utime(nxt / n, ns=(now, now))
    (nxt / PUBLISHED_STAMP).write_text(stamp.rstrip("\n") + "\n", encoding="utf-8")
    os.utime(nxt / PUBLISHED_STAMP, ns=(now, now))
    if not dest.exists():
        os.replace(nxt, dest)
    elif _exchange(nxt, dest):
        shutil.rmtree(nxt)  # now the previous set
    else:
        os.replace(dest, old)
        os.replace(nxt, dest)
        shutil.rmtree(old)
    return [dest / n for n in [*names, PUBLISHED_STAMP]]


def main(argv: list[str]) -> int:
    """``python -m vdi_report.files --publish STAGED DEST --stamp STAMP_FILE NAME ...``: publish
    the staged report files into DEST with the stamp file's content (``publish``)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m vdi_report.files", description=main.__doc__)
    ap.add_argument("--publish", nargs=2, metavar=("STAGED", "DEST"), required=True)
    ap.add_argument("--stamp", type=Path, required=True, help="file whose content is the set's stamp")
    ap.add_argument("names", nargs="+", help="files to publish, relative to STAGED")
    a = ap.parse_args(argv)
    try:
        paths = publish(Path(a.publish[0]), a.names, Path(a.publish[1]), a.stamp.read_text(encoding="utf-8"))
    except (FileNotFoundError, PermissionError) as exc:
        msg = str(exc) if not exc.filename else fault_message(exc, f"publishing {a.publish[1]}/")
        print(f"publish: {msg}\nThe previous report in {a.publish[1]}/ is unchanged.", file=sys.stderr)
        return 1
    except OSError as exc:
        msg = fault_message(exc, f"publishing {a.publish[1]}/")
        print(f"{msg}\nThe previous report in {a.publish[1]}/ is unchanged.", file=sys.stderr)
        return 1
    print(f"published {len(paths)} files into {a.publish[1]}/ at once")
    return 0


if __name__ == "__main__":  # pragma: no cover - exercised through make
    end_process(main(sys.argv[1:]))
