#pragma once
// What `raydb calibrate` measured on this machine, as the cost model reads it: the
// bandwidths and, per device and index kind, the cost of a batch of lookups at a few
// index sizes. Stored as JSON in $RAYDB_CALIBRATION, else
// $XDG_CONFIG_HOME/raydb/calibration.json, else ~/.config/raydb/calibration.json.
// The measuring lives in cli/ (it needs the access methods); this class only holds,
// reads and writes the numbers, so plan/ depends on nothing above it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/physical/access_path.h"

namespace raydb::plan {

// Where an access path runs: the CPU executor (CPU indexes: Embree RT, sorted array,
// hash) or the CUDA backend (GPU-resident indexes: rt-gpu on OptiX, sa-gpu, hash-gpu).
enum class ExecDevice { kCpu, kGpu };
const char* exec_device_name(ExecDevice d);  // "cpu", "gpu"

// How a batch reaches the index: in the caller's order, sorted by the index first
// (the sort counted), or already sorted by key.
enum class ProbeOrder { kUnsorted, kIndexSorts, kPresorted };
const char* probe_order_name(ProbeOrder o);  // "unsorted", "index_sorts", "presorted"

// The measured lookup costs of one index kind on one device. ns[w][o][i] is the time
// per lookup (ns, the batch's device time divided by its lookups) of workload w
// (kPoint, kRange16, kRange256: rows per lookup 1, 16, 256; kPointMiss: points that
// find nothing) in probe order o with log2_keys[i] keys and 2^log2_lookups lookups
// (one batch size for all). An empty vector: not measured (hash has no ranges).
struct IndexCurves {
  static constexpr int kPoint = 0, kRange16 = 1, kRange256 = 2, kPointMiss = 3, kWorkloads = 4;
  static constexpr std::array<double, 4> kHits = {1, 16, 256, 0};
  double setup_ns = 0;               // fixed cost of one batch (launch, copies, prefix sum)
  double sort_setup_ns = 0;          // the same when the index sorts the batch (0: setup_ns)
  double log2_lookups = 0;           // batch size the curves were measured with
  std::vector<double> log2_keys;     // ascending
  std::array<std::array<std::vector<double>, 3>, kWorkloads> ns;
  // Unsorted batches: ns[w][kUnsorted] is the marginal cost of one more lookup and
  // unsorted_fixed_ns[w] the fixed cost of a batch (the slope and intercept of two
  // batch sizes, 2^log2_lookups and a quarter of it): a batch pays launch, tail and
  // ramp-up costs that a per-lookup figure at one size would spread over its lookups
  // (docs/benchmarks/rt-index-h200.md, "The cost model"). Empty: no fixed part.
  std::array<std::vector<double>, kWorkloads> unsorted_fixed_ns;
  bool empty() const { return log2_keys.empty(); }
  // The x of each measured point as the model reads it: log2(keys) for unsorted
  // batches (their cost does not depend on the batch size), log2(keys / lookups) for
  // sorted ones (a sorted batch walks the index like a merge, so what a lookup pays
  // depends on the gap to its neighbour, not on the index size:
  // docs/benchmarks/rt-index-h200.md, "The cost model").
  std::vector<double> axis(ProbeOrder o) const {
    std::vector<double> x = log2_keys;
    if (o != ProbeOrder::kUnsorted)
      for (double& v : x) v -= log2_lookups;
    return x;
  }
  const std::vector<double>& at(int workload, ProbeOrder o) const { return ns[size_t(workload)][size_t(o)]; }
};

class Calibration {
 public:
  // $RAYDB_CALIBRATION, else $XDG_CONFIG_HOME/raydb/calibration.json, else
  // ~/.config/raydb/calibration.json.
  static std::string default_path();
  // nullopt with *error empty when the file does not exist; nullopt with a one-line
  // *error when it cannot be read or is not a calibration (corrupt, wrong types).
  static std::optional<Calibration> load(const std::string& path, std::string* error);
  // Throws Error(kIO) when the file cannot be written. Writes a temporary file and
  // renames it, so a reader never sees half a file.
  void save(const std::string& path) const;

