// read_staged_groups (star_groups.h): the compacted groups from the staging buffer
// into the host vectors the decode reads.
#include "exec/cuda/star_groups.h"

namespace raydb::exec::cuda {

void read_staged_groups(const unsigned long long* staged, uint64_t n, int nfields, bool with_fields,
                        std::vector<uint64_t>& present, std::vector<std::vector<unsigned long long>>& fields) {
  fields.assign(size_t(nfields), {});
  const unsigned long long* ids = staged + uint64_t(nfields) * n;
  present.assign(ids, ids + n);
  if (!with_fields) return;
  for (int f = 0; f < nfields; f++) fields[size_t(f)].assign(staged + uint64_t(f) * n, staged + uint64_t(f) * n + n);
}

}  // namespace raydb::exec::cuda
