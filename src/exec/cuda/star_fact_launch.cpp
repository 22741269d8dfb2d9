// The fact kernel's launches of a star query: one over the whole table, or one per
// range of the fact blocks data skipping kept (star_blocks.h), each with its columns
// starting at the range's first row.
#include <atomic>

#include "exec/cuda/cuda_device.h"
#include "exec/cuda/star_run.h"

namespace raydb::exec::cuda {

namespace {

std::atomic<uint64_t> g_packed_launches{0};

// The packed copies of the fact columns the setting cuda_compression packs (resident
// columns only: a streamed pass reads chunks of the narrowed host copy); false when
// none is.
bool packed_fact_columns(const StarRun& r, PackedCols& out) {
  const PackMode mode = parse_pack_mode(r.settings.get("cuda_compression"));
  if (mode == PackMode::kOff || r.stream) return false;
  bool any = false;
  for (size_t c = 0; c < r.fact.size() && c < size_t(kMaxFactColumns); c++) {
    const auto [words, bits] = r.cache.packed(*r.fact[c], mode, r.ctx.stream);
    out.words[c] = words;
    out.bits[c] = bits;
    any = any || words;
  }
  return any;
}

}  // namespace

void launch_fact_kernel(StarRun& r, const StarParams& p) {
  const StarKnobs knobs = star_knobs(r.settings);
  PackedCols packed;
  const PackedCols* pk = packed_fact_columns(r, packed) ? &packed : nullptr;
  bool read_packed = false;
  if (!r.blocks) {
    read_packed = launch_star(p, knobs, r.ctx.stream, pk);
  } else {
    for (const RowRange& range : r.blocks->ranges) {
      PackedCols at;
      if (pk) at = packed_for_rows(packed, range);
      read_packed = launch_star(params_for_rows(p, range), knobs, r.ctx.stream, pk ? &at : nullptr) || read_packed;
    }
  }
  if (!read_packed) return;
  g_packed_launches++;
  r.packed_bits.assign(r.fact.size(), 0);
  for (size_t c = 0; c < r.fact.size() && c < size_t(kMaxFactColumns); c++) r.packed_bits[c] = packed.bits[c];
}

uint64_t packed_fact_launches() { return g_packed_launches.load(); }

}  // namespace raydb::exec::cuda
