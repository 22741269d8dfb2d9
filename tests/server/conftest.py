"""Fixtures for the `raydb serve` tests: a database made with the raydb CLI, the same
rows in SQLite (the oracle), and a server started on a free loopback port."""
import csv
import datetime
import decimal
import os
import random
import signal
import sqlite3
import subprocess

import pytest

RAYDB = os.environ.get("RAYDB_BINARY", "raydb")
USER, PASSWORD = "alice", "s3cret-pw"
SCHEMA = "id INT, region VARCHAR, qty BIGINT, price DECIMAL(10,2), day DATE"


def make_rows(n=2000, seed=11):
    rng = random.Random(seed)
    regions = ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST", "Zürich", "O'Hare"]
    start = datetime.date(1992, 1, 1)
    return [(i, rng.choice(regions), rng.randint(-5, 10**12), decimal.Decimal(rng.randint(-9999999, 9999999)) / 100,
             start + datetime.timedelta(days=rng.randint(0, 2555))) for i in range(n)]


def raydb_cli(*args, check=True):
    p = subprocess.run([RAYDB, *args], capture_output=True, text=True, timeout=120)
    if check and p.returncode != 0:
        raise AssertionError(f"raydb {' '.join(args)} failed: {p.stderr}")
    return p


class Server:
    """One `raydb serve` process; port and socket from its first output line."""

    def __init__(self, db, sockets, extra=()):
        self.proc = subprocess.Popen([RAYDB, "serve", "--db", db, "--port", "0", "--socket-dir", sockets, *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if "port" not in line:
            self.proc.kill()
            raise AssertionError(f"raydb serve did not start: {line} {self.proc.stderr.read()}")
        self.port = int(line.split(" port ")[1].split(",")[0].split()[0])
        self.sockets = sockets

    def dsn(self, password=PASSWORD, user=USER):
        return f"host=127.0.0.1 port={self.port} user={user} password={password} dbname=raydb"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        finally:
            self.proc.stdout.close()
            self.proc.stderr.close()


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The database (raydb), the oracle (SQLite) and the directories of one module."""
    root = tmp_path_factory.mktemp("serve")
    rows = make_rows()
    with open(root / "sales.csv", "w", newline="") as f:
        csv.writer(f).writerows(rows)
    db = str(root / "db")
    raydb_cli("load", "csv", "--db", db, "--table", "sales", "--schema", SCHEMA, str(root / "sales.csv"))
    oracle = sqlite3.connect(":memory:", check_same_thread=False)
    oracle.execute("create table sales (id integer, region text, qty integer, price text, day text)")
    oracle.executemany("insert into sales values (?,?,?,?,?)",
                       [(i, r, q, str(p), d.isoformat()) for i, r, q, p, d in rows])
    (root / "allowed").mkdir()
    (root / "sockets").mkdir()
    (root / "pw").write_text(f"# users of the test server\n{USER}:{PASSWORD}\n")
    return {"root": root, "db": db, "oracle": oracle, "rows": rows}


@pytest.fixture(scope="module")
def server(data):
    s = Server(data["db"], str(data["root"] / "sockets"),
               ["--password-file", str(data["root"] / "pw"), "--allow-dir", str(data["root"] / "allowed"),
                "--backend", "cpu"])
    yield s
    assert s.stop() == 0
