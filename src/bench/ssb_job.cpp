#include "bench/ssb_job.h"

#include <cstdio>

#include "bench/ssb_runner.h"

namespace raydb::bench {

void run_ssb_job(const SsbJobOptions& o) {
  Database db(ensure_ssb_database(o.dir, o.sf, 19920101, o.query.threads));
  auto timings = run_ssb_queries(db, o.query, 1, o.reps, {});
  if (!o.quiet) {
    for (auto& t : timings) {
      std::printf("-- %s\n", t.name.c_str());
      std::string s = format_result(t.first, OutputFormat::kTable);
      std::fputs(s.c_str(), stdout);
    }
  }
  std::printf("\nSSB SF %g on %s backend (%s), median of %d after 1 warm-up:\n", o.sf,
              timings.empty() ? "?" : timings[0].first.backend.c_str(), o.dir.c_str(), o.reps);
  std::printf("%-6s %8s %10s\n", "query", "rows", "median_ms");
  double sum = 0;
  for (auto& t : timings) {
    std::printf("%-6s %8zu %10.2f%s\n", t.name.c_str(), t.rows, t.median_ms, t.verified ? "" : "  (NOT VERIFIED)");
    sum += t.median_ms;
  }
  std::printf("%-6s %8s %10.2f\n", "total", "", sum);
}

}  // namespace raydb::bench
