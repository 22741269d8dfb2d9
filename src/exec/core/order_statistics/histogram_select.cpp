// Radix select over the column with one histogram per slot, a slot being a (group,
// decided prefix) that some wanted ranks still fall in. Pass p counts digit p of
// every counting row whose group and high bits match a slot; each slot's ranks then
// pick their buckets, which become the next pass's slots. Ranks of a group that fall
// in the same bucket share one slot. As soon as the slots hold few rows (typically
// after the first pass: 1/2048 of uniform data), one more pass copies those rows out
// and the remaining digits run in cache (array_select.h); data that stays
// concentrated (all-equal, two values) just takes the remaining passes: 3 for 32-bit
// keys with 11-bit digits, 4 with the 8-bit digits of grouped selection. A promised
// key range (ColumnInput::key_lo/key_hi) decides the leading bits it shares up front.
#include <omp.h>

#include <algorithm>

#include "common/error.h"
#include "exec/core/order_statistics/algorithms.h"
#include "exec/core/order_statistics/array_select.h"
#include "exec/core/order_statistics/scan.h"

namespace raydb::exec::orderstat::detail {

namespace {

struct Slot {
  uint32_t group;
  uint64_t prefix;  // the decided high bits of the keys
  uint64_t size;    // counting rows of the group with that prefix (n before the first pass)
  std::vector<RankRequest> reqs;
};

// Slots of one pass, looked up by group: slots [first[g], first[g + 1]) belong to g.
struct SlotIndex {
  std::vector<uint32_t> first;
  std::vector<uint64_t> prefix;
  SlotIndex(const std::vector<Slot>& slots, uint32_t groups) : first(size_t(groups) + 1, 0) {
    for (const Slot& s : slots) first[s.group + 1]++;
    for (uint32_t g = 0; g < groups; g++) first[g + 1] += first[g];
    for (const Slot& s : slots) prefix.push_back(s.prefix);
  }
  // The slot of a row, or -1. `high` is the row key's decided bits.
  int64_t find(uint32_t g, uint64_t high) const {
    for (uint32_t t = first[g]; t < first[g + 1]; t++)
      if (prefix[t] == high) return t;
    return -1;
  }
};

// Splits each slot's ranks over the buckets of its histogram (`w`-bit digits).
std::vector<Slot> next_slots(std::vector<Slot>& slots, const std::vector<uint64_t>& hist, int w) {
  std::vector<Slot> next;
  for (size_t t = 0; t < slots.size(); t++) {
    Slot& slot = slots[t];
    std::sort(slot.reqs.begin(), slot.reqs.end(), [](const RankRequest& a, const RankRequest& b) { return a.rank < b.rank; });
    const uint64_t* h = hist.data() + (t << w);
    uint64_t below = 0;
    size_t r = 0;
    for (uint64_t d = 0; d < (uint64_t(1) << w) && r < slot.reqs.size(); d++) {
      while (r < slot.reqs.size() && slot.reqs[r].rank < below + h[d]) {
        if (next.empty() || next.back().group != slot.group || next.back().prefix != ((slot.prefix << w) | d))
          next.push_back({slot.group, (slot.prefix << w) | d, h[d], {}});
        next.back().reqs.push_back({slot.reqs[r].rank - below, slot.reqs[r].out});
        r++;
      }
      below += h[d];
    }
    if (r != slot.reqs.size()) fail(ErrorKind::kInternal, "order statistics: a rank is beyond its group's row count");
  }
  return next;
}

// One more pass copying the rows of every slot out, then the remaining `shift` bits of
// each slot selected in memory.
template <class K>
void copy_out_and_finish(const ColumnInput& in, const std::vector<Slot>& slots, int shift, int threads) {
  const SlotIndex index(slots, in.groups);
  const int nt = thread_count(threads);
  std::vector<std::vector<std::vector<K>>> local(static_cast<size_t>(nt), std::vector<std::vector<K>>(slots.size()));
  parallel_ranges(in.n, threads, [&](int id, uint64_t b, uint64_t e) {
    auto& mine = local[size_t(id)];
    auto f = [&](uint64_t, auto key, uint32_t g) {
      const int64_t t = index.find(g, uint64_t(key) >> shift);
      if (t >= 0) mine[size_t(t)].push_back(K(key));
    };
    scan_range(in, b, e, f);
  });
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
  for (size_t t = 0; t < slots.size(); t++) {
    std::vector<K> keys;
    keys.reserve(slots[t].size);
    for (auto& l : local) keys.insert(keys.end(), l[t].begin(), l[t].end());
    select_in_array(std::move(keys), shift, slots[t].reqs);
  }
}

// One histogram pass: digit (key >> s) & mask of the rows matching a slot whose
// decided bits are key >> (s + w) (none decided when `first`).
void histogram_pass(const ColumnInput& in, const SlotIndex& index, size_t slots, bool first, int s, int w,
                    int threads, std::vector<uint64_t>& hist) {
  const int nt = thread_count(threads);
  const uint64_t mask = (uint64_t(1) << w) - 1;
  std::vector<std::vector<uint64_t>> local(static_cast<size_t>(nt));
  parallel_ranges(in.n, threads, [&](int id, uint64_t b, uint64_t e) {
    auto& h = local[size_t(id)];
    h.assign(slots << w, 0);
    if (slots == 1 && !in.group_ids) {  // one slot (the usual ungrouped case): no lookup
      const uint64_t p = index.prefix[0];
      uint64_t* hp = h.data();
      auto one = [&](uint64_t, auto key, uint32_t) {
        const uint64_t k = key;
        if (first || (k >> (s + w)) == p) hp[(k >> s) & mask]++;
      };
      scan_range(in, b, e, one);
      return;
    }
    auto f = [&](uint64_t, auto key, uint32_t g) {
      const uint64_t k = key;
      const int64_t t = index.find(g, first ? 0 : k >> (s + w));
      if (t >= 0) h[(size_t(t) << w) + ((k >> s) & mask)]++;
    };
    scan_range(in, b, e, f);
  });
  hist.assign(slots << w, 0);
  for (const auto& h : local)
    for (size_t i = 0; i < h.size(); i++) hist[i] += h[i];
}

template <class K>
void histogram_select_t(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m, int threads,
                        std::vector<uint64_t>& out) {
  const int bits = key_bits(in.type);
  const int width = in.groups == 1 ? 11 : 8;  // 11 bits: a 16 KiB histogram; 8 bits per (group, prefix)
  const uint64_t small = std::max<uint64_t>(in.n / 8, uint64_t(1) << 16);
  // Leading bits every key shares by the input's promise (ColumnInput::key_lo/key_hi)
  // are decided before the first pass.
  uint64_t lead_value = 0;
  const int lead = promised_lead_bits(in, &lead_value);
  std::vector<Slot> slots;
  for (uint32_t g = 0; g < in.groups; g++) {
    Slot slot{g, lead_value, in.n, {}};
    for (uint32_t j = 0; j < m; j++)
      if (ranks[size_t(g) * m + j] != kNoRank) slot.reqs.push_back({ranks[size_t(g) * m + j], &out[size_t(g) * m + j]});
    if (!slot.reqs.empty()) slots.push_back(std::move(slot));
  }
  int done = lead;  // key bits decided
  std::vector<uint64_t> hist;
  while (!slots.empty() && done < bits) {
    uint64_t candidates = 0;
    for (const Slot& s : slots) candidates += s.size;
    if (done > 0 && candidates <= small) return copy_out_and_finish<K>(in, slots, bits - done, threads);
    const int w = std::min(width, bits - done), s = bits - done - w;
    histogram_pass(in, SlotIndex(slots, in.groups), slots.size(), done == 0, s, w, threads, hist);
    slots = next_slots(slots, hist, w);
    done += w;
  }
  for (const Slot& slot : slots)
    for (const RankRequest& r : slot.reqs) *r.out = slot.prefix;
}

}  // namespace

void histogram_select(const ColumnInput& in, const std::vector<uint64_t>& ranks, uint32_t m, int threads,
                      std::vector<uint64_t>& out) {
  if (key_bits(in.type) == 32)
    histogram_select_t<uint32_t>(in, ranks, m, threads, out);
  else
    histogram_select_t<uint64_t>(in, ranks, m, threads, out);
}

}  // namespace raydb::exec::orderstat::detail
