#pragma once
// The per-table generators behind ssb::generate (internal to gen/ssb).
#include "gen/ssb/generator.h"

namespace raydb::ssb {

struct TableJob {
  RowCounts counts;
  uint64_t seed;
  int threads;  // > 0
  bool progress;
};

TablePtr generate_customer(const TableJob& job);
TablePtr generate_supplier(const TableJob& job);
TablePtr generate_part(const TableJob& job);
TablePtr generate_date();
TablePtr generate_lineorder(const TableJob& job);

}  // namespace raydb::ssb
