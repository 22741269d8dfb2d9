#include <omp.h>

#include <cstdio>
#include <mutex>
#include <set>

#include "common/timer.h"
#include "access/rt_index/index_config.h"
#include "exec/cpu/cpu_executor.h"
#include "exec/index/access_path_chooser.h"
#include "exec/index/index_catalog.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/cuda/gpu_index_catalog.h"
#include "rt/tracer.h"
#include "plan/physical/physical_planner.h"
#include "raydb/raydb.h"
#include "sql/sql.h"

namespace raydb {

Backend parse_backend(std::string_view name) { return plan::parse_backend_request(name); }

const char* backend_name(Backend b) { return plan::backend_request_name(b); }

std::unique_ptr<Database> Database::open(const std::string& path) {
  return std::make_unique<Database>(DatabaseDirectory::open(path));
}

Database::Database(std::shared_ptr<DatabaseDirectory> dir)
    : dir_(std::move(dir)), indexes_(std::make_shared<exec::IndexCatalog>()) {}

namespace {

// Copies executor vectors into the API's owned result columns.
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
      case exec::VectorKind::kInt: d.ints.assign(v.ints.begin(), v.ints.begin() + long(n)); break;
      case exec::VectorKind::kHuge: d.huge.assign(v.huge.begin(), v.huge.begin() + long(n)); break;
      case exec::VectorKind::kDouble: d.doubles.assign(v.doubles.begin(), v.doubles.begin() + long(n)); break;
      case exec::VectorKind::kCode:
      case exec::VectorKind::kString:
        d.strings.reserve(n);
        for (size_t i = 0; i < n; i++) d.strings.emplace_back(v.is_null(i) ? std::string_view() : v.string_at(i));
        break;
    }
    if (v.has_nulls()) d.nulls.assign(v.nulls.begin(), v.nulls.begin() + long(n));
    cols.push_back(std::move(d));
  }
  r.set_row_count(t.rows);
  return r;
}

// What the CUDA backend can do, for the planner's backend choice.
const plan::BackendCapabilities& capabilities() {
  static plan::BackendCapabilities caps = [] {
    plan::BackendCapabilities c;
    c.cuda_devices = exec::cuda::device_count();
    c.cuda_missing = exec::cuda::no_device_reason();
    c.cuda_unsupported = [](const plan::PhysicalPlan& p) { return exec::cuda::unsupported_reason(p); };
    c.cuda_does_not_fit = [](const plan::PhysicalPlan& p) -> std::optional<std::string> {
      const uint64_t need = exec::cuda::bytes_to_upload(p);
      const exec::cuda::MemoryStats m = exec::cuda::memory_stats();
      if (need > 0 && m.in_use + need > m.budget)
        return fmt::format("the query's columns ({:.2f} GiB) do not fit the GPU memory budget ({:.2f} GiB free of {:.2f})",
                           double(need) / (1 << 30), double(m.budget - std::min(m.budget, m.in_use)) / (1 << 30),
                           double(m.budget) / (1 << 30));
      return std::nullopt;
    };
    return c;
  }();
  return caps;
}

QueryResult status_result(const std::string& text) {
  QueryResult r;
  QueryResult::ColumnData d;
  d.name = "status";
  d.type = Type::varchar();
  d.strings.push_back(text);
  r.columns().push_back(std::move(d));
  r.set_row_count(1);
  r.backend = "catalog";
  return r;
}

