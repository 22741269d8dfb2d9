#pragma once
// Calendar arithmetic on DATE values (days since 1970-01-01, proleptic Gregorian),
// beside days_from_civil / civil_from_days of raydb/types.h. Shared by the evaluator
// (exec/core/date_functions.cpp) and the binder, which folds constant DATE +- INTERVAL.
#include <cstdint>

namespace raydb {

unsigned days_in_month(int64_t year, unsigned month);
// days + months, the day clamped to the target month's last day (2024-01-31 + 1
// month = 2024-02-29, as PostgreSQL). False when the year leaves [-4713, 5874897],
// PostgreSQL's DATE range.
bool add_months(int32_t days, int64_t months, int32_t& out);

}  // namespace raydb
