#pragma once
// Shared by `raydb ssb` and `raydb bench ssb`: make sure an SSB database exists,
// then time the 13 standard queries with warm-up and repetitions, checking that
// every repetition returns exactly the first run's result.
#include <string>
#include <vector>

#include "raydb/raydb.h"

namespace raydb::bench {

// Opens `dir` if it is a database holding the five SSB tables; otherwise generates
// SSB at `sf` into it (progress on stderr). Throws if `dir` is something else.
std::shared_ptr<DatabaseDirectory> ensure_ssb_database(const std::string& dir, double sf, uint64_t seed, int threads);

struct QueryTiming {
  std::string name;
  std::vector<double> times_ms;
  std::vector<double> device_ms;  // GPU backends: CUDA-event time of each timed repetition
  double median_ms = 0, min_ms = 0, max_ms = 0;
  size_t rows = 0;
  bool verified = true;  // every repetition equal to the first run
  QueryResult first;
};

// Runs each query `warmup` times untimed, then `reps` times timed. `only`: query
// names to run (empty: all 13).
std::vector<QueryTiming> run_ssb_queries(Database& db, const QueryOptions& options, int warmup, int reps,
                                         const std::vector<std::string>& only);

// Warm-up runs, then timed repetitions of one query, each checked against the first
// (shared with `raydb bench tpch`). Errors of the query propagate.
QueryTiming time_query(Database& db, const std::string& name, const std::string& sql, const QueryOptions& options,
                       int warmup, int reps);

// The SQL of standard query `name` ("q1.1"); empty when there is none.
std::string ssb_query_sql(const std::string& name);

// Same shape and the same value in every cell, row by row.
bool same_result(const QueryResult& a, const QueryResult& b);

}  // namespace raydb::bench
