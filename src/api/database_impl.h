#pragma once
// Database::Impl, shared by the files of api/ that carry out statements (database.cpp:
// queries, indexes, RT views, settings; table_ddl.cpp: tables, INSERT, COPY, views).
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>

#include "api/plan_cache.h"
#include "common/timer.h"
#include "exec/cpu/cpu_backend.h"
#include "exec/cuda/cuda_backend.h"
#include "exec/index/index_catalog.h"
#include "exec/query_driver.h"
#include "raydb/raydb.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"

namespace raydb {

// The database's directory, its built host indexes, and the query driver over its
// backends in preference order: CUDA, then the CPU (which takes every plan).
struct Database::Impl {
  explicit Impl(std::shared_ptr<DatabaseDirectory> d)
      : dir(std::move(d)),
        indexes(std::make_shared<exec::IndexCatalog>()),
        views(std::make_shared<exec::ViewCatalog>()),
        driver({std::make_shared<exec::cuda::CudaBackend>(views), std::make_shared<exec::CpuBackend>(indexes, views)}) {}

  QueryResult run(const std::string& sql, QueryOptions& options);
  QueryResult run_any_length(const std::string& sql, QueryOptions& options);  // run, on a large stack if long
  QueryResult create_index(IndexDefinition def);
  QueryResult drop_index(const std::string& name, bool if_exists);
  QueryResult setting(const sql::BoundStatement& stmt, QueryOptions& options);
  QueryResult create_rt_view(const sql::CreateRtViewStatement& stmt);
  QueryResult drop_rt_view(const std::string& name, bool if_exists, bool rt_only);
  // A bound SELECT planned and run (or explained; with `analyze`, run and explained
  // with what each operator did) on the connection's backend.
  QueryResult run_query(plan::LogicalQuery query, QueryOptions& options, bool explain, bool analyze = false);
  // The planner's plan of a bound SELECT and the indexes on its tables (what the plan
  // cache keeps), and a plan run (or explained) on the connection's backend.
  std::shared_ptr<const api::CachedPlan> plan_select(plan::LogicalQuery query);
  QueryResult execute_plan(const api::CachedPlan& planned, QueryOptions& options, bool explain, bool analyze);
  // A SELECT whose text the plan cache holds for the current catalog, run from its
  // plan; nullopt on a miss (the caller parses and plans).
  std::optional<QueryResult> run_cached(const std::string& sql, QueryOptions& options, const Timer& timer);
  api::CatalogVersion catalog_version() const { return {dir->generation(), registered_version.load()}; }
  QueryResult explain_analyze(plan::PhysicalPlan& physical, const exec::ExecutionRequest& request,
                              const std::vector<exec::IndexOnTable>& indexes, QueryOptions& options);
  // Looks a name up for the binder: a registered table (register_table), else a
  // stored table, else a plain view's rows (run now).
  TablePtr resolve(std::string_view name, QueryOptions& options);
  TablePtr registered_table(std::string_view name) const;  // nullptr when none
  bool is_registered(std::string_view name) const;
  // The binder's view lookup (plain views' SQL), so that simple views are inlined.
  sql::ViewLookup view_sql() const;

  // Tables and plain views (table_ddl.cpp).
  QueryResult table_statement(sql::BoundStatement& stmt, QueryOptions& options);
  QueryResult create_table(sql::BoundStatement& stmt, QueryOptions& options);
  QueryResult drop_table(const sql::DropTableStatement& stmt);
  QueryResult insert(sql::BoundStatement& stmt, QueryOptions& options);
  QueryResult copy_from(const sql::CopyStatement& stmt);
  QueryResult copy_to(sql::BoundStatement& stmt, QueryOptions& options);
  QueryResult create_view(sql::BoundStatement& stmt);
  QueryResult modify(sql::BoundStatement& stmt, QueryOptions& options);  // UPDATE, DELETE
  TablePtr view_rows(const ViewEntry& view, QueryOptions& options);
  // Plain views being expanded now by this thread (nested views stop at a limit); per
  // thread, as concurrent readers expand views at once.
  static thread_local int view_depth;
  bool views_bind_only = false;  // resolve views to empty tables of their columns (CREATE VIEW's check)

  // While alive (and `on`): views resolve bind-only, one level deep already.
  struct ViewCheck {
    Impl& impl;
    bool on;
    ViewCheck(Impl& i, bool o) : impl(i), on(o) {
      if (on) impl.views_bind_only = true, impl.view_depth++;
    }
    void done() {
      if (on) impl.views_bind_only = false, impl.view_depth--;
      on = false;
    }
    ~ViewCheck() { done(); }
  };

  std::shared_ptr<DatabaseDirectory> dir;
  std::shared_ptr<exec::IndexCatalog> indexes;  // built host indexes, made on first use
  std::shared_ptr<exec::ViewCatalog> views;     // RT views: rows loaded and BVHs built on first use
  exec::QueryDriver driver;
  std::map<std::string, TablePtr> registered;  // by lower-case name; in memory only
  mutable std::mutex registered_mutex;
  std::atomic<uint64_t> registered_version{0};  // raised by register_table / unregister_table
  api::PlanCache plan_cache;
  // Statements that change the catalog or data hold it exclusively, all others shared,
  // so that a query never sees a catalog half changed by another thread.
  std::shared_mutex catalog_mutex;
  FileAccess file_access;
  // Throws (kIO) unless `path` may be read (`write` false) or written under file_access.
  void check_file_access(const std::string& path, bool write) const;
};


// One-row, one-column results of statements (column "status").
QueryResult status_result(const std::string& text);

}  // namespace raydb
