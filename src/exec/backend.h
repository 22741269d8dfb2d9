#pragma once
// The backend seam: what every execution backend (cpu, cuda, and any later one)
// implements, and all the query driver (query_driver.h) knows of it. A backend
//   - says whether it exists on this machine (unavailable),
//   - admits a plan or says why not, analysing it once and leaving the analysis in
//     the plan (PhysicalPlan::analysis) for its own later steps,
//   - chooses the plan's access paths among the indexes on its tables, on its own
//     device and costs, under the request's access policy,
//   - executes the plan.
// Adding a backend: implement this interface, construct it in api/ (database.cpp),
// and give its plan::BackendKind a name; the driver does the rest.
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/settings.h"
#include "exec/core/result_table.h"
#include "exec/index/access_path_chooser.h"
#include "plan/physical/physical_plan.h"
#include "storage/index_definition.h"

namespace raydb::exec {

// Why a backend does not take a plan: one line, and the error kind a forced request
// reports (kNotImplemented for shapes or missing devices, kOutOfMemory for plans that
// do not fit).
struct Rejection {
  ErrorKind kind = ErrorKind::kNotImplemented;
  std::string reason;
};

// An index defined on one of the query's tables (from the catalog); each backend
// builds its own kind of it (host or GPU-resident) only when its access-path choice
// asks for it.
struct IndexOnTable {
  int table = -1;   // index into LogicalQuery::tables
  int column = -1;  // column index in that table
  std::vector<int> columns;  // every indexed column in index order (rtscan: several)
  plan::IndexKind kind = plan::IndexKind::kRt;
  IndexDefinition definition;
  TablePtr data;  // the table object the query reads
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual plan::BackendKind kind() const = 0;

  // Why this backend cannot run anything on this machine (no device), or nullopt.
  virtual std::optional<Rejection> unavailable() const = 0;
  // Whether it can honour `policy`; kForceRt needs RT indexes on its device.
  virtual bool honours(AccessPolicy policy) const = 0;
  // Whether it runs `plan`: analyses it (once) and keeps the analysis in plan.analysis.
  virtual std::optional<Rejection> admit(plan::PhysicalPlan& plan, const Settings& settings) const = 0;
  // Under `auto` only, after admit: why the next backend should run the plan although
  // this one could (moving the data to the device costs more than the next backend's
  // whole run); nullopt keeps it. The last backend is never asked.
  virtual std::optional<Rejection> defer(const plan::PhysicalPlan& plan, const Settings& settings, int threads) const {
    (void)plan;
    (void)settings;
    (void)threads;
    return std::nullopt;
  }
  // Whether this backend checks column `c` itself in the pass that reads it for
  // execution, before any answer is returned (the CUDA loader checksums a narrowed
  // file while copying it), so the driver need not read and verify it first.
  virtual bool verifies_while_loading(const Column& c, const Settings& settings) const {
    (void)c;
    (void)settings;
    return false;
  }
  // Whether admit, defer and choose_access_paths for a plan with `indexes` (and these
  // settings) touch no
  // device state that a running statement uses (they only analyse the plan), so the
  // driver need not hold the device lock for them. GPU statements still run one at a
  // time; only their planning overlaps another's device work.
  virtual bool plans_without_device_lock(const std::vector<IndexOnTable>& indexes, const Settings& settings) const {
    (void)indexes;
    (void)settings;
    return false;
  }
  // The driver is about to run `plan` here (not for EXPLAIN): the backend may start
  // reading what the plan will read, in the background, before choose_access_paths
  // (which may wait for the device). Whatever it keeps for that lives in the plan.
  virtual void prefetch(plan::PhysicalPlan& plan, const Settings& settings) const {
    (void)plan;
    (void)settings;
  }
  // Sets plan.index_scans and the join steps' index joins. May throw
  // Error(kOutOfMemory / kNotImplemented) when an index cannot be built on its device.
  virtual void choose_access_paths(plan::PhysicalPlan& plan, const std::vector<IndexOnTable>& indexes,
                                   AccessPolicy policy, const Settings& settings) const = 0;
  // Runs an admitted plan. Error(kOutOfMemory / kNotImplemented) when it turns the
  // plan down at run time (the driver may then fall back).
  virtual ResultTable execute(const plan::PhysicalPlan& plan, const ExecOptions& options) const = 0;
};

}  // namespace raydb::exec
