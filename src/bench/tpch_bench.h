#pragma once
// `raydb bench tpch`: time the 22 TPC-H queries (warm-up, repetitions, median/min/max),
// verify every repetition against the first run, print a table and write JSON lines,
// like `raydb bench ssb`. A query raydb rejects (parse, binder or not-implemented
// error) is reported as "not supported: <error>" on stderr and in the JSON, never
// dropped; it is timed as soon as raydb accepts it.
#include <cstdint>
#include <string>
#include <vector>

#include "raydb/raydb.h"

namespace raydb::bench {

struct TpchBenchOptions {
  std::string dir;              // the TPC-H database (generated there when absent and generate_sf > 0)
  double generate_sf = 0;       // scale factor of that generation; 0: dir must hold TPC-H
  uint64_t seed = 0;            // generator seed of that generation (0: dbgen's data)
  QueryOptions query;           // backend and threads
  int warmup = 1, reps = 10;
  std::vector<std::string> only;  // query names to run (empty: all 22)
  std::string json;               // JSON lines file ("" for none)
};

// Opens `dir` if it is a database holding the eight TPC-H tables (of scale factor `sf`
// when sf > 0: else Error(kInvalidInput)); otherwise generates TPC-H at `sf` into it
// (progress on stderr), or, with sf <= 0, throws Error(kInvalidInput) saying how to
// make one. Throws if `dir` is something else.
std::shared_ptr<DatabaseDirectory> ensure_tpch_database(const std::string& dir, double sf, uint64_t seed, int threads);

// Throws Error(kExecution) after printing when a repetition differed from the first or
// a query failed at run time (an error other than "not supported").
void run_tpch_bench(const TpchBenchOptions& options);

}  // namespace raydb::bench
