#pragma once
// HAVING's keep flag per group, computed where the accumulators are (the compaction
// kernel), so that of TPC-H Q18's 30 M orders at SF 20 only the ~1,200 with
// sum(l_quantity) > 300 come back to the host. compile_group_keep (host) turns the
// conjuncts `aggregate op constant` of HAVING into DevGroupKeep terms in the
// accumulators' own integer domain; group_kept evaluates them, on the device and in
// tests on the host.
#include <cstdint>
#include <vector>

#include "common/host_device.h"
#include "exec/cuda/kernel_params.h"

namespace raydb::plan {
struct LogicalQuery;
}

namespace raydb::exec::cuda {

struct StarPlan;

// The terms of q's HAVING decidable from the accumulator fields (lo_field / hi_field
// per aggregate, as plan_accumulators numbers them); nterms = 0 when none is. Other
// conjuncts are left to the finisher, so the groups kept are a superset of those that
// pass.
DevGroupKeep compile_group_keep(const plan::LogicalQuery& q, const StarPlan& sp, const std::vector<int>& lo_field,
                                const std::vector<int>& hi_field);

// Field lo of group g (with hi >= 0 its high word too) as the integer it holds.
RAYDB_HOST_DEVICE __int128 field_value(const unsigned long long* const* fields, int lo, int hi, uint64_t g) {
  const unsigned long long l = fields[lo][g];
  return hi >= 0 ? __int128((unsigned __int128)fields[hi][g] << 64 | l) : __int128(int64_t(l));
}

// Whether the accumulators of group g (fields[f][g]) satisfy every term.
RAYDB_HOST_DEVICE bool group_kept(const DevGroupKeep& keep, const unsigned long long* const* fields, uint64_t g) {
  for (int t = 0; t < keep.nterms; t++) {
    const DevKeepTerm& k = keep.terms[t];
    // Words joined unsigned (no shift of a negative value), then read as two's complement.
    const __int128 v = field_value(fields, k.lo, k.hi, g);
    const __int128 c = k.rlo >= 0 ? field_value(fields, k.rlo, k.rhi, g)
                                  : __int128((unsigned __int128)(unsigned long long)k.k_hi << 64 |
                                             (unsigned long long)k.k_lo);
    bool holds;
    switch (k.op) {
      case kCmpEq: holds = v == c; break;
      case kCmpNe: holds = v != c; break;
      case kCmpLt: holds = v < c; break;
      case kCmpLe: holds = v <= c; break;
      case kCmpGt: holds = v > c; break;
      default: holds = v >= c; break;
    }
    if (!holds) return false;
  }
  return true;
}

}  // namespace raydb::exec::cuda
