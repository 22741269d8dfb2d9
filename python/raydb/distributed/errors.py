"""The distributed layer's own errors, under the engine's classes so `except raydb.Error`
catches them too."""
from raydb import _core


class NotDistributableError(_core.NotImplementedException):
    """A query the coordinator cannot split into per-shard queries and a merge."""


class WorkerError(_core.ConnectionException):
    """A shard worker died, could not start, or did not answer in time."""


def not_distributable(reason):
    return NotDistributableError(f"cannot run this query across shards: {reason}")
