"""One module per report chapter, discovered: each module here with ``ORDER`` (position in the
report) and ``render(ctx)`` (reads data only through ``ctx``) is a chapter. Adding a chapter is
adding one module with those two names. A chapter that uses only some of the report parameters
states them as ``PARAMETERS`` (``report.chapter_cache``): its outputs are then kept between runs
and replayed while those parameters and the report's other inputs stay the same. A chapter with
pages of both kinds lists its ``PARTS`` in reading order, the kept ones marked
``chapter_cache.kept(...)`` (``parts``).

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


def parts(chapter) -> list[tuple[str, object, tuple[str, ...] | None]]:
    """The parts of ``chapter`` (a module of ``CHAPTERS``) in reading order, each as (its name in
    the chapter cache, its function of ``ctx``, the report parameters it states or None: drawn on
    every run): the functions of the chapter's ``PARTS`` (``chapter.part``, each with the
    ``PARAMETERS`` that ``chapter_cache.kept`` gave it), else the whole chapter (its ``render``
    and its ``PARAMETERS``)."""
    name = chapter.__name__.rsplit(".", 1)[1]
    if hasattr(chapter, "PARTS"):
        return [(f"{name}.{f.__name__}", f, getattr(f, "PARAMETERS", None)) for f in chapter.PARTS]
    return [(name, chapter.render, getattr(chapter, "PARAMETERS", None))]


def draw(chapter, ctx) -> list[dict]:
    """The outputs of ``chapter.render(ctx)`` (``chapter``: a chapter module, or one part's
    function), captured instead of shown: a list of ``{"data": {mime type: text}, "metadata":
    {...}}`` in display order (text a chapter prints comes first, as ``text/plain`` outputs)."""
    from IPython.utils.capture import capture_output

    with capture_output(stdout=True, stderr=True, display=True) as cap:
        getattr(chapter, "render", chapter)(ctx)
    streams = [{"data": {"text/plain": t}, "metadata": {}} for t in (cap.stdout, cap.stderr) if t]
    return streams + [{"data": dict(o.data), "metadata": dict(o.metadata or {})} for o in cap.outputs]


def render_all(ctx, cache_dir=None) -> None:
    """Render every chapter in order (``CHAPTERS``), part by part (``parts``).

    ``cache_dir`` (e.g. ``chapter_cache.CACHE_DIR``): a chapter or part that states its
    ``PARAMETERS`` is drawn once per key (``chapter_cache.key``) and its outputs replayed from
    there; None: every part is drawn. The report is the same either way.

    Every part is drawn first, its outputs captured (``draw``), while the charts not in the SVG
    cache are converted in a process of their own (``charts.converting_in_background``); then each part's
    outputs, its charts put in, are kept (a part that states its parameters) and shown in order."""
    from IPython.display import publish_display_data

    from .. import chapter_cache, charts

    digest = None
    drawn = []  # (name, key or None, outputs, replayed), in report order
    with charts.converting_in_background() as pending:
        for name, part, stated in (p for chapter in CHAPTERS for p in parts(chapter)):
            k, outputs = None, None
            if cache_dir is not None and stated is not None:
                digest = digest or chapter_cache.inputs_digest()
                k = chapter_cache.key(name, stated, ctx.params, digest)
                outputs = chapter_cache.read(name, k, cache_dir)
            drawn.append((name, k, outputs if outputs is not None else draw(part, ctx), outputs is not None))
        for name, k, outputs, replayed in drawn:
            outputs = outputs if replayed else pending.resolve(outputs)
            if k is not None and not replayed:
                chapter_cache.write(name, k, outputs, cache_dir)
            for o in outputs:
                publish_display_data(o["data"], o["metadata"])
