"""`raydb shell` as people use it: output modes and limits against SQLite's answers
(piped input), dot commands, the directory as the first argument, and on a terminal
(a pty): Ctrl-C cancelling a running statement and clearing the prompt's line, tab
completion, history saved as it is entered, and results fitted to the window."""
import csv
import io
import json
import os
import pty
import re
import select
import signal
import struct
import termios
import fcntl
import time
import unicodedata

import pytest

from conftest import RAYDB, raydb


def shell(data, script, *extra):
    return raydb("shell", data["db"], *extra, stdin=script)


def width(line):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def oracle_rows(data, sql):
    return data["oracle"].execute(sql).fetchall()


# ---- output modes, against SQLite ----

def test_csv_and_tsv_modes_match_sqlite(data):
    expected = oracle_rows(data, "select id, name, temperature, reading from cities order by id")
    for mode, delim in (("csv", ","), ("tsv", "\t")):
        p = shell(data, f".mode {mode}\nselect * from cities order by id;\n")
        assert p.returncode == 0, p.stderr
        got = list(csv.reader(io.StringIO(p.stdout, newline=""), delimiter=delim))
        assert got[0] == ["id", "name", "temperature", "reading"]
        assert len(got) == len(expected) + 1
        for row, exp in zip(got[1:], expected):
            assert int(row[0]) == exp[0] and row[1] == exp[1] and int(row[2]) == exp[2]
            assert (row[3] == "") if exp[3] is None else float(row[3]) == exp[3]
    p = shell(data, ".mode csv\n.headers off\nselect id from cities order by id limit 2;\n")
    assert p.stdout == "0\n1\n"


def test_json_and_jsonl_modes_match_sqlite(data):
    expected = [dict(zip(("id", "name", "temperature", "reading"), r))
                for r in oracle_rows(data, "select * from cities order by id")]
    p = shell(data, ".mode json\nselect * from cities order by id;\n")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == expected
    p = shell(data, ".mode jsonl\nselect * from cities order by id;\n")
    lines = p.stdout.splitlines()
    assert [json.loads(line) for line in lines] == expected


def test_markdown_mode(data):
    p = shell(data, ".mode markdown\nselect id, name from cities where id in (2, 3, 4) order by id;\n")
    assert p.returncode == 0, p.stderr
    names = dict(oracle_rows(data, "select id, name from cities where id in (2, 3, 4)"))
    assert p.stdout.splitlines() == [
        "| id | name |", "|---:|---|",
        *(f"| {i} | {names[i].replace('|', chr(92) + '|').replace(chr(10), chr(92) + 'n')} |" for i in (2, 3, 4))]


def test_bad_mode_is_one_line_and_the_session_goes_on(data):
    p = shell(data, ".mode xml\nselect 5 as five;\n")
    assert p.returncode == 1
    assert p.stderr.strip().splitlines() == [
        "error: unknown mode 'xml' (expected table, csv, tsv, json, jsonl or markdown)"]
    assert "| five |" in p.stdout


# ---- table mode: shortening, elision, display width, escapes ----

def test_long_results_show_first_and_last_rows(data):
    p = shell(data, ".maxrows 6\nselect id from cities order by id;\n")
    assert p.returncode == 0, p.stderr
    ids = [int(m) for m in re.findall(r"^\|\s+(\d+) \|$", p.stdout, re.M)]
    assert ids == [0, 1, 2, 97, 98, 99]
    assert "| · |" in p.stdout.replace("  ", " ")
    assert p.stdout.rstrip().endswith("100 rows, 6 shown")
    full = shell(data, "select id from cities order by id;\n")  # piped: no limit unless set
    assert full.stdout.rstrip().endswith("100 rows")


