// Tables and plain views in SQL: CREATE TABLE [AS SELECT], DROP TABLE, INSERT, COPY, UPDATE, DELETE,
// CREATE VIEW. Every change goes through DatabaseDirectory: the new rows are built in
// memory (storage/ColumnBuilder, the loaders' CSV reader), then committed as a new
// table generation by one manifest rename, so a failure or a kill -9 at any moment
// leaves the database as before the statement or with the statement fully applied.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "api/database_impl.h"
#include "api/result_export.h"
#include "api/parquet/parquet_reader.h"
#include "api/parquet/parquet_writer.h"
#include "api/subquery_runner.h"
#include "common/timer.h"
#include "storage/loaders/csv_exporter.h"
#include "storage/loaders/csv_loader.h"
#include "storage/persist/file_io.h"
#include "storage/value_assign.h"

namespace raydb {

namespace {

// Views nest at most this deep; a view that (through others) names itself stops here.
constexpr int kMaxViewDepth = 32;

QueryResult status(const std::string& text, const Timer& timer) {
  QueryResult r = status_result(text);
  r.elapsed_ms = timer.elapsed_ms();
  return r;
}

// Appends result column `src` (of `r`) to `b`: same-typed columns without NULLs are
// copied as they are, anything else goes value by value through append_assigned.
void append_result_column(ColumnBuilder& b, const QueryResult& r, size_t src, std::string_view table) {
  const QueryResult::ColumnData& d = r.columns()[src];
  const size_t n = r.row_count();
  if (d.nulls.empty() && d.type == b.type()) {
    switch (d.type.id) {
      case TypeId::kBoolean:
      case TypeId::kInteger:
      case TypeId::kBigint:
      case TypeId::kDate:
      case TypeId::kTimestamp:
      case TypeId::kDecimal:
        if (d.ints.size() < n) break;
        for (size_t i = 0; i < n; i++) b.append_int(d.ints[i]);
        return;
      case TypeId::kDouble:
        if (d.doubles.size() < n) break;
        for (size_t i = 0; i < n; i++) b.append_double(d.doubles[i]);
        return;
      case TypeId::kVarchar:
        if (d.strings.size() < n) break;
        for (size_t i = 0; i < n; i++) b.append_string(d.strings[i]);
        return;
      default: break;
    }
  }
  for (size_t row = 0; row < n; row++) append_assigned(b, r.get(row, src), false, table);
}

// A table named `name` holding a query result (CREATE TABLE AS, a view's rows): the
// result's column names and storable types (storable_type_for), values as
// append_assigned stores them.
TablePtr result_table(const std::string& name, const QueryResult& r, const char* what) {
  std::vector<ColumnBuilder> builders;
  for (size_t c = 0; c < r.column_count(); c++) {
    const std::string& col = r.column_name(c);
    if (col.empty()) fail(ErrorKind::kBinder, "{} {}: column {} has no name (name it with AS)", what, name, c + 1);
    for (size_t o = 0; o < c; o++)
      if (iequals(r.column_name(o), col))
        fail(ErrorKind::kBinder, "{} {}: two columns are named {} (rename one with AS)", what, name, col);
    builders.emplace_back(col, storable_type_for(r.column_type(c), name + "." + col), true);  // nullable, as in PostgreSQL
    builders.back().reserve(r.row_count());
  }
  for (size_t c = 0; c < builders.size(); c++) append_result_column(builders[c], r, c, name);
  std::vector<ColumnPtr> cols;
  for (auto& b : builders) cols.push_back(b.finish());
  return std::make_shared<const Table>(name, std::move(cols));
}

// For each column of `table`, the position of its value in a source row (an INSERT's
// VALUES row or SELECT list) of `width` entries, or kNoSource for a column the
// statement does not name (it gets NULL; a NOT NULL one is an error, as there are no
// defaults).
constexpr size_t kNoSource = size_t(-1);

std::vector<size_t> insert_targets(const Table& table, const std::vector<std::string>& names, size_t width) {
  const size_t n = table.column_count();
  const size_t given = names.empty() ? n : names.size();
  if (width != given)
    fail(ErrorKind::kBinder, "INSERT into {} has {} expressions than target columns ({} values for {} columns)",
         table.name(), width > given ? "more" : "fewer", width, given);
  std::vector<size_t> source(n, size_t(-1));
  for (size_t i = 0; i < given; i++) {
    const int c = names.empty() ? int(i) : table.find_column(names[i]);
    if (c < 0) fail(ErrorKind::kBinder, "table {} has no column '{}'", table.name(), names[i]);
    if (source[size_t(c)] != size_t(-1))
      fail(ErrorKind::kBinder, "column {} is given twice in INSERT into {}", table.column(size_t(c)).name(),
           table.name());
    source[size_t(c)] = i;
  }
  for (size_t c = 0; c < n; c++)
    if (source[c] == kNoSource && !table.column(c).nullable())
      fail(ErrorKind::kBinder, "INSERT into {} gives no value for NOT NULL column {} (columns have no defaults)",
           table.name(), table.column(c).name());
  return source;
}

std::vector<ColumnBuilder> builders_for(const Table& table, size_t rows) {
  std::vector<ColumnBuilder> b;
  for (size_t c = 0; c < table.column_count(); c++) {
    b.emplace_back(table.column(c).name(), table.column(c).type(), table.column(c).nullable());
    b.back().reserve(rows);
  }
  return b;
}

TablePtr finish_rows(const Table& table, std::vector<ColumnBuilder>& builders) {
  std::vector<ColumnPtr> cols;
  for (auto& b : builders) cols.push_back(b.finish());
  return std::make_shared<const Table>(table.name(), std::move(cols));
}

// The table an INSERT or COPY FROM writes; views and unknown names are errors.
TablePtr target_table(const DatabaseDirectory& dir, const std::string& name, const char* statement) {
  if (TablePtr t = dir.table(name)) return t;
  for (const ViewEntry& v : dir.views())
    if (iequals(v.name, name)) fail(ErrorKind::kBinder, "cannot {} view {} (views are read-only)", statement, v.name);
  fail(ErrorKind::kBinder, "unknown table '{}'", name);
}

// Writes `text` into `path` atomically: a temporary file beside it, fsync, rename,
// fsync of the directory. A failure leaves `path` as it was.
void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  persist::write_file_durably(tmp, text.data(), text.size());
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    fail(ErrorKind::kIO, "cannot write {}: {}", path, std::strerror(e));
  }
  std::string parent = std::filesystem::path(path).parent_path().string();
  persist::fsync_directory(parent.empty() ? "." : parent);
}

}  // namespace

