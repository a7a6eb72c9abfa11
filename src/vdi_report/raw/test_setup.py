"""How each test was run and where its I/O went: ``data/raw/test_setup.csv``, one sourced line per
document (and configuration) and factor.

Columns (``SETUP_COLUMNS``): ``source_id`` (sources.csv), ``configuration`` (vocabulary
``configuration``; empty: every configuration of the document), ``factor`` (one of ``FACTORS``),
``value`` (for ``provisioning`` one of ``PROVISIONING``; for ``profile_storage`` one of
``PROFILE_STORAGE``; for ``protection`` one of ``PROTECTION``; free text otherwise), ``basis``
(``stated``: the quoted line says so; ``assumed``: the document does not state it and ``note``
says why the value is taken),
``text_file`` (one of the source's ``text_files``), ``line`` (1-based line of ``text_file``),
``quote`` (verbatim, on that line) and ``note``.

Factors (issue 24, shared/FIELD.md):
- ``load_tool``: the load generator, its version and workload as the document names them;
- ``probes``: what the harness measured besides the workload and with what settings (Login
  Enterprise EUX actions, Login VSI timers, Vdbench, a targeted IOPS load);
- ``provisioning``: how the desktops were created (``PROVISIONING``);
- ``profile_storage``: where user-profile I/O lands (``PROFILE_STORAGE``);
- ``write_cache``: where a Citrix Provisioning target's write cache lives;
- ``protection``: how the tested array protects its data (``PROTECTION``): a classic RAID level
  only where the document describes it for the tested configuration, ``not_stated`` otherwise.

``load_test_setup`` validates the file (every problem named by file, line, column and value);
``wide`` turns it into one row per source and configuration with a column per factor and a
``<factor>_source`` column (``text_file:L<line>``, ``(assumed)`` when so).
"""

from __future__ import annotations

import functools
import weakref
from pathlib import Path

import pandas as pd

from .. import config

SETUP_FILE = config.RAW_DIR / "test_setup.csv"
SETUP_COLUMNS = ["source_id", "configuration", "factor", "value", "basis", "text_file", "line", "quote", "note"]
FACTORS = ("load_tool", "probes", "provisioning", "profile_storage", "write_cache", "protection")
# Desktop provisioning (shared/FIELD.md): Citrix Machine Creation Services, Citrix Provisioning
# (streamed from the provisioning server, reads served from its memory: register D-RA2053-02),
# VMware Horizon linked, instant or full clones.
PROVISIONING = ("mcs", "pvs", "linked_clone", "instant_clone", "full_clone", "mixed")
PROVISIONING_LABELS = {  # the report's words for each (the per-array capacity lines)
    "mcs": "Citrix MCS",
    "pvs": "Citrix Provisioning",
    "linked_clone": "Horizon linked clones",
    "instant_clone": "Horizon instant clones",
    "full_clone": "Horizon full clones",
    "mixed": "mixed clone types",
}
# Where profile I/O lands: on the desktop's own disk (local profiles), in profile containers on
# a file service running on the same storage, or on a separate file service (not counted).
PROFILE_STORAGE = ("desktop_disk", "containers_same_storage", "file_service_separate", "not_stated")
# How an array protects its data as its document states it (issue 25; shared/FIELD.md): classic
# RAID levels (the keys of models.scenario.WRITE_PENALTY, whose write penalty applies), NetApp RAID
# DP (double parity under WAFL), AccelStor FlexiRemap (no traditional RAID), or not stated.
PROTECTION = ("raid10", "raid5", "raid6", "raid_dp", "flexiremap", "not_stated")
PROTECTION_LABELS = {
    "raid10": "RAID 10",
    "raid5": "RAID 5",
    "raid6": "RAID 6",
    "raid_dp": "RAID DP",
    "flexiremap": "FlexiRemap",
    "not_stated": "not stated",
}
BASES = ("stated", "assumed")


def _isin(values, what):
    import pandera.pandas as pa

    return pa.Check.isin(list(values), error=f"unknown {what} (see data/raw/README.md, test_setup.csv)")


@functools.cache
def setup_schema():
    """The pandera schema of ``test_setup.csv`` (built on first use: pandera is slow to import)."""
    import pandera.pandas as pa

    return pa.DataFrameSchema(
        {
            "source_id": pa.Column(str, pa.Check.str_matches(r"^[a-z0-9_]+$")),
            "configuration": pa.Column(str),
            "factor": pa.Column(str, _isin(FACTORS, "factor")),
            "value": pa.Column(str, pa.Check.str_length(min_value=1)),
            "basis": pa.Column(str, _isin(BASES, "basis")),
            "text_file": pa.Column(str, pa.Check.str_length(min_value=1)),
            "line": pa.Column(int, pa.Check.gt(0), coerce=True),
            "quote": pa.Column(str, pa.Check.str_length(min_value=1)),
            "note": pa.Column(str),
        },
        strict=True,
    )


