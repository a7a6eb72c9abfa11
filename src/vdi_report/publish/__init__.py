"""Publishing the executed report notebook: ``render`` (HTML, interactive and offline, and PDF)
and ``paged`` (the PDF laid out in cached pieces and joined)."""
