#pragma once
// The 22 TPC-H queries with the specification's validation parameters (from the
// project's tpch/queries, embedded at build time), in order q1 .. q22.
#include <vector>

#include "gen/ssb/ssb_queries.h"

namespace raydb::tpch {

const std::vector<ssb::NamedQuery>& standard_queries();

}  // namespace raydb::tpch