// The indexes on the query's tables, each built only when the chooser asks for it:
// by the database's CPU catalog, or ([gpuidx]) as GPU-resident indexes for a plan on
// the CUDA backend, where a kind this machine cannot build on the GPU (RT without
// OptiX) is left out, with a note on stderr once per index.
std::vector<exec::IndexCandidate> index_candidates(const plan::LogicalQuery& q, const DatabaseDirectory& dir,
                                                   const std::shared_ptr<exec::IndexCatalog>& catalog,
                                                   bool gpu = false) {
  std::vector<exec::IndexCandidate> out;
  std::vector<IndexDefinition> defs = dir.indexes();
  for (auto& def : defs)
    for (size_t t = 0; t < q.tables.size(); t++) {
      if (!iequals(q.tables[t].name, def.table)) continue;
      const TablePtr& table = q.tables[t].table;
      int column = -1;
      for (size_t c = 0; c < table->column_count(); c++)
        if (iequals(table->column(c).name(), def.column)) column = int(c);
      if (column < 0) continue;
      exec::IndexCandidate c;
      c.table = int(t);
      c.column = column;
      c.kind = def.kind == "rt" ? plan::IndexKind::kRt : def.kind == "sorted" ? plan::IndexKind::kSorted
                                                                               : plan::IndexKind::kHash;
      c.build = [catalog, def, table]() { return catalog->get(def, table); };
      if (gpu) {
        std::string why;
        if (!exec::cuda::gpu_index_supported(c.kind, &why)) {
          static std::mutex m;
          static std::set<std::string> noted;
          std::lock_guard<std::mutex> g(m);
          if (noted.insert(to_lower(def.name)).second)
            std::fprintf(stderr, "index %s: not used on the CUDA backend (%s)\n", def.name.c_str(), why.c_str());
          continue;
        }
        c.build = [def, table]() { return exec::cuda::gpu_index(def, table); };
      }
      out.push_back(std::move(c));
    }
  return out;
}

}  // namespace

QueryResult Database::create_index(IndexDefinition def) {
  Timer timer;
  // Everything is checked, and the index built, before the catalog is written: a
  // failure leaves the directory as it was. DatabaseDirectory re-checks the names
  // under its lock.
  access::parse_index_config(def.kind, def.options);  // bad kind or option
  for (auto& d : dir_->indexes())
    if (iequals(d.name, def.name)) fail(ErrorKind::kCatalog, "index {} already exists (on {}.{})", d.name, d.table, d.column);
  TablePtr table = dir_->table(def.table);
  if (!table) fail(ErrorKind::kBinder, "unknown table '{}'", def.table);
  def.table = table->name();
  const Column* col = nullptr;
  for (size_t c = 0; c < table->column_count(); c++)
    if (iequals(table->column(c).name(), def.column)) col = &table->column(c);
  if (!col) fail(ErrorKind::kBinder, "table '{}' has no column '{}'", table->name(), def.column);
  def.column = col->name();
  access::KeyType kt;
  if (!exec::key_type_for(col->type(), kt))
    fail(ErrorKind::kInvalidInput, "cannot index column {}.{} of type {} (indexes take INTEGER, BIGINT, DECIMAL, DATE "
         "and VARCHAR keys)", table->name(), col->name(), col->type().to_string());
  for (auto& [k, v] : def.options) k = to_lower(k);
  indexes_->get(def, table);  // builds it (and keeps it for the queries to come)
  dir_->create_index(def);
  QueryResult r = status_result("CREATE INDEX");
  r.elapsed_ms = timer.elapsed_ms();
  return r;
}

QueryResult Database::drop_index(const std::string& name, bool if_exists) {
  Timer timer;
  bool dropped = dir_->drop_index(name, if_exists);
  QueryResult r = status_result(dropped ? "DROP INDEX" : "DROP INDEX (no such index, skipped)");
  r.elapsed_ms = timer.elapsed_ms();
  return r;
}

