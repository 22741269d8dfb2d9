// extract fields below a day, date_trunc below a day and INTERVAL arithmetic over
// TIMESTAMP (int64 microseconds since 1970-01-01). Fields of a day and above are bound
// as the DATE functions over the timestamp's date (sql/function_binder.cpp).
#include "common/error.h"
#include "exec/core/scalar_functions.h"
#include "storage/calendar.h"

namespace raydb::exec {

using plan::ScalarFunc;

namespace {

// Floor division: micros before 1970 still fall into the hour/day they belong to.
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b) < 0) q--;
  return q;
}

}  // namespace

Vector timestamp_function(const plan::Expr& e, std::vector<Vector>& args, size_t n) {
  const Vector& t = args[0];
  Vector r(e.type, n);
  r.nulls = strict_nulls(args, n);
  auto out_of_range = [&]() { fail(ErrorKind::kExecution, "timestamp out of range in {}", e.to_string()); };
  for (size_t i = 0; i < n; i++) {
    if (r.is_null(i)) continue;
    const int64_t us = t.ints[i];
    const int64_t in_day = us - floor_div(us, kMicrosPerDay) * kMicrosPerDay;
    int64_t out = 0;
    switch (e.func) {
      case ScalarFunc::kHour: out = in_day / 3600000000LL; break;
      case ScalarFunc::kMinute: out = in_day / 60000000LL % 60; break;
      case ScalarFunc::kSecond: out = in_day / 1000000 % 60; break;
      case ScalarFunc::kTruncMicros: out = floor_div(us, args[1].ints[i]) * args[1].ints[i]; break;
      case ScalarFunc::kAddMicros:
        if (__builtin_add_overflow(us, args[1].ints[i], &out)) out_of_range();
        break;
      case ScalarFunc::kAddMonthsTs: {
        const int64_t day = floor_div(us, kMicrosPerDay);
        int32_t shifted = 0;
        if (day < INT32_MIN || day > INT32_MAX || !add_months(int32_t(day), args[1].ints[i], shifted)) out_of_range();
        if (__builtin_mul_overflow(int64_t(shifted), kMicrosPerDay, &out) ||
            __builtin_add_overflow(out, in_day, &out))
          out_of_range();
        break;
      }
      default: fail(ErrorKind::kInternal, "{} is not a timestamp function", e.to_string());
    }
    r.ints[i] = out;
  }
  return r;
}

}  // namespace raydb::exec
