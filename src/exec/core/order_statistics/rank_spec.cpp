#include "exec/core/order_statistics/rank_spec.h"

#include <cmath>

#include "common/error.h"

namespace raydb::exec::orderstat {

Quantile Quantile::decimal(int64_t integral, int64_t scaling) {
  if (scaling <= 0 || integral < 0 || integral > scaling)
    fail(ErrorKind::kInvalidInput, "quantile {}/{} is not between 0 and 1", integral, scaling);
  return Quantile{integral, scaling};
}

Quantile Quantile::of(double q) {
  if (!(q >= 0.0 && q <= 1.0)) fail(ErrorKind::kInvalidInput, "quantile {} is not between 0 and 1", q);
  constexpr int64_t kScaling = 1000000000000000;  // 15 decimal places
  return Quantile{std::llround(q * double(kScaling)), kScaling};
}

RankPair ranks_for(const RankSpec& spec, uint64_t n, uint32_t group) {
  RankPair r;
  if (n == 0) return r;
  switch (spec.kind) {
    case RankKind::kKthSmallest:
    case RankKind::kKthLargest: {
      const int64_t k = spec.k_per_group ? spec.k_per_group[group] : spec.k;
      if (k < 1 || uint64_t(k) > n) return r;
      r.lo = r.hi = spec.kind == RankKind::kKthSmallest ? uint64_t(k - 1) : n - uint64_t(k);
      break;
    }
    case RankKind::kDisc: {
      // ceil(n q) exactly: n - floor(n (scaling - integral) / scaling), as DuckDB does.
      using u128 = unsigned __int128;
      const u128 s = u128(uint64_t(spec.q.scaling));
      const u128 floored = (u128(n) * s - u128(n) * u128(uint64_t(spec.q.integral))) / s;
      const uint64_t c = n - uint64_t(floored);
      r.lo = r.hi = (c < 1 ? 1 : c) - 1;
      break;
    }
    case RankKind::kCont: {
      const double rn = double(n - 1) * spec.q.value();
      r.lo = uint64_t(std::floor(rn));
      r.hi = uint64_t(std::ceil(rn));
      if (r.hi > n - 1) r.hi = n - 1;  // q = 1 with rounding cannot pass the last value
      if (r.lo > r.hi) r.lo = r.hi;
      r.d = rn - double(r.lo);
      break;
    }
  }
  r.valid = true;
  return r;
}

}  // namespace raydb::exec::orderstat
