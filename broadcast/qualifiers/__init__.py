"""The online qualifiers (网络海选): platform records re-checked by the engine on Dask, the qualifier board.

``records`` reads the sources (GJN files, folders, zip/tar archives, JSON lines) one record at a time;
``check`` is what a Dask worker runs on a batch; ``store`` keeps the board, the records seen and the
refusals in the project database; ``board`` ranks it; ``run`` drives an import on a Dask cluster.
See docs/qualifiers.md.
"""
