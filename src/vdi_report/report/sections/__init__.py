"""One module per report section; each has ``render(ctx)`` and reads data only through ``ctx``.

Order of the chapters: answers, evidence, method, models, audit, appendix.
"""

from . import answers, appendix, audit, evidence, method, models  # noqa: F401
