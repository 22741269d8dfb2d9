#pragma once
// One ORDER BY item's comparison of two rows, as every backend's final sort makes it:
// NULLs first or last as the item says (the binder fills in PostgreSQL's default),
// DOUBLE NaN above every number and equal to itself (PostgreSQL's order; a strict weak
// order, which std::sort needs and IEEE comparisons alone are not), strings by bytes,
// dictionary codes by code (dictionaries are sorted).
#include <cmath>

#include "exec/core/vector.h"
#include "plan/logical/logical_query.h"

namespace raydb::exec {

// < 0 when row a comes before row b under `item`, > 0 when after, 0 when tied.
inline int compare_order_rows(const Vector& v, const plan::OrderItem& item, size_t a, size_t b) {
  const bool na = v.is_null(a), nb = v.is_null(b);
  if (na || nb) {
    if (na && nb) return 0;
    // Independent of the direction: a NULL precedes a value exactly when NULLs go first.
    return (item.nulls_first ? na : nb) ? -1 : 1;
  }
  int c = 0;
  switch (v.kind) {
    case VectorKind::kInt:
    case VectorKind::kCode: c = (v.ints[a] > v.ints[b]) - (v.ints[a] < v.ints[b]); break;
    case VectorKind::kHuge: c = (v.huge[a] > v.huge[b]) - (v.huge[a] < v.huge[b]); break;
    case VectorKind::kDouble: {
      const double x = v.doubles[a], y = v.doubles[b];
      const bool nx = std::isnan(x), ny = std::isnan(y);
      c = (nx || ny) ? int(nx) - int(ny) : (x > y) - (x < y);
      break;
    }
    case VectorKind::kString: {
      const int r = v.strings[a].compare(v.strings[b]);
      c = (r > 0) - (r < 0);
      break;
    }
  }
  return item.descending ? -c : c;
}

}  // namespace raydb::exec
