"""``data/processed/datapackage.json``: the processed tables as a Frictionless Data Package.

Generated from the catalogue (``catalogue.TABLES``: files, columns, types, keys) and
``catalogue_columns.csv`` (each column's unit and meaning), never written by hand: one resource
per CSV file (a per-source table gives one resource per source present in data/processed), its
Table Schema with each field's type (``string``, ``number``, ``integer``, ``boolean``), its
``description`` (the meaning) and ``unit`` (a property of this project: the catalogue's unit,
``{column}`` when another column of the row names it), the primary key (the catalogue's ``key``)
and empty cells as missing values. JSON documents are file resources. Readers' tools
(``frictionless validate data/processed/datapackage.json``, pandas, R's frictionless) read the
tables with their types from it. ``python -m vdi_report.datapackage [OUT]`` writes it
(default data/processed/datapackage.json), atomically and deterministically.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from . import __version__, catalogue, config

TYPES = {str: "string", float: "number", int: "integer", bool: "boolean"}
LICENSES = [
    {
        "name": "CC-BY-4.0",
        "path": "https://creativecommons.org/licenses/by/4.0/",
        "title": "Creative Commons Attribution 4.0 (the digitized data; the vendors' quoted words remain theirs)",
    }
]


def _resource_name(rel: str) -> str:
    """A Data Package resource name (lower case, digits, ``-``, ``_``, ``.``) from a file path."""
    return re.sub(r"[^a-z0-9._-]+", "-", rel.removesuffix(".csv").removesuffix(".json").lower()).strip("-")


def schema(name: str) -> dict:
    """The Table Schema of catalogue table ``name``: fields in file order with type, description,
    unit and (a required text column) a required constraint; ``primaryKey``; missing values ``""``."""
    t = catalogue.table(name)
    docs = catalogue.column_docs()
    fields = []
    for c in t.columns:
        doc = catalogue.column_doc(name, c.name, docs)
        f = {"name": c.name, "type": TYPES[c.dtype], "description": doc.meaning}
        if c.dtype is float:
            f["bareNumber"] = True
        if doc.unit:
            f["unit"] = doc.unit
        constraints = {}
        if c.required and c.dtype is str:
            constraints["required"] = True
        if c.isin and c.dtype is str:
            constraints["enum"] = [str(v) for v in c.isin]
        if constraints:
            f["constraints"] = constraints
        fields.append(f)
    out = {"fields": fields, "missingValues": [""]}
    if t.key:
        out["primaryKey"] = list(t.key)
    return out


def descriptor(processed: Path | None = None) -> dict:
    """The Data Package descriptor of ``processed`` (default data/processed): one resource per
    table file present, in catalogue order (per-source files sorted)."""
    processed = Path(processed or config.PROCESSED_DIR)
    resources = []
    for name, t in catalogue.TABLES.items():
        pattern = re.sub(r"\{[^}]+\}", "*", t.path)
        for f in sorted(processed.glob(pattern)):
            rel = f.relative_to(processed).as_posix()
            res = {"name": _resource_name(rel), "path": rel, "title": f"{name}: {t.row}"}
            if t.format == "json":
                res.update({"type": "json", "format": "json", "mediatype": "application/json"})
            else:
                res.update(
                    {
                        "type": "table",
                        "format": "csv",
                        "mediatype": "text/csv",
                        "encoding": "utf-8",
                        "schema": schema(name),
                    }
                )
            resources.append(res)
    return {
        "name": "vdi-report-processed",
        "title": "VDI storage reference architectures: processed tables (vdi-report)",
        "description": (
            "Every number the vendor documents report, normalized, with the model, audit, density and "
            "cost tables built from them (data/raw holds the digitized records with their provenance)."
        ),
        "version": __version__,
        "licenses": LICENSES,
        "resources": resources,
    }


def write(out: Path | None = None) -> Path:
    """Write the descriptor of data/processed to ``out`` (default data/processed/datapackage.json)."""
    from . import files

    out = Path(out or config.PROCESSED_DIR / "datapackage.json")
    return files.write_json(descriptor(out.parent), out)


def main(argv: list[str]) -> int:
    """``python -m vdi_report.datapackage [OUT]``: write the descriptor."""
    out = write(Path(argv[0]) if argv else None)
    print(f"wrote {out.relative_to(config.PROJ_ROOT) if out.is_relative_to(config.PROJ_ROOT) else out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    from .files import end_process

    end_process(main(sys.argv[1:]))
