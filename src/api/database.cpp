#include <charconv>
#include <fmt/format.h>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>

#include "access/rt_index/index_config.h"
#include "api/database_impl.h"
#include "api/plan_cache.h"
#include "api/rt_view_ddl.h"
#include "api/subquery_runner.h"
#include "api/table_import.h"
#include "common/cancel.h"
#include "common/expression_depth.h"
#include "common/stage_times.h"
#include "common/timer.h"
#include "exec/cpu/cpu_backend.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/index/index_catalog.h"
#include "exec/query_driver.h"
#include "plan/physical/physical_planner.h"
#include "raydb/raydb.h"
#include "sql/key_set_builder.h"
#include "sql/sql.h"
#include "storage/loaders/csv_loader.h"
#include "storage/persist/database_directory.h"

namespace raydb {

Backend parse_backend(std::string_view name) {
  if (name == "auto") return Backend::kAuto;
  if (name == "cpu") return Backend::kCpu;
  if (name == "cuda" || name == "gpu") return Backend::kCuda;
  if (name == "rt") return Backend::kRt;
  fail(ErrorKind::kInvalidInput, "unknown backend '{}' (expected auto, cpu, cuda or rt)", name);
}

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::kAuto: return "auto";
    case Backend::kCpu: return "cpu";
    case Backend::kCuda: return "cuda";
    case Backend::kRt: return "rt";
  }
  return "?";
}

TablePtr Database::Impl::registered_table(std::string_view name) const {
  std::lock_guard lock(registered_mutex);
  auto it = registered.find(to_lower(name));
  return it != registered.end() ? it->second : nullptr;
}

bool Database::Impl::is_registered(std::string_view name) const {
  std::lock_guard lock(registered_mutex);
  return registered.count(to_lower(name)) > 0;
}

std::unique_ptr<Database> Database::open(const std::string& path) {
  return std::make_unique<Database>(DatabaseDirectory::open(path));
}

std::unique_ptr<Database> Database::open_or_create(const std::string& path) {
  return std::make_unique<Database>(DatabaseDirectory::open_or_create(path));
}

void Database::register_table(const std::string& name, const std::vector<ColumnInput>& columns) {
  TablePtr table = api::build_table(name, columns);
  if (TablePtr stored = impl_->dir->table(name))
    fail(ErrorKind::kCatalog, "table {} exists in the database; register under another name", stored->name());
  std::lock_guard lock(impl_->registered_mutex);
  impl_->registered[to_lower(name)] = std::move(table);
  impl_->registered_version++;  // plans bound to the old table are stale
}

bool Database::unregister_table(const std::string& name) {
  std::lock_guard lock(impl_->registered_mutex);
  impl_->registered_version++;
  return impl_->registered.erase(to_lower(name)) > 0;
}

uint64_t Database::create_table(const std::string& name, const std::vector<ColumnInput>& columns, bool replace) {
  if (impl_->is_registered(name))
    fail(ErrorKind::kCatalog, "table {} is registered in memory; unregister it or choose another name", name);
  TablePtr table = api::build_table(name, columns);
  std::unique_lock lock(impl_->catalog_mutex);
  impl_->dir->commit({table}, replace);
  return table->row_count();
}

uint64_t Database::load_csv(const std::string& name, const std::string& schema, const std::vector<std::string>& files,
                            bool header, char delimiter, bool replace) {
  if (!is_valid_table_name(name))
    fail(ErrorKind::kInvalidInput, "invalid table name '{}' (letters, digits and _, not starting with a digit)", name);
  if (files.empty()) fail(ErrorKind::kInvalidInput, "no input files for table {}", name);
  if (impl_->is_registered(name))
    fail(ErrorKind::kCatalog, "table {} is registered in memory; unregister it or choose another name", name);
  const std::vector<ColumnDef> defs = parse_schema(schema);
  // Checked again under the lock by commit; this only saves a useless parse.
  if (TablePtr old = impl_->dir->table(name); old && !replace)
    fail(ErrorKind::kCatalog, "table {} already exists in {} (replace it explicitly)", old->name(), impl_->dir->path());
  CsvLoadOptions o;
  o.header = header;
  o.delimiter = delimiter;
  o.replace = replace;
  TablePtr table = read_csv_table(name, defs, files, o);
  std::unique_lock lock(impl_->catalog_mutex);
  impl_->dir->commit({table}, replace);
  return table->row_count();
}

