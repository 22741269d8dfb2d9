// The CUDA backend's side of the seam; built in every build (without CUDA there is
// no device and unavailable() says why).
#include "exec/cuda/cuda_backend.h"

#include <cstdio>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "common/settings.h"
#include "common/stage_times.h"
#include "exec/cuda/cuda_plan_analysis.h"
#include "exec/cuda/gpu_index_catalog.h"
#include "exec/index/view_path.h"
#include "plan/logical/columns_read.h"
#include "plan/logical/limit_prefix.h"
#include "plan/physical/transfer_cost.h"
#include "storage/table.h"

namespace raydb::exec::cuda {

std::optional<Rejection> CudaBackend::unavailable() const {
  {
    // --timing: the device probe (the CUDA driver's start-up), or the wait for the
    // warm-up thread making it, is device time, not planning.
    StageScope stage(Stage::kDeviceInit);
    if (device_count() > 0) return std::nullopt;
  }
  return Rejection{ErrorKind::kNotImplemented, "no CUDA device: " + no_device_reason()};
}

bool CudaBackend::honours(AccessPolicy policy) const {
  return policy != AccessPolicy::kForceRt || gpu_index_supported(plan::IndexKind::kRt, nullptr);
}

std::optional<Rejection> CudaBackend::admit(plan::PhysicalPlan& plan, const Settings& settings) const {
  // The device budget is one per process; a connection that SET it applies it.
  if (settings.is_explicit("gpu_memory_limit")) set_memory_budget(settings.gpu_memory_limit());
  // LIMIT without ORDER BY or aggregation: the CPU reads only the prefix of the scan it
  // keeps (plan/logical/limit_prefix.h), while this backend would upload and scan whole
  // columns (seconds and gigabytes for `select * from big limit 3`). Declined, so that
  // `auto` runs it on the CPU.
  if (plan.query && !plan.query->tables.empty() && plan::scan_prefix_rows(*plan.query))
    return Rejection{ErrorKind::kNotImplemented,
                     "not supported on the CUDA backend yet: LIMIT without ORDER BY or aggregation (the CPU backend "
                     "reads only the rows it keeps)"};
  auto r = analyze_for_cuda(plan);
  if (auto* why = std::get_if<std::string>(&r))
    return Rejection{ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: " + *why};
  plan.analysis = std::get<std::shared_ptr<CudaPlanAnalysis>>(std::move(r));
  return std::nullopt;
}

std::optional<Rejection> CudaBackend::defer(const plan::PhysicalPlan& plan, const Settings& settings,
                                            int threads) const {
  const std::string off = settings.get("transfer_cost");
  if (off == "off" || off == "false" || off == "0") return std::nullopt;
  const auto a = std::dynamic_pointer_cast<const CudaPlanAnalysis>(plan.analysis);
  if (!a || a->bytes_to_upload == 0 || !plan.query) return std::nullopt;
  plan::TransferWork w;
  w.upload_bytes = a->bytes_to_upload;
  w.upload_host_bytes = a->host_bytes_to_upload;
  w.scan_bytes = plan::stored_bytes_read(*plan.query);
  w.device_ms = a->fused_pass_ms.value_or(0.0);
  w.device_ready = device_in_use();
  w.threads = threads;
  w.streamed = may_stream(*a, settings);
  const plan::TransferEstimate e = plan::estimate_transfer(w);
  if (!e.cpu_sooner()) return std::nullopt;
  return Rejection{ErrorKind::kNotImplemented,
                   fmt::format("the CPU answers sooner end to end: {} {:.1f} MB {} ({:.1f} ms estimated, {:.1f} ms on "
                               "the CPU; transfer_cost=off keeps the GPU)",
                               w.streamed ? "streaming" : "moving", double(w.upload_bytes) / 1e6,
                               w.streamed ? "through the GPU" : "to the GPU first", e.gpu_ms, e.cpu_ms)};
}

namespace {

// Out of admit, so a query that `auto` hands to the CPU never makes a device context
// (the budget's first reading does): raised as a run-time refusal, which `auto` passes
// on and a forced backend reports.
void check_budget(const CudaPlanAnalysis& a) {
  const uint64_t need = a.bytes_to_upload;
  if (need == 0) return;
  const MemoryStats m = memory_stats();
  if (m.in_use + need > m.budget)
    fail(ErrorKind::kOutOfMemory,
         "the query's columns ({:.2f} GiB) do not fit the GPU memory budget ({:.2f} GiB free of {:.2f})",
         double(need) / (1 << 30), double(m.budget - std::min(m.budget, m.in_use)) / (1 << 30),
         double(m.budget) / (1 << 30));
}

// The GPU-resident twins of the query's indexes; a kind this machine cannot build on
// the GPU (RT without OptiX) is left out, with a note on stderr once per index.
std::vector<IndexCandidate> gpu_candidates(const std::vector<IndexOnTable>& indexes) {
  std::vector<IndexCandidate> out;
  for (auto& ix : indexes) {
    std::string why;
    if (!gpu_index_supported(ix.kind, &why)) {
      static std::mutex m;
      static std::set<std::string> noted;
      std::lock_guard<std::mutex> g(m);
      if (noted.insert(to_lower(ix.definition.name)).second)
        std::fprintf(stderr, "index %s: not used on the CUDA backend (%s)\n", ix.definition.name.c_str(), why.c_str());
      continue;
    }
    IndexCandidate c;
    c.table = ix.table;
    c.column = ix.column;
    c.kind = ix.kind;
    c.columns = ix.columns;
    if (ix.kind == plan::IndexKind::kRtScan)
      c.build_scan = [def = ix.definition, table = ix.data]() { return gpu_scan_index(def, table); };
    else
      c.build = [def = ix.definition, table = ix.data]() { return gpu_index(def, table); };
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

void CudaBackend::prefetch(plan::PhysicalPlan& plan, const Settings& settings) const {
  const auto a = std::dynamic_pointer_cast<const CudaPlanAnalysis>(plan.analysis);
  if (!a || !settings.prefetch() || !settings.fast_load()) return;
  std::shared_ptr<PrefetchTicket> ticket = prefetch_columns(*a, plan.query.get(), settings);
  if (!ticket) return;
  auto with_ticket = std::make_shared<CudaPlanAnalysis>(*a);
  with_ticket->prefetch = std::move(ticket);
  plan.analysis = std::move(with_ticket);
}

void CudaBackend::choose_access_paths(plan::PhysicalPlan& plan, const std::vector<IndexOnTable>& indexes,
                                      AccessPolicy policy, const Settings& settings) const {
  {
    // The context made on the warm-up thread (device_warmup.h): joined before this
    // query's first device call; what was not hidden shows as device_init.
    StageScope stage(Stage::kDeviceInit);
    wait_device_warmup();
  }
  if (auto a = std::dynamic_pointer_cast<const CudaPlanAnalysis>(plan.analysis)) {
    // Larger than the GPU: a star plan whose fact columns do not fit streams them.
    if (std::optional<StreamPlan> s = plan_streaming(*a, *plan.query, settings)) {
      auto streamed = std::make_shared<CudaPlanAnalysis>(*a);
      streamed->stream = s;
      streamed->label = "star kernels, " + s->describe();
      plan.analysis = std::move(streamed);
    } else {
      check_budget(*a);
    }
  }
  // An RT view answers the whole query in one OptiX launch (where OptiX is built;
  // elsewhere --backend rt goes to the CPU backend and Embree, see honours()). OptiX is
  // probed only when the database has a view: its probe loads the OptiX library and
  // makes an OptiX context, likely most of the 140-155 ms `plan` stage of session 13's
  // one-shot CUDA runs without warm-up (under 1 ms on the CPU backend).
  if (views_ && !views_->views().empty() && gpu_index_supported(plan::IndexKind::kRt, nullptr)) {
    choose_view(plan, *views_, policy, plan::ExecDevice::kGpu, rt_view_per_hit(settings));
    if (plan.view_scan) {
      plan.clear_index_paths();
      return;
    }
  }
  const std::shared_ptr<const CudaPlanAnalysis> a = analysis_of(plan);
  AccessOptions o;
  o.policy = policy;
  o.paths = settings.index_paths();
  o.rt_scan_method = settings.rt_scan_method();
  o.rt_scan_adaptive_margin = settings.rt_scan_adaptive_margin();
  o.device = plan::ExecDevice::kGpu;
  o.fused_pass_ms = a->fused_pass_ms;
  exec::choose_access_paths(plan, gpu_candidates(indexes), o);
  if (!plan.has_index_paths()) return;
  // Index paths run on the general path: compile it for the final plan now (when it
  // does not compile, execution reports why, as before the choice).
  auto g = general::analyze_general(plan);
  if (auto* gp = std::get_if<general::GeneralPlan>(&g)) {
    auto with_paths = std::make_shared<CudaPlanAnalysis>(*a);
    with_paths->general = std::move(*gp);
    with_paths->general_with_index_paths = true;
    plan.analysis = std::move(with_paths);
  }
}

bool CudaBackend::plans_without_device_lock(const std::vector<IndexOnTable>& indexes, const Settings& settings) const {
  return indexes.empty() && (!views_ || views_->views().empty()) && !settings.is_explicit("gpu_memory_limit");
}

bool CudaBackend::verifies_while_loading(const Column& c, const Settings& settings) const {
  return settings.fast_load() && c.narrowed() != nullptr;
}

ResultTable CudaBackend::execute(const plan::PhysicalPlan& plan, const ExecOptions& options) const {
  use_fast_load(options.settings.fast_load(), options.settings.upload_chunk());
  use_upload_streams(options.settings.upload_streams(), options.settings.upload_staging());
  if (plan.view_scan) return run_view(plan, gpu_view_tracer());
  return CudaExecutor::execute(plan, options);
}

}  // namespace raydb::exec::cuda
