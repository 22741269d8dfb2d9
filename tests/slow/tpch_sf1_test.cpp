// The 22 TPC-H queries at SF 1 on the CPU backend against SQLite (label `slow`;
// RAYDB_TPCH_SF1_DB=<dir> reuses an existing `raydb gen tpch --sf 1` database).
// Queries raydb rejects today are SKIPPED with the error, as at SF 0.01.
#include <gtest/gtest.h>

#include "support/tpch_query_case.h"
#include "support/tpch_fixture.h"

namespace raydb::test {
namespace {

class TpchSf1 : public ::testing::TestWithParam<std::string> {};

TEST_P(TpchSf1, MatchesSqlite) { run_tpch_query_case("1", GetParam()); }

INSTANTIATE_TEST_SUITE_P(Tpch, TpchSf1, ::testing::ValuesIn(tpch_query_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace raydb::test
