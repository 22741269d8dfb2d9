// read_staged_groups (star_groups.h): the compacted groups from the staging buffer
// into the host vectors the decode reads.
#include "exec/cuda/star_groups.h"

#include "common/parallel_copy.h"

namespace raydb::exec::cuda {

void read_staged_groups(const unsigned long long* staged, uint64_t n, int nfields, bool with_fields,
                        GroupIds& present, GroupFields& fields) {
  fields.assign(size_t(nfields), {});
  static_assert(sizeof(uint64_t) == sizeof(unsigned long long));
  present = parallel_copied(reinterpret_cast<const uint64_t*>(staged + uint64_t(nfields) * n), size_t(n));
  if (!with_fields) return;
  for (int f = 0; f < nfields; f++) fields[size_t(f)] = parallel_copied(staged + uint64_t(f) * n, size_t(n));
}

}  // namespace raydb::exec::cuda
