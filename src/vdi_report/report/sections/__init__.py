"""One module per report chapter, discovered: each module here with ``ORDER`` (position in the
report) and ``render(ctx)`` (reads data only through ``ctx``) is a chapter. Adding a chapter is
adding one module with those two names. A chapter that uses only some of the report parameters
states them as ``PARAMETERS`` (``report.chapter_cache``): its outputs are then kept between runs
and replayed while those parameters and the report's other inputs stay the same.

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


def draw(chapter, ctx) -> list[dict]:
    """The outputs of ``chapter.render(ctx)``, captured instead of shown: a list of
    ``{"data": {mime type: text}, "metadata": {...}}`` in display order (text a chapter prints
    comes first, as ``text/plain`` outputs)."""
    from IPython.utils.capture import capture_output

    with capture_output(stdout=True, stderr=True, display=True) as cap:
        chapter.render(ctx)
    streams = [{"data": {"text/plain": t}, "metadata": {}} for t in (cap.stdout, cap.stderr) if t]
    return streams + [{"data": dict(o.data), "metadata": dict(o.metadata or {})} for o in cap.outputs]


def render_all(ctx, cache_dir=None) -> None:
    """Render every chapter in order (``CHAPTERS``).

    ``cache_dir`` (e.g. ``chapter_cache.CACHE_DIR``): a chapter that states its ``PARAMETERS``
    is drawn once per key (``chapter_cache.key``) and its outputs replayed from there; None: every
    chapter is drawn. The report is the same either way."""
    from IPython.display import publish_display_data

    from .. import chapter_cache

    digest = None
    for chapter in CHAPTERS:
        stated = getattr(chapter, "PARAMETERS", None)
        if cache_dir is None or stated is None:
            chapter.render(ctx)
            continue
        name = chapter.__name__.rsplit(".", 1)[1]
        digest = digest or chapter_cache.inputs_digest()
        k = chapter_cache.key(name, stated, ctx.params, digest)
        outputs = chapter_cache.read(name, k, cache_dir)
        if outputs is None:
            outputs = draw(chapter, ctx)
            chapter_cache.write(name, k, outputs, cache_dir)
        for o in outputs:
            publish_display_data(o["data"], o["metadata"])
