"""Writing processed outputs: atomic (temporary file, then rename) and byte-for-byte deterministic.

CSV tables (``write_csv``) and JSON documents (``write_json``), which ``catalogue.write`` uses,
and bytes (``write_bytes``: the rendered report, the PDF layout cache)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from . import config

if TYPE_CHECKING:  # pandas is imported by the caller that has a DataFrame; the render need not load it
    import pandas as pd

FLOAT_FORMAT = "%.10g"  # fixed formatting so two runs give identical bytes


def _atomic(path: Path, write, binary: bool = False) -> Path:
    """Call ``write(fh)`` on a temporary file beside ``path`` (text, UTF-8; ``binary``: bytes),
    then rename it to ``path``."""
    path = Path(path).resolve()
    if config.RAW_DIR.resolve() in path.parents:
        raise PermissionError(f"refusing to write {path}: data/raw is never written by code")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp creates 0600
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_bytes(data: bytes, path: Path) -> Path:
    """Write ``data`` to ``path`` atomically (readable by all, 0644). Raises PermissionError under
    ``data/raw``."""
    return _atomic(path, lambda fh: fh.write(data), binary=True)


def write_json(obj, path: Path) -> Path:
    """Write a JSON-able ``obj`` to ``path`` atomically and deterministically (sorted keys,
    two-space indent, ``\n`` at the end; NaN and infinities refused: ValueError). Raises
    PermissionError under ``data/raw``."""
    import json

    return _atomic(path, lambda fh: fh.write(json.dumps(obj, sort_keys=True, indent=2, allow_nan=False) + "\n"))


def write_csv(df: pd.DataFrame, path: Path) -> Path:
    """Write ``df`` to ``path`` atomically with a fixed float format and ``\\n`` line endings.

    The file appears complete or not at all: an error leaves any previous file untouched.
    Raises PermissionError when asked to write under ``data/raw`` (raw data is read-only).
    """
    return _atomic(path, lambda fh: df.to_csv(fh, index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