sql::ViewLookup Database::Impl::view_sql() const {
  return [d = dir](std::string_view name) -> std::optional<std::string> {
    for (const ViewEntry& v : d->views())
      if (iequals(v.name, name)) return v.sql;
    return std::nullopt;
  };
}

TablePtr Database::Impl::resolve(std::string_view name, QueryOptions& options) {
  if (TablePtr t = registered_table(name)) return t;
  if (TablePtr t = dir->table(name)) return t;
  for (const ViewEntry& v : dir->views())
    if (iequals(v.name, name)) return view_rows(v, options);
  return nullptr;
}

// A view's rows, computed now by running its SELECT (views are not materialized: each
// statement that names one runs it again, so it always shows the current tables).
TablePtr Database::Impl::view_rows(const ViewEntry& view, QueryOptions& options) {
  if (view_depth >= kMaxViewDepth)
    fail(ErrorKind::kBinder, "view {} nests views more than {} deep (does it refer to itself?)", view.name,
         kMaxViewDepth);
  struct Depth {
    int& d;
    explicit Depth(int& x) : d(x) { d++; }
    ~Depth() { d--; }
  } depth(view_depth);
  try {
    api::SubqueryRunner runner([this, &options](plan::LogicalQuery q) { return run_query(std::move(q), options, false); });
    sql::BoundStatement st = sql::parse_and_bind(
        view.sql, [this, &options](std::string_view n) { return resolve(n, options); }, view_sql(), &runner);
    if (st.kind != sql::StatementKind::kSelect) fail(ErrorKind::kCatalog, "is not a SELECT");
    if (views_bind_only) {  // the columns only: an empty table of the result's names and types
      std::vector<ColumnPtr> cols;
      for (size_t c = 0; c < st.query.select.size(); c++) {
        const std::string& n = st.query.output_names[c];
        cols.push_back(
            ColumnBuilder(n, storable_type_for(st.query.select[c]->type, view.name + "." + n), true).finish());
      }
      return std::make_shared<const Table>(view.name, std::move(cols));
    }
    QueryResult r = run_query(std::move(st.query), options, false);
    api::count_materialized(uint64_t(r.row_count()) * r.column_count());  // the plan cache's limit
    return result_table(view.name, r, "view");
  } catch (const Error& e) {
    if (std::string_view(e.what()).starts_with("view ")) throw;
    throw Error(e.kind(), fmt::format("view {}: {}", view.name, e.what()));
  }
}

