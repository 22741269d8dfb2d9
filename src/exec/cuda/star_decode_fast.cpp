// The fast steps of a star result's decode (star_decode_steps.h). A TPC-H block at SF
// 20 leaves 1-2 M groups out of a 120 M-wide direct range; the general steps spent
// 70-190 ns per group there (a packed word with divisions per group, a radix sort of
// words, int128 states per aggregate, finalize). Here: when the group id's digits come
// in GROUP BY order, ascending ids are ascending keys, so the ids are sorted (or found
// sorted) and each key is decoded straight from them; counts and sums go straight into
// the result vectors; every pass over the groups runs in parallel.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <functional>

#include "common/error.h"
#include "common/int_math.h"
#include "common/prefault_pages.h"
#include "exec/cuda/group_keep.h"
#include "exec/cuda/star_decode_steps.h"

namespace raydb::exec::cuda {

using plan::AggFunc;

namespace {

// Passes over fewer groups stay on one thread.
constexpr long kParallelMin = 32768;

// q / d and q % d for 32-bit q by a multiplication (Lemire, Kaser and Kurz, "Faster
// remainder by direct computation", 2019): exact for every 32-bit q and 2 <= d < 2^32;
// a hardware division per group and key cost more than the rest of the decode.
struct Divisor {
  uint64_t d = 1, m = 0;
  bool one = true, huge = false;  // d <= 1 (0 only where no group exists); d >= 2^32
  explicit Divisor(uint64_t divisor)
      : d(divisor), one(divisor <= 1), huge(divisor >= (uint64_t(1) << 32)) {
    if (!one && !huge) m = ~uint64_t(0) / d + 1;
  }
  uint64_t div(uint32_t q) const { return one ? q : huge ? 0 : uint64_t((unsigned __int128)m * q >> 64); }
  uint64_t mod(uint32_t q) const {
    return one ? 0 : huge ? q : uint64_t((unsigned __int128)(m * q) * d >> 64);
  }
};

// Where a GROUP BY key's digit sits in the group id.
struct KeySource {
  int dim = -1;   // index into StarGroups::dims, or -1: root
  size_t at = 0;  // the key's position in that dim's group_keys, or its root digit
};

std::vector<KeySource> key_sources(const StarGroups& g) {
  std::vector<KeySource> src(g.q->group_keys.size());
  for (size_t d = 0; d < g.dims.size(); d++)
    for (size_t k = 0; k < g.dims[d].group_keys.size(); k++) src[size_t(g.dims[d].group_keys[k])] = {int(d), k};
  for (size_t k = 0; k < g.sp->root_group_keys.size(); k++) src[size_t(g.sp->root_group_keys[k])] = {-1, k};
  return src;
}

// Key values of groups i in [0, n): `id(i)` their group ids, all below 2^32
// (StarGroups::R).
template <typename Id>
void fill_key(const StarGroups& g, const KeySource& src, const KeySpec& spec, size_t n, const Id& id, int64_t* out) {
  const long m = long(n);
  if (src.dim < 0) {
    const GroupRootDigit& r = g.roots[src.at];
    const Divisor stride(r.stride), radix(r.radix);
#pragma omp parallel for schedule(static) if (m > kParallelMin)
    for (long i = 0; i < m; i++) out[i] = r.value(radix.mod(uint32_t(stride.div(uint32_t(id(size_t(i)))))));
    return;
  }
  const GroupDimDigit& d = g.dims[size_t(src.dim)];
  const Divisor stride(d.stride), codes(d.codes), mult(d.mult[src.at]), range(value_count(spec.min, spec.max));
  const int32_t* inv = d.inv->data();
#pragma omp parallel for schedule(static) if (m > kParallelMin)
  for (long i = 0; i < m; i++) {
    const uint64_t dense = codes.mod(uint32_t(stride.div(uint32_t(id(size_t(i))))));
    const uint32_t local = uint32_t(inv[dense]);
    out[i] = int64_t(uint64_t(spec.min) + range.mod(uint32_t(mult.div(local))));
  }
}

// One LSD pass over `bits` bits from `shift` of in[0, n) into out, stable: per thread
// a histogram of its slice, then each thread scatters its slice at its offsets.
void radix_pass(const uint64_t* in, uint64_t* out, size_t n, int shift, int bits) {
  const size_t B = size_t(1) << bits;
  const uint64_t mask = B - 1;
  std::vector<size_t> hist;
  int T = 1;
#pragma omp parallel if (n > size_t(kParallelMin))
  {
#pragma omp single
    {
      T = omp_get_num_threads();
      hist.assign(size_t(T) * B, 0);
    }
    const int t = omp_get_thread_num();
    const size_t lo = n * size_t(t) / size_t(T), hi = n * size_t(t + 1) / size_t(T);
    size_t* h = hist.data() + size_t(t) * B;
    for (size_t i = lo; i < hi; i++) h[(in[i] >> shift) & mask]++;
#pragma omp barrier
#pragma omp single
    {
      size_t sum = 0;
      for (size_t d = 0; d < B; d++)
        for (int u = 0; u < T; u++) {
          const size_t c = hist[size_t(u) * B + d];
          hist[size_t(u) * B + d] = sum;
          sum += c;
        }
    }
    for (size_t i = lo; i < hi; i++) out[h[(in[i] >> shift) & mask]++] = in[i];
  }
}

bool fast_aggregate(const plan::AggregateExpr& agg, const StarAgg& sa) {
  if (agg.distinct || sa.order_stat) return false;
  switch (agg.func) {
    case AggFunc::kCountStar:
    case AggFunc::kCount: return true;
    case AggFunc::kSum:
    case AggFunc::kAvg: return sa.kind == VectorKind::kInt || sa.kind == VectorKind::kHuge;
    case AggFunc::kMin:
    case AggFunc::kMax: {
      const VectorKind out = sa.kind == VectorKind::kCode ? VectorKind::kCode : kind_of(agg.type);
      return (sa.kind == VectorKind::kInt || sa.kind == VectorKind::kCode || sa.kind == VectorKind::kHuge) &&
             (out == VectorKind::kInt || out == VectorKind::kCode || out == VectorKind::kHuge);
    }
    default: return false;
  }
}

// out[i] = f(at(i)) for i in [0, n), in parallel; f must not throw.
template <typename T, typename At, typename F>
void fill(size_t n, const At& at, T* out, const F& f) {
  const long m = long(n);
#pragma omp parallel for schedule(static) if (m > kParallelMin)
  for (long i = 0; i < m; i++) out[i] = f(at(size_t(i)));
}

// One aggregate's results for groups i in [0, n) at present index `at(i)`, as
// AggregateStates::finalize gives them after AggregateStates::load: one plain loop per
// result kind (a switch per group kept the loops from being compiled tight).
template <typename At>
Vector fast_aggregate_vector(const StarGroups& g, size_t a, size_t n, const At& at) {
  const plan::AggregateExpr& agg = g.q->aggregates[a];
  const StarAgg& sa = g.sp->aggs[a];
  const auto& fields = *g.fields;
  const unsigned long long* count = fields[0].data();
  // MIN / MAX of a coded VARCHAR stays codes of its dictionary: no string payload made.
  const bool code = (agg.func == AggFunc::kMin || agg.func == AggFunc::kMax) && sa.kind == VectorKind::kCode;
  Vector r(agg.type, code ? 0 : n);
  if (code) {
    r.kind = VectorKind::kCode;
    r.size = n;
    zeroed_resize(r.ints, n);
    r.dict = sa.dict;
  }
  if (agg.func == AggFunc::kCountStar || agg.func == AggFunc::kCount) {
    fill(n, at, r.ints.data(), [count](size_t j) { return int64_t(count[j]); });
    return r;
  }
  const unsigned long long* lo = g.lo_field[a] >= 0 ? fields[size_t(g.lo_field[a])].data() : nullptr;
  const unsigned long long* hi = g.hi_field[a] >= 0 ? fields[size_t(g.hi_field[a])].data() : nullptr;
  const auto wide = [lo, hi](size_t j) { return (__int128(int64_t(hi[j])) << 64) | __int128(lo[j]); };
  const auto narrow = [lo](size_t j) { return int64_t(lo[j]); };
  if (agg.func == AggFunc::kAvg) {
    const bool decimal = sa.arg_type.id == TypeId::kDecimal;
    const long double scale = decimal ? (long double)pow10_i128(sa.arg_type.scale) : (long double)1;
    fill(n, at, r.doubles.data(), [&](size_t j) {
      if (count[j] == 0) return 0.0;
      long double x = (long double)(hi ? wide(j) : __int128(narrow(j))) / (long double)int64_t(count[j]);
      if (decimal) x /= scale;
      return double(x);
    });
  } else if (r.kind == VectorKind::kHuge) {
    if (hi)
      fill(n, at, r.huge.data(), wide);
    else
      fill(n, at, r.huge.data(), [narrow](size_t j) { return __int128(narrow(j)); });
  } else if (r.kind == VectorKind::kDouble) {
    fill(n, at, r.doubles.data(), [&](size_t j) { return double(hi ? wide(j) : __int128(narrow(j))); });
  } else if (!hi) {
    fill(n, at, r.ints.data(), narrow);
  } else {  // a wide sum into BIGINT: AggregateStates raises numeric overflow outside int64
    bool overflow = false;
    const long m = long(n);
    int64_t* out = r.ints.data();
#pragma omp parallel for schedule(static) reduction(|| : overflow) if (m > kParallelMin)
    for (long i = 0; i < m; i++) {
      const size_t j = at(size_t(i));
      const __int128 v = wide(j);
      overflow = overflow || (count[j] != 0 && (v > INT64_MAX || v < INT64_MIN));
      out[i] = int64_t(v);
    }
    if (overflow) fail(ErrorKind::kExecution, "numeric overflow in {}", agg.name);
  }
  // Groups without rows (only the one group of a query without GROUP BY: present
  // groups have rows, star_groups.h): NULL.
  if (!g.q->group_keys.empty()) return r;
  bool empty = false;
  const long m = long(n);
#pragma omp parallel for schedule(static) reduction(|| : empty) if (m > kParallelMin)
  for (long i = 0; i < m; i++) empty = empty || count[at(size_t(i))] == 0;
  if (empty)
    for (size_t i = 0; i < n; i++)
      if (count[at(i)] == 0) r.set_null(i);
  return r;
}

// The packed key word of group id `id` (KeyEncoder's layout), keys' digits by Divisor.
struct PackedWords {
  struct Key {
    KeySource src;
    Divisor stride{1}, codes{1}, mult{1}, range{1};
    const int32_t* inv = nullptr;
    const GroupRootDigit* root = nullptr;
    int64_t min = 0;
    int shift = 0;
  };
  std::vector<Key> keys;
  PackedWords(const StarGroups& g) {
    const std::vector<KeySource> src = key_sources(g);
    for (size_t k = 0; k < src.size(); k++) {
      const KeySpec& spec = g.sp->key_specs[k];
      Key key;
      key.src = src[k];
      key.min = spec.min;
      key.shift = g.sp->key_shifts[k];
      if (src[k].dim < 0) {
        key.root = &g.roots[src[k].at];
        key.stride = Divisor(key.root->stride);
        key.range = Divisor(key.root->radix);
      } else {
        const GroupDimDigit& d = g.dims[size_t(src[k].dim)];
        key.stride = Divisor(d.stride);
        key.codes = Divisor(d.codes);
        key.mult = Divisor(d.mult[src[k].at]);
        key.range = Divisor(value_count(spec.min, spec.max));
        key.inv = d.inv->data();
      }
      keys.push_back(key);
    }
  }
  int64_t operator()(uint64_t id) const {
    uint64_t w = 0;
    for (const Key& k : keys) {
      const uint64_t q = k.stride.div(uint32_t(id));
      uint64_t digit;
      if (k.root)
        digit = uint64_t(k.root->value(k.range.mod(uint32_t(q)))) - uint64_t(k.min);
      else
        digit = k.range.mod(uint32_t(k.mult.div(uint32_t(k.inv[k.codes.mod(uint32_t(q))]))));
      w |= digit << k.shift;
    }
    return int64_t(w);
  }
};

// flags[i] &= (int64 word i) op rhs(i): one plain loop per comparison.
template <typename Rhs>
void and_narrow(const unsigned long long* lo, const Rhs& rhs, int op, size_t n, uint8_t* flags) {
  auto loop = [&](auto cmp) {
    const long m = long(n);
#pragma omp parallel for schedule(static) if (m > kParallelMin)
    for (long i = 0; i < m; i++) flags[i] &= uint8_t(cmp(int64_t(lo[i]), rhs(i)));
  };
  switch (op) {
    case kCmpEq: return loop(std::equal_to<int64_t>());
    case kCmpNe: return loop(std::not_equal_to<int64_t>());
    case kCmpLt: return loop(std::less<int64_t>());
    case kCmpLe: return loop(std::less_equal<int64_t>());
    case kCmpGt: return loop(std::greater<int64_t>());
    default: return loop(std::greater_equal<int64_t>());
  }
}

// flags[i] &= HAVING term t of group i (group_kept's meaning): narrow words against a
// constant within int64, or two narrow fields, in a loop per comparison; other terms
// group by group.
void and_term(const DevKeepTerm& t, const unsigned long long* const* f, size_t n, uint8_t* flags) {
  const __int128 k = __int128((unsigned __int128)(unsigned long long)t.k_hi << 64 | (unsigned long long)t.k_lo);
  if (t.rlo >= 0 && t.hi < 0 && t.rhi < 0) {
    const unsigned long long* b = f[t.rlo];
    return and_narrow(f[t.lo], [b](long i) { return int64_t(b[i]); }, t.op, n, flags);
  }
  if (t.rlo < 0 && t.hi < 0 && k >= INT64_MIN && k <= INT64_MAX) {
    const int64_t c = int64_t(k);
    return and_narrow(f[t.lo], [c](long) { return c; }, t.op, n, flags);
  }
  DevGroupKeep one;
  one.nterms = 1;
  one.terms[0] = t;
  const long m = long(n);
#pragma omp parallel for schedule(static) if (m > kParallelMin)
  for (long i = 0; i < m; i++) flags[i] &= uint8_t(group_kept(one, f, uint64_t(i)));
}

}  // namespace

GroupIds packed_words(const StarGroups& g) {
  const PackedWords packed(g);
  const GroupIds& present = *g.present;
  GroupIds words(present.size());
  fill(present.size(), [](size_t i) { return i; }, words.data(),
       [&](size_t i) { return uint64_t(packed(present[i])); });
  return words;
}

std::vector<Vector> keys_from_words(const StarGroups& g, const GroupIds& words,
                                    const GroupIds& sorted) {
  const size_t n = words.size();
  const uint64_t* w = sorted.empty() ? words.data() : sorted.data();
  const int from = sorted.empty() ? 0 : 32;
  std::vector<Vector> out;
  for (size_t k = 0; k < g.sp->key_specs.size(); k++) {
    const KeySpec& spec = g.sp->key_specs[k];
    const uint64_t r = value_count(spec.min, spec.max);
    const int bits = r <= 1 ? 0 : int(std::bit_width(r - 1));
    const uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    const int shift = from + g.sp->key_shifts[k];
    Vector v(spec.type, 0);
    v.kind = spec.kind;
    v.size = n;
    zeroed_resize(v.ints, n);  // filled in parallel below; its pages faulted in on all threads
    if (spec.kind == VectorKind::kCode) v.dict = spec.dict;
    fill(n, [](size_t i) { return i; }, v.ints.data(),
         [&](size_t i) { return int64_t(((w[i] >> shift) & mask) + uint64_t(spec.min)); });
    out.push_back(std::move(v));
  }
  return out;
}

namespace {

// HAVING's top-level conjuncts (1 when it is not an AND), which compile_group_keep's
// terms must all be for the terms to decide it.
size_t having_conjuncts(const plan::LogicalQuery& q) {
  return q.having->kind == plan::ExprKind::kAnd ? q.having->children.size() : 1;
}

}  // namespace

bool keep_by_terms(StarGroups& g) {
  const plan::LogicalQuery& q = *g.q;
  const size_t conjuncts = having_conjuncts(q);
  const DevGroupKeep keep = compile_group_keep(q, *g.sp, g.lo_field, g.hi_field);
  if (keep.nterms == 0 || size_t(keep.nterms) != conjuncts) return false;
  if (g.device_kept_terms == keep.nterms) return true;  // the compaction applied them all
  const size_t n = g.present->size();
  std::vector<const unsigned long long*> f;
  for (auto& v : *g.fields) f.push_back(v.data());
  std::vector<uint8_t> flags(n, 1);
  for (int t = 0; t < keep.nterms; t++) and_term(keep.terms[t], f.data(), n, flags.data());
  auto compact = [&](auto& v) {  // branch-free: about half the groups pass
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      v[m] = v[i];
      m += flags[i];
    }
    v.resize(m);
  };
  compact(*g.present);
  for (auto& v : *g.fields) compact(v);
  return true;
}

