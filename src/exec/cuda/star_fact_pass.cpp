// The fused fact pass of a star query (star_run.h): one kernel streams the fact table
// once (tile load, predicates, probes, group code, aggregate).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>
#include <optional>

#include "exec/core/cuckoo_set.h"
#include "exec/core/perfect_set.h"
#include "common/parallel_copy.h"
#include "common/timer.h"

#include "exec/cuda/fact_set.h"
#include "exec/cuda/key_set_fact_set.h"
#include "exec/cuda/range_bitmap.h"
#include "exec/cuda/star_run.h"
#include "exec/cuda/star_stream.h"

namespace raydb::exec::cuda {

namespace {

std::atomic<uint64_t> g_few_group_passes{0};

// Copies host bytes to `dst` on the query's stream, through the pinned upload area
// while it has room (then the copy is asynchronous; each query's uploads take their
// own offsets, and the next query starts after this one's stream has finished, so no
// copy's source is overwritten before it is read), else from pageable memory.
// Large ones (at least kLargeUpload) through StarContext::large_uploads, copied there
// on all threads.
constexpr uint64_t kLargeUpload = uint64_t(1) << 20;
constexpr uint64_t kLargeUploadMax = uint64_t(256) << 20;  // larger: pageable, as before

// Room for `bytes` in the pinned upload areas (the copy from there is asynchronous),
// or nullptr: the bytes go from pageable memory.
char* pinned_room(StarRun& r, uint64_t bytes) {
  StarContext& ctx = r.ctx;
  const uint64_t at = (r.upload_at + 15) / 16 * 16;
  if (at + bytes <= ctx.uploads.bytes()) {
    r.upload_at = at + bytes;
    return ctx.uploads.get<char>() + at;
  }
  if (bytes < kLargeUpload || bytes > kLargeUploadMax) return nullptr;
  const uint64_t lat = (r.large_at + 15) / 16 * 16;
  if (lat + bytes > ctx.large_uploads.bytes()) {
    // Growing reallocates: this query's earlier copies from the area must be done.
    gpu::check_cuda(cudaStreamSynchronize(ctx.stream), "cudaMemcpy");
    ctx.large_uploads.ensure(std::max<uint64_t>(2 * (lat + bytes), uint64_t(32) << 20));
  }
  r.large_at = lat + bytes;
  return ctx.large_uploads.get<char>() + lat;
}

void upload(StarRun& r, void* dst, const void* src, uint64_t bytes) {
  if (char* room = pinned_room(r, bytes)) {
    if (bytes >= kLargeUpload)
      parallel_copy(room, static_cast<const char*>(src), bytes);
    else
      std::memcpy(room, src, bytes);
    src = room;
  }
  gpu::check_cuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, r.ctx.stream), "cudaMemcpy");
}

// `bytes` written by `fill` (every byte) where the copy to `dst` reads them: in the
// pinned staging when it has room, else in a host buffer uploaded as upload() does.
template <typename Fill>
void upload_filled(StarRun& r, void* dst, uint64_t bytes, const Fill& fill) {
  if (char* room = pinned_room(r, bytes)) {
    fill(room);
    gpu::check_cuda(cudaMemcpyAsync(dst, room, bytes, cudaMemcpyHostToDevice, r.ctx.stream), "cudaMemcpy");
    return;
  }
  FillVector<char> host;
  host.resize(size_t(bytes));  // unwritten: fill writes every byte
  fill(host.data());
  upload(r, dst, host.data(), bytes);
}