Database::Database(std::shared_ptr<DatabaseDirectory> dir) : impl_(std::make_unique<Impl>(std::move(dir))) {}
Database::~Database() = default;
DatabaseDirectory& Database::directory() { return *impl_->dir; }
void Database::set_file_access(FileAccess access) { impl_->file_access = std::move(access); }
thread_local int Database::Impl::view_depth = 0;

namespace {

// Moves executor vectors into the API's owned result columns (numbers are handed
// over, not copied: `t` is not read again); strings are made per row.
// The first n elements of `v` (moved from; a vector may hold more than the rows).
template <typename T>
std::vector<T> first_rows(std::vector<T>&& v, size_t n) {
  if (v.size() < n) fail(ErrorKind::kInternal, "a result column holds {} values for {} rows", v.size(), n);
  v.resize(n);  // shrinking keeps the storage
  return std::move(v);
}

// A VARCHAR vector's n rows as strings (NULL: empty), made in parallel for large results.
std::vector<std::string> result_strings(const exec::Vector& v, size_t n) {
  std::vector<std::string> out(n);
  const int64_t rows = int64_t(n);
#pragma omp parallel for schedule(static) if (rows > (1 << 15))
  for (int64_t i = 0; i < rows; i++)
    if (!v.is_null(size_t(i))) out[size_t(i)] = std::string(v.string_at(size_t(i)));
  return out;
}

QueryResult to_query_result(exec::ResultTable& t) {
  QueryResult r;
  auto& cols = r.columns();
  for (size_t c = 0; c < t.columns.size(); c++) {
    exec::Vector& v = t.columns[c];
    QueryResult::ColumnData d;
    d.name = c < t.names.size() ? t.names[c] : "";
    d.type = v.type;
    const size_t n = t.rows;
    switch (v.kind) {
      case exec::VectorKind::kInt: d.ints = first_rows(std::move(v.ints), n); break;
      case exec::VectorKind::kHuge: d.huge = first_rows(std::move(v.huge), n); break;
      case exec::VectorKind::kDouble: d.doubles = first_rows(std::move(v.doubles), n); break;
      case exec::VectorKind::kCode:
      case exec::VectorKind::kString: d.strings = result_strings(v, n); break;
    }
    if (v.has_nulls()) d.nulls = first_rows(std::move(v.nulls), n);
    cols.push_back(std::move(d));
  }
  r.set_row_count(t.rows);
  return r;
}

QueryResult single_text(const char* name, const std::string& text) {
  QueryResult r;
  QueryResult::ColumnData d;
  d.name = name;
  d.type = Type::varchar();
  d.strings.push_back(text);
  r.columns().push_back(std::move(d));
  r.set_row_count(1);
  return r;
}

// The indexes defined on the query's tables; each backend builds its own kind of them
// only when its access-path choice asks.
std::vector<exec::IndexOnTable> indexes_on(const plan::LogicalQuery& q, const DatabaseDirectory& dir) {
  std::vector<exec::IndexOnTable> out;
  for (auto& def : dir.indexes())
    for (size_t t = 0; t < q.tables.size(); t++) {
      if (!iequals(q.tables[t].name, def.table)) continue;
      // The stored table the index was defined on, read as it is or with the hidden NULL
      // indicators of its nullable columns after its own (sql::TempTable::stored).
      const TablePtr stored = dir.table(def.table);
      const TablePtr& read = q.tables[t].table;
      bool same = read == stored;
      if (!same && stored && read->column_count() > stored->column_count()) {
        same = true;
        for (size_t c = 0; same && c < stored->column_count(); c++) same = read->column_ptr(c) == stored->column_ptr(c);
      }
      if (!same) continue;
      const TablePtr& table = stored;
      std::vector<int> columns;
      for (const std::string& name : def.column_list())
        for (size_t c = 0; c < table->column_count(); c++)
          if (iequals(table->column(c).name(), name)) columns.push_back(int(c));
      if (columns.size() != def.column_list().size()) continue;
      bool nulls = false;  // NULLs inserted after CREATE INDEX: the index would see placeholders
      for (int c : columns) nulls = nulls || table->column(size_t(c)).has_nulls();
      if (nulls) continue;
      exec::IndexOnTable ix;
      ix.table = int(t);
      ix.column = columns[0];
      ix.columns = columns;
      ix.kind = parse_index_kind(def.kind).value_or(IndexKind::kHash);
      ix.definition = def;
      ix.data = table;
      out.push_back(std::move(ix));
    }
  return out;
}

// The driver's request for a backend option: `cpu` keeps to sorted and hash indexes,
// `rt` forces RT index paths on whichever backend holds RT indexes.
exec::ExecutionRequest request_for(Backend b) {
  exec::ExecutionRequest r;
  switch (b) {
    case Backend::kAuto: break;
    case Backend::kCpu: r.backend = plan::BackendKind::kCpu, r.policy = exec::AccessPolicy::kNoRt; break;
    case Backend::kCuda: r.backend = plan::BackendKind::kCuda; break;
    case Backend::kRt: r.policy = exec::AccessPolicy::kForceRt; break;
  }
  return r;
}

}  // namespace

