#include "exec/cpu/row_groups.h"

#include <omp.h>

#include <algorithm>
#include <new>

#include "common/error.h"

namespace raydb::exec::cpu {

RowGroups::RowGroups(uint64_t rows, size_t units, int workers, bool grouped)
    : rows_(rows),
      select_(static_cast<uint8_t*>(std::calloc(std::max<uint64_t>(rows, 1), 1))),
      unit_worker_(units, 0),
      counts_(size_t(std::max(workers, 1))) {
  if (!select_) throw std::bad_alloc();
  if (grouped) gids_.reset(new uint32_t[std::max<uint64_t>(rows, 1)]);
  if (!grouped)
    for (auto& c : counts_) c.assign(1, 0);
}

void RowGroups::record(int worker, const uint32_t* rows, const uint32_t* gids, size_t n, size_t groups) {
  uint8_t* sel = select_.get();
  std::vector<uint64_t>& c = counts_[size_t(worker)];
  if (!gids) {
    for (size_t i = 0; i < n; i++) sel[rows[i]] = 1;
    c[0] += n;
    return;
  }
  if (c.size() < groups) c.resize(groups, 0);
  uint32_t* out = gids_.get();
  for (size_t i = 0; i < n; i++) {
    sel[rows[i]] = 1;
    out[rows[i]] = gids[i];
    c[gids[i]]++;
  }
}

void RowGroups::to_global(const std::vector<std::vector<uint32_t>>& maps, const std::vector<uint32_t>& batch_ids,
                          size_t morsel_batches, size_t batch_rows, int threads) {
  if (!gids_) return;
  const size_t units = unit_worker_.size();
  const uint8_t* sel = select_.get();
  uint32_t* g = gids_.get();
#pragma omp parallel for schedule(dynamic, 4) num_threads(threads)
  for (size_t u = 0; u < units; u++) {
    const std::vector<uint32_t>& map = maps[size_t(unit_worker_[u])];
    if (map.empty()) continue;
    for (size_t k = u * morsel_batches; k < std::min(batch_ids.size(), (u + 1) * morsel_batches); k++) {
      const uint64_t begin = uint64_t(batch_ids[k]) * batch_rows, end = std::min(rows_, begin + batch_rows);
      for (uint64_t r = begin; r < end; r++)
        if (sel[r]) g[r] = map[g[r]];
    }
  }
}

std::vector<uint64_t> RowGroups::counts(size_t groups, const std::vector<std::vector<uint32_t>>& maps) const {
  std::vector<uint64_t> out(std::max<size_t>(groups, 1), 0);
  for (size_t w = 0; w < counts_.size(); w++) {
    const std::vector<uint64_t>& c = counts_[w];
    const std::vector<uint32_t>* map = w < maps.size() && !maps[w].empty() ? &maps[w] : nullptr;
    for (size_t local = 0; local < c.size(); local++) {
      if (!c[local]) continue;
      const size_t g = map ? (*map)[local] : local;
      if (g >= out.size()) fail(ErrorKind::kInternal, "row groups: group {} of {}", g, out.size());
      out[g] += c[local];
    }
  }
  return out;
}

const uint8_t* RowGroups::select() const {
  uint64_t reached = 0;
  for (const auto& c : counts_)
    for (uint64_t x : c) reached += x;
  return reached == rows_ ? nullptr : select_.get();
}

}  // namespace raydb::exec::cpu