// The set's device copy, pointed to by dp.
void device_set_upload(StarRun& r, DevPred& dp, const FactSet& set) {
  if (set.kind == FactSet::Kind::kBitmap) {
    gpu::DeviceBuffer buf(set.bits.size() * 4, "a predicate bitmap");
    upload(r, buf.get(), set.bits.data(), set.bits.size() * 4);
    dp.bitmap = buf.get<uint32_t>();
    dp.bm_lo = set.lo;
    dp.bm_bits = set.span;
    r.pred_sets.push_back(std::move(buf));
    return;
  }
  if (set.kind == FactSet::Kind::kHash) {
    // The table, then its prefilter (4-byte words after 8-byte ones: aligned).
    const CuckooSet& h = *set.hash;
    const uint64_t table_bytes = h.table.size() * 8, filter_bytes = h.filter.size() * 4;
    gpu::DeviceBuffer buf(table_bytes + filter_bytes, "a predicate hash set");
    upload(r, buf.get(), h.table.data(), table_bytes);
    upload(r, buf.get<char>() + table_bytes, h.filter.data(), filter_bytes);
    dp.hash = buf.get<uint64_t>();
    dp.hash_filter = reinterpret_cast<const uint32_t*>(buf.get<char>() + table_bytes);
    dp.hash_filter_bits = h.filter_bits;
    dp.hash_mul0 = h.mul0;
    dp.hash_mul1 = h.mul1;
    dp.hash_bits = h.bits;
    r.pred_sets.push_back(std::move(buf));
    return;
  }
  gpu::DeviceBuffer buf(set.pairs.size() * 8, "predicate ranges");
  upload(r, buf.get(), set.pairs.data(), set.pairs.size() * 8);
  dp.ranges = buf.get<uint64_t>();
  r.pred_sets.push_back(std::move(buf));
}

// A bitmap predicate of `shape` (fact_set.h) whose words `fill` writes (all of them)
// straight into the upload staging, where its copy to the device reads them: no host
// bitmap in fresh memory first (15 MB a key set at SF 20: page faults) copied there
// after. cuda_profile: the fill as "sets", the staging and the copy as "set uploads".
template <typename Fill>
void upload_bitmap(StarRun& r, DevPred& dp, const BitmapShape& shape, const Fill& fill) {
  Timer host;
  gpu::DeviceBuffer buf(shape.words * 4, "a predicate bitmap");
  double fill_ms = 0;
  upload_filled(r, buf.get(), shape.words * 4, [&](char* at) {
    Timer t;
    fill(reinterpret_cast<uint32_t*>(at));
    fill_ms = t.elapsed_ms();
  });
  dp.bitmap = buf.get<uint32_t>();
  dp.bm_lo = shape.lo;
  dp.bm_bits = shape.span;
  r.pred_sets.push_back(std::move(buf));
  r.sets_host_ms += fill_ms;
  r.set_uploads_host_ms += host.elapsed_ms() - fill_ms;
}

// Sets longer than the inline ranges go to device memory in their host form
// (fact_set.h: a bitmap, a cuckoo table or sorted pairs); a bitmap filled in the staging.
void device_set(StarRun& r, DevPred& dp, const StoredRanges& sr) {
  if (const std::optional<BitmapShape> shape = bitmap_shape(sr)) {
    upload_bitmap(r, dp, *shape, [&](uint32_t* bits) { fill_range_bitmap(sr, shape->lo, shape->span, bits); });
    return;
  }
  Timer host;
  const FactSet set = build_fact_set(sr);
  r.sets_host_ms += host.elapsed_ms();
  host.reset();
  device_set_upload(r, dp, set);
  r.set_uploads_host_ms += host.elapsed_ms();
}

// The smallest point set the star kernel looks up by perfect hash (setting
// cuda_perfect_set_min, 0: never): below it the inline compares cost less.
size_t perfect_set_min(const StarRun& r) {
  const std::string v = r.settings.get("cuda_perfect_set_min");  // validated by set(); from the environment not
  if (v.empty()) return 4;
  if (v.size() > 3 || v.find_first_not_of("0123456789") != std::string::npos)
    fail(ErrorKind::kInvalidInput, "invalid value '{}' for setting cuda_perfect_set_min (expected a key count)", v);
  return size_t(std::stoul(v));
}

