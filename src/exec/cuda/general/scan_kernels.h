#pragma once
// A table scan's filters in one pass (scan_step.h): each row runs the table's
// conjuncts in order and stops at the first that is not TRUE, so a row raises only
// where the CPU's conjunct-by-conjunct evaluation would evaluate it; then the kept
// rows' ids are written, ascending. The rows come from the scan itself (block ranges
// of the table, the row derived from the position) or an index scan's candidates, so
// no row-id array is written before filtering.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/host_device.h"
#include "exec/cuda/general/device_program.h"

namespace raydb::exec::cuda::general {

// The rows of a scan by position: ids[i] where ids is set, else the ranges laid end to
// end (one range: first + i).
struct ScanRows {
  const uint32_t* ids = nullptr;                  // ascending candidate row ids
  const uint32_t* range_first = nullptr;          // ranges > 1: the first row of each range
  const unsigned long long* range_at = nullptr;   // ranges > 1: each range's first position (0 first)
  int ranges = 0;
  uint32_t first = 0;                             // ranges <= 1: the row at position 0
};

// The row at scan position i: the candidate, or the range holding i (the last range
// starting at or before it; zone-map selections have few ranges). Host-testable.
RAYDB_HOST_DEVICE uint32_t scan_row(const ScanRows& r, uint64_t i) {
  if (r.ids) return r.ids[i];
  if (r.ranges <= 1) return r.first + uint32_t(i);
  int lo = 0, hi = r.ranges - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (r.range_at[mid] <= i)
      lo = mid;
    else
      hi = mid - 1;
  }
  return r.range_first[lo] + uint32_t(i - r.range_at[lo]);
}

// ScanRows' range arrays for ranges (begin, end) laid end to end: each one's first row
// and first position.
template <typename Range>
void scan_range_arrays(const std::vector<Range>& ranges, std::vector<uint32_t>& first,
                       std::vector<unsigned long long>& at) {
  first.clear();
  at.clear();
  unsigned long long pos = 0;
  for (const Range& r : ranges) {
    first.push_back(uint32_t(r.begin));
    at.push_back(pos);
    pos += r.end - r.begin;
  }
}

// keep[i] = position i is TRUE in every program of progs[0..np) (a device array), run
// in order per row. Errors as device_program.h's DevError, keyed (conjunct << 32) |
// position. `only`: run position `only` alone (the error report pass).
void launch_scan_filter(const DevProgram* progs, int np, const ScanRows& rows, uint64_t n, uint8_t* keep, DevError* err,
                        cudaStream_t s, uint64_t only = ~0ull);

struct ScanTerm;

// keep[i] = position i passes every term of terms[0..nt) (a device array; scan_terms.h).
void launch_scan_terms(const ScanTerm* terms, int nt, const ScanRows& rows, uint64_t n, uint8_t* keep, cudaStream_t s);

// The row ids of the positions with keep[i] != 0, ascending, into out (n of room);
// returns their number (synchronizing).
uint64_t select_scan_rows(const ScanRows& rows, const uint8_t* keep, uint64_t n, uint32_t* out, cudaStream_t s);

}  // namespace raydb::exec::cuda::general
