#include "exec/cpu/window/window_evaluator.h"

#include <omp.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "common/error.h"
#include "exec/core/aggregate_states.h"
#include "exec/cpu/window/sliding_aggregate.h"
#include "exec/cpu/window/window_frame.h"

namespace raydb::exec::cpu {

using plan::WindowFunc;

namespace {

std::vector<const Vector*> pointers(const std::vector<Vector>& v) {
  std::vector<const Vector*> out;
  for (auto& x : v) out.push_back(&x);
  return out;
}

std::vector<WindowPartitions::Key> order_keys(const plan::WindowExpr& w, const std::vector<Vector>& order) {
  std::vector<WindowPartitions::Key> keys;
  for (size_t i = 0; i < order.size(); i++) keys.push_back({&order[i], w.order[i].descending, w.order[i].nulls_first});
  return keys;
}

// A constant argument (ntile's buckets, lag's offset, nth_value's n); nullopt: NULL.
std::optional<int64_t> constant_arg(const plan::WindowExpr& w, size_t i) {
  const Value& v = w.args[i]->value;
  if (v.is_null()) return std::nullopt;
  return v.as_int();
}

}  // namespace

WindowEvaluator::WindowEvaluator(const plan::WindowExpr& w, std::vector<Vector> args,
                                 const std::vector<Vector>& partition, const std::vector<Vector>& order, size_t n,
                                 int threads, StringInterner* interner)
    : w_(w),
      args_(std::move(args)),
      n_(n),
      threads_(threads),
      interner_(interner),
      parts_(pointers(partition), order_keys(w, order), n) {}

template <class Fn>
void WindowEvaluator::each_partition(Fn fn) const {
  const long parts = long(parts_.partitions());
  // Partitions are independent and write disjoint rows; small inputs stay on one thread.
  const int threads = (parts > 1 && n_ >= 16384) ? threads_ : 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (long p = 0; p < parts; p++) fn(parts_.partition_begin(size_t(p)), parts_.partition_begin(size_t(p) + 1));
}

Vector WindowEvaluator::run() {
  switch (w_.func) {
    case WindowFunc::kRowNumber:
    case WindowFunc::kRank:
    case WindowFunc::kDenseRank:
    case WindowFunc::kPercentRank:
    case WindowFunc::kCumeDist:
    case WindowFunc::kNtile: return ranking();
    case WindowFunc::kLag:
    case WindowFunc::kLead: return lag_lead();
    case WindowFunc::kFirstValue:
    case WindowFunc::kLastValue:
    case WindowFunc::kNthValue: return frame_value();
    case WindowFunc::kAggregate:
      if (w_.agg == plan::AggFunc::kMin || w_.agg == plan::AggFunc::kMax) return frame_extreme();
      return frame_sum();
  }
  fail(ErrorKind::kInternal, "unknown window function");
}

Vector WindowEvaluator::ranking() const {
  Vector r(w_.type, n_);
  std::optional<int64_t> buckets;
  if (w_.func == WindowFunc::kNtile) {
    buckets = constant_arg(w_, 0);
    if (!buckets) {
      r.nulls.assign(n_, 1);
      return r;
    }
    if (*buckets <= 0) fail(ErrorKind::kExecution, "argument of ntile must be greater than zero");
  }
  const std::vector<uint32_t>& ord = parts_.order();
  each_partition([&](size_t ps, size_t pe) {
    const int64_t rows = int64_t(pe - ps);
    int64_t dense = 0;
    for (size_t i = ps; i < pe; i++) {
      const uint32_t row = ord[i];
      const size_t gb = parts_.peer_begin(i);
      if (gb == i) dense++;
      const int64_t pos = int64_t(i - ps);
      switch (w_.func) {
        case WindowFunc::kRowNumber: r.ints[row] = pos + 1; break;
        case WindowFunc::kRank: r.ints[row] = int64_t(gb - ps) + 1; break;
        case WindowFunc::kDenseRank: r.ints[row] = dense; break;
        case WindowFunc::kPercentRank: r.doubles[row] = rows > 1 ? double(gb - ps) / double(rows - 1) : 0.0; break;
        case WindowFunc::kCumeDist: r.doubles[row] = double(parts_.peer_end(i) - ps) / double(rows); break;
        case WindowFunc::kNtile: {
          // PostgreSQL's split: rows / k per bucket, the first rows % k buckets one more.
          const int64_t k = *buckets, q = rows / k, big = rows % k;
          r.ints[row] = pos < big * (q + 1) ? pos / (q + 1) + 1 : big + (pos - big * (q + 1)) / q + 1;
          break;
        }
        default: break;
      }
    }
  });
  return r;
}

Vector WindowEvaluator::gather(const Vector& values, const std::vector<int64_t>& src) const {
  std::vector<uint32_t> idx(n_);
  bool any_null = false;
  for (size_t i = 0; i < n_; i++) {
    idx[i] = src[i] < 0 ? 0 : uint32_t(src[i]);
    any_null = any_null || src[i] < 0;
  }
  Vector r;
  if (values.size == 0) {  // no rows to take from: every result is NULL
    r = Vector(w_.type, n_);
    r.nulls.assign(n_, n_ ? 1 : 0);
    return r;
  }
  r = values.select(idx.data(), n_);
  if (any_null)
    for (size_t i = 0; i < n_; i++)
      if (src[i] < 0) r.set_null(i);
  return r;
}

Vector WindowEvaluator::lag_lead() const {
  const std::optional<int64_t> off = w_.args.size() > 1 ? constant_arg(w_, 1) : std::optional<int64_t>(1);
  std::vector<int64_t> src(n_, -1);
  const bool has_default = w_.args.size() > 2;
  if (!off) return gather(args_[0], src);
  const int64_t step = w_.func == WindowFunc::kLag ? -*off : *off;
  const std::vector<uint32_t>& ord = parts_.order();
  std::vector<uint8_t> use_default(n_, 0);
  each_partition([&](size_t ps, size_t pe) {
    for (size_t i = ps; i < pe; i++) {
      const int64_t j = int64_t(i) + step;
      if (j >= int64_t(ps) && j < int64_t(pe)) src[ord[i]] = ord[size_t(j)];
      else use_default[ord[i]] = 1;
    }
  });
  if (!has_default) return gather(args_[0], src);
  // Rows past the partition's edge take the default evaluated at the current row.
  Vector values = args_[0], fallback = args_[2];
  if (values.kind != fallback.kind || (values.kind == VectorKind::kCode && values.dict != fallback.dict)) {
    values.decode_strings();
    fallback.decode_strings();
  }
  values.append(fallback);
  for (size_t i = 0; i < n_; i++)
    if (use_default[i]) src[i] = int64_t(n_ + i);
  return gather(values, src);
}

Vector WindowEvaluator::frame_value() const {
  std::optional<int64_t> nth = 1;
  if (w_.func == WindowFunc::kNthValue) {
    nth = constant_arg(w_, 1);
    if (nth && *nth <= 0) fail(ErrorKind::kExecution, "argument of nth_value must be greater than zero");
  }
  std::vector<int64_t> src(n_, -1);
  if (!nth) return gather(args_[0], src);
  const std::vector<uint32_t>& ord = parts_.order();
  const WindowFrame frame(w_, parts_);
  each_partition([&](size_t ps, size_t pe) {
    for (size_t i = ps; i < pe; i++) {
      size_t b, e;
      frame.bounds(i, ps, pe, b, e);
      if (b >= e) continue;
      size_t at = w_.func == WindowFunc::kLastValue ? e - 1 : b + size_t(*nth - 1);
      if (w_.func == WindowFunc::kNthValue && size_t(*nth - 1) >= e - b) continue;
      src[ord[i]] = ord[at];
    }
  });
  return gather(args_[0], src);
}

Vector WindowEvaluator::frame_extreme() const {
  std::vector<int64_t> src(n_, -1);
  const std::vector<uint32_t>& ord = parts_.order();
  const WindowFrame frame(w_, parts_);
  const bool max = w_.agg == plan::AggFunc::kMax;
  each_partition([&](size_t ps, size_t pe) {
    SlidingExtreme ext(args_[0], ord.data(), max);
    size_t added = ps;
    for (size_t i = ps; i < pe; i++) {
      size_t b, e;
      frame.bounds(i, ps, pe, b, e);
      for (; added < e; added++) ext.add(added);
      ext.remove_before(b);
      if (b < e) src[ord[i]] = ext.best();
    }
  });
  return gather(args_[0], src);
}

Vector WindowEvaluator::frame_sum() const {
  const Vector* arg = w_.args.empty() ? nullptr : &args_[0];
  FrameSums sums;
  sums.count.assign(n_, 0);
  const bool is_double = arg && arg->kind == VectorKind::kDouble;
  const bool counts_only = w_.agg == plan::AggFunc::kCount || w_.agg == plan::AggFunc::kCountStar;
  if (!counts_only && is_double) sums.sum_d.assign(n_, 0.0);
  if (!counts_only && !is_double) sums.sum.assign(n_, 0);
  const std::vector<uint32_t>& ord = parts_.order();
  const WindowFrame frame(w_, parts_);
  each_partition([&](size_t ps, size_t pe) {
    SlidingSum s(arg, ord.data(), sums);
    size_t lo = ps, hi = ps;
    for (size_t i = ps; i < pe; i++) {
      size_t b, e;
      frame.bounds(i, ps, pe, b, e);
      for (; hi < e; hi++) s.add(hi);
      for (; lo < b; lo++)
        if (lo < hi) s.remove(lo);
      s.emit(ord[i]);
    }
  });
  if (sums.overflow) fail(ErrorKind::kExecution, "numeric overflow in {}", w_.name);
  if (counts_only) {
    Vector r(w_.type, n_);
    for (size_t i = 0; i < n_; i++) r.ints[i] = sums.count[i];
    return r;
  }
  plan::AggregateExpr a;
  a.func = w_.agg;
  a.arg = w_.args[0];
  a.type = w_.type;
  a.name = w_.name;
  std::vector<plan::AggregateExpr> aggs{a};
  AggregateStates states(&aggs, interner_);
  states.resize(n_);
  if (is_double) states.load_doubles(0, std::move(sums.count), std::move(sums.sum_d), arg->type);
  else states.load(0, std::move(sums.count), std::move(sums.sum), arg->kind, arg->dict, arg->type);
  std::vector<uint32_t> gids(n_);
  std::iota(gids.begin(), gids.end(), 0u);
  return states.finalize(0, gids);
}

}  // namespace raydb::exec::cpu