def test_wide_results_elide_middle_columns_to_fit(data):
    p = shell(data, ".maxwidth 50\nselect * from wide_table order by c00;\n")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert all(width(line) <= 50 for line in lines), p.stdout
    header = lines[1]
    assert "c00" in header and "c29" in header and "…" in header and "c15" not in header
    shown = re.search(r"3 rows; 30 columns, (\d+) shown", p.stdout)
    assert shown and 2 <= int(shown.group(1)) < 30
    # The values of the shown columns are SQLite's.
    first = oracle_rows(data, "select c00, c29 from wide_table order by c00")[0]
    assert re.search(rf"\|\s+{first[0]} \|.*\|\s+{first[1]} \|", lines[3])


def test_display_width_padding_and_escaped_newlines(data):
    p = shell(data, "select id, name from cities order by id limit 7;\n")
    assert p.returncode == 0, p.stderr
    table = [line for line in p.stdout.splitlines() if line.startswith(("|", "+"))]
    assert len({width(line) for line in table}) == 1, p.stdout  # 東京 and Zürich line up
    assert "line\\nbreak" in p.stdout and "tab\\there" in p.stdout
    assert len(table) == 7 + 4  # no value spilled onto a line of its own


# ---- dot commands ----

def test_schema_without_argument_lists_every_table(data):
    p = shell(data, ".schema\n")
    assert p.returncode == 0, p.stderr
    assert "CREATE TABLE cities (" in p.stdout and "CREATE TABLE wide_table (" in p.stdout
    assert "  temperature INTEGER," in p.stdout


def test_read_output_timer_and_headers(data, tmp_path):
    script = tmp_path / "s.sql"
    script.write_text(".mode csv\nselect count(*) as n\n  from cities;\nselect max(temperature) as t from cities;\n")
    out = tmp_path / "out.txt"
    p = shell(data, f".output {out}\n.read {script}\n.output\n.timer on\nselect 1 as one;\n")
    assert p.returncode == 0, p.stderr
    n, t = oracle_rows(data, "select count(*), max(temperature) from cities")[0]
    assert out.read_text() == f"n\n{n}\nt\n{t}\n"
    assert p.stdout.startswith("one\n1\n") and re.search(r"^time: [\d.]+ ms$", p.stdout, re.M)
    bad = shell(data, f".read {tmp_path / 'missing.sql'}\n")
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "missing.sql" in bad.stderr


def test_unknown_table_suggests_the_closest_name(data):
    p = shell(data, "select * from citis;\nselect * from wide_tabel;\nselect * from zzzz;\n")
    assert p.returncode == 1
    lines = p.stderr.strip().splitlines()
    assert lines[0] == "error: unknown table 'citis' (did you mean 'cities'?)"
    assert lines[1] == "error: unknown table 'wide_tabel' (did you mean 'wide_table'?)"
    assert lines[2] == "error: unknown table 'zzzz'"


# ---- the directory as the first argument ----

def test_directory_as_first_argument(data):
    p = raydb("query", data["db"], "select count(*) as n from cities", "--format", "csv")
    assert p.returncode == 0, p.stderr
    assert p.stdout == f"n\n{oracle_rows(data, 'select count(*) from cities')[0][0]}\n"
    for args, words in ((["query", data["db"]], "give the database and the SQL"),
                        (["query", data["db"], "select 1", "select 2"], "too many arguments"),
                        (["shell", data["db"], "--db", data["db"]], "not both")):
        bad = raydb(*args, stdin="")
        assert bad.returncode != 0 and words in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr


# ---- on a terminal ----