QueryResult Database::Impl::table_statement(sql::BoundStatement& stmt, QueryOptions& options) {
  switch (stmt.kind) {
    case sql::StatementKind::kCreateTable: return create_table(stmt, options);
    case sql::StatementKind::kDropTable: return drop_table(stmt.drop_table);
    case sql::StatementKind::kInsert: return insert(stmt, options);
    case sql::StatementKind::kCopy: return stmt.copy.to ? copy_to(stmt, options) : copy_from(stmt.copy);
    case sql::StatementKind::kCreateView: return create_view(stmt);
    case sql::StatementKind::kModify: return modify(stmt, options);
    default: fail(ErrorKind::kInternal, "statement kind {} is not a table statement", int(stmt.kind));
  }
}

QueryResult Database::Impl::create_table(sql::BoundStatement& stmt, QueryOptions& options) {
  Timer timer;
  const sql::CreateTableStatement& c = stmt.create_table;
  if (TablePtr t = dir->table(c.name)) {
    if (c.if_not_exists) return status("CREATE TABLE (table exists, skipped)", timer);
    fail(ErrorKind::kCatalog, "table {} already exists", t->name());
  }
  for (const ViewEntry& v : dir->views())
    if (iequals(v.name, c.name)) fail(ErrorKind::kCatalog, "{} is a view; a table cannot take its name", v.name);
  TablePtr table;
  if (c.as_select) {
    QueryResult r = run_query(std::move(stmt.query), options, false);
    table = result_table(c.name, r, "CREATE TABLE");
  } else {
    std::vector<ColumnPtr> cols;
    for (const sql::ColumnDefinition& d : c.columns) {
      for (auto& other : cols)
        if (iequals(other->name(), d.name)) fail(ErrorKind::kBinder, "column {} is declared twice", d.name);
      cols.push_back(ColumnBuilder(d.name, d.type, !d.not_null).finish());
    }
    table = std::make_shared<const Table>(c.name, std::move(cols));
  }
  dir->commit({table}, false);  // checks the name again under the directory lock
  return status(c.as_select ? fmt::format("CREATE TABLE ({} rows)", table->row_count()) : "CREATE TABLE", timer);
}

QueryResult Database::Impl::drop_table(const sql::DropTableStatement& d) {
  Timer timer;
  if (!dir->table(d.name)) {
    if (d.if_exists) return status("DROP TABLE (no such table, skipped)", timer);
    for (const ViewEntry& v : dir->views())
      if (iequals(v.name, d.name)) fail(ErrorKind::kCatalog, "{} is a view, not a table (use DROP VIEW)", v.name);
    fail(ErrorKind::kCatalog, "table {} does not exist", d.name);
  }
  dir->drop_table(d.name);
  views->sync(dir->rt_views(), dir->path());  // RT views over the table went with it
  return status("DROP TABLE", timer);
}