// A point set (an IN list) of the star kernel's own predicates as a perfect hash in
// shared memory (kernel_params.h DevPred::pset); false when it does not qualify.
bool perfect_set(StarRun& r, DevPred& dp, const StoredRanges& sr) {
  const size_t min = perfect_set_min(r);
  if (min == 0 || sr.size() < min || sr.size() > kMaxPerfectKeys) return false;
  std::vector<uint64_t> keys;
  for (auto [a, b] : sr) {
    if (a != b) return false;
    keys.push_back(a);
  }
  const std::optional<PerfectSet> set = build_perfect_set(keys);
  if (!set) return false;
  gpu::DeviceBuffer buf(set->table.size() * 4, "a predicate perfect set");
  upload(r, buf.get(), set->table.data(), set->table.size() * 4);
  dp.pset = buf.get<uint32_t>();
  dp.pset_mul = set->mul;
  dp.pset_bits = set->bits;
  dp.nranges = 0;
  r.pred_sets.push_back(std::move(buf));
  return true;
}

// A range predicate on fact column `col` in the kernel's stored domain; false when
// no stored value can pass. `top`: one of the star kernel's own predicates (which may
// take a perfect set), not a tree leaf.
bool fill_pred(StarRun& r, DevPred& dp, int col, const std::vector<std::pair<int64_t, int64_t>>& ranges,
               bool top = false) {
  Timer host;
  const StoredRanges sr = merged(r.fact[size_t(col)]->stored_ranges(ranges));
  r.ranges_host_ms += host.elapsed_ms();
  dp.col = col;
  dp.nranges = int(sr.size());
  if (top && perfect_set(r, dp, sr)) return true;
  if (sr.size() > size_t(kMaxPredRanges)) {
    device_set(r, dp, sr);
  } else {
    for (size_t k = 0; k < sr.size(); k++) dp.lo[k] = sr[k].first, dp.hi[k] = sr[k].second;
    if (sr.empty()) dp.lo[0] = 1, dp.hi[0] = 0, dp.nranges = 1;  // never true (a tree leaf may be negated)
  }
  return !sr.empty();
}

// A root filter `x [NOT] IN key set` (StarFilter::key_set): on a column stored as
// value - base, with a window that takes a device bitmap, the bitmap filled from the
// set's runs (key_set_fact_set.h) straight into the upload staging; otherwise (a
// dictionary column, few ranges, a sparse span) the window's ranges as any filter's.
// Both give the stored ranges fill_pred would: offset mode only shifts the set's runs,
// which never touch, so there is nothing to merge.
bool fill_key_set_pred(StarRun& r, DevPred& dp, const StarFilter& f) {
  Timer host;
  const DeviceColumn& c = *r.fact[size_t(f.fact_col)];
  const ColumnStats& s = c.owner->stats();
  const KeySetWindow w(*f.key_set, f.negated, s.min, s.max);
  const bool bitmap = c.rows > 0 && !c.dev.decode && !w.empty() && key_set_bitmap_pays(w);
  r.ranges_host_ms += host.elapsed_ms();
  if (!bitmap) return fill_pred(r, dp, f.fact_col, w.ranges(), true);
  dp.col = f.fact_col;
  dp.nranges = int(w.size());
  upload_bitmap(r, dp, key_set_bitmap_shape(w, c.dev.base), [&](uint32_t* bits) { fill_key_set_bitmap(w, bits); });
  return true;
}

static_assert(int(plan::CompareOp::kEq) == kCmpEq && int(plan::CompareOp::kNe) == kCmpNe &&
                  int(plan::CompareOp::kLt) == kCmpLt && int(plan::CompareOp::kLe) == kCmpLe &&
                  int(plan::CompareOp::kGt) == kCmpGt && int(plan::CompareOp::kGe) == kCmpGe,
              "DevCmp follows plan::CompareOp");

