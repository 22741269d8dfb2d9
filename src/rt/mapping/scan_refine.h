#pragma once
// RT scan's matrix refine (RTScan): the batch program that traces the ray segments of
// the residual cell boxes (scan_grid.h) through the cubes of a column group, and the
// hit action that re-checks every row of each reported cell and writes its exact bit. The same code
// on every tracer: Embree loops over the segments on CPU threads, OptiX runs it as the
// raygen program of one optixLaunch.
//
// Exactness: the tracer only proposes rows. ScanHitAction tests the row's ranks
// against the group's predicate in 32-bit integers and sets the row's bit when it
// matches and clears it when not (atomic OR / AND on the 64-bit word), so a row
// reported twice, or one outside the residual region, ends with the same exact bit.
// Rows the rays never reach keep the sieving result, which is exact outside the
// residual region (access/rt_scan/scan_plan.h says why); scan_grid.h says why every
// row of a residual box is reached.
#include "rt/mapping/key_search.h"
#include "rt/mapping/scan_grid.h"

namespace raydb::rt::mapping {

// The geometry's data (pointers where the tracer reads: host memory on a CPU tracer,
// device memory on a GPU tracer): primitive p is the p-th occupied cell, its rows are
// cell_rows[cell_start[p] .. cell_start[p + 1]), and its coordinates are the cell of
// its first row (computed from the ranks, so no coordinates are stored).
struct ScanCubes {
  const uint32_t* ranks[3];
  ScanLayout layout;
  uint32_t rows;
  const uint32_t* cell_rows;   // rows grouped by cell
  const uint32_t* cell_start;  // cells + 1
  uint32_t cells;

  RAYDB_HOST_DEVICE void cell_of(uint32_t row, uint32_t* c) const {
    uint32_t r[3] = {ranks[0][row], layout.dims > 1 ? ranks[1][row] : 0u, layout.dims > 2 ? ranks[2][row] : 0u};
    layout.cell(r, c);
  }
};

// The intersection program of scan cubes (both tracers).
RAYDB_HOST_DEVICE bool intersect_scan_cube(const ScanCubes& s, uint32_t prim, const Ray& r, float* t) {
  if (prim >= s.cells) return false;
  uint32_t c[3];
  s.cell_of(s.cell_rows[s.cell_start[prim]], c);
  return intersect_cell(c, r, t);
}

struct RankRange {
  uint32_t lo, hi;  // ranks [lo, hi)
};

// The group's exact predicate on ranks: dim d (a bit of `constrained`) matches when the
// row's rank lies in one of ranges[begin[d] .. begin[d+1]) (sorted, disjoint); an
// unconstrained dim matches every row (its column is not in the query).
struct ScanCheck {
  const RankRange* ranges;
  uint32_t begin[4];
  uint32_t constrained;

  RAYDB_HOST_DEVICE bool dim_matches(uint32_t d, uint32_t rank) const {
    uint32_t a = begin[d], e = begin[d + 1];  // last range with lo <= rank
    while (a < e) {
      const uint32_t m = a + (e - a) / 2;
      if (ranges[m].lo <= rank)
        a = m + 1;
      else
        e = m;
    }
    return a > begin[d] && rank < ranges[a - 1].hi;
  }
  RAYDB_HOST_DEVICE bool matches(const ScanCubes& s, uint32_t row) const {
    for (uint32_t d = 0; d < s.layout.dims; ++d)
      if (((constrained >> d) & 1u) && !dim_matches(d, s.ranks[d][row])) return false;
    return true;
  }
};

// Atomic bit writes on a 64-bit word, on both sides.
RAYDB_HOST_DEVICE void atomic_or_word(uint64_t* w, uint64_t m) {
#if defined(__CUDA_ARCH__)
  atomicOr(reinterpret_cast<unsigned long long*>(w), static_cast<unsigned long long>(m));
#else
  __atomic_fetch_or(w, m, __ATOMIC_RELAXED);
#endif
}
RAYDB_HOST_DEVICE void atomic_and_word(uint64_t* w, uint64_t m) {
#if defined(__CUDA_ARCH__)
  atomicAnd(reinterpret_cast<unsigned long long*>(w), static_cast<unsigned long long>(m));
#else
  __atomic_fetch_and(w, m, __ATOMIC_RELAXED);
#endif
}
RAYDB_HOST_DEVICE void atomic_add_count(uint64_t* c, uint64_t v) {
#if defined(__CUDA_ARCH__)
  atomicAdd(reinterpret_cast<unsigned long long*>(c), static_cast<unsigned long long>(v));
#else
  __atomic_fetch_add(c, v, __ATOMIC_RELAXED);
#endif
}

// Writes row's exact bit (idempotent).
RAYDB_HOST_DEVICE void write_exact_bit(uint64_t* bits, uint32_t row, bool match) {
  const uint64_t m = uint64_t{1} << (row & 63);
  if (match)
    atomic_or_word(bits + (row >> 6), m);
  else
    atomic_and_word(bits + (row >> 6), ~m);
}

struct ScanRefineParams {
  ScanCubes cubes;  // the rows' ranks (the same arrays the structure was built from)
  ScanCheck check;
  const CellBox* boxes;
  const uint64_t* first_item;  // boxes + 1: launch items of box b are [first_item[b], first_item[b+1])
  uint32_t n_boxes;
  uint32_t segment_cells;  // L
  uint32_t n;              // launch items (segments)
  uint64_t* bits;          // the group's result, sieving approximation on entry
  uint64_t* stats;         // null, or [0] += rows re-checked, [1] += rays traced
};

// Holds copies, not a pointer to the launch parameters: on OptiX the action lives on
// the raygen's stack and the any-hit program reaches it through a payload pointer.
struct ScanHitAction {
  ScanCubes cubes;
  ScanCheck check;
  uint64_t* bits;
  uint32_t hits;
  RAYDB_HOST_DEVICE bool operator()(const Hit& h) {
    if (h.primitive < cubes.cells) {
      const uint32_t e = cubes.cell_start[h.primitive + 1];
      for (uint32_t k = cubes.cell_start[h.primitive]; k < e; ++k) {
        const uint32_t row = cubes.cell_rows[k];
        write_exact_bit(bits, row, check.matches(cubes, row));
      }
      hits += e - cubes.cell_start[h.primitive];
    }
    return true;  // every cell on the segment
  }
};

template <typename TC>
RAYDB_HOST_DEVICE void scan_refine(const TC& tc, const ScanRefineParams& P, uint32_t j) {
  if (j >= P.n || P.n_boxes == 0) return;
  uint32_t a = 0, e = P.n_boxes;  // box b with first_item[b] <= j < first_item[b + 1]
  while (e - a > 1) {
    const uint32_t m = a + (e - a) / 2;
    if (P.first_item[m] <= j)
      a = m;
    else
      e = m;
  }
  const CellBox& b = P.boxes[a];
  const Ray r = box_segment(b, P.segment_cells, j - P.first_item[a]);
  ScanHitAction act{P.cubes, P.check, P.bits, 0};
  tc.all_hits(Slot::kKeys, r, act);
  if (P.stats != nullptr) {
    atomic_add_count(P.stats, act.hits);
    atomic_add_count(P.stats + 1, 1);
  }
}

}  // namespace raydb::rt::mapping