QueryResult status_result(const std::string& text) {
  QueryResult r = single_text("status", text);
  r.backend = "catalog";
  return r;
}

QueryResult Database::Impl::create_index(IndexDefinition def) {
  Timer timer;
  // Everything is checked, and the index built, before the catalog is written: a
  // failure leaves the directory as it was. DatabaseDirectory re-checks the names
  // under its lock.
  const bool scan = def.kind == "rtscan";  // RT scan: several columns, its own options
  if (!scan) access::parse_index_config(def.kind, def.options);  // bad kind or option
  for (auto& d : dir->indexes())
    if (iequals(d.name, def.name)) fail(ErrorKind::kCatalog, "index {} already exists (on {}.{})", d.name, d.table, d.column);
  TablePtr table = dir->table(def.table);
  if (!table) fail(ErrorKind::kBinder, "unknown table '{}'", def.table);
  def.table = table->name();
  std::vector<std::string> names = def.column_list();
  for (std::string& name : names) {
    const Column* col = nullptr;
    for (size_t c = 0; c < table->column_count(); c++)
      if (iequals(table->column(c).name(), name)) col = &table->column(c);
    if (!col) fail(ErrorKind::kBinder, "table '{}' has no column '{}'", table->name(), name);
    name = col->name();
    // Index keys are stored values; a NULL's placeholder would be found as a key.
    // (NULLs inserted later: the column is then read through its indicator, and
    // predicates on it no longer take the index.)
    if (col->has_nulls())
      fail(ErrorKind::kInvalidInput, "cannot index column {}.{}: it holds NULLs (indexes take columns without NULLs)",
           table->name(), col->name());
    access::KeyType kt;
    if (!exec::key_type_for(col->type(), kt))
      fail(ErrorKind::kInvalidInput, "cannot index column {}.{} of type {} (indexes take INTEGER, BIGINT, DECIMAL, DATE "
           "and VARCHAR keys)", table->name(), col->name(), col->type().to_string());
  }
  for (size_t i = 0; i < names.size(); i++)
    for (size_t j = 0; j < i; j++)
      if (names[i] == names[j]) fail(ErrorKind::kInvalidInput, "index {} names column {} twice", def.name, names[i]);
  def.column = names[0];
  if (names.size() > 1) def.columns = names;
  for (auto& [k, v] : def.options) k = to_lower(k);
  // Builds it (and keeps it for the queries to come); a bad RT scan option fails here.
  if (scan) indexes->get_scan(def, table);
  else indexes->get(def, table);
  dir->create_index(def);
  QueryResult r = status_result("CREATE INDEX");
  r.elapsed_ms = timer.elapsed_ms();
  return r;
}