QueryResult Database::Impl::insert(sql::BoundStatement& stmt, QueryOptions& options) {
  Timer timer;
  const sql::InsertStatement& ins = stmt.insert;
  TablePtr table = target_table(*dir, ins.table, "insert into");
  std::vector<ColumnBuilder> builders;
  if (ins.from_select) {
    QueryResult r = run_query(std::move(stmt.query), options, false);
    const std::vector<size_t> source = insert_targets(*table, ins.columns, r.column_count());
    builders = builders_for(*table, r.row_count());
    for (size_t c = 0; c < builders.size(); c++) {
      if (source[c] != kNoSource) append_result_column(builders[c], r, source[c], table->name());
      else
        for (size_t row = 0; row < r.row_count(); row++) builders[c].append_null(table->name());
    }
  } else {
    builders = builders_for(*table, stmt.values.size());
    for (auto& row : stmt.values) {
      const std::vector<size_t> source = insert_targets(*table, ins.columns, row.size());
      // Constants are stored as they are; anything the binder could not fold (an
      // overflow, a division by zero) runs as a one-row SELECT, so it fails as a query would.
      bool constant = true;
      for (auto& e : row) constant = constant && e->kind == plan::ExprKind::kConstant;
      std::vector<Value> values;
      if (constant) {
        for (auto& e : row) values.push_back(e->value);
      } else {
        plan::LogicalQuery q;
        q.select = row;
        for (auto& e : row) q.output_names.push_back(e->to_string());
        QueryResult r = run_query(std::move(q), options, false);
        for (size_t c = 0; c < r.column_count(); c++) values.push_back(r.get(0, c));
      }
      for (size_t c = 0; c < builders.size(); c++) {
        if (source[c] == kNoSource) {
          builders[c].append_null(table->name());
          continue;
        }
        append_assigned(builders[c], values[source[c]], values[source[c]].type().id == TypeId::kVarchar,
                        table->name());
      }
    }
  }
  TablePtr rows = finish_rows(*table, builders);
  if (rows->row_count() > 0) dir->append_rows(rows);
  return status(fmt::format("INSERT {}", rows->row_count()), timer);
}

QueryResult Database::Impl::copy_from(const sql::CopyStatement& c) {
  Timer timer;
  TablePtr table = target_table(*dir, c.table, "copy into");
  check_file_access(c.file, false);
  if (c.parquet) {  // columns by position, each value assigned to the table's type
    TablePtr rows = assign_rows(*table, *api::read_parquet_table(table->name(), {c.file}));
    if (rows->row_count() > 0) dir->append_rows(rows);
    return status(fmt::format("COPY {}", rows->row_count()), timer);
  }
  CsvLoadOptions o;
  o.header = c.header;
  o.delimiter = c.delimiter;
  o.null_string = c.null_string;
  o.null_string_given = c.null_string_given;
  TablePtr rows = read_csv_table(table->name(), table->schema(), {c.file}, o);
  if (rows->row_count() > 0) dir->append_rows(rows);
  return status(fmt::format("COPY {}", rows->row_count()), timer);
}

QueryResult Database::Impl::copy_to(sql::BoundStatement& stmt, QueryOptions& options) {
  Timer timer;
  const sql::CopyStatement& c = stmt.copy;
  check_file_access(c.file, true);
  auto fsync_parent = [&c] {  // the rename, durably
    std::string parent = std::filesystem::path(c.file).parent_path().string();
    persist::fsync_directory(parent.empty() ? "." : parent);
  };
  if (c.parquet) {
    QueryResult r = run_query(std::move(stmt.query), options, false);
    api::write_parquet(r, c.file);
    fsync_parent();
    return status(fmt::format("COPY {}", r.row_count()), timer);
  }
  if (TablePtr t = c.table.empty() ? nullptr : dir->table(c.table)) {  // COPY t TO: the stored columns as they are
    const uint64_t rows = export_csv(*t, c.file, c.delimiter, c.header, c.null_string);
    fsync_parent();
    return status(fmt::format("COPY {}", rows), timer);
  }
  QueryResult r = run_query(std::move(stmt.query), options, false);
  api::write_result_csv(r, c.file, c.delimiter, c.header, c.null_string);
  return status(fmt::format("COPY {}", r.row_count()), timer);
}

