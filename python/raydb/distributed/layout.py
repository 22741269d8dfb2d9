"""ShardLayout: what shards.json says about a sharded database (which table is split,
how, and where each shard's directory is)."""
import json
import os
from dataclasses import dataclass, field

from raydb import _core

LAYOUT_FILE = "shards.json"
FORMAT_VERSION = 1


@dataclass
class ShardLayout:
    fact: str                     # the split table; every other table is replicated
    by: str                       # "rows", or the fact column whose equal values share a shard
    shards: list                  # shard directories (relative to the layout's directory, or absolute)
    fact_rows: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    root: str = ""                # the directory holding shards.json ("" when built from a list)

    def shard_paths(self):
        return [p if os.path.isabs(p) else os.path.join(self.root, p) for p in self.shards]

    @property
    def key(self):
        """The sharding key column, or None for row ranges."""
        return None if self.by == "rows" else self.by

    def write(self, directory):
        body = {"format_version": FORMAT_VERSION, "fact": self.fact, "by": self.by, "shards": self.shards,
                "fact_rows": self.fact_rows, "tables": self.tables}
        tmp = os.path.join(directory, LAYOUT_FILE + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(body, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.rename(tmp, os.path.join(directory, LAYOUT_FILE))

    @staticmethod
    def read(directory):
        path = os.path.join(directory, LAYOUT_FILE)
        try:
            with open(path, encoding="utf-8") as f:
                body = json.load(f)
        except FileNotFoundError:
            raise _core.IOException(f"{directory} is not a sharded raydb database (no {LAYOUT_FILE})") from None
        except (OSError, ValueError) as e:
            raise _core.IOException(f"cannot read {path}: {str(e).splitlines()[0]}") from None
        if body.get("format_version") != FORMAT_VERSION or not body.get("shards") or not body.get("fact"):
            raise _core.IOException(f"{path}: unknown format (expected format_version {FORMAT_VERSION}, "
                                    "fact and shards)")
        return ShardLayout(fact=body["fact"], by=body.get("by", "rows"), shards=list(body["shards"]),
                           fact_rows=list(body.get("fact_rows", [])), tables=list(body.get("tables", [])),
                           root=os.path.abspath(directory))

    @staticmethod
    def from_paths(paths, fact, by="rows"):
        """A layout for shard directories given by hand (fact table split by `by`)."""
        if not paths:
            raise _core.InvalidInputException("no shard directories given")
        return ShardLayout(fact=fact, by=by, shards=[os.path.abspath(os.fspath(p)) for p in paths])
