#pragma once
// The star kernels' fact set (fact_set.h) of a fact filter `x [NOT] IN key set` built
// from the KeySet itself: a bitmap over the passing stored values, filled in one pass
// (in parallel when large) straight from the set's runs (exec/core/key_set_window.h),
// with no vector of value ranges, stored ranges or merged ranges in between. The star
// pass fills it straight into its pinned upload staging (star_fact_pass.cpp): no host
// copy in fresh memory first, which at SF 20 (15 MB a set) cost more in page faults and
// in the copy to the staging than the fill. Pure host code, built in every configuration.
#include <cstdint>

#include "exec/core/key_set_window.h"
#include "exec/cuda/fact_set.h"
#include "plan/logical/key_set.h"

namespace raydb::exec::cuda {

// Whether the window's ranges go to the device as a bitmap built here: more ranges than
// an inline or perfect-hash predicate takes, and a span bitmap_pays (range_bitmap.h)
// accepts, as build_fact_set would decide for the same ranges.
bool key_set_bitmap_pays(const KeySetWindow& w);

// Where the bitmap of `w` sits in the stored domain of a column stored as value - `base`
// (fact_set.h; lo = w.lo() - base). `w` not empty, key_set_bitmap_pays(w).
BitmapShape key_set_bitmap_shape(const KeySetWindow& w, int64_t base);

// Writes all key_set_bitmap_shape(w, ...).words words at `bits` (memory nothing wrote
// before, or that holds anything: every word is written).
void fill_key_set_bitmap(const KeySetWindow& w, uint32_t* bits);

// The bitmap of `w` as a FactSet (kBitmap) of its own words.
FactSet key_set_bitmap(const KeySetWindow& w, int64_t base);

}  // namespace raydb::exec::cuda
