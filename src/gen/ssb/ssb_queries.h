#pragma once
// The 13 standard SSB queries (from the project's ssb/queries, embedded at build time).
#include <string>
#include <vector>

namespace raydb::ssb {

struct NamedQuery {
  std::string name;  // "q1.1"
  std::string sql;
};

const std::vector<NamedQuery>& standard_queries();

}  // namespace raydb::ssb