class Terminal:
    """raydb shell on a pty of `cols` columns, with HOME at `home`."""

    def __init__(self, db, home, cols=200):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "TERM": "dumb",
               "INPUTRC": "/dev/null"}
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if k in os.environ:
                env[k] = os.environ[k]
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
            os.execve(RAYDB, [RAYDB, "shell", db, "--backend", "cpu", "--threads", "2"], env)
        self.out = ""
        self.pos = 0  # output before this was matched already

    def send(self, text):
        os.write(self.fd, text.encode())

    def read_until(self, pattern, timeout=60, interrupt_every=None):
        """Output until `pattern` matches after the last match (then returns it); with
        interrupt_every, sends Ctrl-C at that interval meanwhile."""
        end = time.monotonic() + timeout
        next_interrupt = time.monotonic() + (interrupt_every or 0)
        while True:
            m = re.compile(pattern).search(self.out, self.pos)
            if m:
                self.pos = m.end()
                return m
            now = time.monotonic()
            if now > end:
                raise AssertionError(f"no {pattern!r} in {timeout}s; output:\n{self.out}")
            if interrupt_every and now >= next_interrupt:
                self.send("\x03")
                next_interrupt = now + interrupt_every
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    chunk = os.read(self.fd, 65536).decode("utf-8", "replace")
                except OSError:
                    raise AssertionError(f"the shell ended; output:\n{self.out}")
                self.out += re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", chunk).replace("\r", "")

    def close(self):
        self.send(".quit\n")
        for _ in range(100):
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            try:
                os.read(self.fd, 65536)
            except OSError:
                pass
            time.sleep(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        raise AssertionError("the shell did not quit")


@pytest.fixture(scope="module")
def big(data):
    """A table of 10^6 rows and one of 400: their cross join is 4 x 10^8 pairs (tens of seconds)."""
    p = raydb("query", data["db"], "create table big as select a.id * 10000 + b.id * 100 + c.id as x "
              "from cities a, cities b, cities c")
    assert p.returncode == 0, p.stderr
    p = raydb("query", data["db"], "create table small as select a.id * 100 + b.id as y from cities a, cities b "
              "where b.id < 4")
    assert p.returncode == 0, p.stderr
    return data


def test_ctrl_c_cancels_the_running_statement_and_keeps_the_session(big, tmp_path):
    t = Terminal(big["db"], tmp_path)
    try:
        t.read_until(r"raydb> ")
        t.send("select count(*) from big, small where big.x + small.y < 0;\n")
        time.sleep(0.3)
        t.read_until(r"error: query cancelled", timeout=120, interrupt_every=0.5)
        t.send("select 6 * 7 as answer;\n")
        t.read_until(r"\|\s+42 \|")
    finally:
        assert t.close() == 0


def test_ctrl_c_at_the_prompt_clears_the_line(data, tmp_path):
    t = Terminal(data["db"], tmp_path)
    try:
        t.read_until(r"raydb> ")
        t.send("select 12 +")
        t.read_until(r"select 12 \+")
        t.send("\x03")
        t.read_until(r"\^C")
        t.send("select\n")  # a statement begun on an earlier line is dropped too
        t.read_until(r"\.\.\.> ")
        t.send("\x03")
        t.read_until(r"\^C\n?raydb> ")
        t.send("select 34 as n;\n")
        t.read_until(r"1 row")
        assert "error" not in t.out and re.search(r"\|\s+34 \|", t.out)
        # History is written as it is entered, before the session ends.
        history = (tmp_path / ".raydb_history").read_text()
        assert "select 34 as n;" in history and "select 12" not in history
    finally:
        assert t.close() == 0


def test_tab_completes_keywords_tables_and_columns(data, tmp_path):
    t = Terminal(data["db"], tmp_path)
    try:
        t.read_until(r"raydb> ")
        t.send("sel\t")
        t.read_until(r"select ")
        t.send("tempe\t")
        t.read_until(r"temperature ")
        t.send("from cit\t")
        t.read_until(r"cities ")
        t.send("order by 1 limit 3;\n")
        t.read_until(r"3 rows")
        lo = oracle_rows(data, "select temperature from cities order by 1 limit 1")[0][0]
        assert re.search(rf"\|\s+{lo} \|", t.out), t.out
    finally:
        assert t.close() == 0


def test_a_terminal_gets_results_fitted_to_its_window(data, tmp_path):
    t = Terminal(data["db"], tmp_path, cols=60)
    try:
        t.read_until(r"raydb> ")
        t.send("select * from wide_table;\n")
        t.read_until(r"3 rows; 30 columns, \d+ shown")
        t.send("select id from cities;\n")
        t.read_until(r"100 rows, 40 shown")
        table = [line for line in t.out.splitlines() if line.startswith(("|", "+"))]
        assert table and all(width(line) <= 60 for line in table)
    finally:
        assert t.close() == 0
