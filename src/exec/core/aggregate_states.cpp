#include "exec/core/aggregate_states.h"

#include "exec/core/order_statistics/order_statistics.h"
#include "exec/core/expression_evaluator.h"

#include <cstring>
#include <limits>

#include "common/error.h"

namespace raydb::exec {

using plan::AggFunc;

AggregateStates::AggregateStates(const std::vector<plan::AggregateExpr>* aggs, StringInterner* interner)
    : aggs_(aggs), interner_(interner), states_(aggs->size()) {}

ExactDoubleSum& AggregateStates::acc(State& s, uint32_t g) {
  if (s.acc_slot.size() <= g) s.acc_slot.resize(size_t(g) + 1, 0);
  if (!s.acc_slot[g]) {
    s.accs.emplace_back().init();
    s.acc_slot[g] = uint32_t(s.accs.size());
  }
  return s.accs[s.acc_slot[g] - 1];
}

double AggregateStates::rounded_sum(const State& s, uint32_t g) {
  if (s.loaded_doubles) return s.sum_d[g];
  if (g >= s.acc_slot.size() || !s.acc_slot[g]) return 0.0;
  return s.accs[s.acc_slot[g] - 1].round();
}

namespace {
// MIN/MAX over DOUBLE: is x better than the current extreme?
bool better_double(bool mn, double x, double cur) {
  const uint64_t kx = double_order_key(double_bits(x)), kc = double_order_key(double_bits(cur));
  return mn ? kx < kc : kx > kc;
}
double canonical(double x) { return bits_double(double_from_order_key(double_order_key(double_bits(x)))); }
}  // namespace

void AggregateStates::resize(size_t groups) {
  if (groups <= size_) return;
  for (size_t a = 0; a < states_.size(); a++) {
    State& s = states_[a];
    const AggFunc f = (*aggs_)[a].func;
    const bool is_min = f == AggFunc::kMin;
    s.count.resize(groups, 0);
    if (f == AggFunc::kCount || f == AggFunc::kCountStar) continue;
    s.sum.resize(groups, is_min ? std::numeric_limits<__int128>::max()
                                : (f == AggFunc::kMax ? std::numeric_limits<__int128>::min() : 0));
    // Only DOUBLE arguments keep doubles per group (MIN/MAX; SUM/AVG use accs).
    const bool doubles = (*aggs_)[a].arg && (*aggs_)[a].arg->type.id == TypeId::kDouble;
    if (doubles)
      s.sum_d.resize(groups, is_min ? std::numeric_limits<double>::infinity()
                                  : (f == AggFunc::kMax ? -std::numeric_limits<double>::infinity() : 0.0));
    if ((f == AggFunc::kMin || f == AggFunc::kMax) && s.kind_known && s.kind == VectorKind::kString)
      s.str.resize(groups);
  }
  size_ = groups;
}

void AggregateStates::add_wrapping(State& s, uint32_t g, __int128 x) {
  if (__builtin_add_overflow(s.sum[g], x, &s.sum[g])) {  // stores the sum modulo 2^128
    if (s.wraps.size() <= g) s.wraps.resize(s.sum.size(), 0);
    s.wraps[g] += x > 0 ? 1 : -1;
  }
}

void AggregateStates::add_run(State& s, uint32_t g, const Vector& v, const uint32_t* rows, size_t m) {
  const uint8_t* nulls = v.has_nulls() ? v.nulls.data() : nullptr;
  __int128 sum = 0;
  int64_t count = 0, wraps = 0;
  if (v.kind == VectorKind::kInt) {  // m int64 values cannot leave int128
    const int64_t* x = v.ints.data();
    if (!nulls) {
      for (size_t j = 0; j < m; j++) sum += x[rows[j]];
      count = int64_t(m);
    } else {
      for (size_t j = 0; j < m; j++) {
        const bool keep = !nulls[rows[j]];
        sum += keep ? x[rows[j]] : 0;
        count += keep;
      }
    }
  } else {  // kHuge: adds modulo 2^128, counting wrap-arounds as add_wrapping does
    const __int128* x = v.huge.data();
    for (size_t j = 0; j < m; j++) {
      if (nulls && nulls[rows[j]]) continue;
      const __int128 y = x[rows[j]];
      if (__builtin_add_overflow(sum, y, &sum)) wraps += y > 0 ? 1 : -1;
      count++;
    }
  }
  add_wrapping(s, g, sum);
  if (wraps) {
    if (s.wraps.size() <= g) s.wraps.resize(s.sum.size(), 0);
    s.wraps[g] += wraps;
  }
  s.count[g] += count;
}

void AggregateStates::update(size_t a, const uint32_t* gids, size_t n, const Vector* arg, const GroupRuns* runs) {
  State& s = states_[a];
  const plan::AggregateExpr& agg = (*aggs_)[a];
  if (agg.func == AggFunc::kCountStar) {
    if (gids && runs) {
      for (size_t k = 0; k < runs->runs(); k++) s.count[runs->group(k)] += int64_t(runs->size(k));
    } else if (!gids) {
      s.count[0] += int64_t(n);
    } else {
      for (size_t i = 0; i < n; i++) s.count[gids[i]]++;
    }
    return;
  }
  const Vector& v = *arg;
  if (!s.kind_known) {
    s.kind_known = true;
    s.kind = v.kind;
    s.dict = v.dict;
    s.arg_type = v.type;
    if (s.kind == VectorKind::kString && (agg.func == AggFunc::kMin || agg.func == AggFunc::kMax)) s.str.resize(size_);
  }
  if (v.kind != s.kind || (v.kind == VectorKind::kCode && v.dict != s.dict))
    fail(ErrorKind::kInternal, "aggregate {} saw arguments of different kinds", agg.name);
  auto gid = [&](size_t i) -> uint32_t { return gids ? gids[i] : 0; };
  // Order statistics select over order-preserving keys: dictionary codes, integers,
  // doubles. Strings computed at run time (or read through a NULL-aware wrapper) and
  // 128-bit values have none yet; DISTINCT ones would rank interned ids (no order).
  if (agg.func == AggFunc::kOrderStat && (v.kind == VectorKind::kHuge || v.kind == VectorKind::kString))
    fail(ErrorKind::kNotImplemented, "{} over computed {} values is not supported yet", agg.name,
         v.kind == VectorKind::kHuge ? "128-bit" : "string");
  if (agg.distinct) {
    for (size_t i = 0; i < n; i++) {
      if (v.is_null(i)) continue;
      DistinctEntry e{gid(i), 0, 0};
      switch (v.kind) {
        case VectorKind::kInt:
        case VectorKind::kCode: e.w0 = v.ints[i]; break;
        case VectorKind::kHuge:
          e.w0 = int64_t(uint64_t(v.huge[i]));
          e.w1 = int64_t(v.huge[i] >> 64);
          break;
        case VectorKind::kDouble: e.w0 = int64_t(same_value_bits(double_bits(v.doubles[i]))); break;
        case VectorKind::kString: e.w0 = interner_->intern(v.strings[i]); break;
      }
      s.distinct.insert(e);
    }
    return;
  }
  if (agg.func == AggFunc::kOrderStat) {
    for (size_t i = 0; i < n; i++) {
      if (v.is_null(i)) continue;
      s.os_gids.push_back(gid(i));
      s.os_values.push_back(v.kind == VectorKind::kDouble ? double_bits(v.doubles[i]) : uint64_t(v.ints[i]));
    }
    return;
  }
  const bool nulls = v.has_nulls();
  switch (agg.func) {
    case AggFunc::kOrderStat: return;  // collected above
    case AggFunc::kCount:
      for (size_t i = 0; i < n; i++) s.count[gid(i)] += !v.is_null(i);
      return;
    case AggFunc::kSum:
    case AggFunc::kAvg:
      if (gids && runs && (v.kind == VectorKind::kInt || v.kind == VectorKind::kHuge)) {
        for (size_t k = 0; k < runs->runs(); k++) add_run(s, runs->group(k), v, runs->rows(k), runs->size(k));
      } else if (v.kind == VectorKind::kInt) {
        if (!gids && !nulls) {
          __int128 acc = 0;
          for (size_t i = 0; i < n; i++) acc += v.ints[i];
          s.sum[0] += acc;
          s.count[0] += int64_t(n);
        } else {
          for (size_t i = 0; i < n; i++) {
            if (nulls && v.nulls[i]) continue;
            uint32_t g = gid(i);
            s.sum[g] += v.ints[i];
            s.count[g]++;
          }
        }
      } else if (v.kind == VectorKind::kHuge) {
        for (size_t i = 0; i < n; i++) {
          if (nulls && v.nulls[i]) continue;
          uint32_t g = gid(i);
          add_wrapping(s, g, v.huge[i]);
          s.count[g]++;
        }
      } else if (v.kind == VectorKind::kDouble) {
        for (size_t i = 0; i < n; i++) {
          if (nulls && v.nulls[i]) continue;
          uint32_t g = gid(i);
          acc(s, g).add(v.doubles[i]);
          s.count[g]++;
        }
      } else {
        fail(ErrorKind::kInternal, "{} over strings", agg.name);
      }
      return;
    case AggFunc::kMin:
    case AggFunc::kMax: {
      const bool mn = agg.func == AggFunc::kMin;
      for (size_t i = 0; i < n; i++) {
        if (nulls && v.nulls[i]) continue;
        uint32_t g = gid(i);
        s.count[g]++;
        switch (v.kind) {
          case VectorKind::kInt:
          case VectorKind::kCode:
          case VectorKind::kHuge: {
            __int128 x = v.int_at(i);
            if (mn ? x < s.sum[g] : x > s.sum[g]) s.sum[g] = x;
            break;
          }
          case VectorKind::kDouble:
            if (s.count[g] == 1 || better_double(mn, v.doubles[i], s.sum_d[g])) s.sum_d[g] = canonical(v.doubles[i]);
            break;
          case VectorKind::kString:
            if (s.count[g] == 1 || (mn ? v.strings[i] < s.str[g] : v.strings[i] > s.str[g]))
              s.str[g] = std::string(v.strings[i]);
            break;
        }
      }
      return;
    }
    case AggFunc::kCountStar: return;
  }
}

void AggregateStates::merge(const AggregateStates& other, const uint32_t* src, const uint32_t* dst, size_t count) {
  for (size_t a = 0; a < states_.size(); a++) {
    State& s = states_[a];
    const State& o = other.states_[a];
    const plan::AggregateExpr& agg = (*aggs_)[a];
    if (o.kind_known && !s.kind_known) {
      s.kind_known = true;
      s.kind = o.kind;
      s.dict = o.dict;
      s.arg_type = o.arg_type;
      if (s.kind == VectorKind::kString && (agg.func == AggFunc::kMin || agg.func == AggFunc::kMax))
        s.str.resize(size_);
    }
    if (agg.func == AggFunc::kOrderStat && !agg.distinct) {
      // Group ids are dense, so the re-keying is an array lookup (a hash map per row
      // made this merge the slowest step of a median over a large table).
      uint32_t max_src = 0;
      for (size_t i = 0; i < count; i++) max_src = std::max(max_src, src[i]);
      std::vector<uint32_t> remap(count ? size_t(max_src) + 1 : 0, UINT32_MAX);
      for (size_t i = 0; i < count; i++) remap[src[i]] = dst[i];
      const size_t at = s.os_gids.size(), add = o.os_gids.size();
      s.os_gids.resize(at + add);
      s.os_values.insert(s.os_values.end(), o.os_values.begin(), o.os_values.end());
      for (size_t i = 0; i < add; i++) {
        const uint32_t g = o.os_gids[i];
        if (g >= remap.size() || remap[g] == UINT32_MAX)
          fail(ErrorKind::kInternal, "order statistics merge: group {} has no destination", g);
        s.os_gids[at + i] = remap[g];
      }
      continue;
    }
    if (agg.distinct) {
      // Re-key other's entries by the destination group ids (dense ids: an array).
      uint32_t max_src = 0;
      for (size_t i = 0; i < count; i++) max_src = std::max(max_src, src[i]);
      std::vector<uint32_t> remap(count ? size_t(max_src) + 1 : 0, UINT32_MAX);
      for (size_t i = 0; i < count; i++) remap[src[i]] = dst[i];
      for (DistinctEntry e : o.distinct) {
        if (e.gid >= remap.size() || remap[e.gid] == UINT32_MAX)
          fail(ErrorKind::kInternal, "DISTINCT merge: group {} has no destination", e.gid);
        e.gid = remap[e.gid];
        s.distinct.insert(e);
      }
      continue;
    }
    const bool mn = agg.func == AggFunc::kMin, mx = agg.func == AggFunc::kMax;
    for (size_t i = 0; i < count; i++) {
      uint32_t f = src[i], t = dst[i];
      if (o.count[f] == 0 && agg.func != AggFunc::kCountStar) continue;
      s.count[t] += o.count[f];
      if (agg.func == AggFunc::kCount || agg.func == AggFunc::kCountStar) continue;
      if (mn || mx) {
        if (o.kind == VectorKind::kDouble) {
          if (s.count[t] == o.count[f] || better_double(mn, o.sum_d[f], s.sum_d[t])) s.sum_d[t] = o.sum_d[f];
        } else if (o.kind == VectorKind::kString) {
          if (s.count[t] == o.count[f] || (mn ? o.str[f] < s.str[t] : o.str[f] > s.str[t])) s.str[t] = o.str[f];
        } else {
          if (mn ? o.sum[f] < s.sum[t] : o.sum[f] > s.sum[t]) s.sum[t] = o.sum[f];
        }
      } else {
        if (o.kind == VectorKind::kDouble) {
          if (f < o.acc_slot.size() && o.acc_slot[f]) acc(s, t).merge(o.accs[o.acc_slot[f] - 1]);
        } else {
          add_wrapping(s, t, o.sum[f]);
          if (f < o.wraps.size() && o.wraps[f]) {
            if (s.wraps.size() <= t) s.wraps.resize(s.sum.size(), 0);
            s.wraps[t] += o.wraps[f];
          }
        }
      }
    }
  }
}

void AggregateStates::load(size_t a, std::vector<int64_t> count, std::vector<__int128> sum, VectorKind kind,
                           const Dictionary* dict, const Type& arg_type, std::vector<int64_t> wraps) {
  State& s = states_[a];
  const size_t n = count.size();
  s.kind = kind;
  s.kind_known = true;
  s.dict = dict;
  s.arg_type = arg_type;
  s.count = std::move(count);
  s.sum = std::move(sum);
  s.sum.resize(n, 0);
  s.sum_d.assign(n, 0.0);
  s.wraps = std::move(wraps);
  s.loaded = true;
  size_ = n;
}

void AggregateStates::load_doubles(size_t a, std::vector<int64_t> count, std::vector<double> value,
                                   const Type& arg_type) {
  State& s = states_[a];
  const size_t n = count.size();
  s.kind = VectorKind::kDouble;
  s.kind_known = true;
  s.dict = nullptr;
  s.arg_type = arg_type;
  s.count = std::move(count);
  s.sum_d = std::move(value);
  s.sum_d.resize(n, 0.0);
  s.sum.assign(n, 0);
  s.loaded_doubles = true;
  s.loaded = true;
  size_ = n;
}

orderstat::RankSpec order_stat_rank_spec(const plan::OrderStatSpec& s) {
  using Kind = plan::OrderStatSpec::Kind;
  const orderstat::Quantile q{s.q_integral, s.q_scaling};
  switch (s.kind) {
    case Kind::kDisc: return orderstat::RankSpec::disc(q);
    case Kind::kCont: return orderstat::RankSpec::cont(q);
    case Kind::kKthSmallest: return orderstat::RankSpec::kth_smallest(s.k);
    case Kind::kKthLargest: return orderstat::RankSpec::kth_largest(s.k);
  }
  return orderstat::RankSpec::median();
}

// The collected values of order statistic `a`, selected per group: interpolated
// (quantile_cont, median) as DOUBLE or, for DECIMAL, in its scale; otherwise the
// selected value itself, in the argument's type.
void AggregateStates::load_order_stat(size_t a, std::vector<orderstat::OrderStat> values, orderstat::KeyType kt,
                                      const Dictionary* dict) {
  State& s = states_[a];
  const bool codes = kt == orderstat::KeyType::kUInt64 || kt == orderstat::KeyType::kUInt32;
  s.kind = codes ? VectorKind::kCode : VectorKind::kInt;
  s.kind_known = true;
  s.dict = dict;
  s.os_key_type = kt;
  size_ = values.size();
  s.os_loaded = std::move(values);
  s.loaded = true;
}

Vector AggregateStates::finalize_order_stat(size_t a, const std::vector<uint32_t>& gids) const {
  const plan::AggregateExpr& agg = (*aggs_)[a];
  const State& s = states_[a];
  if (s.loaded)
    return order_stat_vector(a, s.os_key_type, gids, [&](uint32_t g) -> const orderstat::OrderStat& { return s.os_loaded[g]; });
  std::vector<uint32_t> dg;
  std::vector<uint64_t> dv;
  if (agg.distinct)
    for (auto& e : s.distinct) dg.push_back(e.gid), dv.push_back(uint64_t(e.w0));
  const std::vector<uint32_t>& g = agg.distinct ? dg : s.os_gids;
  const std::vector<uint64_t>& v = agg.distinct ? dv : s.os_values;
  const orderstat::KeyType kt = s.kind == VectorKind::kDouble ? orderstat::KeyType::kDouble
                                : s.kind == VectorKind::kCode ? orderstat::KeyType::kUInt64
                                                              : orderstat::KeyType::kInt64;
  orderstat::ColumnInput in;
  in.type = kt;
  in.values = v.data();
  in.n = v.size();
  in.group_ids = g.data();
  in.groups = uint32_t(std::max<size_t>(size_, 1));
  // The keys' range, so the selection decides the leading bits they share without a
  // pass (a 64-bit key of values that fit in 24 bits needs 3 passes, not 8).
  uint64_t lo = ~uint64_t(0), hi = 0;
#pragma omp parallel for reduction(min : lo) reduction(max : hi) schedule(static)
  for (int64_t i = 0; i < int64_t(in.n); i++) {
    const uint64_t k = orderstat::key64(kt, v[size_t(i)]);
    lo = std::min(lo, k);
    hi = std::max(hi, k);
  }
  in.key_lo = lo;
  in.key_hi = hi;
  orderstat::RankSpec spec = order_stat_rank_spec(agg.order_stat);
  std::vector<int64_t> k_per_group;
  if (agg.order_stat.k_expr) {
    k_per_group = k_of_groups(*agg.order_stat.k_expr, gids);
    spec.k_per_group = k_per_group.data();
  }
  const orderstat::OrderStats r = orderstat::order_statistics(in, {spec});
  return order_stat_vector(a, kt, gids, [&](uint32_t grp) -> const orderstat::OrderStat& { return r.at(grp, 0); });
}

// k of each group (indexed by group id) from an expression over the other aggregates,
// evaluated as HAVING evaluates them; NULL becomes 0, which no k-th value has, so the
// result is NULL as for a k beyond the group.
std::vector<int64_t> AggregateStates::k_of_groups(const plan::Expr& k_expr, const std::vector<uint32_t>& gids) const {
  std::vector<Vector> agg_vectors(aggs_->size());
  std::vector<bool> done(aggs_->size(), false);
  std::vector<const plan::Expr*> todo = {&k_expr};
  while (!todo.empty()) {
    const plan::Expr* e = todo.back();
    todo.pop_back();
    if (e->kind == plan::ExprKind::kAggregateRef && !done[size_t(e->ref_index)]) {
      agg_vectors[size_t(e->ref_index)] = finalize(size_t(e->ref_index), gids);
      done[size_t(e->ref_index)] = true;
    }
    for (const auto& c : e->children) todo.push_back(c.get());
  }
  EvalContext ctx;
  ctx.aggregates = &agg_vectors;
  ctx.n = gids.size();
  const Vector k = evaluate(k_expr, ctx);
  std::vector<int64_t> out(std::max<size_t>(size_, 1), 0);
  for (size_t i = 0; i < gids.size(); i++) out[gids[i]] = k.is_null(i) ? 0 : k.ints[i];
  return out;
}

// The selected values as the aggregate's result type: interpolations as DOUBLE or in
// the DECIMAL's scale, discrete values in the argument's type (codes for VARCHAR).
Vector AggregateStates::order_stat_vector(size_t a, orderstat::KeyType kt, const std::vector<uint32_t>& gids,
                                          const std::function<const orderstat::OrderStat&(uint32_t)>& at) const {
  const plan::AggregateExpr& agg = (*aggs_)[a];
  const State& s = states_[a];
  Vector out(agg.type, gids.size());
  if (out.kind == VectorKind::kString) {  // dictionary codes in, codes out
    out.kind = VectorKind::kCode;
    out.strings.clear();
    out.ints.assign(gids.size(), 0);
    out.dict = s.dict;
  }
  const bool cont = agg.order_stat.kind == plan::OrderStatSpec::Kind::kCont;
  for (size_t i = 0; i < gids.size(); i++) {
    const orderstat::OrderStat& st = at(gids[i]);
    if (st.is_null) {
      out.set_null(i);
    } else if (out.kind == VectorKind::kDouble) {
      out.doubles[i] = cont ? orderstat::as_double(kt, st) : orderstat::double_from_key(st.lo_key);
    } else if (cont) {
      out.ints[i] = orderstat::as_scaled(kt, st);  // DECIMAL keeps its scale
    } else {
      out.ints[i] = orderstat::int_from_key(kt, st.lo_key);
    }
  }
  return out;
}

// Below this many groups a finalize loop runs on the calling thread.
constexpr size_t kParallelGroups = size_t(1) << 15;

Vector AggregateStates::finalize(size_t a, const std::vector<uint32_t>& gids) const {
  const plan::AggregateExpr& agg = (*aggs_)[a];
  if (agg.func == AggFunc::kOrderStat) return finalize_order_stat(a, gids);
  const State* sp = &states_[a];
  if (agg.distinct && !sp->loaded) {
    // Turn the distinct (group, value) pairs into the state of the same aggregate
    // without DISTINCT, then finalize that.
    plan::AggregateExpr plain = agg;
    plain.distinct = false;
    std::vector<plan::AggregateExpr> one{plain};
    AggregateStates single(&one, interner_);
    single.resize(size_);
    State& t = single.states_[0];
    t.kind = sp->kind;
    t.kind_known = sp->kind_known;
    t.dict = sp->dict;
    t.arg_type = sp->arg_type;
    if (t.kind == VectorKind::kString) t.str.assign(size_, std::string());
    for (auto& e : sp->distinct) {
      uint32_t g = e.gid;
      t.count[g]++;
      if (agg.func == AggFunc::kCount) continue;
      switch (t.kind) {
        case VectorKind::kInt:
        case VectorKind::kCode:
        case VectorKind::kHuge: {
          __int128 x = t.kind == VectorKind::kHuge ? ((__int128(e.w1) << 64) | __int128(uint64_t(e.w0))) : e.w0;
          if (agg.func == AggFunc::kMin) {
            if (x < t.sum[g]) t.sum[g] = x;
          } else if (agg.func == AggFunc::kMax) {
            if (x > t.sum[g]) t.sum[g] = x;
          } else {
            add_wrapping(t, g, x);
          }
          break;
        }
        case VectorKind::kDouble: {
          double d;
          std::memcpy(&d, &e.w0, 8);
          if (agg.func == AggFunc::kMin || agg.func == AggFunc::kMax) {
            if (t.count[g] == 1 || better_double(agg.func == AggFunc::kMin, d, t.sum_d[g])) t.sum_d[g] = d;
          } else {
            acc(t, g).add(d);
          }
          break;
        }
        case VectorKind::kString: {
          std::string s(interner_->get(e.w0));
          if (t.count[g] == 1 || (agg.func == AggFunc::kMin ? s < t.str[g] : s > t.str[g])) t.str[g] = s;
          break;
        }
      }
    }
    return single.finalize(0, gids);
  }
  const State& s = *sp;
  const size_t n = gids.size();
  Vector r(agg.type, n);
  auto null_if_empty = [&](size_t i, uint32_t g) {
    if (s.count[g] == 0) r.set_null(i);
    return s.count[g] == 0;
  };
  if ((agg.func == AggFunc::kSum || agg.func == AggFunc::kAvg) && !s.wraps.empty())
    for (uint32_t g : gids)
      if (g < s.wraps.size() && s.wraps[g] != 0) fail(ErrorKind::kExecution, "numeric overflow in {}", agg.name);
  switch (agg.func) {
    case AggFunc::kOrderStat: break;  // finalize_order_stat
    case AggFunc::kCountStar:
    case AggFunc::kCount:
#pragma omp parallel for schedule(static) if (n >= kParallelGroups)
      for (int64_t i = 0; i < int64_t(n); i++) r.ints[size_t(i)] = s.count[gids[size_t(i)]];
      return r;
    case AggFunc::kAvg:
      for (size_t i = 0; i < n; i++) {
        uint32_t g = gids[i];
        if (null_if_empty(i, g)) continue;
        if (s.kind == VectorKind::kDouble) {
          r.doubles[i] = rounded_sum(s, g) / double(s.count[g]);
        } else {
          long double x = (long double)s.sum[g] / (long double)s.count[g];
          if (s.arg_type.id == TypeId::kDecimal) x /= (long double)pow10_i128(s.arg_type.scale);
          r.doubles[i] = double(x);
        }
      }
      return r;
    case AggFunc::kSum: {
      // On all threads over many groups (118 K groups took 2.3 ms on one thread of the
      // GPU machine, TPC-H Q20's subquery at SF 20): nothing in the loop may throw or
      // allocate, so the NULL mask exists before it and an overflow is raised after it
      // (no group's value is used then).
      if (r.kind != VectorKind::kDouble && r.kind != VectorKind::kHuge && r.kind != VectorKind::kInt)
        fail(ErrorKind::kInternal, "SUM into a string");
      bool empty = false, overflow = false;
#pragma omp parallel for reduction(|| : empty) schedule(static) if (n >= kParallelGroups)
      for (int64_t i = 0; i < int64_t(n); i++) empty = empty || s.count[gids[size_t(i)]] == 0;
      if (empty) r.nulls.assign(n, 0);
#pragma omp parallel for reduction(|| : overflow) schedule(static) if (n >= kParallelGroups)
      for (int64_t i = 0; i < int64_t(n); i++) {
        const uint32_t g = gids[size_t(i)];
        if (s.count[g] == 0) {
          r.nulls[size_t(i)] = 1;
          continue;
        }
        switch (r.kind) {
          case VectorKind::kDouble:
            r.doubles[size_t(i)] = s.kind == VectorKind::kDouble ? rounded_sum(s, g) : double(s.sum[g]);
            break;
          case VectorKind::kHuge: r.huge[size_t(i)] = s.sum[g]; break;
          default:
            if (s.sum[g] > INT64_MAX || s.sum[g] < INT64_MIN)
              overflow = true;
            else
              r.ints[size_t(i)] = int64_t(s.sum[g]);
        }
      }
      if (overflow) fail(ErrorKind::kExecution, "numeric overflow in {}", agg.name);
      return r;
    }
    case AggFunc::kMin:
    case AggFunc::kMax:
      if (s.kind == VectorKind::kCode) {
        r.kind = VectorKind::kCode;
        r.strings.clear();
        r.ints.resize(n);
        r.dict = s.dict;
      }
      for (size_t i = 0; i < n; i++) {
        uint32_t g = gids[i];
        if (null_if_empty(i, g)) continue;
        switch (r.kind) {
          case VectorKind::kInt:
          case VectorKind::kCode: r.ints[i] = int64_t(s.sum[g]); break;
          case VectorKind::kHuge: r.huge[i] = s.sum[g]; break;
          case VectorKind::kDouble: r.doubles[i] = s.sum_d[g]; break;
          case VectorKind::kString: {
            auto& arena = r.owners.empty() ? r.new_arena() : const_cast<std::deque<std::string>&>(*r.owners.back());
            arena.push_back(s.str[g]);
            r.strings[i] = arena.back();
            break;
          }
        }
      }
      return r;
  }
  return r;
}

}  // namespace raydb::exec
