#include "storage/calendar.h"

#include <algorithm>

#include "raydb/types.h"

namespace raydb {

unsigned days_in_month(int64_t y, unsigned m) {
  static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

bool add_months(int32_t days, int64_t months, int32_t& out) {
  int y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  if (months > (int64_t(1) << 40) || months < -(int64_t(1) << 40)) return false;
  const int64_t total = int64_t(y) * 12 + (m - 1) + months;
  const int64_t ny = total >= 0 ? total / 12 : -((-total + 11) / 12);
  const unsigned nm = unsigned(total - ny * 12) + 1;
  if (ny < -4713 || ny > 5874897) return false;
  out = days_from_civil(int(ny), nm, std::min(d, days_in_month(ny, nm)));
  return true;
}

}  // namespace raydb
