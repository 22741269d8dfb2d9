#pragma once
// SQL's view of the RT scan index: the text options of CREATE INDEX ... USING RTSCAN
// WITH (option = value, ...) parsed and checked into RtScanOptions. The catalog stores
// options as text; everything that gives them meaning is here, so a bad option fails
// at CREATE INDEX, before anything is written.
#include <string>
#include <utility>
#include <vector>

#include "access/rt_scan/scan_types.h"

namespace raydb::access::rt_scan {

// `columns`: the indexed column names in index order (groups name them). Options
// (names any case): bins (1..65536), groups ('a, b; c': groups of 1-3 columns split
// by ';', each column at most once; columns left out get groups of their own),
// sieve (nearest|positive|negative|off), segment_cells (1..1024), cell_shift
// (-1..20, -1: automatic), rt / sieve_refine (booleans: build the RT structures /
// the sieve baselines' permutations). Throws Error(kInvalidInput) with one line
// naming the option for anything else, a repeated option, or a bad value.
RtScanOptions parse_scan_index_options(const std::vector<std::pair<std::string, std::string>>& options,
                                       const std::vector<std::string>& columns);

}  // namespace raydb::access::rt_scan
