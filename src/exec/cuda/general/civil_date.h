#pragma once
// Calendar fields of a DATE (days since 1970-01-01, proleptic Gregorian) for the GPU
// program interpreter, the same integer steps as storage's civil_from_days and
// days_from_civil (H. Hinnant's algorithms): only integer division and multiplication,
// so host and device give identical, exact answers for every int32 day (no floating
// point, no tables). Host-testable: compiled for both sides.
#include <cstdint>

#include "common/host_device.h"

namespace raydb::exec::cuda::general {

// The date functions a program computes (ProgInstr::sub of kPDatePart), each as the
// CPU's date_function (exec/core/date_functions.cpp) defines it.
enum DatePart : uint8_t {
  kDateYear,
  kDateMonth,
  kDateDay,
  kDateQuarter,
  kDateDayOfWeek,  // Sunday = 0
  kDateDayOfYear,
  kDateTruncYear,  // results in days again
  kDateTruncQuarter,
  kDateTruncMonth,
};

struct CivilDate {
  int64_t y;
  uint32_t m, d;
};

RAYDB_HOST_DEVICE CivilDate civil_of_days(int32_t z) {
  const int64_t zz = int64_t(z) + 719468;
  const int64_t era = (zz >= 0 ? zz : zz - 146096) / 146097;
  const uint32_t doe = uint32_t(zz - era * 146097);
  const uint32_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const uint32_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const uint32_t mp = (5 * doy + 2) / 153;
  CivilDate c;
  c.d = doy - (153 * mp + 2) / 5 + 1;
  c.m = mp < 10 ? mp + 3 : mp - 9;
  // int, as storage's civil_from_days returns it (era * 400 fits for every int32 day).
  c.y = int64_t(int32_t(int64_t(yoe) + era * 400)) + (c.m <= 2 ? 1 : 0);
  return c;
}

// As storage's days_from_civil: 64-bit steps, the result wrapped to int32 (a day
// beyond int32 only arises from date_trunc near the ends of the range).
RAYDB_HOST_DEVICE int64_t days_of_civil(int64_t year, uint32_t m, uint32_t d) {
  const int64_t y = int64_t(int32_t(year)) - (m <= 2 ? 1 : 0);
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const uint32_t yoe = uint32_t(y - era * 400);
  const uint32_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const uint32_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return int64_t(int32_t(uint32_t(era * 146097 + int64_t(doe) - 719468)));
}

// `part` of the date `days` (the CPU casts the stored value to int32 first; so do we).
RAYDB_HOST_DEVICE int64_t date_part(int32_t days, int part) {
  const CivilDate c = civil_of_days(days);
  switch (part) {
    case kDateYear: return c.y;
    case kDateMonth: return c.m;
    case kDateDay: return c.d;
    case kDateQuarter: return (c.m - 1) / 3 + 1;
    case kDateDayOfWeek: return ((int64_t(days) % 7) + 11) % 7;  // 1970-01-01 was a Thursday (4)
    case kDateDayOfYear: return int64_t(days) - days_of_civil(c.y, 1, 1) + 1;
    case kDateTruncYear: return days_of_civil(c.y, 1, 1);
    case kDateTruncQuarter: return days_of_civil(c.y, (c.m - 1) / 3 * 3 + 1, 1);
    default: return days_of_civil(c.y, c.m, 1);  // kDateTruncMonth
  }
}

}  // namespace raydb::exec::cuda::general
