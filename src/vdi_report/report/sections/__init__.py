"""One module per report chapter, discovered: each module here with ``ORDER`` (position in the
report) and ``render(ctx)`` (reads data only through ``ctx``) is a chapter. Adding a chapter is
adding one module with those two names.

``CHAPTERS``: the chapter modules in report order; ``SECTION_ORDER``: their names.
"""

import importlib
import pkgutil

CHAPTERS = sorted(
    (
        m
        for m in (importlib.import_module(f"{__name__}.{i.name}") for i in pkgutil.iter_modules(__path__))
        if hasattr(m, "ORDER") and hasattr(m, "render")
    ),
    key=lambda m: m.ORDER,
)
SECTION_ORDER = tuple(m.__name__.rsplit(".", 1)[1] for m in CHAPTERS)


def render_all(ctx) -> None:
    """Render every chapter in order (``CHAPTERS``)."""
    for chapter in CHAPTERS:
        chapter.render(ctx)
