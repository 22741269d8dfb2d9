"""Scale-out on Ray: a database split into shards, one raydb worker (a Ray actor) per
shard, and a coordinator that splits each query into per-shard queries and a merge.

    import raydb.distributed as rd
    rd.shard_database("ssb_db", "ssb_shards", 2, fact="lineorder", by="rows")
    con = rd.connect("ssb_shards", backend="cpu")       # backend="cuda": one GPU per worker
    con.sql("select d_year, sum(lo_revenue) from lineorder, date "
            "where lo_orderdate = d_datekey group by d_year order by d_year").fetchall()
"""
from raydb.distributed.coordinator import DistributedConnection, connect
from raydb.distributed.errors import NotDistributableError, WorkerError
from raydb.distributed.layout import ShardLayout
from raydb.distributed.sharding import shard_database

__all__ = ["connect", "shard_database", "DistributedConnection", "ShardLayout", "NotDistributableError",
           "WorkerError"]