bool ids_follow_key_order(const StarGroups& g) {
  std::vector<int> seq;  // keys by digit, least significant first
  for (auto& d : g.dims) seq.insert(seq.end(), d.group_keys.begin(), d.group_keys.end());
  seq.insert(seq.end(), g.sp->root_group_keys.begin(), g.sp->root_group_keys.end());
  if (seq.size() != g.q->group_keys.size()) return false;
  for (size_t k = 0; k < seq.size(); k++)
    if (seq[k] != int(k)) return false;
  for (auto& r : g.roots)  // dictionary forms must ascend with their stored codes
    if (r.decode && !std::is_sorted(r.decode->begin(), r.decode->end())) return false;
  return true;
}

GroupIds sorted_ids(const GroupIds& present) {
  const size_t n = present.size();
  // Found sorted (the compaction keeps the id order): checked in parallel, one read.
  size_t descents = 0;
  const long m0 = long(n);
#pragma omp parallel for schedule(static) reduction(+ : descents) if (m0 > kParallelMin)
  for (long i = 1; i < m0; i++) descents += size_t(present[size_t(i)] < present[size_t(i - 1)]);
  if (descents == 0) return {};
  const uint64_t top = *std::max_element(present.begin(), present.end());
  if (top >= (uint64_t(1) << 32) || n >= (uint64_t(1) << 32))
    fail(ErrorKind::kInternal, "CUDA backend: group ids above 2^32");
  GroupIds a(n), b(n);
  const long m = long(n);
#pragma omp parallel for schedule(static) if (m > kParallelMin)
  for (long i = 0; i < m; i++) a[size_t(i)] = present[size_t(i)] << 32 | uint64_t(i);
  // Digits of at most 11 bits (the histograms stay in L1, the scatter's 2048 streams
  // in the TLB), as few passes as the ids' width allows.
  const int bits = std::max(1, int(std::bit_width(top)));
  const int passes = (bits + 10) / 11, digit = (bits + passes - 1) / passes;
  for (int p = 0; p < passes; p++) {
    radix_pass(a.data(), b.data(), n, 32 + p * digit, digit);
    a.swap(b);
  }
  return a;
}

