// Running a request on an RT view: Z intervals and segments, the per-hit checks, the
// output group map, one kViewAggregate launch, and the accumulators back to rows.
#include <fmt/format.h>

#include <algorithm>

#include "access/rt_view/rt_view.h"
#include "access/rt_view/view_group_prune.h"
#include "access/rt_view/view_groups.h"
#include "access/rt_view/z_intervals.h"
#include "common/error.h"
#include "common/timer.h"
#include "rt/mapping/view_aggregate.h"

namespace raydb::rtview {

namespace mp = rt::mapping;

// One request's host arrays and tracer buffers (they must outlive the launch).
struct RtView::Query {
  std::vector<uint32_t> segments;
  std::vector<uint32_t> traced;
  std::vector<std::vector<uint32_t>> bitmaps;
  std::vector<uint64_t> acc;
  std::vector<uint32_t> seen;
  uint64_t counters[3] = {0, 0, 0};  // duplicates, hits, flushes
  uint32_t error = 0;
  std::vector<std::unique_ptr<rt::Buffer>> bufs;
  std::vector<uint32_t> slot_of;  // aggregate -> slot (kNone: COUNT)

  const void* in(rt::Tracer& t, const void* p, size_t bytes) {
    bufs.push_back(t.upload(p, bytes));
    return bufs.back()->address();
  }
  rt::Buffer* inout(rt::Tracer& t, void* p, size_t bytes) {
    bufs.push_back(t.buffer(p, bytes, rt::Transfer::kInOut));
    return bufs.back().get();
  }
};

namespace {

std::vector<uint32_t> bitmap_of(const std::vector<CodeInterval>& allowed, uint32_t size) {
  std::vector<uint32_t> bits((size + 31) / 32 + 1, 0);
  for (const CodeInterval& c : allowed)
    for (uint64_t x = c.lo; x <= c.hi; ++x) bits[x >> 5] |= 1u << (x & 31);
  return bits;
}

// Aggregates -> accumulator slots (SUM and AVG of one input share a slot).
void assign_slots(const ViewRequest& r, uint32_t inputs, mp::ViewAggregateParams& P, std::vector<uint32_t>& slot_of) {
  P.slots = 0;
  for (const ViewAggregate& a : r.aggregates) {
    if (a.kind == AggKind::kCount) {
      slot_of.push_back(mp::kNone);
      continue;
    }
    if (a.input >= inputs) fail(ErrorKind::kInvalidInput, "rt view: no aggregate input {}", a.input);
    const mp::ViewSlotOp op = a.kind == AggKind::kMin   ? mp::ViewSlotOp::kMin
                              : a.kind == AggKind::kMax ? mp::ViewSlotOp::kMax
                                                        : mp::ViewSlotOp::kSum;
    uint32_t s = 0;
    while (s < P.slots && !(P.slot_op[s] == static_cast<uint32_t>(op) && P.slot_input[s] == a.input)) ++s;
    if (s == P.slots) {
      if (P.slots == mp::kViewMaxSlots) fail(ErrorKind::kInvalidInput, "rt view: more than {} aggregates", mp::kViewMaxSlots);
      P.slot_op[s] = static_cast<uint32_t>(op);
      P.slot_input[s] = a.input;
      ++P.slots;
    }
    slot_of.push_back(s);
  }
  P.stride = 1 + 2 * P.slots;
}

void add_check(mp::ViewAggregateParams& P, const mp::ViewCheck& c) {
  if (P.checks == mp::kViewMaxChecks) fail(ErrorKind::kInvalidInput, "rt view: more than {} per-hit checks", mp::kViewMaxChecks);
  P.check[P.checks++] = c;
}

}  // namespace

ViewResult RtView::query(const ViewRequest& r) const {
  Timer total;
  const ViewRows& v = *rows_;
  const ViewLayout& L = layout_;
  ViewResult out;
  const GroupPlan gp = plan_groups(v, r);
  const OutputGroups og = output_groups(v, r.group_by, &gp.traced);
  const ZPlan z = plan_z(v, L, z_request(v, L, r, gp));
  mp::ViewAggregateParams P{};
  Query q;
  assign_slots(r, static_cast<uint32_t>(v.inputs.size()), P, q.slot_of);
  const size_t ng = og.tuples.size();
  q.acc.assign(ng * P.stride, 0);
  for (size_t o = 0; o < ng; ++o)
    for (uint32_t s = 0; s < P.slots; ++s)
      if (P.slot_op[s] != static_cast<uint32_t>(mp::ViewSlotOp::kSum))
        q.acc[o * P.stride + 1 + 2 * s] = static_cast<uint64_t>(
            P.slot_op[s] == static_cast<uint32_t>(mp::ViewSlotOp::kMin) ? INT64_MAX : INT64_MIN);
  const bool nothing = z.empty || L.primitives == 0 || gp.traced.empty();
  out.stats.groups_traced = static_cast<uint32_t>(gp.traced.size());
  out.stats.decided_filters = gp.decided_filters;
  if (!nothing) {
    std::vector<uint32_t> digits = z.checked_digits;
    std::sort(digits.begin(), digits.end());
    digits.erase(std::unique(digits.begin(), digits.end()), digits.end());
    for (uint32_t d : digits) {
      const uint32_t a = L.z_attrs[d];
      if (gp.decided[a]) continue;  // the pruning enforces it
      q.bitmaps.push_back(bitmap_of(z.allowed[a], v.filter_domains[a].size));
      add_check(P, mp::ViewCheck{L.z_div[d], v.filter_domains[a].size, nullptr, nullptr});
      ++out.stats.z_checks;
    }
    for (size_t k = 0; k < L.residual.size(); ++k) {
      const uint32_t a = L.residual[k];
      const auto& al = z.allowed[a];
      if (gp.decided[a]) continue;
      if (al.size() == 1 && al[0].lo == 0 && al[0].hi + 1 == v.filter_domains[a].size) continue;  // open
      q.bitmaps.push_back(bitmap_of(al, v.filter_domains[a].size));
      add_check(P, mp::ViewCheck{1, 1, static_cast<const uint32_t*>(residual_bufs_[k]->address()), nullptr});
      ++out.stats.code_checks;
    }
    for (uint32_t c = 0; c < P.checks; ++c)
      P.check[c].bits = static_cast<const uint32_t*>(q.in(tracer_, q.bitmaps[c].data(), q.bitmaps[c].size() * 4));
    const std::vector<CodeInterval> segs = cut_segments(z.intervals, mp::kViewMaxSegment);
    for (const CodeInterval& s : segs) q.segments.insert(q.segments.end(), {s.lo, s.hi});
    out.stats.segments = segs.size();
    P.segments = static_cast<const uint32_t*>(q.in(tracer_, q.segments.data(), q.segments.size() * 4));
    q.traced = gp.traced;
    P.group_map = static_cast<const uint32_t*>(q.in(tracer_, og.map.data(), og.map.size() * 4));
    P.traced = static_cast<const uint32_t*>(q.in(tracer_, q.traced.data(), q.traced.size() * 4));
    P.xwords = xwords_buf_ ? static_cast<const uint32_t*>(xwords_buf_->address()) : nullptr;
    if (L.merged) P.counts = static_cast<const uint32_t*>(counts_buf_->address());
    for (size_t i = 0; i < L.inputs.size() && i < mp::kViewMaxInputs; ++i) {
      const InputPlacement& p = L.inputs[i];
      mp::ViewInput& in = P.inputs[i];
      if (L.merged) {
        in.sum = static_cast<const int64_t*>(merged_bufs_[3 * i]->address());
        in.min = static_cast<const int64_t*>(merged_bufs_[3 * i + 1]->address());
        in.max = static_cast<const int64_t*>(merged_bufs_[3 * i + 2]->address());
        continue;
      }
      in.in_x = p.in_x ? 1 : 0;
      in.shift = p.shift;
      in.mask = p.bits >= 32 ? 0xFFFFFFFFu : (1u << p.bits) - 1;
      in.base = p.in_x || p.u32 ? p.base : 0;
      if (!p.in_x && p.u32) in.u32 = static_cast<const uint32_t*>(input_bufs_[i]->address());
      if (!p.in_x && !p.u32) in.i64 = static_cast<const int64_t*>(input_bufs_[i]->address());
    }
    P.groups = static_cast<uint32_t>(gp.traced.size());
    P.lanes = L.lanes;
    P.lane_width = 1u << L.x_bits;
    P.rows = static_cast<uint32_t>(L.primitives);
    P.items = uint64_t{segs.size()} * P.groups * P.lanes;
    P.accumulate = static_cast<uint32_t>(r.per_hit_atomics ? mp::ViewAccumulate::kPerHit : mp::ViewAccumulate::kPerRay);
    rt::Buffer* accbuf = q.inout(tracer_, q.acc.data(), q.acc.size() * 8);
    rt::Buffer* cbuf = q.inout(tracer_, q.counters, sizeof(q.counters));
    rt::Buffer* ebuf = q.inout(tracer_, &q.error, sizeof(q.error));
    P.acc = static_cast<uint64_t*>(accbuf->address());
    P.duplicates = static_cast<uint64_t*>(cbuf->address());
    P.hits = P.duplicates + 1;
    P.flushes = P.duplicates + 2;
    P.error = static_cast<uint32_t*>(ebuf->address());
    if (r.check_duplicates) {
      q.seen.assign((L.primitives + 31) / 32 + 1, 0);
      P.seen = static_cast<uint32_t*>(q.inout(tracer_, q.seen.data(), q.seen.size() * 4)->address());
    }
    const rt::Accel* slots[1] = {accel_.get()};
    constexpr uint64_t kChunk = uint64_t{1} << 31;
    for (uint64_t base = 0; base < P.items; base += kChunk) {
      P.item_base = base;
      tracer_.launch(mp::kViewAggregate, slots, &P, sizeof(P), static_cast<uint32_t>(std::min(kChunk, P.items - base)));
      out.stats.launch_ms += tracer_.last_launch_ms();
    }
    tracer_.fetch(*accbuf);
    tracer_.fetch(*cbuf);
    tracer_.fetch(*ebuf);
    if (q.error != 0) fail(ErrorKind::kInternal, "rt view: the tracer reported a bad hit (error bits {})", q.error);
    out.stats.rays = P.items;
    out.stats.duplicates = q.counters[0];
    out.stats.hits = q.counters[1];
    out.stats.flushes = q.counters[2];
  }
  GroupAccumulators acc;
  acc.count.resize(ng);
  acc.sum.assign(r.aggregates.size(), std::vector<__int128>(ng, 0));
  acc.ext.assign(r.aggregates.size(), std::vector<int64_t>(ng, 0));
  for (size_t o = 0; o < ng; ++o) {
    const uint64_t* row = q.acc.data() + o * P.stride;
    acc.count[o] = row[0];
    for (size_t a = 0; a < r.aggregates.size(); ++a) {
      const uint32_t s = q.slot_of[a];
      if (s == mp::kNone) continue;
      const uint64_t* w = row + 1 + 2 * s;
      acc.sum[a][o] = static_cast<__int128>((static_cast<unsigned __int128>(w[1]) << 64) | w[0]);
      acc.ext[a][o] = static_cast<int64_t>(w[0]);
    }
  }
  finish_result(r, og, acc, out);
  out.stats.plan = fmt::format(
      "{} Z intervals -> {} segments x {} of {} groups ({} filters decided by the group) x {} lanes = {} rays; {} Z "
      "digit checks, {} code checks; {}",
      z.intervals.size(), out.stats.segments, gp.traced.size(), v.group_count, gp.decided_filters, L.lanes,
      out.stats.rays, out.stats.z_checks, out.stats.code_checks, L.describe());
  out.stats.total_ms = total.elapsed_ms();
  return out;
}

}  // namespace raydb::rtview
