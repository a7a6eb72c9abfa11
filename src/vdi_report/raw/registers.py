"""The curated registers: ``data/raw/discrepancies.csv`` (what the rules cannot find, and the
resolution of what they do) and ``data/raw/claims.csv`` (headline claims against the vendor's own
data), validated; quotes checked against the source texts."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from .. import config
from . import provenance, sources

DISCREPANCY_COLUMNS = [
    "id",
    "source_id",
    "category",
    "a_locator",
    "a_line",
    "a_quote",
    "b_locator",
    "b_line",
    "b_quote",
    "explanation",
    "resolution",
    "impact",
    "rejected_records",
]
CATEGORIES = ("contradiction", "arithmetic", "unsupported-claim", "ambiguity", "extraction-artifact", "comparability")
CLAIM_COLUMNS = [
    "claim_id",
    "source_id",
    "claim",
    "locator",
    "line",
    "quote",
    "evidence_for",
    "evidence_against",
    "verdict",
    "topic",
]
VERDICTS = ("supported", "partly supported", "not supported", "not testable")
# Optional trailing columns for sources whose text comes in several files (sources.csv
# ``text_files``): which file a quote is in; empty or absent = the source's first file.
OPTIONAL_DISCREPANCY_COLUMNS = ["a_text_file", "b_text_file"]
OPTIONAL_CLAIM_COLUMNS = ["text_file"]


class RegisterError(ValueError):
    """A curated register that cannot be used; the message names file, line and column."""


def _check_rows(df: pd.DataFrame, path: Path, checks) -> None:
    problems = []
    for i, r in df.iterrows():
        for col, ok, what in checks:
            if not ok(r[col], r):
                problems.append(f"{path}: line {i + 2}: column {col!r} = {r[col]!r}: {what}")
    if problems:
        raise RegisterError(f"{len(problems)} problem(s):\n  " + "\n  ".join(problems))


def _with_optional(df: pd.DataFrame, path: Path, required: list[str], optional: list[str]) -> pd.DataFrame:
    """``df`` with the ``required`` columns in order, then every ``optional`` column (added empty
    when absent). Raises RegisterError naming the file for missing, misordered or unknown columns."""
    cols = list(df.columns)
    extra = cols[len(required) :]
    if cols[: len(required)] != required or any(c not in optional for c in extra):
        raise RegisterError(f"{path}: columns {cols}; expected {required} (optionally followed by {optional})")
    for c in optional:
        if c not in df.columns:
            df[c] = ""
    return df[required + optional]


def _file_check(source_files: dict[str, list[str]], col: str):
    return (
        col,
        lambda v, r: v == "" or v in source_files.get(r["source_id"], []),
        "not one of the source's text_files (sources.csv)",
    )


def load_discrepancies(
    path: Path = config.RAW_DIR / "discrepancies.csv", record_ids: set[str] | None = None
) -> pd.DataFrame:
    """The curated discrepancy register, validated; columns ``DISCREPANCY_COLUMNS`` (all str).

    ``id`` is ``D-<PREFIX>-NN`` and unique; ``category`` in ``CATEGORIES``; ``source_id`` in
    ``sources.csv``; ``a_*`` filled; ``a_line``/``b_line`` 1-based integers (``b_*`` may be empty);
    ``resolution`` filled; ``rejected_records`` space-separated record ids that must exist in
    ``record_ids`` (default: all of ``data/raw/records``) and belong to the entry's source.
    Raises RegisterError listing every problem with its CSV line.
    """
    path = Path(path)
    df = _with_optional(sources.read_csv_text(path), path, DISCREPANCY_COLUMNS, OPTIONAL_DISCREPANCY_COLUMNS)
    known_sources = set(sources.load_sources()["source_id"])
    if record_ids is None:
        record_ids = set()
        for f in sorted(config.RECORDS_DIR.glob("*.csv")):
            record_ids |= set(sources.read_csv_text(f)["record_id"])
    prefixes = sources.load_sources().set_index("source_id")["record_prefix"].to_dict()

    def prefix_of(s):
        return prefixes.get(s, "?")

    files = {k: v.split() for k, v in sources.load_sources().set_index("source_id")["text_files"].items()}
    _check_rows(
        df,
        path,
        [
            _file_check(files, "a_text_file"),
            _file_check(files, "b_text_file"),
            (
                "id",
                lambda v, r: re.fullmatch(rf"D-{prefix_of(r['source_id'])}-\d{{2,3}}", v) is not None,
                "expected D-<PREFIX>-NN",
            ),
            ("source_id", lambda v, r: v in known_sources, "unknown source (see sources.csv)"),
            ("category", lambda v, r: v in CATEGORIES, f"expected one of {', '.join(CATEGORIES)}"),
            ("a_locator", lambda v, r: re.fullmatch(sources.LOCATOR_PATTERN[1:-1], v) is not None, "bad locator"),
            ("a_line", lambda v, r: v.isdigit() and int(v) >= 1, "expected a line number"),
            ("a_quote", lambda v, r: bool(v.strip()), "empty quote"),
            (
                "b_locator",
                lambda v, r: v == "" or re.fullmatch(sources.LOCATOR_PATTERN[1:-1], v) is not None,
                "bad locator",
            ),
            (
                "b_line",
                lambda v, r: (v == "") == (r["b_quote"] == "") and (v == "" or v.isdigit()),
                "b_line and b_quote go together",
            ),
            ("resolution", lambda v, r: bool(v.strip()), "every entry needs a resolution"),
            ("rejected_records", lambda v, r: all(x in record_ids for x in v.split()), "unknown record id"),
            (
                "rejected_records",
                lambda v, r: all(x.startswith(prefix_of(r["source_id"]) + "-") for x in v.split()),
                "record of another source",
            ),
        ],
    )
    if df["id"].duplicated().any():
        raise RegisterError(f"{path}: duplicate ids {sorted(df.loc[df['id'].duplicated(), 'id'])}")
    return df


def load_claims(path: Path = config.RAW_DIR / "claims.csv") -> pd.DataFrame:
    """The claims table, validated; columns ``CLAIM_COLUMNS`` (all str). ``claim_id`` is
    ``C-<PREFIX>-NN`` and unique, ``verdict`` in ``VERDICTS``, ``topic`` in the vocabulary's
    ``claim_topic`` (what the claim is about: desktops supported, load per desktop, boot, cost,
    ...), ``line`` a 1-based integer. Raises RegisterError listing every problem with its CSV line."""
    path = Path(path)
    df = _with_optional(sources.read_csv_text(path), path, CLAIM_COLUMNS, OPTIONAL_CLAIM_COLUMNS)
    known_sources = set(sources.load_sources()["source_id"])
    files = {k: v.split() for k, v in sources.load_sources().set_index("source_id")["text_files"].items()}
    _check_rows(
        df,
        path,
        [
            _file_check(files, "text_file"),
            (
                "claim_id",
                lambda v, r: re.fullmatch(r"C-[A-Z][A-Z0-9]*-\d{2,3}", v) is not None,
                "expected C-<PREFIX>-NN",
            ),
            ("source_id", lambda v, r: v in known_sources, "unknown source"),
            ("verdict", lambda v, r: v in VERDICTS, f"expected one of {', '.join(VERDICTS)}"),
            (
                "topic",
                lambda v, r: v in config.values("claim_topic"),
                f"expected one of {', '.join(config.values('claim_topic'))} (vocabulary.csv, field claim_topic)",
            ),
            ("line", lambda v, r: v.isdigit() and int(v) >= 1, "expected a line number"),
            ("quote", lambda v, r: bool(v.strip()), "empty quote"),
        ],
    )
    if df["claim_id"].duplicated().any():
        raise RegisterError(f"{path}: duplicate claim ids")
    return df


def resolutions(register: pd.DataFrame) -> pd.DataFrame:
    """Records the analysis does not use, from the register's ``rejected_records``: columns
    ``record_id, discrepancy_id, resolution`` (one row per record; a record named by two entries
    keeps the first), as ``normalize.combine`` expects."""
    rows = [(rid, r["id"], r["resolution"]) for _, r in register.iterrows() for rid in r["rejected_records"].split()]
    out = pd.DataFrame(rows, columns=["record_id", "discrepancy_id", "resolution"])
    return out.drop_duplicates("record_id").reset_index(drop=True)


def verify_quotes(
    df: pd.DataFrame,
    quote_cols: list[tuple[str, ...]],
    texts: dict,
    id_col: str = "id",
    window: int = provenance.LINE_WINDOW,
) -> list[str]:
    """Check that each quote occurs verbatim (whitespace collapsed) in its source's text and
    starts near its line. ``quote_cols``: (quote column, line column[, text-file column]) tuples;
    ``texts``: source_id -> text, or source_id -> {text_file: text} (``source_texts``; an empty
    text-file cell means the first file). Returns one message per problem (empty: all verified)."""
    problems = []
    for _, r in df.iterrows():
        entry = texts.get(r["source_id"])
        if entry is None:
            problems.append(f"{r[id_col]}: no source text for {r['source_id']}")
            continue
        for qcol, lcol, *fcol in quote_cols:
            q = provenance.squash(r[qcol])
            if not q:
                continue
            if isinstance(entry, dict):
                name = (r.get(fcol[0], "") if fcol else "") or next(iter(entry))
                text = entry.get(name)
                if text is None:
                    problems.append(f"{r[id_col]}: no text file {name!r} for {r['source_id']}")
                    continue
            else:
                text = entry
            flat = provenance.squash(text)
            lines = text.splitlines()
            if q not in flat:
                problems.append(f"{r[id_col]}: {qcol} not found verbatim: {q!r}")
                continue
            line = int(r[lcol])
            near = provenance.squash(" ".join(lines[max(line - 1 - 2, 0) : line - 1 + window]))
            if q[:30] not in near:
                problems.append(f"{r[id_col]}: {qcol} does not start near line {line}")
    return problems


def source_texts(sources_df: pd.DataFrame | None = None) -> dict[str, dict[str, str]]:
    """source_id -> {text_file: text} for every source, files in ``text_files`` order (the first
    is the default for a register quote). Raises FileNotFoundError when a text is absent."""
    s = sources.load_sources() if sources_df is None else sources_df
    return {r["source_id"]: provenance.source_texts(r) for _, r in s.iterrows()}


def seed_texts(sources_df: pd.DataFrame | None = None) -> dict[str, str]:
    """source_id -> text of its first text file (``provenance.text_path``); register and claims
    quotes refer to that file. Raises FileNotFoundError when the texts are absent."""
    s = sources.load_sources() if sources_df is None else sources_df
    return {
        r.source_id: provenance.text_path(r.text_dir, r.text_files.split()[0]).read_text(encoding="utf-8")
        for r in s.itertuples()
    }


def register_summary(register: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Register entries per vendor (rows) and category (columns, order of ``CATEGORIES``), with
    totals and the number of records set aside (``Records not used``)."""
    r = register.copy()
    if sources_df is not None:
        r["source_id"] = r["source_id"].map(sources_df.set_index("source_id")["vendor"]).fillna(r["source_id"])
    t = pd.crosstab(r["source_id"], r["category"])
    t = t.reindex(columns=[c for c in CATEGORIES if c in t.columns], fill_value=0)
    t["Total"] = t.sum(axis=1)
    t["Records not used"] = r.groupby("source_id")["rejected_records"].apply(lambda s: sum(len(x.split()) for x in s))
    t = t.reset_index().rename(columns={"source_id": "Vendor"})
    t.columns.name = None
    return t


