// The fact kernel's launches of a star query: one over the whole table, or one per
// range of the fact blocks data skipping kept (star_blocks.h), each with its columns
// starting at the range's first row.
#include "exec/cuda/star_run.h"

namespace raydb::exec::cuda {

void launch_fact_kernel(const StarRun& r, const StarParams& p) {
  const StarKnobs knobs = star_knobs(r.settings);
  if (!r.blocks) return launch_star(p, knobs, r.ctx.stream);
  for (const RowRange& range : r.blocks->ranges) launch_star(params_for_rows(p, range), knobs, r.ctx.stream);
}

}  // namespace raydb::exec::cuda