QueryResult Database::Impl::drop_index(const std::string& name, bool if_exists) {
  Timer timer;
  bool dropped = dir->drop_index(name, if_exists);
  QueryResult r = status_result(dropped ? "DROP INDEX" : "DROP INDEX (no such index, skipped)");
  r.elapsed_ms = timer.elapsed_ms();
  return r;
}

QueryResult Database::Impl::create_rt_view(const sql::CreateRtViewStatement& stmt) {
  Timer timer;
  // Resolved and materialized before anything is written; DatabaseDirectory checks
  // the name again under its lock.
  for (const RtViewEntry& e : dir->rt_views())
    if (iequals(e.name, stmt.name)) fail(ErrorKind::kCatalog, "view {} already exists", e.name);
  const rtview::ViewDefinition def = api::resolve_rt_view(stmt, *dir);
  const api::RtViewSummary s = api::commit_rt_view(*dir, *views, def, false);
  std::fprintf(stderr, "rt view %s: materialized %llu rows (%.1f MiB on disk and in host memory) in %.1f ms\n",
               def.name.c_str(), (unsigned long long)s.rows, s.bytes / 1048576.0, s.ms);
  QueryResult r = status_result(fmt::format("CREATE RT VIEW ({} rows, {:.1f} MiB)", s.rows, s.bytes / 1048576.0));
  r.elapsed_ms = timer.elapsed_ms();
  return r;
}

QueryResult Database::Impl::drop_rt_view(const std::string& name, bool if_exists, bool rt_only) {
  Timer timer;
  // DROP VIEW names a plain view or an RT view (names may repeat across the two
  // kinds: the plain view goes first); DROP RT VIEW only RT views.
  if (!rt_only && dir->drop_view(name, true)) {
    QueryResult r = status_result("DROP VIEW");
    r.elapsed_ms = timer.elapsed_ms();
    return r;
  }
  bool found = false;
  for (const RtViewEntry& e : dir->rt_views()) found = found || iequals(e.name, name);
  if (!found && !if_exists) {
    for (const std::string& t : dir->table_names())
      if (iequals(t, name)) fail(ErrorKind::kCatalog, "{} is a table, not a view (use DROP TABLE)", t);
    fail(ErrorKind::kCatalog, "{} {} does not exist", rt_only ? "rt view" : "view", name);
  }
  const bool dropped = dir->drop_rt_view(name, if_exists);
  views->sync(dir->rt_views(), dir->path());
  QueryResult r = status_result(dropped ? "DROP VIEW" : "DROP VIEW (no such view, skipped)");
  r.elapsed_ms = timer.elapsed_ms();
  return r;
}

// SET / RESET / SHOW: the connection's backend, threads, or one of its settings.
QueryResult Database::Impl::setting(const sql::BoundStatement& stmt, QueryOptions& options) {
  const std::string& name = stmt.setting;
  if (stmt.kind == sql::StatementKind::kShow) {
    if (name == "backend") return single_text("backend", backend_name(options.backend));
    if (name == "threads") return single_text("threads", std::to_string(options.threads));
    const std::string v = options.settings.get(name);
    return single_text(name.c_str(), v.empty() ? "default" : v);
  }
  const bool reset = stmt.kind == sql::StatementKind::kReset;
  if (name == "backend") {
    options.backend = reset ? Backend::kAuto : parse_backend(stmt.value);
  } else if (name == "threads") {
    int n = 0;
    if (!reset) {
      auto [p, ec] = std::from_chars(stmt.value.data(), stmt.value.data() + stmt.value.size(), n);
      if (ec != std::errc() || p != stmt.value.data() + stmt.value.size() || n < 0)
        fail(ErrorKind::kInvalidInput, "invalid value '{}' for setting threads (expected a count, 0 for all)", stmt.value);
    }
    options.threads = n;
  } else if (reset) {
    options.settings.reset(name);
  } else {
    options.settings.set(name, stmt.value);
  }
  return status_result(reset ? "RESET" : "SET");
}