def load_test_setup(path: Path = SETUP_FILE, raw_dir: Path | None = None) -> pd.DataFrame:
    """``test_setup.csv`` validated (columns ``SETUP_COLUMNS``; ``line`` an int). Raises
    ``sources.RawDataError`` naming the file, CSV line, column and value of every problem: the
    schema, an unknown source or configuration, a text file the source does not list, a
    provisioning or profile-storage value outside its vocabulary, a factor given twice for one
    source and configuration. A missing file is an empty table (a copy of the project may
    predate it)."""
    from . import sources

    path = Path(path)
    if not path.is_file():
        return pd.DataFrame({c: pd.Series(dtype=int if c == "line" else str) for c in SETUP_COLUMNS})
    df = sources.validate(sources.read_csv_text(path), setup_schema(), path)
    srcs = sources.load_sources(Path(raw_dir) if raw_dir else path.parent).set_index("source_id")
    confs = set(config.CONFIGURATIONS)
    problems = []
    allowed = {"provisioning": PROVISIONING, "profile_storage": PROFILE_STORAGE, "protection": PROTECTION}
    seen: dict[tuple, int] = {}
    for i, r in df.iterrows():
        line = i + 2
        where = f"{path}: line {line}"
        if r["source_id"] not in srcs.index:
            problems.append(f"{where}: column 'source_id' = {r['source_id']!r}: not in sources.csv")
            continue
        if r["text_file"] not in srcs.at[r["source_id"], "text_files"].split():
            problems.append(
                f"{where}: column 'text_file' = {r['text_file']!r}: not one of {r['source_id']}'s text_files"
            )
        if r["configuration"] and r["configuration"] not in confs:
            problems.append(f"{where}: column 'configuration' = {r['configuration']!r}: not in vocabulary.csv")
        if r["factor"] in allowed and r["value"] not in allowed[r["factor"]]:
            problems.append(
                f"{where}: column 'value' = {r['value']!r}: a {r['factor']} must be one of "
                f"{', '.join(allowed[r['factor']])}"
            )
        key = (r["source_id"], r["configuration"], r["factor"])
        if key in seen:
            problems.append(
                f"{where}: factor {r['factor']!r} of {r['source_id']} {r['configuration'] or '(every configuration)'} "
                f"given twice (also line {seen[key]})"
            )
        seen.setdefault(key, line)
    if problems:
        raise sources.RawDataError(f"{len(problems)} problem(s) in {path}:\n  " + "\n  ".join(problems))
    return df


def wide(setup: pd.DataFrame) -> pd.DataFrame:
    """One row per (source_id, configuration) of ``setup`` (``load_test_setup``), a column per
    factor of ``FACTORS`` (its value) and per ``<factor>_source`` (``text_file:L<line>``, with
    `` (assumed)`` when the basis is assumed). An empty configuration applies to every
    configuration of its document: ``lookup`` falls back to it."""
    cols = ["source_id", "configuration"] + [c for f in FACTORS for c in (f, f"{f}_source")]
    if setup.empty:
        return pd.DataFrame(columns=cols)
    s = setup.assign(
        _src=setup["text_file"]
        + ":L"
        + setup["line"].astype(int).astype(str)
        + setup["basis"].map({"assumed": " (assumed)"}).fillna("")
    )
    v = s.pivot_table(index=["source_id", "configuration"], columns="factor", values="value", aggfunc="first")
    src = s.pivot_table(index=["source_id", "configuration"], columns="factor", values="_src", aggfunc="first")
    src.columns = [f"{c}_source" for c in src.columns]
    return v.join(src).reset_index().reindex(columns=cols).astype(object).fillna("")


def required(setup: pd.DataFrame | None, caller: str) -> pd.DataFrame:
    """``setup`` (``setup_wide``: test_setup.csv, one row per source and configuration) itself,
    for a model function ``caller`` that reads the test set-up only as an argument (issue 27: a
    step reads only what it declares). Raises TypeError naming ``caller`` and the call to make
    when ``setup`` is None."""
    if setup is None:
        raise TypeError(
            f"{caller}: pass setup_wide=vdi_report.raw.test_setup.setup_wide() (test_setup.csv); "
            "model functions do not load it themselves"
        )
    return setup


def setup_wide(path: Path = SETUP_FILE) -> pd.DataFrame:
    """``wide(load_test_setup(path))``, read and validated once per process for a file whose
    size and modification time (and those of sources.csv beside it) have not changed: the
    sensitivity grid asks for it about a hundred times, each read and validation costing about
    0.1 s. A copy is returned, so a caller may change it. Raises as ``load_test_setup``."""
    path = Path(path)
    key = (str(path.resolve()), *_stat(path), *_stat(path.parent / "sources.csv"))
    if key not in _WIDE:
        _WIDE.clear()
        _WIDE[key] = wide(load_test_setup(path))
    return _WIDE[key].copy()


_WIDE: dict[tuple, pd.DataFrame] = {}


def _stat(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except FileNotFoundError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


_INDEX: dict[int, tuple[weakref.ref, dict]] = {}


def _index(setup_wide: pd.DataFrame) -> dict[tuple[str, str], dict]:
    """{(source_id, configuration): the first row of ``setup_wide`` with them, as a dict}, built
    once per frame (held by a weak reference: a frame's index goes with it). A frame is never
    changed in place after ``wide`` made it."""
    hit = _INDEX.get(id(setup_wide))
    if hit is not None and hit[0]() is setup_wide:
        return hit[1]
    idx: dict[tuple[str, str], dict] = {}
    for rec in setup_wide.to_dict("records"):
        idx.setdefault((rec["source_id"], rec["configuration"]), rec)
    key = id(setup_wide)

    def forget(ref: weakref.ref, key: int = key) -> None:  # the frame is gone: so is its index
        if _INDEX.get(key, (None,))[0] is ref:
            del _INDEX[key]

    _INDEX[key] = (weakref.ref(setup_wide, forget), idx)
    return idx


def lookup(setup_wide: pd.DataFrame, source_id: str, configuration: str, factor: str) -> tuple[str, str]:
    """(value, source) of ``factor`` for a test: the configuration's own line, else the
    document's (empty configuration), else ``("", "")``. Raises KeyError for a factor that is not
    a column of ``setup_wide``."""
    if factor not in setup_wide.columns:
        raise KeyError(factor)
    idx = _index(setup_wide)
    for conf in (configuration, ""):
        rec = idx.get((source_id, conf))
        if rec is not None and rec[factor]:
            return rec[factor], rec[f"{factor}_source"]
    return "", ""