std::vector<Vector> keys_from_ids(const StarGroups& g, const GroupIds& sorted) {
  const std::vector<KeySource> src = key_sources(g);
  const size_t n = g.present->size();
  const uint64_t* ids = sorted.empty() ? g.present->data() : sorted.data();
  const int shift = sorted.empty() ? 0 : 32;
  std::vector<Vector> out;
  for (size_t k = 0; k < src.size(); k++) {
    const KeySpec& spec = g.sp->key_specs[k];
    Vector v(spec.type, 0);
    v.kind = spec.kind;
    v.size = n;
    zeroed_resize(v.ints, n);  // filled in parallel below; its pages faulted in on all threads
    if (spec.kind == VectorKind::kCode) v.dict = spec.dict;
    fill_key(g, src[k], spec, n, [&](size_t i) { return ids[i] >> shift; }, v.ints.data());
    out.push_back(std::move(v));
  }
  return out;
}

bool fast_aggregates_apply(const StarGroups& g) {
  if (g.q->aggregates.size() != g.sp->aggs.size()) return false;
  for (size_t a = 0; a < g.sp->aggs.size(); a++) {
    const AggFunc f = g.q->aggregates[a].func;
    if (!fast_aggregate(g.q->aggregates[a], g.sp->aggs[a])) return false;
    if (f != AggFunc::kCountStar && f != AggFunc::kCount && g.lo_field[a] < 0) return false;  // no words
  }
  return true;
}

