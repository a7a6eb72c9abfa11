"""The README's generated blocks, each between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``:
``parameters`` (the report parameters, ``stages.parameters_markdown``) and ``catalogue`` (the
data contract, ``catalogue.contract_markdown``). ``python -m vdi_report.readme`` (``make
readme``) rewrites them in place (atomically, only when they change); ``--check`` lists the stale
ones (exit 1). The tests compare each block with its generator.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from . import config

README = config.PROJ_ROOT / "README.md"


def _parameters() -> str:
    from . import stages

    return stages.parameters_markdown()


def _catalogue() -> str:
    from . import catalogue

    return catalogue.contract_markdown() + "\n"


BLOCKS: dict[str, Callable[[], str]] = {"parameters": _parameters, "catalogue": _catalogue}


def block(text: str, name: str) -> str:
    """The text between ``<!-- name:begin -->\\n`` and ``<!-- name:end -->`` of ``text``; raises
    ValueError naming the markers when they are missing."""
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    if begin not in text or end not in text.split(begin, 1)[1]:
        raise ValueError(f"README.md lacks the markers {begin.strip()} ... {end}")
    return text.split(begin, 1)[1].split(end, 1)[0]


def rendered(text: str) -> str:
    """``text`` (the README) with every block of ``BLOCKS`` replaced by its generator's output."""
    for name, make in BLOCKS.items():
        old = block(text, name)
        begin = f"<!-- {name}:begin -->\n"
        head, tail = text.split(begin + old, 1)
        text = head + begin + make() + tail
    return text


def stale(text: str) -> list[str]:
    """The names of the blocks of ``text`` that differ from their generator's output."""
    return [name for name, make in BLOCKS.items() if block(text, name) != make()]


def main(argv: list[str]) -> int:
    """``python -m vdi_report.readme [--check]``: rewrite the README's generated blocks, or list
    the stale ones (exit 1)."""
    text = README.read_text(encoding="utf-8")
    if argv[:1] == ["--check"]:
        bad = stale(text)
        for name in bad:
            print(f"README.md block {name!r} is stale: run make readme", file=sys.stderr)
        return 1 if bad else 0
    from .files import write_bytes

    write_bytes(rendered(text).encode("utf-8"), README)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