uint64_t api::write_result_csv(const QueryResult& r, const std::string& file, char delimiter, bool header,
                          const std::string& null_string) {
  auto fsync_parent = [&file] {  // the rename, durably
    std::string parent = std::filesystem::path(file).parent_path().string();
    persist::fsync_directory(parent.empty() ? "." : parent);
  };
  // Results that a table can hold as they are (no NULLs, stored types) go through the
  // exporter, which formats in parallel; the others value by value below.
  bool storable = true;
  for (size_t col = 0; col < r.column_count(); col++) {
    const QueryResult::ColumnData& d = r.columns()[col];
    storable = storable && d.nulls.empty() && d.type.storable() && d.type.physical_width() > 0 &&
               (d.type.id != TypeId::kDecimal || d.type.precision <= 18);
    for (size_t o = 0; o < col; o++) storable = storable && !iequals(r.column_name(o), r.column_name(col));
    storable = storable && !r.column_name(col).empty();
  }
  if (storable) {
    export_csv(*result_table("copy", r, "COPY"), file, delimiter, header, null_string);
    fsync_parent();
    return r.row_count();
  }
  // Values as `raydb export` writes them (COPY FROM reads them back exactly); NULL
  // is the NULL text (default: an empty field), and an empty or NULL-text string is
  // quoted so that it reads back as itself.
  std::string text;
  if (header) {
    for (size_t col = 0; col < r.column_count(); col++) {
      if (col) text += delimiter;
      append_csv_field(text, r.column_name(col), delimiter);
    }
    text += '\n';
  }
  for (size_t row = 0; row < r.row_count(); row++) {
    for (size_t col = 0; col < r.column_count(); col++) {
      if (col) text += delimiter;
      const Value v = r.get(row, col);
      if (v.is_null()) {
        text += null_string;
        continue;
      }
      const std::string s = v.to_string();
      if (s.empty() || s == null_string) text += "\"" + s + "\"";  // not NULL, not a blank line
      else append_csv_field(text, s, delimiter);
    }
    text += '\n';
  }
  write_file_atomically(file, text);
  return r.row_count();
}

namespace {

// Appends the rows of result column `src` where keep[row] (all rows when `keep` is
// empty) to `b`: typed arrays copied directly, anything else value by value.
void append_kept_rows(ColumnBuilder& b, const QueryResult& r, size_t src, const std::vector<uint8_t>& keep,
                      std::string_view table) {
  const QueryResult::ColumnData& d = r.columns()[src];
  const size_t n = r.row_count();
  auto kept = [&keep](size_t row) { return keep.empty() || keep[row]; };
  auto null = [&d](size_t row) { return !d.nulls.empty() && d.nulls[row]; };
  if (d.type == b.type()) {
    const bool ints = d.type.id == TypeId::kInteger || d.type.id == TypeId::kBigint || d.type.id == TypeId::kDate ||
                      d.type.id == TypeId::kDecimal || d.type.id == TypeId::kBoolean || d.type.id == TypeId::kTimestamp;
    if ((ints && d.ints.size() >= n) || (d.type.id == TypeId::kDouble && d.doubles.size() >= n) ||
        (d.type.id == TypeId::kVarchar && d.strings.size() >= n)) {
      for (size_t row = 0; row < n; row++) {
        if (!kept(row)) continue;
        if (null(row)) b.append_null(table);
        else if (ints) b.append_int(d.ints[row]);
        else if (d.type.id == TypeId::kDouble) b.append_double(d.doubles[row]);
        else b.append_string(d.strings[row]);
      }
      return;
    }
  }
  for (size_t row = 0; row < n; row++)
    if (kept(row)) append_assigned(b, r.get(row, src), false, table);
}

// How many views deep `sql` nests (1 for a view over tables only).
int view_nesting(const std::string& sql, const std::vector<ViewEntry>& views, int depth) {
  if (depth > kMaxViewDepth) return depth;
  int deepest = depth;
  const sql::Statement st = sql::parse(sql);
  for (const sql::TableItem& t : st.select.from)
    for (const ViewEntry& v : views)
      if (iequals(v.name, t.name)) deepest = std::max(deepest, view_nesting(v.sql, views, depth + 1));
  return deepest;
}

}  // namespace