# A verdict and the evidence columns that must not be empty for it (codebook: claims.csv).
VERDICT_NEEDS = {
    "supported": ("evidence_for",),
    "partly supported": ("evidence_for", "evidence_against"),
    "not supported": ("evidence_against",),
    "not testable": (),
}
# Register categories that say a statement does not hold.
REFUTING = ("contradiction", "unsupported-claim")
_EMPTY = ("", "none", "none.", "-")


def check_claim_verdicts(claims: pd.DataFrame, register: pd.DataFrame | None = None) -> list[str]:
    """Claims whose verdict does not follow from their evidence, one message each (empty list:
    consistent). ``claims``: columns ``CLAIM_COLUMNS``; ``register``: ``DISCREPANCY_COLUMNS``.

    * a verdict needs its evidence (``VERDICT_NEEDS``): ``supported`` evidence for,
      ``not supported`` evidence against, ``partly supported`` both;
    * ``supported`` cannot stand when the register refutes the same statement: an entry of a
      ``REFUTING`` category of the same source whose first or second quote and the claim's quote
      overlap (one contains the other's first 40 characters, whitespace collapsed).
    """
    problems = []
    for r in claims.itertuples(index=False):
        for col in VERDICT_NEEDS.get(r.verdict, ()):
            if getattr(r, col).strip().lower() in _EMPTY:
                problems.append(f"{r.claim_id}: verdict {r.verdict!r} but {col} is empty")
        if r.verdict != "supported" or register is None:
            continue
        reg = register[(register["source_id"] == r.source_id) & register["category"].isin(REFUTING)]
        q = provenance.squash(r.quote)
        for e in reg.itertuples(index=False):
            for eq in (provenance.squash(e.a_quote), provenance.squash(e.b_quote)):
                if eq and (eq[:40] in q or q[:40] in eq):
                    problems.append(
                        f"{r.claim_id}: verdict 'supported' but register entry {e.id} ({e.category}) "
                        f"refutes the same statement"
                    )
                    break
    return problems
