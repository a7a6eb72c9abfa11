"""Publishing the executed report notebook: ``render`` (HTML, interactive and offline, and a
tagged PDF/UA laid out by WeasyPrint in one pass)."""
