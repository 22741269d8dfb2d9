// extract/date_part fields, date_trunc and month arithmetic over DATE (days since
// 1970-01-01, proleptic Gregorian, as storage keeps them).
#include "common/error.h"
#include "exec/core/scalar_functions.h"
#include "storage/calendar.h"

namespace raydb::exec {

using plan::ScalarFunc;

namespace {

// d + months (storage/calendar.h), or the error PostgreSQL raises.
int32_t shift_months(const plan::Expr& e, int32_t d, int64_t months) {
  int32_t out = 0;
  if (!add_months(d, months, out)) fail(ErrorKind::kExecution, "date out of range in {}", e.to_string());
  return out;
}

}  // namespace

Vector date_function(const plan::Expr& e, std::vector<Vector>& args, size_t n) {
  const Vector& d = args[0];
  Vector r(e.type, n);
  r.nulls = strict_nulls(args, n);
  for (size_t i = 0; i < n; i++) {
    if (r.is_null(i)) continue;
    const int32_t days = int32_t(d.ints[i]);
    int y;
    unsigned m, day;
    civil_from_days(days, y, m, day);
    int64_t out = 0;
    switch (e.func) {
      case ScalarFunc::kYear: out = y; break;
      case ScalarFunc::kMonth: out = m; break;
      case ScalarFunc::kDay: out = day; break;
      case ScalarFunc::kQuarter: out = (m - 1) / 3 + 1; break;
      case ScalarFunc::kDayOfWeek: out = ((int64_t(days) % 7) + 11) % 7; break;  // 1970-01-01 was a Thursday (4)
      case ScalarFunc::kDayOfYear: out = int64_t(days) - days_from_civil(y, 1, 1) + 1; break;
      case ScalarFunc::kTruncYear: out = days_from_civil(y, 1, 1); break;
      case ScalarFunc::kTruncQuarter: out = days_from_civil(y, (m - 1) / 3 * 3 + 1, 1); break;
      case ScalarFunc::kTruncMonth: out = days_from_civil(y, m, 1); break;
      case ScalarFunc::kAddMonths: out = shift_months(e, days, args[1].ints[i]); break;
      default: fail(ErrorKind::kInternal, "{} is not a date function", e.to_string());
    }
    r.ints[i] = out;
  }
  return r;
}

}  // namespace raydb::exec
