"""The full-screen table of ``unokit play`` (and ``unokit join``), in Textual."""
