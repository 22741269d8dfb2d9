#pragma once
// One TPC-H query compared with SQLite (shared by the SF 0.01 and SF 1 tests).
#include <string>
#include <vector>

#include "support/fixtures.h"

namespace raydb::test {

// "q1" .. "q22".
std::vector<std::string> tpch_query_names();

// Runs tpch/queries/<name>.sql on raydb's CPU backend and its SQLite translation on
// the oracle and compares (gtest assertions). Skips (GTEST_SKIP) with raydb's error
// when raydb rejects the SQL (parse, binder, not implemented); fails on any other
// error.
// `sf`: the scale factor of tpch_fixture.
void run_tpch_query_case(const std::string& sf, const std::string& name);

}  // namespace raydb::test
