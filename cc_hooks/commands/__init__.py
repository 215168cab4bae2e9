"""One module per CLI verb; the module name is the verb (``_`` becomes ``-``)."""