QueryResult Database::query(const std::string& sql, const QueryOptions& options) {
  Timer timer;
  sql::BoundStatement stmt = sql::parse_and_bind(sql, [this](std::string_view name) { return dir_->table(name); });
  if (stmt.kind == sql::StatementKind::kCreateIndex) return create_index(std::move(stmt.index));
  if (stmt.kind == sql::StatementKind::kDropIndex) return drop_index(stmt.index.name, stmt.if_exists);
  plan::PlannerOptions popts;
  auto logical = std::make_shared<plan::LogicalQuery>(std::move(stmt.query));
  plan::PhysicalPlan physical = plan::plan_query(logical, popts);
  physical.backend = plan::choose_backend(options.backend, physical, capabilities());
  // [gpuidx] --backend rt: on a machine with CUDA and OptiX, the CUDA backend with
  // rt-gpu indexes when it runs the plan; else the CPU executor with Embree.
  if (options.backend == Backend::kRt && exec::cuda::gpu_index_supported(plan::IndexKind::kRt, nullptr) &&
      plan::choose_backend(Backend::kAuto, physical, capabilities()) == plan::BackendKind::kCuda)
    physical.backend = plan::BackendKind::kCuda;
  // Access paths (scan or index, hash join or index join), chosen once the backend
  // is: host indexes for the CPU executor, GPU-resident ones for the CUDA backend.
  const exec::AccessPolicy policy = options.backend == Backend::kRt    ? exec::AccessPolicy::kForceRt
                                    : options.backend == Backend::kCpu ? exec::AccessPolicy::kNoRt
                                                                       : exec::AccessPolicy::kCost;
  auto choose_cpu_paths = [&]() {
    exec::choose_access_paths(physical, index_candidates(*logical, *dir_, indexes_), policy);
  };
  if (physical.backend == plan::BackendKind::kCpu) {
    choose_cpu_paths();
  } else {
    exec::AccessOptions ao;
    ao.policy = policy;
    ao.device = plan::ExecDevice::kGpu;
    ao.fused_pass_ms = [](const plan::PhysicalPlan& p) { return exec::cuda::fused_pass_cost_ms(p); };
    try {
      exec::choose_access_paths(physical, index_candidates(*logical, *dir_, indexes_, true), ao);
    } catch (const Error& e) {
      // A GPU index that cannot be built (out of device memory): `auto` and `rt` run
      // on the CPU instead; a forced `cuda` reports it.
      if (options.backend == Backend::kCuda ||
          (e.kind() != ErrorKind::kOutOfMemory && e.kind() != ErrorKind::kNotImplemented))
        throw;
      physical.backend = plan::BackendKind::kCpu;
      choose_cpu_paths();
    }
  }
  if (stmt.kind == sql::StatementKind::kExplain) {
    QueryResult r;
    QueryResult::ColumnData d;
    d.name = "plan";
    d.type = Type::varchar();
    d.strings.push_back(physical.explain());
    r.columns().push_back(std::move(d));
    r.set_row_count(1);
    r.explain = physical.explain();
    r.backend = plan::backend_kind_name(physical.backend);
    r.elapsed_ms = timer.elapsed_ms();
    return r;
  }
  exec::ExecOptions eopts;
  eopts.threads = options.threads;
  eopts.settings = options.settings;
  exec::ResultTable table;
  if (physical.backend == plan::BackendKind::kCuda) {
    try {
      table = exec::cuda::CudaExecutor::execute(physical, eopts);
    } catch (const Error& e) {
      // `auto` (and `rt`, [gpuidx]) falls back to the CPU when the GPU runs out of
      // memory or meets a shape it rejects at run time; a forced `cuda` reports the error.
      if (options.backend == Backend::kCuda || options.backend == Backend::kCpu ||
          (e.kind() != ErrorKind::kOutOfMemory && e.kind() != ErrorKind::kNotImplemented))
        throw;
      physical.backend = plan::BackendKind::kCpu;
      choose_cpu_paths();  // the CPU executor's own indexes
      table = exec::CpuExecutor::execute(physical, eopts);
    }
  } else {
    table = exec::CpuExecutor::execute(physical, eopts);
  }
  QueryResult r = to_query_result(table);
  r.backend = plan::backend_kind_name(physical.backend);
  r.elapsed_ms = timer.elapsed_ms();
  r.device_ms = table.device_ms;
  r.device_bytes = table.device_bytes;
  return r;
}

}  // namespace raydb
