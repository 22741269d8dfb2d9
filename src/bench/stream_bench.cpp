#include "bench/stream_bench.h"

#include <cstdio>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/ssb_runner.h"
#include "bench/timing_stats.h"
#include "common/error.h"
#include "raydb/system.h"

namespace raydb::bench {

namespace {

const char* const kQueries[] = {"q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1",
                                "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3"};

bool selected(const StreamBenchOptions& o, const std::string& q) {
  return o.only_text.empty() || ("," + o.only_text + ",").find("," + q + ",") != std::string::npos;
}

struct StreamRow {
  std::string query;
  uint64_t need = 0, limit = 0, fact_bytes = 0;
  TimingStats resident_dev, streamed_dev, streamed_wall;
  bool streamed = false, equal = true;
};

// One query: resident (columns uploaded into an empty cache give its need), then
// streamed under the limit (its first run fills the pinned host copies, untimed), then
// the CPU backend for the answer check.
StreamRow run_query(Database& db, const std::string& name, const StreamBenchOptions& o) {
  StreamRow row;
  row.query = name;
  const std::string sql = ssb_query_sql(name);
  QueryOptions resident;
  resident.backend = Backend::kCuda;
  resident.settings.set("gpu_memory_limit", "0");  // the device's default budget
  drop_gpu_resident_columns();
  const QueryResult first = db.query(sql, resident);
  row.need = gpu_memory_in_use();
  row.fact_bytes = first.device_bytes;
  const QueryTiming r = time_query(db, name, sql, resident, 1, o.reps);
  row.resident_dev = summarize(r.device_ms);
  drop_gpu_resident_columns();
  QueryOptions streamed = resident;
  row.limit = uint64_t(double(row.need) * o.fraction);
  streamed.settings.set("gpu_memory_limit", std::to_string(row.limit));
  row.streamed = db.query("explain " + sql, streamed).explain.find("streamed (") != std::string::npos;
  const QueryTiming s = time_query(db, name, sql, streamed, 1, o.reps);
  row.streamed_dev = summarize(s.device_ms);
  row.streamed_wall = summarize(s.times_ms);
  QueryOptions cpu;
  cpu.backend = Backend::kCpu;
  row.equal = r.verified && s.verified && same_result(s.first, first) && same_result(s.first, db.query(sql, cpu));
  return row;
}

nlohmann::ordered_json record(const StreamRow& r, const StreamBenchOptions& o, double h2d_gbs) {
  nlohmann::ordered_json j;
  j["suite"] = "ssb";
  j["mode"] = "streamed";
  j["query"] = r.query;
  j["fraction"] = o.fraction;
  j["columns_bytes"] = r.need;
  j["gpu_memory_limit"] = r.limit;
  j["streamed"] = r.streamed;
  j["fact_bytes"] = r.fact_bytes;
  j["resident_device_ms"] = r.resident_dev.median;
  j["streamed_device_ms"] = r.streamed_dev.median;
  j["streamed_wall_ms"] = r.streamed_wall.median;
  j["streamed_gbs"] = double(r.fact_bytes) / (r.streamed_dev.median * 1e6);
  j["h2d_gbs"] = h2d_gbs;
  j["equal"] = r.equal;
  return j;
}

}  // namespace

void run_stream_bench(const StreamBenchOptions& o) {
  auto db = Database::open(o.dir);
  const double h2d = measure_host_to_gpu_gbs();
  std::ofstream json;
  if (!o.json.empty()) json.open(o.json);
  std::printf("pinned host-to-device bandwidth: %.2f GB/s; gpu_memory_limit = %.2f x each query's columns\n", h2d,
              o.fraction);
  std::printf("%-6s %10s %10s %9s %11s %11s %11s %8s %7s %6s\n", "query", "columns", "limit", "streamed",
              "resident ms", "streamed ms", "wall ms", "GB/s", "of H2D", "equal");
  bool all_equal = true;
  for (const char* q : kQueries) {
    if (!selected(o, q)) continue;
    StreamRow r;
    try {
      r = run_query(*db, q, o);
    } catch (const Error& e) {  // a refusal of one query is reported, the others still run
      std::printf("%-6s error: %s\n", q, e.what());
      all_equal = false;
      continue;
    }
    const double gbs = double(r.fact_bytes) / (r.streamed_dev.median * 1e6);
    std::printf("%-6s %8.1fMB %8.1fMB %9s %11.3f %11.3f %11.3f %8.2f %6.0f%% %6s\n", q, double(r.need) / 1e6,
                double(r.limit) / 1e6, r.streamed ? "yes" : "no", r.resident_dev.median, r.streamed_dev.median,
                r.streamed_wall.median, gbs, 100.0 * gbs / h2d, r.equal ? "yes" : "NO");
    std::fflush(stdout);
    all_equal = all_equal && r.equal;
    if (json.is_open()) json << record(r, o, h2d).dump() << "\n";
  }
  drop_gpu_resident_columns();
  if (!all_equal) fail(ErrorKind::kExecution, "a streamed query failed or its answer differed from the resident or CPU answer");
}

}  // namespace raydb::bench