void fill_linear(const StarRun& r, DevLinear& dl, const LinearPredicate& l, const std::vector<int>& cols) {
  dl.nterms = int(l.terms().size());
  for (size_t t = 0; t < l.terms().size(); t++) dl.col[t] = cols[t], dl.coef[t] = l.terms()[t].coef;
  dl.op = int32_t(l.op());  // DevCmp follows plan::CompareOp's order
  dl.wide = l.wide() ? 1 : 0;
  __int128 k = l.constant();
  // The stored form: sum coef * (base + s) + k = sum coef * s + (k + sum coef * base),
  // exact in int64 when |k'| + sum |coef| * (stored range - 1) fits.
  __int128 k_stored = k, bound = 0;
  bool stored = !l.wide();
  for (size_t t = 0; t < l.terms().size() && stored; t++) {
    const DeviceColumn& c = *r.fact[size_t(cols[t])];
    const __int128 coef = l.terms()[t].coef, span = __int128(c.stored_range() - 1);
    __int128 shift = 0, part = 0;
    stored = c.dev.decode == nullptr && !__builtin_mul_overflow(coef, __int128(c.dev.base), &shift) &&
             !__builtin_add_overflow(k_stored, shift, &k_stored) &&
             !__builtin_mul_overflow(coef < 0 ? -coef : coef, span, &part) &&
             !__builtin_add_overflow(bound, part, &bound);
  }
  const __int128 limit = __int128(INT64_MAX);
  if (stored && bound + (k_stored < 0 ? -k_stored : k_stored) <= limit) {
    dl.stored = 1;
    k = k_stored;
  }
  const unsigned __int128 u = (unsigned __int128)k;
  dl.k_lo = int64_t(uint64_t(u));
  dl.k_hi = int64_t(uint64_t(u >> 64));
}

// Boolean fact filters: their programs as DevTrees (star_kernel's EXT instantiation
// reads them in device memory; filter passes read the host copy). False when none.
bool build_fact_trees(StarRun& r, DevTrees& t, int& nleaves, int& nlinears) {
  if (r.sp.fact_trees.empty()) return false;
  nleaves = nlinears = 0;
  for (auto& st : r.sp.fact_trees) {
    DevTree& dt = t.trees[t.ntrees++];
    const int first_leaf = nleaves, first_linear = nlinears;
    const FilterProgram& prog = st.program;
    for (size_t i = 0; i < prog.ranges().size(); i++) fill_pred(r, t.leaves[nleaves++], st.range_cols[i], prog.ranges()[i].ranges());
    for (size_t i = 0; i < prog.linears().size(); i++) fill_linear(r, t.linears[nlinears++], prog.linears()[i], st.linear_cols[i]);
    for (auto& step : prog.steps()) {
      uint8_t op = kTreeNot, arg = 0;
      switch (step.op) {
        case FilterProgram::Op::kRange: op = kTreeRange, arg = uint8_t(first_leaf + int(step.arg)); break;
        case FilterProgram::Op::kLinear: op = kTreeLinear, arg = uint8_t(first_linear + int(step.arg)); break;
        case FilterProgram::Op::kAnd: op = kTreeAnd; break;
        case FilterProgram::Op::kOr: op = kTreeOr; break;
        case FilterProgram::Op::kNot: op = kTreeNot; break;
      }
      dt.op[dt.nsteps] = op;
      dt.arg[dt.nsteps++] = arg;
    }
  }
  return true;
}

void upload_fact_trees(StarRun& r, StarParams& p, const DevTrees& t) {
  gpu::DeviceBuffer buf(sizeof(DevTrees), "boolean filters");
  upload(r, buf.get(), &t, sizeof(DevTrees));
  p.trees = buf.get<DevTrees>();
  r.pred_sets.push_back(std::move(buf));
}

bool is_device_set(const DevPred& d) { return d.ranges || d.bitmap || d.hash; }