bool fields_unread(const StarGroups& g, size_t groups) {
  const plan::LogicalQuery& q = *g.q;
  if (!fast_aggregates_apply(g)) return false;
  if (std::any_of(g.sp->aggs.begin(), g.sp->aggs.end(), [](auto& a) { return a.order_stat; })) return false;
  for (auto& e : q.select)
    if (plan::reads_aggregate(*e)) return false;
  for (auto& o : q.order_by)
    if (plan::reads_aggregate(*o.expr)) return false;
  if (!q.having) return true;
  const size_t conjuncts = having_conjuncts(q);
  return having_first(g, groups) && g.device_kept_terms > 0 && size_t(g.device_kept_terms) == conjuncts;
}

std::vector<Vector> fast_aggregates(const StarGroups& g, const GroupIds& sorted,
                                    const std::vector<uint32_t>* order) {
  std::vector<Vector> out;
  const size_t n = order ? order->size() : g.present->size();
  for (size_t a = 0; a < g.q->aggregates.size(); a++) {
    if (g.fields_left_on_device) {  // read by nothing (fields_unread): an empty stand-in
      out.emplace_back(g.q->aggregates[a].type, 0);
    } else if (order) {
      const uint32_t* o = order->data();
      out.push_back(fast_aggregate_vector(g, a, n, [o](size_t i) { return size_t(o[i]); }));
    } else if (!sorted.empty()) {
      const uint64_t* s = sorted.data();
      out.push_back(fast_aggregate_vector(g, a, n, [s](size_t i) { return size_t(uint32_t(s[i])); }));
    } else {
      out.push_back(fast_aggregate_vector(g, a, n, [](size_t i) { return i; }));
    }
  }
  return out;
}

}  // namespace raydb::exec::cuda
