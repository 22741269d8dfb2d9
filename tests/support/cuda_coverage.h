#pragma once
// The ad-hoc cases (adhoc_cases.h) the CUDA backend does not run yet, by name: every
// other case must run on the GPU and equal the CPU backend (tests/gpu). Shrink these
// lists as the backend grows; a case leaving them must pass on a device first.
#include <set>
#include <string>

namespace raydb::test {

inline const std::set<std::string> kSsbCpuOnly = {
    "case_grouping",  // CASE with string results
};

inline const std::set<std::string> kCsvCpuOnly = {
    "decimal_division",             // DECIMAL / -> DOUBLE arithmetic
    "double_sum_order",             // SUM over DOUBLE: summation order
    "double_cast_division",         // DOUBLE arithmetic
    "case_bands",                   // CASE with string results (over a DOUBLE column)
    "case_without_else_nulls",      // CASE with string results
    "single_row_arithmetic",        // DOUBLE arithmetic
    "single_row_filter_aggregate",  // AVG over DOUBLE
};

}  // namespace raydb::test
