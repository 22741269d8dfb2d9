#include "cli/timing_report.h"

#include <sys/resource.h>

#include <cstdio>

#include "common/stage_times.h"
#include "raydb/system.h"

namespace raydb::cli {

TimingReport::TimingReport() : segment_start_ms_(process_start_ms()) {
  StageTimes& t = StageTimes::instance();
  t.reset();
  // Everything before this point (exec, dynamic loading, static initialisers, argument
  // parsing) is start-up, with every page fault so far.
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  t.add(Stage::kStartup, monotonic_ms() - segment_start_ms_, u.ru_minflt, u.ru_majflt);
}

void TimingReport::print(double elapsed_ms, const std::string& backend, double device_ms) {
  const double now = monotonic_ms();
  const StageTotals s = StageTimes::instance().snapshot();
  const double total = now - segment_start_ms_;
  std::fprintf(stderr, "time: %.3f ms (backend %s)\n", elapsed_ms, backend.c_str());
  std::fprintf(stderr, "end-to-end: %.3f ms, stages %.3f ms, other %.3f ms (in no stage)\n", total,
               s.sum_ms(), total - s.sum_ms());
  for (size_t i = 0; i < size_t(Stage::kCount); i++) {
    const auto st = Stage(i);
    // Stages that did not happen (the device's on the CPU backend) are left out.
    const bool always = st == Stage::kStartup || st == Stage::kOpen || st == Stage::kExecute || st == Stage::kFormat;
    if (!always && s.ms[i] == 0 && s.minflt[i] == 0 && s.majflt[i] == 0) continue;
    std::fprintf(stderr, "  stage %-15s %10.3f ms  minflt %8lld  majflt %6lld\n", stage_name(st), s.ms[i],
                 static_cast<long long>(s.minflt[i]), static_cast<long long>(s.majflt[i]));
  }
  if (device_ms >= 0) std::fprintf(stderr, "  kernels         %10.3f ms  (device events, inside execute)\n", device_ms);
  // The GPU warm-up's own time, hidden behind the stages above (its wait is device_init).
  if (const double w = gpu_warmup_ms(); w >= 0)
    std::fprintf(stderr, "  warmup          %10.3f ms  (GPU driver and context on a background thread)\n", w);
  else if (gpu_warmup_running())
    std::fprintf(stderr, "  warmup          running (GPU driver and context on a background thread, not waited for)\n");
  // Read-ahead and staging work on background threads, hidden behind the stages (their
  // waits are prefetch_wait and upload).
  if (const double p = s.background_ms[size_t(Background::kPrefetch)]; p > 0)
    std::fprintf(stderr, "  prefetch        %10.3f ms  (column files read and verified ahead on background threads)\n", p);
  if (const double p = s.background_ms[size_t(Background::kStagingPinned)]; p > 0)
    std::fprintf(stderr, "  staging_pinned  %10.3f ms  (pinned upload buffers made on the warm-up thread)\n", p);
  std::fprintf(stderr, "  bytes");
  for (size_t i = 0; i < size_t(ByteCount::kCount); i++)
    std::fprintf(stderr, " %s %llu", byte_count_name(ByteCount(i)), static_cast<unsigned long long>(s.bytes[i]));
  std::fprintf(stderr, "\n");
  StageTimes::instance().reset();
  segment_start_ms_ = monotonic_ms();
}

}  // namespace raydb::cli
