#pragma once
// Data sieving (RTScan section 4.2, BinDex-style): K bins per column over the ranks,
// one bit vector per inner border X_i (i = 1..m-1) with bit r set when row r's rank is
// below X_i. Borders start at i * valid / K and move to the nearer value boundary, so
// all copies of one value share a bin (a heavy value never straddles two bins; equal
// borders merge, so a column may have fewer than K bins). X_0 = 0 and X_m = valid are
// borders too: their vectors are "nothing" and "every non-NULL row".
//
// A predicate's rank set P is approximated by A, the union of intervals between
// borders, each end rounded to a border by the sieve mode (nearest: RTScan's
// positive/negative choice by the nearer border). [X_i, X_j) is F_j AND NOT F_i, exact.
// The residual D = A xor P (rows between each end and its border) is what a refine
// must fix; with one row per rank its size is exactly the number of rows to re-check.
#include "access/rt_scan/rank_encoding.h"

namespace raydb::access::rt_scan {

struct SieveBorders {
  std::vector<uint32_t> x;  // X_0 = 0 < X_1 < ... < X_m = valid (just {0} when valid == 0)
  uint32_t bins() const { return x.empty() ? 0 : static_cast<uint32_t>(x.size() - 1); }
};

SieveBorders sieve_borders(const MappingTable& table, uint32_t bins);

// Border-index pairs (i, j), i < j: the approximation's intervals [X_i, X_j).
struct SieveChoice {
  std::vector<std::pair<uint32_t, uint32_t>> spans;
  RankSet approx;    // A
  RankSet residual;  // A xor P
};

SieveChoice choose_sieve(const SieveBorders& b, const RankSet& p, SieveMode mode, uint32_t valid);

// The vectors F_1..F_{m-1} on the host, N bits each, plus the non-NULL mask (F_m) when
// the column has NULLs.
struct HostSieve {
  uint64_t words = 0;
  std::vector<uint64_t> f;      // F_i at (i - 1) * words
  std::vector<uint64_t> valid;  // empty: no NULLs
  const uint64_t* vec(uint32_t i) const { return f.data() + (i - 1) * words; }
  uint64_t bytes() const { return (f.size() + valid.size()) * sizeof(uint64_t); }
};

HostSieve build_host_sieve(const SieveBorders& b, std::span<const uint32_t> ranks, const ScanColumn& column);

// Word w of the approximation of one column ((F_j & ~F_i) over the spans); i == 0 is
// "nothing below", j == m is the non-NULL mask. tail masks the bits past the last row.
uint64_t sieve_word(const HostSieve& s, const SieveBorders& b, const SieveChoice& c, uint64_t w, uint64_t tail);

}  // namespace raydb::access::rt_scan
