"""Report tables and chart from ``data/processed/audit_findings.csv`` and the registers. Rule labels
and descriptions come from the rule registry (``registry.RULES``)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from .. import config
from ..audit import rules as _rules  # noqa: F401  (registers the rules)
from ..audit.common import FINDING_COLUMNS
from ..audit.registry import RULES, rules_table


def rule_labels() -> dict[str, str]:
    """Rule name -> label, from the registry."""
    return {name: r.label for name, r in RULES.items()}


def rules_list() -> pd.DataFrame:
    """The report's list of checks, from the registry: columns ``Check`` (label) and ``What it
    compares`` (description), in run order."""
    t = rules_table()
    return pd.DataFrame({"Check": t["label"].values, "What it compares": t["description"].values})


VERDICT_ORDER = ("not supported", "partly supported", "supported", "not testable")


def read_findings(path: Path = config.PROCESSED_DIR / "audit_findings.csv") -> pd.DataFrame:
    """``audit_findings.csv`` back with its types (columns ``FINDING_COLUMNS``; ``stated`` and
    ``recomputed`` float, the rest str). Raises FileNotFoundError when the audit has not run."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    for col in ("stated", "recomputed"):
        df[col] = pd.to_numeric(df[col].replace("", None)).astype(float)
    return df[FINDING_COLUMNS]


def _vendor(source_ids: pd.Series, sources_df: pd.DataFrame | None) -> pd.Series:
    if sources_df is None:
        return source_ids
    return source_ids.map(sources_df.set_index("source_id")["vendor"]).fillna(source_ids)


def findings_table(
    findings: pd.DataFrame, sources_df: pd.DataFrame | None = None, severity: str = "inconsistent"
) -> pd.DataFrame:
    """The findings of one ``severity`` for the report: Document (vendor and check), Finding (the
    rule's message, quoting the printed values with their locators), Recomputed (derived by the
    check from other stated values; empty when it compares stated values only), Records (with
    the curated register entries about the same statements in brackets)."""
    f = findings[findings["severity"] == severity]
    recomputed = [
        ""
        if r in ("same_quantity", "average_above_peak") or pd.isna(x)
        else f"{x:,.0f} {u}".strip()
        if abs(x) >= 100
        else f"{x:.3g} {u}".strip()
        for r, x, u in zip(f["rule"], f["recomputed"], f["unit"].replace({"count": "", "ratio": "x"}))
    ]
    return pd.DataFrame(
        {
            "Document and check": (
                _vendor(f["source_id"], sources_df) + ": " + f["rule"].map(rule_labels()).fillna(f["rule"])
            ).values,
            "Finding (stated values as printed, with locator)": f["message"].values,
            "Recomputed (derived)": recomputed,
            "Records (register entry)": [
                r + (f" ({g})" if g else "") for r, g in zip(f["record_ids"], f["register_ids"])
            ],
        }
    )