// The trees and device-memory sets as filter passes (filter_passes.cu): a bit per row
// computed before the fact kernel, which then reads 2 bytes per 16 rows instead and
// runs as the plain instantiation (4 blocks per SM, no tree calls).
void add_filter_passes(StarRun& r, StarParams& p, const DevTrees* t, int nleaves, int nlinears) {
  FilterPassJob job;
  job.trees = t;
  job.nleaves = t ? nleaves : 0;
  job.nlinears = t ? nlinears : 0;
  int kept = 0;
  for (int k = 0; k < p.npreds; k++) {
    if (is_device_set(p.preds[k]))
      job.sets[job.nsets++] = p.preds[k];
    else
      p.preds[kept++] = p.preds[k];
  }
  p.npreds = kept;
  // COUNT(*) of the fact table alone with every filter in the passes: the last pass
  // counts the rows it lets through, and the fact kernel, which would read its bits
  // only to count them (a 2-byte load per thread and tile, latency-bound: 34 us at
  // 10^8 rows on the H200), is left out. Not with zone-map launches, which cover only
  // some rows' blocks.
  const bool count_in_pass = kept == 0 && r.dims.empty() && r.sp.root_group_keys.empty() && r.q.group_keys.empty() &&
                             !r.blocks && std::all_of(r.sp.aggs.begin(), r.sp.aggs.end(), [](const StarAgg& a) {
                               return a.dev.func == kAggCount;
                             });
  if (count_in_pass) {
    gpu::DeviceBuffer c(8, "the filter passes' count");
    gpu::check_cuda(cudaMemsetAsync(c.get(), 0, 8, r.ctx.stream), "cudaMemset");
    job.count = c.get<unsigned long long>();
    r.pass_count = job.count;
    r.pred_sets.push_back(std::move(c));
  }
  job.cols = p.cols;
  job.rows = p.rows;
  job.chunks = (p.rows + uint64_t(kStarTileRows) - 1) / uint64_t(kStarTileRows) * (uint64_t(kStarTileRows) / 16);
  const uint64_t arrays = uint64_t(job.nsets + job.nleaves + job.nlinears) + 1;
  gpu::DeviceBuffer buf(arrays * job.chunks * sizeof(uint16_t), "filter pass bits");
  job.scratch = buf.get<uint16_t>();
  job.out = job.scratch + (arrays - 1) * job.chunks;
  launch_filter_passes(job, r.ctx.stream);
  p.filter_bits = job.out;
  p.trees = nullptr;
  r.pred_sets.push_back(std::move(buf));
}

void add_fact_predicates(StarRun& r, StarParams& p) {
  for (auto& f : r.sp.fact_filters) {
    DevPred& dp = p.preds[p.npreds++];
    if (!(f.key_set ? fill_key_set_pred(r, dp, f) : fill_pred(r, dp, f.fact_col, f.ranges, true))) r.nothing = true;
  }
  DevTrees t;
  int nleaves = 0, nlinears = 0;
  const bool trees = build_fact_trees(r, t, nleaves, nlinears);
  bool sets = false;
  for (int k = 0; k < p.npreds; k++) sets = sets || is_device_set(p.preds[k]);
  // Streamed, the fact columns are never whole on the device: the kernel evaluates
  // trees and sets itself (its EXT instantiation), chunk by chunk. Its slower compute
  // does not show there: a streamed pass runs at the host link's speed, tens of GB/s.
  if ((trees || sets) && !r.nothing && r.settings.cuda_filter_passes() && !r.stream)
    return add_filter_passes(r, p, trees ? &t : nullptr, nleaves, nlinears);
  if (trees) upload_fact_trees(r, p, t);
}

// Probe the most selective dimension first (exact counts from the dimension pass).
std::vector<size_t> probe_order(const StarRun& r) {
  std::vector<size_t> order(r.dims.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return double(r.dims[a].passed) / double(r.dims[a].dim->key->size()) <
           double(r.dims[b].passed) / double(r.dims[b].dim->key->size());
  });
  return order;
}