QueryResult Database::Impl::create_view(sql::BoundStatement& stmt) {
  Timer timer;
  const sql::CreateViewStatement& v = stmt.create_view;
  // Views nest at most kMaxViewDepth deep, counting the new one (queries inline or
  // run them to that depth).
  if (view_nesting(v.sql, dir->views(), 1) > kMaxViewDepth)
    fail(ErrorKind::kBinder, "view {} nests views more than {} deep", v.name, kMaxViewDepth);
  // The SELECT was bound already (its tables and columns exist now); its output
  // columns must be nameable, as a table's are.
  const auto& names = stmt.query.output_names;
  for (size_t c = 0; c < names.size(); c++) {
    if (names[c].empty()) fail(ErrorKind::kBinder, "view {}: column {} has no name (name it with AS)", v.name, c + 1);
    for (size_t o = 0; o < c; o++)
      if (iequals(names[o], names[c]))
        fail(ErrorKind::kBinder, "view {}: two columns are named {} (rename one with AS)", v.name, names[c]);
  }
  for (size_t c = 0; c < names.size(); c++) storable_type_for(stmt.query.select[c]->type, v.name + "." + names[c]);
  if (dir->table(v.name)) fail(ErrorKind::kCatalog, "{} is a table; a view cannot take its name", v.name);
  dir->create_view(ViewEntry{v.name, v.sql});
  return status("CREATE VIEW", timer);
}

// UPDATE and DELETE rewrite the whole table: its SELECT (sql/ast.h, ModifyStatement)
// reads every row with the SET values and a 0/1 flag (the WHERE condition, unknown
// counting as false); the new rows (DELETE: the unflagged ones; UPDATE: every row,
// the SET values where flagged, stored by the assignment rules of INSERT) replace the
// table in one atomic commit, like INSERT's. Nothing is written when no row matches.
QueryResult Database::Impl::modify(sql::BoundStatement& stmt, QueryOptions& options) {
  Timer timer;
  const sql::ModifyStatement& m = stmt.modify;
  const char* tag = m.update ? "UPDATE" : "DELETE";
  TablePtr table = target_table(*dir, m.table, m.update ? "update" : "delete from");
  const std::string version = dir->table_version(table->name());
  const size_t n = table->column_count(), k = m.set_columns.size();
  std::vector<int> set_of(n, -1);  // per column: its SET value, or -1
  for (size_t i = 0; i < k; i++) {
    const int c = table->find_column(m.set_columns[i]);
    if (c < 0) fail(ErrorKind::kBinder, "table {} has no column '{}'", table->name(), m.set_columns[i]);
    if (set_of[size_t(c)] >= 0)
      fail(ErrorKind::kBinder, "column {} is assigned twice in UPDATE of {}", table->column(size_t(c)).name(),
           table->name());
    set_of[size_t(c)] = int(i);
  }
  QueryResult r = run_query(std::move(stmt.query), options, false);
  if (r.column_count() != n + k + 1)
    fail(ErrorKind::kInternal, "{} of {}: {} result columns, expected {}", tag, table->name(), r.column_count(),
         n + k + 1);
  const size_t rows = r.row_count();
  std::vector<uint8_t> flag(rows), keep(rows);
  uint64_t affected = 0;
  for (size_t row = 0; row < rows; row++) {
    const Value f = r.get(row, n + k);
    flag[row] = !f.is_null() && f.as_int() != 0;
    keep[row] = !flag[row];
    affected += flag[row];
  }
  if (affected == 0) return status(fmt::format("{} 0", tag), timer);
  std::vector<ColumnBuilder> builders = builders_for(*table, m.update ? rows : rows - affected);
  for (size_t c = 0; c < n; c++) {
    if (!m.update) {
      append_kept_rows(builders[c], r, c, keep, table->name());
    } else if (set_of[c] < 0) {
      append_kept_rows(builders[c], r, c, {}, table->name());
    } else {
      const size_t src = n + size_t(set_of[c]);
      const bool literal = m.set_literal[size_t(set_of[c])];
      for (size_t row = 0; row < rows; row++)
        append_assigned(builders[c], r.get(row, flag[row] ? src : c), flag[row] && literal, table->name());
    }
  }
  dir->replace_rows(finish_rows(*table, builders), version);
  return status(fmt::format("{} {}", tag, affected), timer);
}

}  // namespace raydb
