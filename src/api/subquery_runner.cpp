#include "api/subquery_runner.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "api/parquet/parquet_reader.h"
#include "common/error.h"
#include "storage/loaders/csv_loader.h"
#include "storage/loaders/csv_sniffer.h"

namespace raydb::api {

namespace {

// `what` on one line (it quotes the subquery's text as written): whitespace runs as one space.
std::string one_line(const std::string& what) {
  std::string out;
  for (char ch : what) {
    const bool space = std::isspace(static_cast<unsigned char>(ch)) != 0;
    if (!space) out += ch;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  }
  return out;
}

// A block that only names some columns of its one table (no filter, grouping, order or
// limit; INTEGER, BIGINT, DATE, DOUBLE or DECIMAL(18) columns without NULLs, read as
// they are stored): its rows are
// those columns, shared instead of run through a backend and copied back (a group-join
// read one row per key, sql/binder_group_join.cpp). nullopt otherwise.
std::optional<sql::TempTable> plain_projection(const plan::LogicalQuery& q, const std::string& name) {
  if (q.tables.size() != 1 || !q.conjuncts.empty() || q.is_aggregate || q.distinct || !q.windows.empty() ||
      !q.order_by.empty() || q.limit >= 0 || q.offset != 0 || q.having || q.select.empty())
    return std::nullopt;
  const Table& t = *q.tables[0].table;
  std::vector<ColumnPtr> cols;
  sql::TempTable out;
  for (size_t i = 0; i < q.select.size(); i++) {
    const plan::Expr& e = *q.select[i];
    if (e.kind != plan::ExprKind::kColumnRef || e.table_index != 0 || e.column_index < 0) return std::nullopt;
    const Column& c = t.column(size_t(e.column_index));
    const TypeId id = c.type().id;  // stored as a result column of that type is
    const bool plain = id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kDate ||
                       id == TypeId::kDouble || (id == TypeId::kDecimal && c.type().precision <= 18);
    if (!plain || c.has_nulls() || !(c.type() == e.type) || c.size() != t.row_count()) return std::nullopt;
    for (size_t o = 0; o < i; o++)
      if (iequals(q.output_names[o], q.output_names[i])) return std::nullopt;  // the builder's error then
    c.verify();  // as a query reading it would
    cols.push_back(std::make_shared<const Column>(q.output_names[i], c.type(), c.buffer(), c.size(),
                                                  c.dictionary_ptr(), c.recorded_stats()));
    out.types.push_back(e.type);
    out.null_flag.push_back(-1);
  }
  out.table = std::make_shared<const Table>(name, std::move(cols));
  return out;
}

}  // namespace

sql::TempTable SubqueryRunner::materialize(plan::LogicalQuery q, const std::string& name, const std::string& what) {
  std::vector<Type> types;
  for (auto& e : q.select) types.push_back(e->type);
  if (std::optional<sql::TempTable> shared = plain_projection(q, name)) {
    count_materialized(shared->rows() * shared->columns());
    if (std::getenv("RAYDB_TRACE_BLOCKS"))
      std::fprintf(stderr, "block %s: %zu rows, its table's columns shared (not run)\n", one_line(what).c_str(),
                   size_t(shared->rows()));
    return std::move(*shared);
  }
  for (const Ran& r : ran_) {
    if (!plan::same_query(r.q, q)) continue;
    // The same rows under this block's name: the columns are shared, not copied.
    sql::TempTable t = r.rows;
    t.table = std::make_shared<const Table>(name, r.rows.table->columns());
    count_materialized(t.rows() * t.columns());
    if (std::getenv("RAYDB_TRACE_BLOCKS"))
      std::fprintf(stderr, "block %s: %zu rows, the same as an earlier block of the statement (not run)\n",
                   one_line(what).c_str(), size_t(t.rows()));
    return t;
  }
  plan::LogicalQuery kept_q = q;
  const std::vector<std::string> names = q.output_names;
  // RAYDB_TRACE_BLOCKS=1: each block bound as a table, its rows and times on stderr
  // (where a multi-block statement spends its time, on any backend).
  static const bool trace = std::getenv("RAYDB_TRACE_BLOCKS") != nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  QueryResult r = run_(std::move(q));
  const auto t1 = std::chrono::steady_clock::now();
  count_materialized(uint64_t(r.row_count()) * r.column_count());
  sql::TempTableBuilder b(name, names, types, what);
  b.reserve(r.row_count());
  const size_t n = r.row_count();
  for (size_t c = 0; c < r.column_count(); c++) {
    QueryResult::ColumnData& d = r.columns()[c];
    // Whole columns where the result holds them in their stored form: numbers handed
    // over (the result is not read again), strings coded once; else value by value.
    if (b.take_ints(c, std::move(d.ints), std::move(d.nulls), n)) continue;
    if (b.take_doubles(c, std::move(d.doubles), std::move(d.nulls), n)) continue;
    if (b.take_huge(c, d.huge, std::move(d.nulls), n)) continue;
    if (d.strings.size() >= n && n > 0 && b.take_strings(c, d.strings.data(), std::move(d.nulls), n)) continue;
    if (d.strings.size() >= n && n > 0 && b.append_strings(c, d.strings.data(), d.nulls, n)) continue;
    for (size_t row = 0; row < n; row++) b.append(c, r.get(row, c));
  }
  sql::TempTable t = b.finish();
  ran_.push_back(Ran{std::move(kept_q), t});
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  blocks_ms_ += ms(t0, std::chrono::steady_clock::now());
  if (trace) {
    std::fprintf(stderr, "block %s: %zu rows, run %.3f ms, kept %.3f ms\n", one_line(what).c_str(), n, ms(t0, t1),
                 ms(t1, std::chrono::steady_clock::now()));
  }
  return t;
}

namespace {
thread_local uint64_t table_function_calls = 0;
thread_local uint64_t materialized_cells = 0;
}  // namespace

uint64_t table_functions_called() { return table_function_calls; }
uint64_t cells_materialized() { return materialized_cells; }
void count_materialized(uint64_t cells) { materialized_cells += cells; }

TablePtr SubqueryRunner::table_function(const std::string& name, const std::vector<std::string>& args) {
  table_function_calls++;
  if (args.empty()) fail(ErrorKind::kBinder, "{} needs a file name: {}('file')", name, name);
  if (name == "read_parquet") return read_parquet_table(name, args);
  if (name == "read_csv_auto" || name == "read_csv") {
    CsvSniff sniff = sniff_csv(args.front(), CsvSniffOptions{});
    CsvLoadOptions options;
    options.delimiter = sniff.delimiter;
    options.header = sniff.header;
    return read_csv_table(name, sniff.schema, args, options);
  }
  fail(ErrorKind::kBinder, "unknown table function '{}' (read_parquet and read_csv_auto are)", name);
}

}  // namespace raydb::api
