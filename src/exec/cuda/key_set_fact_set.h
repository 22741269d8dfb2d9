#pragma once
// The star kernels' fact set (fact_set.h) of a fact filter `x [NOT] IN key set` built
// from the KeySet itself: a bitmap over the passing stored values, filled in one pass
// (in parallel when large) straight from the set's runs (exec/core/key_set_window.h),
// with no vector of value ranges, stored ranges or merged ranges in between. Built once
// per set, column window and stored base, and shared by every block and statement that
// holds the set. Pure host code, built in every configuration.
#include <cstdint>
#include <memory>

#include "exec/core/key_set_window.h"
#include "exec/cuda/fact_set.h"
#include "plan/logical/key_set.h"

namespace raydb::exec::cuda {

// Whether the window's ranges go to the device as a bitmap built here: more ranges than
// an inline or perfect-hash predicate takes, and a span bitmap_pays (range_bitmap.h)
// accepts, as build_fact_set would decide for the same ranges.
bool key_set_bitmap_pays(const KeySetWindow& w);

// The bitmap of `w` in the stored domain of a column stored as value - `base` (bit
// v - lo for stored v, lo = w.lo() - base). `w` not empty.
FactSet key_set_bitmap(const KeySetWindow& w, int64_t base);

// key_set_bitmap of `set` over the column window [min, max] (negated: NOT IN), made on
// the first request and kept while `set` lives; nullptr when key_set_bitmap_pays says no.
std::shared_ptr<const FactSet> cached_key_set_bitmap(const plan::KeySetPtr& set, bool negated, int64_t min,
                                                     int64_t max, int64_t base);

// Forgets every cached bitmap (tests; the memory of sets still alive is freed with them).
void clear_key_set_bitmaps();

}  // namespace raydb::exec::cuda
