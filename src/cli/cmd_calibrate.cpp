// raydb calibrate: measures what the planner's cost model uses on this machine and
// stores it (bench/calibration).
#include "bench/calibration.h"
#include "cli/commands.h"
#include "common/error.h"

namespace raydb::cli {

namespace {

std::vector<int> parse_log2s(const std::string& s, const char* flag) {
  std::vector<int> out;
  size_t p = 0;
  while (p <= s.size()) {
    size_t c = s.find(',', p);
    if (c == std::string::npos) c = s.size();
    try {
      const int v = std::stoi(s.substr(p, c - p));
      if (v < 8 || v > 30) throw std::out_of_range("");
      if (!out.empty() && v <= out.back()) throw std::out_of_range("");
      out.push_back(v);
    } catch (const std::exception&) {
      fail(ErrorKind::kInvalidInput, "{}: ascending log2 sizes in 8..30, comma-separated (got '{}')", flag, s);
    }
    p = c + 1;
  }
  return out;
}

}  // namespace

void register_calibrate(CLI::App& app) {
  auto* cmd = app.add_subcommand("calibrate", "Measure bandwidths and index lookup costs for the planner and store them");
  struct Args {
    std::string devices = "cpu,gpu", cpu_keys = "14,17,20", gpu_keys = "16,19,22,24,26";
    int cpu_lookups = 13, gpu_lookups = 22, reps = 3, rt_scan_rows = 21, rt_scan_gpu_rows = 26;
    bool no_index = false, no_views = false, views_only = false;
    double view_sf = 0;
    std::string view_db;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--devices", a->devices, "devices to measure: cpu, gpu or both (a GPU is skipped when absent)")
      ->check(CLI::IsMember({"cpu", "gpu", "cpu,gpu", "gpu,cpu"}));
  cmd->add_option("--cpu-log-keys", a->cpu_keys, "log2 key counts of the CPU index measurements (at least two)");
  cmd->add_option("--gpu-log-keys", a->gpu_keys, "log2 key counts of the GPU index measurements (at least two)");
  cmd->add_option("--cpu-log-lookups", a->cpu_lookups, "log2 batch size of the CPU index measurements")->check(CLI::Range(8, 24));
  cmd->add_option("--gpu-log-lookups", a->gpu_lookups, "log2 batch size of the GPU index measurements")->check(CLI::Range(8, 27));
  cmd->add_option("--reps", a->reps, "timed runs per index measurement (median)")->check(CLI::Range(1, 100));
  cmd->add_option("--rt-scan-log-rows", a->rt_scan_rows, "log2 rows of the CPU RT scan measurement (3 columns)")
      ->check(CLI::Range(12, 28));
  cmd->add_option("--rt-scan-gpu-log-rows", a->rt_scan_gpu_rows, "log2 rows of the GPU RT scan measurement (3 columns)")
      ->check(CLI::Range(12, 30));
  cmd->add_flag("--no-index", a->no_index, "bandwidths only");
  cmd->add_flag("--no-views", a->no_views, "skip the RT view measurement");
  cmd->add_flag("--views-only", a->views_only,
                "measure only RT views (SSB star path vs views) and keep the stored file's other numbers");
  cmd->add_option("--view-sf", a->view_sf, "SSB scale factor of the RT view measurement (default 1 with a GPU, else 0.1)")
      ->check(CLI::Range(0.001, 100.0));
  cmd->add_option("--view-db", a->view_db, "SSB database for the RT view measurement (default: generated, then removed)");
  cmd->callback([a]() {
    bench::CalibrationOptions o;
    o.cpu = a->devices.find("cpu") != std::string::npos;
    o.gpu = a->devices.find("gpu") != std::string::npos;
    o.index.cpu_log2_keys = parse_log2s(a->cpu_keys, "--cpu-log-keys");
    o.index.gpu_log2_keys = parse_log2s(a->gpu_keys, "--gpu-log-keys");
    o.index.cpu_log2_lookups = a->cpu_lookups;
    o.index.gpu_log2_lookups = a->gpu_lookups;
    o.index.reps = a->reps;
    o.bandwidths_only = a->no_index;
    o.rt_scan_log2_rows = a->rt_scan_rows;
    o.rt_scan_gpu_log2_rows = a->rt_scan_gpu_rows;
    o.views = !a->no_views;
    o.views_only = a->views_only;
    o.view.sf = a->view_sf;
    o.view.dir = a->view_db;
    o.view.reps = std::max(3, a->reps);
    bench::run_calibration(o);
  });
}

}  // namespace raydb::cli