QueryResult Database::Impl::run(const std::string& sql, QueryOptions& options) {
  Timer timer;
  // Executors poll the flag (subqueries run while binding, so from here on); commits
  // never do, so a write is either whole or absent.
  CancelScope cancel_scope(options.cancel.get());
  sql::KeySetScope key_sets;  // the key sets this statement's subqueries built, kept until its end
  throw_if_cancelled();
  const bool cache = api::plan_cache_enabled(options.settings);
  if (cache)
    if (std::optional<QueryResult> r = run_cached(sql, options, timer)) return std::move(*r);
  // --timing: parse and bind (subqueries run meanwhile add their own stages).
  std::optional<StageScope> plan_stage(std::in_place, Stage::kPlan);
  sql::Statement parsed = sql::parse(sql);
  const double parse_ms = timer.elapsed_ms();
  const double sets0 = sql::key_set_build_ms();
  const bool reads = parsed.type == sql::StatementType::kSelect || parsed.type == sql::StatementType::kSet ||
                     parsed.type == sql::StatementType::kReset || parsed.type == sql::StatementType::kShow;
  std::shared_lock<std::shared_mutex> read_lock(catalog_mutex, std::defer_lock);
  std::unique_lock<std::shared_mutex> write_lock(catalog_mutex, std::defer_lock);
  if (reads) read_lock.lock();
  else write_lock.lock();
  // CREATE VIEW only checks its SELECT: views it names are bound, not run, and the
  // new view counts as one level of nesting.
  const bool checking_view = parsed.type == sql::StatementType::kCreateView;
  ViewCheck check(*this, checking_view);
  // Read before binding: whatever changes from here on makes the plan's entry stale.
  const api::CatalogVersion version = catalog_version();
  const uint64_t files_read = api::table_functions_called();
  const uint64_t cells = api::cells_materialized();
  api::SubqueryRunner runner([this, &options](plan::LogicalQuery q) { return run_query(std::move(q), options, false); });
  sql::BoundStatement stmt = sql::bind(
      std::move(parsed), [this, &options](std::string_view name) { return resolve(name, options); }, view_sql(),
      &runner);
  check.done();
  plan_stage.reset();
  const double bind_ms = timer.elapsed_ms() - parse_ms;
  switch (stmt.kind) {
    case sql::StatementKind::kCreateIndex: return create_index(std::move(stmt.index));
    case sql::StatementKind::kDropIndex: return drop_index(stmt.index.name, stmt.if_exists);
    case sql::StatementKind::kCreateRtView: return create_rt_view(stmt.rt_view);
    case sql::StatementKind::kDropRtView: return drop_rt_view(stmt.view_name, stmt.if_exists, stmt.rt_only);
    case sql::StatementKind::kSet:
    case sql::StatementKind::kReset:
    case sql::StatementKind::kShow: return setting(stmt, options);
    case sql::StatementKind::kSelect:
    case sql::StatementKind::kExplain: break;
    default: return table_statement(stmt, options);
  }
  // A SELECT that read files while binding (read_parquet, read_csv_auto) is planned
  // anew each time: the files may change without the catalog knowing. So is one whose
  // binding materialized many rows (subqueries, views): the cache would hold them.
  if (cache && stmt.kind == sql::StatementKind::kSelect && api::table_functions_called() == files_read &&
      api::cells_materialized() - cells <= api::kPlanCacheMaxCells) {
    api::refresh_rt_views(*dir, *views);
    std::shared_ptr<const api::CachedPlan> planned = plan_select(std::move(stmt.query));
    plan_cache.put(sql, version, planned);
    QueryResult r = execute_plan(*planned, options, false, false);
    r.elapsed_ms = timer.elapsed_ms();
    return r;
  }
  QueryResult r = run_query(std::move(stmt.query), options, stmt.kind == sql::StatementKind::kExplain, stmt.analyze);
  r.elapsed_ms = timer.elapsed_ms();  // parse and bind included, as before
  // RAYDB_TRACE_BLOCKS: the statement's split, where binding's own work (rewrites, key
  // sets built from blocks' rows) is its time less the blocks it ran.
  static const bool trace = std::getenv("RAYDB_TRACE_BLOCKS") != nullptr;
  if (trace) {
    const double sets_ms = sql::key_set_build_ms() - sets0;
    std::fprintf(stderr,
                 "trace: statement %.3f ms: parse %.3f, bind %.3f (blocks %.3f, key sets %.3f, other %.3f), last block "
                 "%.3f\n",
                 r.elapsed_ms, parse_ms, bind_ms, runner.blocks_ms(), sets_ms, bind_ms - runner.blocks_ms() - sets_ms,
                 r.elapsed_ms - parse_ms - bind_ms);
  }
  return r;
}