def claims_table(claims: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """The claims table for the report, by vendor and verdict (``VERDICT_ORDER``): Claim (vendor,
    claim, locator), Verdict, Evidence for, Evidence against (both from the vendor's own data)."""
    c = claims.assign(_v=claims["verdict"].map(VERDICT_ORDER.index), _s=claims["source_id"])
    c = c.sort_values(["_s", "_v", "claim_id"], kind="stable")
    return pd.DataFrame(
        {
            "Claim": (
                _vendor(c["source_id"], sources_df)
                + ": "
                + c["claim"]
                + " ("
                + c["locator"]
                + ", line "
                + c["line"]
                + ")"
            ).values,
            "Verdict": c["verdict"].values,
            "Evidence for": c["evidence_for"].values,
            "Evidence against": c["evidence_against"].values,
        }
    )


# --------------------------------------------------------------------------------------------
# The audit chapter for reviewers (issue 26): plain words, per document, what changes a number
# --------------------------------------------------------------------------------------------

_ID = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b(?:iops|vsibase)\b")
_IOPS_WORDS = {"iops": "IOPS", "read_iops": "read IOPS", "write_iops": "write IOPS"}


def document_labels(sources_df: pd.DataFrame) -> dict[str, str]:
    """{source_id: readable document name} (``Nutanix RA-2022``, ``AccelStor``): each document
    apart, the three Nutanix documents included (``models.iops.document_labels``)."""
    from ..models.iops import document_labels as labels

    return labels(sources_df)


class PlainWords:
    """Internal ids of a finding's text in the project's words: a test id (``knowledge_login``)
    as its headline label (``Login + steady state (knowledge)``, from tests.csv), a metric id as
    its definition in data/raw/metrics.csv (``vsibase`` -> ``Login VSI VSIbase``; the IOPS metrics
    as ``IOPS``), a configuration id as its vocabulary label. ``tests``: tests.csv (source_id,
    test_id and the columns of ``tables._test_label``). ``__call__(text, source_id)`` returns the
    text with every known id of that document (and every metric id) replaced."""

    def __init__(self, tests: pd.DataFrame | None = None, vocabulary: dict | None = None):
        from .. import config as cfg

        metrics = pd.read_csv(cfg.RAW_DIR / "metrics.csv", dtype=str, keep_default_na=False)
        self.metric = {
            m: _IOPS_WORDS.get(m, d.split(" (")[0] if d else m.replace("_", " "))
            for m, d in zip(metrics["metric"], metrics["definition"])
        }
        self.tests: dict[str, dict[str, str]] = {}
        if tests is not None:
            for _, t in tests.iterrows():
                if t["test_id"]:
                    self.tests.setdefault(t["source_id"], {})[t["test_id"]] = self._test_label(t)
        vocab = cfg.VOCABULARY if vocabulary is None else vocabulary
        self.config = {r["value"]: r["label"] for r in vocab.get("configuration", []) if r["value"]}

    @staticmethod
    def _test_label(t) -> str:
        """``Login + steady state (monday, knowledge)``: the phase's label with the run's variant and
        worker class (its configuration is named apart, by its own label)."""
        from .. import config as cfg

        extra = [
            t.get("variant", "").replace("_", "-"),
            t.get("worker_class", "").replace("_", " ") if t.get("worker_class", "") not in ("", "mixed") else "",
        ]
        extra = [e for e in extra if e]
        label = cfg.PHASE_LABELS.get(t["phase"], t["phase"])
        return f"{label} ({', '.join(extra)})" if extra else label

    def word(self, token: str, source_id: str) -> str:
        """The readable form of one id token (an unknown one with its underscores as spaces)."""
        if token in self.tests.get(source_id, {}):
            return self.tests[source_id][token]
        if token in self.config:
            return self.config[token]
        return self.metric.get(token, token.replace("_", " "))  # an unknown id: spelled out, never guessed

    def __call__(self, text: str, source_id: str) -> str:
        text = re.sub(
            r"\bof test ([a-z0-9_]+)",
            lambda m: (
                f"of the {self.word(m.group(1), source_id)} test"
                if m.group(1) in self.tests.get(source_id, {})
                else m.group(0)
            ),
            text,
        )
        return _ID.sub(lambda m: self.word(m.group(0), source_id), text)


def findings_by_document(findings: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """The automated checks' findings per document (each apart, the three Nutanix documents
    included; a document without findings listed with 0) and a Total row: Document,
    Inconsistencies, Notes, Checks that found something (their labels, with counts)."""
    labels = document_labels(sources_df)
    rows = []
    groups = [(labels.get(s, s), findings[findings["source_id"] == s]) for s in sources_df["source_id"]]
    for doc, g in groups + [("Total", findings)]:
        fired = [r for r in RULES if r in set(g["rule"])]
        rows.append(
            {
                "Document": doc,
                "Inconsistencies": int((g["severity"] == "inconsistent").sum()),
                "Notes": int((g["severity"] == "note").sum()),
                "Checks that found something": "; ".join(
                    f"{rule_labels().get(r, r)} ({int((g['rule'] == r).sum())})" for r in fired
                )
                or "none",
            }
        )
    return pd.DataFrame(rows, columns=["Document", "Inconsistencies", "Notes", "Checks that found something"])


def findings_by_rule(findings: pd.DataFrame, sources_df: pd.DataFrame, words: PlainWords) -> pd.DataFrame:
    """One row per check that found something, in run order: Check (label), What it compares
    (the registry's description), Findings (per document: ``Nutanix RA-2022: 2 (+1 note)``), An
    example (the first inconsistency, else note, in plain words: ``PlainWords``)."""
    labels = document_labels(sources_df)
    desc = {r.name: r.description for r in RULES.values()}
    rows = []
    for name in [r for r in RULES if r in set(findings["rule"])]:
        g = findings[findings["rule"] == name]
        per = []
        for sid in [s for s in sources_df["source_id"] if s in set(g["source_id"])]:
            h = g[g["source_id"] == sid]
            n, m = int((h["severity"] == "inconsistent").sum()), int((h["severity"] == "note").sum())
            per.append(f"{labels.get(sid, sid)}: {n}" + (f" (+{m} note{'s' if m > 1 else ''})" if m else ""))
        ex = g.assign(_s=(g["severity"] != "inconsistent").astype(int)).sort_values(["_s", "finding_id"]).iloc[0]
        rows.append(
            {
                "Check": rule_labels().get(name, name),
                "What it compares": desc.get(name, ""),
                "Findings per document": "; ".join(per),
                "An example (as printed, with locator)": f"{labels.get(ex['source_id'], ex['source_id'])}: "
                + words(ex["message"], ex["source_id"]),
            }
        )
    return pd.DataFrame(
        rows, columns=["Check", "What it compares", "Findings per document", "An example (as printed, with locator)"]
    )


def plain_findings_table(
    findings: pd.DataFrame, sources_df: pd.DataFrame, words: PlainWords, severity: str = "inconsistent"
) -> pd.DataFrame:
    """``findings_table`` with each document named apart and the findings in plain words
    (``PlainWords``): the full list, for the appendix. Columns: Document and check, Finding,
    Recomputed (derived), Records (register entry)."""
    t = findings_table(findings, sources_df, severity)
    f = findings[findings["severity"] == severity]
    labels = document_labels(sources_df)
    t["Document and check"] = (
        f["source_id"].map(labels).fillna(f["source_id"]) + ": " + f["rule"].map(rule_labels()).fillna(f["rule"])
    ).values
    t["Finding (stated values as printed, with locator)"] = [words(m, s) for m, s in zip(f["message"], f["source_id"])]
    return t


EFFECT_KEYS = [
    "source_id",
    "test_id",
    "phase",
    "metric",
    "statistic",
    "vantage",
    "configuration",
    "variant",
    "worker_class",
    "condition",
]  # one quantity of one test run: what a register entry's records state


def _shown(v: float, unit: str) -> str:
    from . import formatting as fmt

    return f"{fmt.num(v)} {'' if unit in ('count', 'ratio') else unit}".strip()


def _change(new: float, old: float) -> str:
    """new ÷ old − 1 as a signed percent (one decimal where whole percent would print 0 or ±100)."""
    x = 100 * (new / old - 1)
    return f"{x:+.1f} %" if abs(round(x)) in (0, 100) and x not in (0, -100) else f"{x:+.0f} %"


def register_effects(
    register: pd.DataFrame, results: pd.DataFrame, sources_df: pd.DataFrame, words: PlainWords
) -> pd.DataFrame:
    """The register entries that change a number this report uses, one row per entry and
    quantity (``EFFECT_KEYS``: one metric and statistic of one test run at one vantage): Entry
    (id and document), Number (the quantity in plain words), Set aside (the values the entry's
    ``rejected_records`` state, as printed; space-joined when they differ), Used instead (the
    values of the same quantity still used, results.csv ``used_in_analysis``; "nothing: left
    out" when none), Change (used ÷ set aside − 1, signed percent, first value of each; derived),
    Records (set aside). A quantity whose set-aside statements repeat the value used changes no
    number and has no row. Entries in register order."""
    from .. import config as cfg

    labels = document_labels(sources_df)
    vantage = {
        r["value"]: r["label"] if r["label"][1:2].isupper() else r["label"][:1].lower() + r["label"][1:]
        for r in cfg.VOCABULARY.get("vantage", [])
    }
    narrow = results[list(dict.fromkeys([*EFFECT_KEYS, "record_id", "value", "unit", "used_in_analysis"]))]
    res = narrow.set_index("record_id", drop=False)
    used = narrow[narrow["used_in_analysis"]]
    # the used records of each quantity, looked up instead of filtered per entry (the table: 2.4 s -> 0.9 s)
    used_by_key = dict(iter(used.groupby(EFFECT_KEYS, sort=False)))
    rows = []
    for _, e in register[register["rejected_records"] != ""].iterrows():
        ids = [i for i in e["rejected_records"].split() if i in res.index]
        if not ids:
            continue
        rej = res.loc[ids]
        for key, g in rej.groupby(EFFECT_KEYS, sort=False):
            k = dict(zip(EFFECT_KEYS, key))
            same = used_by_key.get(key, used.iloc[:0])
            what = " ".join(
                x
                for x in (
                    k["statistic"] if k["statistic"] not in ("single", "") else "",
                    words(k["metric"], k["source_id"]),
                    f"of the {words(k['test_id'], k['source_id'])} test" if k["test_id"] else "",
                    f"({words(k['configuration'], k['source_id'])})" if k["configuration"] else "",
                    f"at the {vantage.get(k['vantage'], k['vantage'])}" if k["vantage"] else "",
                )
                if x
            )
            aside = list(dict.fromkeys(_shown(v, u) for v, u in zip(g["value"], g["unit"])))
            instead = list(dict.fromkeys(_shown(v, u) for v, u in zip(same["value"], same["unit"])))
            if len(same) and set(same["value"]) == set(g["value"]):
                continue  # the same value stated again: setting it aside changes no number
            change = ""
            if len(same) and float(g["value"].iloc[0]):
                change = _change(float(same["value"].iloc[0]), float(g["value"].iloc[0]))
            rows.append(
                {
                    "Entry": f"{e['id']} ({labels.get(e['source_id'], e['source_id'])})",
                    "Number": what,
                    "Set aside": "; ".join(aside),
                    "Used instead": "; ".join(instead) if instead else "nothing: left out",
                    "Change (derived)": change or "–",
                    "Records set aside": " ".join(sorted(g["record_id"])),
                }
            )
    out = pd.DataFrame(
        rows, columns=["Entry", "Number", "Set aside", "Used instead", "Change (derived)", "Records set aside"]
    )
    out["Number"] = out["Number"].map(lambda x: x[:1].upper() + x[1:])
    return out


def choice_entries(register: pd.DataFrame, declared, ranking: pd.DataFrame) -> pd.DataFrame:
    """Register entries that set no record aside but that an analysis choice applies (cited in its
    reason in data/raw/analysis_choices.csv, e.g. D-ACCS-17 for ``total_source``): Entry, Choice (label),
    Default option, Largest move of the planning figures if the choice is flipped (from
    ``ranking``, the sensitivity stage's ``sensitivity_ranking.csv``: signed percent, the row).
    Entries in register order."""
    rank = ranking.set_index("choice_id")
    rows = []
    for eid in register.loc[register["rejected_records"] == "", "id"]:
        for cid in declared.ids:
            if re.search(rf"\b{re.escape(eid)}\b", declared.reason[cid]):
                r = rank.loc[cid] if cid in rank.index else None
                move = (
                    "none"
                    if r is None or not r["max_abs_change"]
                    else f"{100 * r['max_abs_change']:.0f} % ({r['row'].replace('_', ' ')}, option {r['option']})"
                )
                rows.append(
                    {
                        "Entry": eid,
                        "Choice that applies it": declared.label[cid],
                        "Default": declared.default[cid],
                        "Largest move if flipped": move,
                    }
                )
    return pd.DataFrame(rows, columns=["Entry", "Choice that applies it", "Default", "Largest move if flipped"])


def claims_by_document(claims: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """Headline claims per document (each apart) and verdict (``VERDICT_ORDER``), with Total."""
    labels = document_labels(sources_df)
    rows = []
    for sid in [s for s in sources_df["source_id"] if s in set(claims["source_id"])] + ["Total"]:
        g = claims if sid == "Total" else claims[claims["source_id"] == sid]
        row = {"Document": labels.get(sid, sid)}
        for v in VERDICT_ORDER:
            row[v[:1].upper() + v[1:]] = int((g["verdict"] == v).sum())
        row["Total"] = len(g)
        rows.append(row)
    return pd.DataFrame(rows)


def claims_verdicts(claims: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """Every headline claim with its verdict, by document and verdict (``VERDICT_ORDER``):
    Document, Claim (as the document states it, with locator and line), Verdict. The evidence
    for and against stays in the appendix (``claims_table``)."""
    labels = document_labels(sources_df)
    order = {s: i for i, s in enumerate(sources_df["source_id"])}
    c = claims.assign(_d=claims["source_id"].map(order), _v=claims["verdict"].map(VERDICT_ORDER.index))
    c = c.sort_values(["_d", "_v", "claim_id"], kind="stable")
    return pd.DataFrame(
        {
            "Document": c["source_id"].map(labels).fillna(c["source_id"]).values,
            "Claim": (c["claim"] + " (" + c["locator"] + ", line " + c["line"].astype(str) + ")").values,
            "Verdict": c["verdict"].values,
        }
    )


def facts_read(facts: pd.DataFrame, sources_df: pd.DataFrame, checklist: pd.DataFrame | None = None) -> pd.DataFrame:
    """What the rules that read data/raw/facts.csv read: per document (each apart), the number of
    facts and, per kind (facts.csv ``kind``), how many, with the kind's checklist status from
    ``checklist`` (fact_checklist.csv: ``complete``, ``partial``, ``not stated``) where it has one.
    Columns: Document, Facts, Kinds (facts; checklist status), Checklist (counts of each status).
    Documents without facts are listed with 0. One short line per kind, not per fact name: a
    per-fact listing ran to pages for the documents with hundreds of captions."""
    labels = document_labels(sources_df)
    status = {}
    if checklist is not None and len(checklist):
        status = {(r.source_id, r.kind): str(r.status).replace("_", " ") for r in checklist.itertuples()}
    rows = []
    for sid in sources_df["source_id"]:
        g = facts[facts["source_id"] == sid]
        kinds = g["kind"].value_counts().sort_index()
        listed = [
            f"{k.replace('_', ' ')} {n}" + (f" ({status[(sid, k)]})" if (sid, k) in status else "")
            for k, n in kinds.items()
        ]
        missing = sorted(k for (s, k), v in status.items() if s == sid and k not in kinds.index)
        listed += [f"{k.replace('_', ' ')} 0 ({status[(sid, k)]})" for k in missing]
        counts = pd.Series([v for (s, _), v in status.items() if s == sid]).value_counts()
        rows.append(
            {
                "Document": labels.get(sid, sid),
                "Facts": len(g),
                "Kinds (facts; checklist status)": "; ".join(listed) or "none",
                "Checklist": ", ".join(f"{n} {v}" for v, n in counts.sort_index().items()) or "no checklist",
            }
        )
    return pd.DataFrame(rows, columns=["Document", "Facts", "Kinds (facts; checklist status)", "Checklist"])


def fact_rules() -> list[str]:
    """Labels of the registered rules that read data/raw/facts.csv (``inputs == "facts"``)."""
    return [r.label for r in RULES.values() if r.inputs == "facts"]