  nlohmann::ordered_json to_json() const;
  // Throws Error(kInvalidInput) naming the field that is missing or malformed.
  static Calibration from_json(const nlohmann::json& j);

  // Machine description and bandwidths (0: not measured).
  std::string cpu, gpu;
  int cpu_threads = 0;
  double cpu_read_gbs = 0, gpu_read_gbs = 0, host_to_device_gbs = 0;
  // Milliseconds of the device's first use in a process (context, memory pool, pinned
  // staging); 0: not measured (transfer_cost.h then estimates it).
  double gpu_first_use_ms = 0;
  int64_t timestamp = 0;
  // Sorting a batch by key (ns per lookup), as the indexes do for kIndexSorts
  // (included there); 0: not measured.
  double cpu_sort_ns_per_lookup = 0, gpu_sort_ns_per_lookup = 0;
  int cpu_index_threads = 0;  // threads the CPU index curves were measured with
  // RT views (RTCUDB), per device (the "rt_view" object: {"cpu": {...}, "gpu": {...}}):
  // nanoseconds per ray launched, per primitive hit, per traced view group and per
  // query (launch, buffers, result), and the star path there as star_fixed_ns +
  // star_scale x the planner's star formula (view_path.cpp star_cost_ms), so the two
  // estimates compare in the same unit. ray_ns and hit_ns 0: not measured, and then
  // `auto` never takes a view on that device (without RT cores a view loses to the
  // star path; a file modelling an RT-core GPU can say otherwise: calibration/).
  double view_ray_ns[2] = {0, 0}, view_hit_ns[2] = {0, 0};
  double view_group_ns[2] = {0, 0}, view_launch_ns[2] = {0, 0};
  double view_star_scale[2] = {0, 0};  // 0: 1 (the formula as is)
  double view_star_fixed_ns[2] = {0, 0};  // the star path's per-query cost on that device (planning, launches)
  std::string view_source;             // how the view constants were obtained (measured or a model)

  // The RT scan's methods (access/rt_scan), ns per unit of RtScanWork (cost_model.h):
  // rt_scan_cpu for the host index (single-thread), rt_scan_gpu for the GPU-resident
  // one (device time); measured = false: the compiled-in defaults apply.
  struct RtScanConstants {
    bool measured = false;
    double scan_ns_per_row_predicate = 0;  // cpu-scan / gpu-scan (per full-column read: RtScanWork::scan_columns)
    double sieve_ns_per_row_vector = 0;    // one sieving vector read
    double sieve_refine_ns_per_row = 0;    // cpu-sieve / gpu-sieve: one residual row re-checked
    double rt_refine_ns_per_row = 0;       // rt: one residual row found by rays
    double rt_ns_per_job = 0;              // rt: one launch (ray boxes, traversal setup)
    double fixed_ns = 0;                   // GPU: per evaluation (result vector, launches)
    double sieve_refine_job_ns = 0;        // gpu-sieve: one refine launch (a job with rows left to refine)
    // The sieve by the memory it touches (ScanEstimate::sieve_passes, refine_sectors,
    // slab_rows); 0 in files written before them: then the per-vector and per-row
    // terms above. Used where sieve_pass_ns_per_row > 0.
    double sieve_fixed_ns = 0;             // sieve methods' per-evaluation part (in place of fixed_ns)
    double sieve_pass_ns_per_row = 0;      // one pass of the sieve kernel over a column's bin codes
    double sieve_job_ns = 0;               // one sieve launch (conjunction job: its vector, the AND of jobs)
    double sieve_refine_ns_per_sector = 0; // gpu-sieve: one 32-byte sector its refine reads at random
    double rt_slab_ns_per_row = 0;         // rt: one row inside the residual slabs its rays cross
  };
  RtScanConstants rt_scan_cpu, rt_scan_gpu;

  IndexCurves& curves(ExecDevice d, IndexKind k) { return index_[size_t(d)][size_t(k)]; }
  const IndexCurves& curves(ExecDevice d, IndexKind k) const { return index_[size_t(d)][size_t(k)]; }

 private:
  std::array<std::array<IndexCurves, 3>, 2> index_{};
};

}  // namespace raydb::plan