std::optional<QueryResult> Database::Impl::run_cached(const std::string& sql, QueryOptions& options,
                                                      const Timer& timer) {
  std::shared_lock<std::shared_mutex> read_lock(catalog_mutex);
  std::shared_ptr<const api::CachedPlan> planned;
  {
    StageScope plan_stage(Stage::kPlan);
    api::refresh_rt_views(*dir, *views);  // may commit: before the version is read
    planned = plan_cache.find(sql, catalog_version());
  }
  if (!planned) return std::nullopt;
  QueryResult r = execute_plan(*planned, options, false, false);
  r.plan_cached = true;
  r.elapsed_ms = timer.elapsed_ms();
  return r;
}

std::shared_ptr<const api::CachedPlan> Database::Impl::plan_select(plan::LogicalQuery query) {
  StageScope plan_stage(Stage::kPlan);
  auto logical = std::make_shared<plan::LogicalQuery>(std::move(query));
  auto out = std::make_shared<api::CachedPlan>();
  out->plan = plan::plan_query(logical, {});
  out->indexes = indexes_on(*logical, *dir);
  return out;
}

QueryResult Database::Impl::run_query(plan::LogicalQuery query, QueryOptions& options, bool explain, bool analyze) {
  Timer timer;
  api::refresh_rt_views(*dir, *views);  // a view whose base table was replaced is rebuilt first
  std::shared_ptr<const api::CachedPlan> planned = plan_select(std::move(query));
  const double plan_ms = timer.elapsed_ms();
  QueryResult r = execute_plan(*planned, options, explain, analyze);
  r.elapsed_ms = timer.elapsed_ms();
  // RAYDB_TRACE_BLOCKS: each block's (and the statement's) plan / execute split, where
  // execute_plan's own line splits the backend's run from the rows' conversion.
  static const bool trace = std::getenv("RAYDB_TRACE_BLOCKS") != nullptr;
  if (trace) std::fprintf(stderr, "trace: plan %.3f ms, execute %.3f ms\n", plan_ms, r.elapsed_ms - plan_ms);
  return r;
}

QueryResult Database::Impl::execute_plan(const api::CachedPlan& planned, QueryOptions& options, bool explain,
                                         bool analyze) {
  Timer timer;
  plan::PhysicalPlan physical = planned.plan;  // a copy: the backends annotate it
  const std::vector<exec::IndexOnTable>& indexes = planned.indexes;
  exec::ExecutionRequest request = request_for(options.backend);
  request.threads = options.threads;
  if (explain && analyze) return explain_analyze(physical, request, indexes, options);
  if (explain) {
    driver.prepare(physical, request, indexes, options.settings);
    QueryResult r = single_text("plan", physical.explain());
    r.explain = physical.explain();
    r.backend = plan::backend_kind_name(physical.backend);
    r.elapsed_ms = timer.elapsed_ms();
    return r;
  }
  exec::ExecOptions eopts;
  eopts.threads = options.threads;
  eopts.settings = options.settings;
  eopts.keep_result_on_device = options.keep_result_on_device;
  exec::ResultTable table = driver.run(physical, request, indexes, eopts);
  const double run_ms = timer.elapsed_ms();
  QueryResult r = to_query_result(table);
  static const bool trace = std::getenv("RAYDB_TRACE_BLOCKS") != nullptr;
  if (trace)
    std::fprintf(stderr, "trace: backend %s run %.3f ms (device %.3f ms), %zu rows to the result %.3f ms\n",
                 plan::backend_kind_name(physical.backend), run_ms, table.device_ms, size_t(table.rows),
                 timer.elapsed_ms() - run_ms);
  r.device_columns = table.device_columns;
  r.backend = plan::backend_kind_name(physical.backend);
  r.elapsed_ms = timer.elapsed_ms();
  r.device_ms = table.device_ms;
  r.device_bytes = table.device_bytes;
  return r;
}

