#pragma once
// The host loops of the RT scan methods: bit-vector algebra, the plain vectorized
// scan over stored values, and the sieving approximation (OpenMP over 64-row words).
#include "access/rt_scan/sieve.h"

namespace raydb::access::rt_scan {

BitVector host_ones(uint64_t rows);
BitVector host_zeros(uint64_t rows);
void host_combine(BitVector& a, const BitVector& b, bool is_or);

// One column of a conjunction for the plain scan: rows whose value lies in one of the
// inclusive ranges and that are not NULL.
struct ScanTermView {
  ScanColumn column;
  std::vector<std::pair<int64_t, int64_t>> ranges;
};
BitVector host_scan(const std::vector<ScanTermView>& terms, uint64_t rows);

// One constrained column of a group job: its vectors (null: none built), borders and
// the chosen spans.
struct SieveTermView {
  const HostSieve* sieve;
  const SieveBorders* borders;
  const SieveChoice* choice;
};
// AND over the terms of each term's approximation.
BitVector host_sieve_and(const std::vector<SieveTermView>& terms, uint64_t rows);

}  // namespace raydb::access::rt_scan
