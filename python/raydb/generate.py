"""generate_ssb(): the Star Schema Benchmark tables written by the engine, as `raydb gen ssb`."""
import os

from raydb import _core


def generate_ssb(database, sf=1.0, *, seed=19920101, threads=0, sort_by=""):
    """Writes lineorder, customer, supplier, part and date at scale factor `sf` into the
    database directory `database` (created when missing; SSB tables there are replaced).
    threads: 0 for all cores (the data does not depend on it); sort_by: "col[,col]" sorts
    the tables that have those columns. Returns the rows written over all five tables."""
    if int(threads) < 0:
        raise _core.InvalidInputException("threads must be >= 0 (0: all cores)")
    return _core.generate_ssb(os.fspath(database), float(sf), int(seed), int(threads), str(sort_by))