namespace {

// EXPLAIN ANALYZE's end-to-end line: the stages (common/stage_times.h) this run added,
// those that took time, and its bytes. Process-wide totals: concurrent queries of the
// same process would show in it too.
std::string stage_line(const StageTotals& before, const StageTotals& after) {
  std::string line = "stages:";
  for (size_t i = 0; i < size_t(Stage::kCount); i++) {
    const double d = after.ms[i] - before.ms[i];
    if (d > 0) line += fmt::format(" {} {:.3f} ms", stage_name(Stage(i)), d);
  }
  line += "; bytes:";
  for (size_t i = 0; i < size_t(ByteCount::kCount); i++) {
    const uint64_t n = after.bytes[i] - before.bytes[i];
    if (ByteCount(i) == ByteCount::kPrefetched && n == 0) continue;  // only where a read-ahead ran
    line += fmt::format(" {} {}", byte_count_name(ByteCount(i)), n);
  }
  return line + "\n";
}

}  // namespace

// EXPLAIN ANALYZE: the query runs as usual (result discarded); the plan it ran with,
// then what each operator actually did (rows in and out, phase times, device work)
// as the backend that ran it reports, and the total time.
QueryResult Database::Impl::explain_analyze(plan::PhysicalPlan& physical, const exec::ExecutionRequest& request,
                                            const std::vector<exec::IndexOnTable>& indexes, QueryOptions& options) {
  Timer timer;
  exec::ExecOptions eopts;
  eopts.threads = options.threads;
  eopts.settings = options.settings;
  const StageTotals before = StageTimes::instance().snapshot();
  exec::ResultTable table = driver.run(physical, request, indexes, eopts);
  const double ms = timer.elapsed_ms();
  std::string text = physical.explain();
  text += fmt::format("actual ({}): {} result rows in {:.3f} ms\n", plan::backend_kind_name(physical.backend),
                      table.rows, ms);
  text += stage_line(before, StageTimes::instance().snapshot());
  for (size_t p = 0; p < table.profile.size();) {
    size_t e = table.profile.find('\n', p);
    if (e == std::string::npos) e = table.profile.size();
    text += "  " + table.profile.substr(p, e - p) + "\n";
    p = e + 1;
  }
  QueryResult r = single_text("plan", text);
  r.explain = text;
  r.backend = plan::backend_kind_name(physical.backend);
  r.elapsed_ms = ms;
  r.device_ms = table.device_ms;
  r.device_bytes = table.device_bytes;
  return r;
}

QueryResult Database::Impl::run_any_length(const std::string& sql, QueryOptions& options) {
  if (sql.size() < kLargeStackSqlBytes) {
    static const bool trace = std::getenv("RAYDB_TRACE_BLOCKS") != nullptr;
    if (!trace) return run(sql, options);
    Timer timer;
    QueryResult r = run(sql, options);
    // The statement's own objects (bound blocks, key sets, plans) are freed by now.
    std::fprintf(stderr, "trace: statement returned after %.3f ms\n", timer.elapsed_ms());
    return r;
  }
  // A long text may hold a long chain (`1 + 1 + ...`): a deep tree that every stage
  // walks recursively. Run it on a large stack, and on one CPU thread so that the
  // evaluation stays on that stack (OpenMP workers have small ones).
  const int threads = options.threads;
  options.threads = 1;
  QueryResult r;
  try {
    run_with_large_stack([&] { r = run(sql, options); });
  } catch (...) {
    options.threads = threads;
    throw;
  }
  options.threads = threads;
  return r;
}

QueryResult Database::query(const std::string& sql, const QueryOptions& options) {
  QueryOptions local = options;
  return impl_->run_any_length(sql, local);
}

QueryResult Connection::query(const std::string& sql) { return db_.impl_->run_any_length(sql, options_); }

}  // namespace raydb