// The probe of one dimension: its lookup array (translated for a dictionary-encoded
// foreign key), narrowed to 1 or 2 bytes per entry where its group codes allow
// (kernel_params.h: DevJoin) unless the setting cuda_narrow_lookup is off.
void add_probe(StarRun& r, DimRun& d, StarParams& p) {
  DevJoin& j = p.joins[p.njoins++];
  j.col = d.dim->fact_col;
  j.stride = d.stride;
  const int32_t* wide = nullptr;
  if (d.fk->dev.decode) {
    wide = d.arrays->translated.get<int32_t>();
    j.offset = 0;
    j.size = d.fk->host_decode.size();
  } else {
    wide = d.arrays->lookup.get<int32_t>();
    j.offset = d.fk->dev.base - d.dim->key->stats().min;  // stored + offset = key - key_min
    j.size = d.K;
  }
  j.lookup = wide;
  j.width = 4;
  {
    const __int128 off = j.offset, top = off + __int128(d.fk->stored_range()) - 1;
    j.idx32 = off >= -(__int128(1) << 31) && top < (__int128(1) << 32) && j.size <= (uint64_t(1) << 31) ? 1 : 0;
  }
  const bool narrow_lookups = r.settings.cuda_narrow_lookup();
  const int width = !narrow_lookups ? 4 : d.codes <= 254 ? 1 : d.codes <= 65534 ? 2 : 4;
  if (width < 4) {
    // Made once per dimension arrays: a reused dimension (dimension_cache.h) has its copy.
    DimArrays& a = *d.arrays;
    if (a.narrow_width != width) {
      a.narrow = gpu::DeviceBuffer(j.size * uint64_t(width), "a narrowed lookup array");
      launch_narrow_lookup(wide, j.size, a.narrow.get(), width, r.ctx.stream);
      a.narrow_width = width;
    }
    j.lookup = a.narrow.get();
    j.width = width;
  }
}

}  // namespace

void plan_accumulators(StarRun& r) {
  r.nfields = number_accumulators(r.sp, r.lo_field, r.hi_field);
  r.radix_root.assign(r.sp.root_group_keys.size(), 0);
  r.stride_root.assign(r.sp.root_group_keys.size(), 0);
}

StarParams fact_params(StarRun& r) {
  const StarPlan& sp = r.sp;
  StarParams p;
  p.rows = sp.root_rows;
  p.groups = r.R;
  p.ncols = int(r.fact.size());
  for (size_t c = 0; c < r.fact.size(); c++) p.cols[c] = r.fact[c]->dev;
  add_fact_predicates(r, p);
  for (size_t i : probe_order(r)) add_probe(r, r.dims[i], p);
  for (size_t k = 0; k < sp.root_group_keys.size(); k++) {
    DevRootGroup& g = p.root_groups[p.nroot_groups++];
    g.col = sp.root_group_cols[k];
    g.stride = r.stride_root[k];
  }
  p.naggs = int(sp.aggs.size());
  for (size_t a = 0; a < sp.aggs.size(); a++) p.aggs[a] = sp.aggs[a].dev;
  // Registers without GROUP BY, shared memory while the groups fit, else global atomics.
  p.mode = r.q.group_keys.empty() ? 0 : 1;
  p.count_only = p.mode == 0 && std::all_of(sp.aggs.begin(), sp.aggs.end(),
                                             [](const StarAgg& a) { return a.dev.func == kAggCount; });
  if (p.mode == 1 && star_shared_bytes(p) > kSharedLimit) p.mode = 2;
  // Few groups: every row's atomic in mode 1 lands on the same few shared words and
  // they serialize; mode 5 reduces each tile per warp instead (block/few_groups.cuh).
  if (p.mode == 1 && p.groups <= few_groups_limit(r.settings)) p.mode = 5;
  return p;
}

