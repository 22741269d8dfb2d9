#pragma once
// The rows of the current batch of the CPU pipeline: one row-id array per table of
// the query, valid for the tables bound so far; `n` rows are valid.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "exec/core/expression_evaluator.h"
#include "exec/cpu/morsel.h"

namespace raydb::exec::cpu {

struct JoinedRows {
  std::vector<std::vector<uint32_t>> of;  // indexed by table
  std::vector<uint8_t> bound;
  size_t n = 0;

  void ensure(size_t t, size_t cap) {
    if (of[t].size() < cap) of[t].resize(std::max(cap, kBatch));
  }
  // Keeps rows sel[0..m) (ascending) of every bound table.
  void compact(const uint32_t* sel, size_t m) {
    for (size_t t = 0; t < of.size(); t++) {
      if (!bound[t]) continue;
      uint32_t* r = of[t].data();
      for (size_t k = 0; k < m; k++) r[k] = r[sel[k]];
    }
    n = m;
  }
  BatchRows view() const {
    BatchRows b;
    b.n = n;
    b.rows.resize(of.size(), nullptr);
    for (size_t t = 0; t < of.size(); t++)
      if (bound[t]) b.rows[t] = of[t].data();
    return b;
  }
};

}  // namespace raydb::exec::cpu
