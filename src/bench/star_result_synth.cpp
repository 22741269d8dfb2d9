#include "bench/star_result_synth.h"

#include <algorithm>
#include <bit>
#include <random>

#include "common/error.h"

namespace raydb::bench {

namespace {

using plan::AggFunc;
using plan::Expr;
using exec::cuda::StarAgg;

// `n` distinct ids in [0, range), ascending.
std::vector<uint64_t> distinct_ids(uint64_t n, uint64_t range, std::mt19937_64& rng) {
  std::vector<uint64_t> ids;
  if (n >= range) {
    for (uint64_t i = 0; i < range; i++) ids.push_back(i);
    return ids;
  }
  std::uniform_int_distribution<uint64_t> pick(0, range - 1);
  while (ids.size() < n) {
    while (ids.size() < n + n / 16 + 16) ids.push_back(pick(rng));
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  }
  std::shuffle(ids.begin(), ids.end(), rng);  // keep a uniform subset
  ids.resize(size_t(n));
  std::sort(ids.begin(), ids.end());
  return ids;
}

exec::KeySpec key_spec(Type t, int64_t min, int64_t max) {
  exec::KeySpec s;
  s.type = t;
  s.kind = exec::VectorKind::kInt;
  s.nullable = false;
  s.has_range = true;
  s.min = min;
  s.max = max;
  return s;
}

// The aggregate, its star form, and a generator of its accumulator words (low, high).
struct AggForm {
  plan::AggregateExpr expr;
  StarAgg star;
};

AggForm agg_form(SynthAgg kind) {
  AggForm f;
  StarAgg& s = f.star;
  auto arg = [](Type t) { return Expr::column(0, 9, t, "x"); };
  auto set = [&](AggFunc func, Type arg_type, Type type, int32_t dev_func, bool wide, const char* name) {
    f.expr = {func, func == AggFunc::kCountStar ? nullptr : arg(arg_type), false, {}, type, name};
    s.func = func;
    s.dev.func = dev_func;
    s.dev.wide = wide ? 1 : 0;
    s.kind = exec::VectorKind::kInt;
    s.arg_type = arg_type;
  };
  switch (kind) {
    case SynthAgg::kCountStar: set(AggFunc::kCountStar, Type::bigint(), Type::bigint(), exec::cuda::kAggCount, false, "count_star()"); break;
    case SynthAgg::kCount: set(AggFunc::kCount, Type::integer(), Type::bigint(), exec::cuda::kAggCount, false, "count(x)"); break;
    case SynthAgg::kSumInt: set(AggFunc::kSum, Type::integer(), Type::bigint(), exec::cuda::kAggSum, false, "sum(x)"); break;
    case SynthAgg::kSumWide: set(AggFunc::kSum, Type::bigint(), Type::hugeint(), exec::cuda::kAggSum, true, "sum(x)"); break;
    case SynthAgg::kSumDecimal:
      set(AggFunc::kSum, Type::decimal(12, 2), Type::decimal(38, 2), exec::cuda::kAggSum, true, "sum(x)");
      break;
    case SynthAgg::kAvg: set(AggFunc::kAvg, Type::decimal(12, 2), Type::float64(), exec::cuda::kAggSum, false, "avg(x)"); break;
    case SynthAgg::kMin: set(AggFunc::kMin, Type::integer(), Type::integer(), exec::cuda::kAggMin, false, "min(x)"); break;
    case SynthAgg::kMax: set(AggFunc::kMax, Type::bigint(), Type::bigint(), exec::cuda::kAggMax, false, "max(x)"); break;
  }
  return f;
}

// Accumulator words of one group: low and high (wide sums) as the kernels leave them.
std::pair<uint64_t, uint64_t> agg_words(SynthAgg kind, std::mt19937_64& rng) {
  const int64_t r = int64_t(rng());
  switch (kind) {
    case SynthAgg::kSumWide:
    case SynthAgg::kSumDecimal: return {uint64_t(r), uint64_t(int64_t(rng() % 7) - 3)};
    case SynthAgg::kMin: return {uint64_t(int64_t(int32_t(r))), 0};
    case SynthAgg::kMax: return {uint64_t(r), 0};
    default: return {uint64_t(r >> 20), 0};  // |sum| < 2^43: no overflow of BIGINT
  }
}

}  // namespace

exec::cuda::StarGroups SynthStarResult::view(exec::cuda::GroupIds* p, exec::cuda::GroupFields* f) const {
  exec::cuda::StarGroups g;
  g.q = &q;
  g.sp = &sp;
  const bool has_dim = !inv.empty();
  if (has_dim) {
    exec::cuda::GroupDimDigit d;
    d.group_keys = {sp.root_group_keys.empty() ? 0 : (sp.root_group_keys[0] == 0 ? 1 : 0)};
    d.mult = {1};
    d.stride = 1;
    d.codes = inv.size();
    d.inv = &inv;
    g.dims.push_back(d);
  }
  if (!sp.root_group_keys.empty()) {
    exec::cuda::GroupRootDigit r;
    r.stride = has_dim ? inv.size() : 1;
    r.radix = R / r.stride;
    r.base = sp.key_specs[size_t(sp.root_group_keys[0])].min;
    r.decode = decode.empty() ? nullptr : &decode;
    g.roots.push_back(r);
  }
  g.R = R;
  g.lo_field.clear();
  g.nfields = exec::cuda::number_accumulators(sp, g.lo_field, g.hi_field);
  g.present = p;
  g.fields = f;
  return g;
}

SynthStarResult make_synth_star_result(const SynthShape& s) {
  if (s.dim_codes > 0 && s.dim_local < s.dim_codes) fail(ErrorKind::kInvalidInput, "synthetic result: dim_local < dim_codes");
  if (s.having && (s.aggs.empty() || (s.aggs[0] != SynthAgg::kCountStar && s.aggs[0] != SynthAgg::kCount)))
    fail(ErrorKind::kInvalidInput, "synthetic result: HAVING reads a first aggregate that counts");
  std::mt19937_64 rng(s.seed);
  SynthStarResult out;
  plan::LogicalQuery& q = out.q;
  exec::cuda::StarPlan& sp = out.sp;
  q.is_aggregate = true;
  const bool dim = s.dim_codes > 0, root = s.root_range > 0;
  const int nkeys = int(dim) + int(root);
  const int dim_key = dim ? (s.dim_first || !root ? 0 : 1) : -1;
  const int root_key = root ? (dim_key == 0 ? 1 : 0) : -1;
  sp.key_specs.resize(size_t(nkeys));
  if (dim) {
    std::vector<uint64_t> local = distinct_ids(s.dim_codes, s.dim_local, rng);
    for (uint64_t c : local) out.inv.push_back(int32_t(c));
    sp.key_specs[size_t(dim_key)] = key_spec(Type::integer(), 1, int64_t(s.dim_local));
  }
  if (root) {
    if (s.dictionary_root) {
      std::vector<uint64_t> v = distinct_ids(s.root_range, s.root_range * 5, rng);
      for (uint64_t x : v) out.decode.push_back(int64_t(x) - int64_t(s.root_range));
      sp.key_specs[size_t(root_key)] = key_spec(Type::bigint(), out.decode.front(), out.decode.back());
    } else {
      sp.key_specs[size_t(root_key)] = key_spec(Type::bigint(), 1, int64_t(s.root_range));
    }
    sp.root_group_keys = {root_key};
    sp.root_group_cols = {0};
  }
  int bits = 0;
  for (auto& k : sp.key_specs) {
    sp.key_shifts.push_back(bits);
    const uint64_t r = uint64_t(k.max - k.min) + 1;
    bits += r <= 1 ? 0 : int(std::bit_width(r - 1));
  }
  for (int k = 0; k < nkeys; k++) {
    const std::string name = "k" + std::to_string(k);
    q.group_keys.push_back(Expr::column(0, k, sp.key_specs[size_t(k)].type, name));
    q.select.push_back(Expr::group_ref(k, sp.key_specs[size_t(k)].type, name));
    q.output_names.push_back(name);
  }
  for (SynthAgg a : s.aggs) {
    AggForm f = agg_form(a);
    q.select.push_back(Expr::aggregate_ref(int(q.aggregates.size()), f.expr.type, f.expr.name));
    q.output_names.push_back(f.expr.name);
    q.aggregates.push_back(f.expr);
    sp.aggs.push_back(f.star);
  }
  if (s.having)
    q.having = Expr::compare(plan::CompareOp::kGt, Expr::aggregate_ref(0, Type::bigint(), q.aggregates[0].name),
                             Expr::constant(Value::bigint(2)));
  if (s.having && s.having_more && q.aggregates.size() > 1) {
    const plan::AggregateExpr& a = q.aggregates[1];
    plan::ExprPtr zero = Expr::constant(Value::bigint(0));
    if (a.type.id == TypeId::kDouble) zero = Expr::constant(Value::float64(0));
    if (a.type.id == TypeId::kInteger) zero = Expr::constant(Value::integer(0));
    if (a.type.id == TypeId::kHugeint) zero = Expr::constant(Value::hugeint(0));
    if (a.type.id == TypeId::kDecimal) zero = Expr::constant(Value::decimal_wide(0, a.type.precision, a.type.scale));
    plan::ExprPtr more = Expr::compare(plan::CompareOp::kGt, Expr::aggregate_ref(1, a.type, a.name), zero);
    q.having = Expr::conjunction(true, {q.having, more});
  }
  // TPC-H Q21's min(c) <> max(c), where the two aggregates are of one type.
  if (s.having && s.having_pair && q.aggregates.size() > 2 && q.aggregates[1].type == q.aggregates[2].type) {
    const plan::AggregateExpr &a = q.aggregates[1], &b = q.aggregates[2];
    plan::ExprPtr pair = Expr::compare(plan::CompareOp::kNe, Expr::aggregate_ref(1, a.type, a.name),
                                       Expr::aggregate_ref(2, b.type, b.name));
    q.having = Expr::conjunction(true, {q.having, pair});
  }
  out.R = (dim ? s.dim_codes : 1) * (root ? s.root_range : 1);
  const std::vector<uint64_t> ids = nkeys == 0 ? distinct_ids(std::min<uint64_t>(s.groups, 1), 1, rng)
                                               : distinct_ids(s.groups, out.R, rng);
  out.present.assign(ids.begin(), ids.end());
  if (s.shuffled) {
    const size_t w = s.window ? size_t(s.window) : std::max<size_t>(out.present.size(), 1);
    for (size_t at = 0; at < out.present.size(); at += w) {
      const size_t end = std::min(out.present.size(), at + w);
      std::shuffle(out.present.begin() + long(at), out.present.begin() + long(end), rng);
    }
  }
  std::vector<int> lo, hi;
  const int nfields = exec::cuda::number_accumulators(sp, lo, hi);
  const size_t n = out.present.size();
  out.fields.assign(size_t(nfields), FillVector<unsigned long long>(n, 0));
  for (size_t i = 0; i < n; i++) {
    out.fields[0][i] = 1 + rng() % 5;
    for (size_t a = 0; a < s.aggs.size(); a++) {
      if (lo[a] < 0) continue;
      const auto [l, h] = agg_words(s.aggs[a], rng);
      out.fields[size_t(lo[a])][i] = l;
      if (hi[a] >= 0) out.fields[size_t(hi[a])][i] = h;
    }
  }
  return out;
}

}  // namespace raydb::bench