// The most group ids the fact kernel aggregates per warp (mode 5; setting
// cuda_few_groups, 0: never; at most 15, the kernel keeps group ids in nibbles).
// Mode 5's tile costs grow with the group count (each group id is a warp-uniform
// pass: a mask over the thread's 16 items, a list, and a reduction per aggregate where
// the warp holds rows of it) while mode 1's atomics spread over more addresses as it
// grows; 8 covers two-flag groupings such as TPC-H Q1's 6 ids and stays where a
// warp's 32 x 16 rows hold rows of most groups. A first choice, to be measured by
// sweeping the setting.
uint64_t few_groups_limit(const Settings& settings) {
  const std::string v = settings.get("cuda_few_groups");  // validated by set(); from the environment not
  if (v.empty()) return 8;
  if (v.size() > 2 || v.find_first_not_of("0123456789") != std::string::npos || std::stoul(v) > kMaxFewGroups)
    fail(ErrorKind::kInvalidInput,
         "invalid value '{}' for setting cuda_few_groups (expected a group count from 0 to 15)", v);
  return uint64_t(std::stoul(v));
}

StarKnobs star_knobs(const Settings& settings) {
  StarKnobs knobs;
  knobs.smem_lookup = settings.cuda_smem_lookup();
  knobs.rowshape = settings.cuda_rowshape();
  knobs.blocked = settings.cuda_blocked_layout();
  const std::string tile = settings.get("cuda_tile_aggregate");  // "" = on
  knobs.tile_aggregate = !(tile == "off" || tile == "false" || tile == "0");
  return knobs;
}

// Zeroed accumulators (MIN/MAX at their identities), then the kernel, between the
// fact_start and fact_done events.
void run_fact_pass(StarRun& r, StarParams& p, gpu::DeviceBuffer& acc) {
  cudaStream_t s = r.ctx.stream;
  const uint64_t R = r.R;
  acc = gpu::DeviceBuffer(R * uint64_t(r.nfields) * 8 + 8, "group accumulators");  // + the filtered count
  u64* base = acc.get<u64>();
  gpu::check_cuda(cudaMemsetAsync(base, 0, acc.bytes(), s), "cudaMemset");
  p.acc.count = base;
  p.filtered = base + R * uint64_t(r.nfields);
  for (size_t a = 0; a < r.sp.aggs.size(); a++) {
    if (r.lo_field[a] < 0) continue;
    p.acc.lo[a] = base + uint64_t(r.lo_field[a]) * R;
    if (r.hi_field[a] >= 0) p.acc.hi[a] = base + uint64_t(r.hi_field[a]) * R;
    const int f = r.sp.aggs[a].dev.func;
    if (f == kAggMin) launch_fill(p.acc.lo[a], R, u64(INT64_MAX), s);
    if (f == kAggMax) launch_fill(p.acc.lo[a], R, u64(INT64_MIN), s);
  }
  gpu::check_cuda(cudaEventRecord(r.ctx.fact_start, s), "cudaEventRecord");
  if (!r.nothing && r.pass_count) {
    // The count as the kernel would have left it (R = 1: the group's count is word 0).
    gpu::check_cuda(cudaMemcpyAsync(p.acc.count, r.pass_count, 8, cudaMemcpyDeviceToDevice, s), "cudaMemcpy");
    gpu::check_cuda(cudaMemcpyAsync(p.filtered, r.pass_count, 8, cudaMemcpyDeviceToDevice, s), "cudaMemcpy");
  } else if (!r.nothing) {
    r.stream ? launch_fact_streamed(r, p) : launch_fact_kernel(r, p);
    if (p.mode == 5) g_few_group_passes++;
  }
  gpu::check_cuda(cudaEventRecord(r.ctx.fact_done, s), "cudaEventRecord");
  gpu::check_cuda(cudaGetLastError(), "fact kernel launch");
}

uint64_t few_group_fact_passes() { return g_few_group_passes.load(); }

}  // namespace raydb::exec::cuda
