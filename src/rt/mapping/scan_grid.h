#pragma once
// RT scan (RTScan) geometry: rows of a column group as cubes in a small integer grid,
// residual regions as boxes of grid cells, and the matrix of short ray segments that
// covers a box. Shared by every tracer (host and device).
//
// Every row has a rank per column in [0, N) (uniform encoding, access/rt_scan). A
// group of 1-3 columns places each row in a cell of integer coordinates:
//   2 or 3 columns  cell_d = rank_d >> (shift + coarse_d) (one axis per column; z = 0 for
//                   2 columns; coarse_d is 0 or 1, so axes differ by at most a factor 2)
//   1 column        v = rank >> fine folded into a plane: x = v >> shift, y = v & (2^shift - 1)
// Each occupied cell is one primitive, a cube at the cell centre +-0.25 on every axis;
// its rows are listed beside it (scan_refine.h). A box of cells is covered by rays
// along its longest axis, one ray per cell of the other two axes, at the cells'
// integer coordinates, cut into segments of at most L cells that start and end at
// half-integers: the segment over cells [s, s + c) runs from s - 0.5 to s + c - 0.5.
//
// Why no row is ever missed (float32, any N < 2^32):
//  1. Coordinates are small integers: shift is chosen so that every cell coordinate is
//     below 2^21 (kScanMaxCells), whatever N. Cube faces (c +- 0.25), ray ends (s - 0.5)
//     and ray parameters t (at most L + 1 <= 2^21) are multiples of 0.25 below 2^22, so
//     they need at most 24 significant bits: every one is an exact float, nothing is
//     rounded (the published artifact put cube centres at the ranks themselves, which
//     float32 rounds above 2^24, and sized its epsilon against that; raydb never puts
//     a rank into a float).
//  2. A ray at integer (u, v) passes 0.25 inside the faces of every cube of the cells
//     (u, v, *) it crosses, and each cell s..s+c-1 of its segment has its cube within
//     [0.25, c - 0.25] of t, strictly inside (0, c): no cube face meets a ray end, so
//     a conservative box test (BVH traversal) reaches every such cube and the exact
//     intersection test below accepts it. Rays of one box tile its cells exactly (one
//     ray line per (u, v), segments back to back), so every row whose cell lies in the
//     box is reported.
//  3. A residual region of ranks maps to cell boxes that contain it (a cell box rounds
//     outwards to whole cells): rows of partially covered cells are reported too.
// Why extra or repeated hits are harmless: the hit action (scan_refine.h) re-checks the
// row's ranks against the group's predicate in integers and writes the exact answer
// (set or clear) with an atomic bit operation. A row reported twice (cells shared by
// two boxes) or outside the residual region gets its exact bit again.
#include "rt/mapping/geometry.h"

namespace raydb::rt::mapping {

inline constexpr uint32_t kScanMaxCells = 1u << 21;  // cells per axis (point 1)
inline constexpr uint32_t kScanMaxShift = 31;

struct ScanLayout {
  uint32_t dims;   // columns in the group: 1, 2 or 3 (no initializers: part of OptiX launch params)
  uint32_t shift;  // see above
  uint32_t fine;   // 1 column: ranks per cell = 2^fine (0 for 2 or 3 columns)
  uint32_t coarse;  // 2 or 3 columns: bit d set when axis d's cells are twice as wide (shift + 1)

  RAYDB_HOST_DEVICE uint32_t axis_shift(uint32_t d) const { return shift + ((coarse >> d) & 1u); }

  RAYDB_HOST_DEVICE uint32_t fold_mask() const { return shift == 0 ? 0u : (0xFFFFFFFFu >> (32 - shift)); }
  // Cell of a row with ranks r[0..dims).
  RAYDB_HOST_DEVICE void cell(const uint32_t* r, uint32_t* c) const {
    if (dims == 1) {
      const uint32_t v = r[0] >> fine;
      c[0] = v >> shift;
      c[1] = v & fold_mask();
      c[2] = 0;
      return;
    }
    c[0] = r[0] >> axis_shift(0);
    c[1] = r[1] >> axis_shift(1);
    c[2] = dims == 3 ? r[2] >> axis_shift(2) : 0;
  }
};

RAYDB_HOST_DEVICE uint32_t scan_bits(uint64_t n) {  // bits of the largest of n ranks
  uint32_t b = 0;
  while (b < 32 && (uint64_t{1} << b) < n) ++b;
  return b;
}

// The default layout for n rows: a grid of about n / 4 cells (a BVH about 4 times
// smaller than one cube per row, while a thin residual slab still re-checks only one
// layer of cells), every coordinate below 2^21. With 2 or 3 columns the cell bits are
// shared out over the axes as evenly as whole bits allow (the first axes get one bit
// more, the others are `coarse`: cells twice as wide), and the total is the one whose
// grid, counted from n itself (ranks fill [0, n), not [0, 2^bits)), lies nearest n / 4.
// Giving every axis the same rounded-up share made the grid up to 4x too fine
// (3 columns, 10^8 rows: 382^3 cells, 46 M occupied by 2.2 rows, a BVH of 3.4 GB).
RAYDB_HOST_DEVICE ScanLayout scan_split_layout(uint32_t dims, uint32_t b, uint32_t total) {
  const uint32_t low = total / dims, wide = total % dims;  // axes < wide get low + 1 bits
  if (wide == 0) return ScanLayout{dims, b > low ? b - low : 0, 0, 0};
  return ScanLayout{dims, b - low - 1, 0, ((1u << dims) - 1) & ~((1u << wide) - 1)};
}

RAYDB_HOST_DEVICE ScanLayout scan_default_layout(uint32_t dims, uint64_t n) {
  const uint32_t b = scan_bits(n), cells = b > 2 ? b - 2 : 0;  // log2(n / 4)
  if (dims == 1) return ScanLayout{1, (cells + 1) / 2, b - cells, 0};
  const double target = n > 4 ? double(n) / 4 : 1;
  ScanLayout best = scan_split_layout(dims, b, 0);
  double best_score = 0;
  for (uint32_t total = 0; total <= dims * b && total / dims < 21; ++total) {
    const ScanLayout l = scan_split_layout(dims, b, total);
    double grid = 1;
    for (uint32_t d = 0; d < dims; ++d) grid *= double(((n == 0 ? 0 : n - 1) >> l.axis_shift(d)) + 1);
    const double score = grid > target ? grid / target : target / grid;  // |log(grid / target)|, monotone
    if (total == 0 || score < best_score) best = l, best_score = score;
  }
  return best;
}

// Whether a layout keeps every cell coordinate of ranks < n below kScanMaxCells.
RAYDB_HOST_DEVICE bool scan_layout_exact(const ScanLayout& l, uint64_t n) {
  if (l.dims < 1 || l.dims > 3 || l.shift > kScanMaxShift || l.fine > kScanMaxShift) return false;
  if (l.dims != 1 && l.fine != 0) return false;
  if (l.coarse >= (1u << l.dims) || (l.coarse != 0 && (l.dims == 1 || l.shift + 1 > kScanMaxShift))) return false;
  const uint64_t top = n == 0 ? 0 : ((n - 1) >> l.fine) >> l.shift;
  if (top >= kScanMaxCells) return false;
  return l.dims != 1 || (uint64_t{1} << l.shift) <= kScanMaxCells;
}

// A box of cells, inclusive on every axis, with the axis its rays run along and the
// number of segments per ray line.
struct CellBox {
  uint32_t lo[3];
  uint32_t hi[3];
  uint32_t axis;
  uint32_t segs;
  RAYDB_HOST_DEVICE uint64_t extent(int a) const { return uint64_t{hi[a]} - lo[a] + 1; }
  RAYDB_HOST_DEVICE uint64_t lines() const { return extent((axis + 1) % 3) * extent((axis + 2) % 3); }
  RAYDB_HOST_DEVICE uint64_t items() const { return lines() * segs; }
};

// Picks the longest axis and the segment count for segments of at most L cells.
RAYDB_HOST_DEVICE void finish_box(CellBox& b, uint32_t L) {
  b.axis = 0;
  for (int a = 1; a < 3; ++a)
    if (b.extent(a) > b.extent(b.axis)) b.axis = a;
  b.segs = static_cast<uint32_t>((b.extent(b.axis) + L - 1) / L);
}

// The cell boxes of a box of ranks [lo_d, hi_d) (hi_d > lo_d for d < dims; the other
// axes are ignored); returns how many (at most 3: a folded single column).
RAYDB_HOST_DEVICE int rank_box_cells(const ScanLayout& l, const uint32_t* lo, const uint32_t* hi, uint32_t L,
                                     CellBox* out) {
  if (l.dims != 1) {
    CellBox b{};
    for (uint32_t d = 0; d < 3; ++d) {
      b.lo[d] = d < l.dims ? lo[d] >> l.axis_shift(d) : 0;
      b.hi[d] = d < l.dims ? (hi[d] - 1) >> l.axis_shift(d) : 0;
    }
    finish_box(b, L);
    out[0] = b;
    return 1;
  }
  const uint32_t m = l.fold_mask(), a = lo[0] >> l.fine, e = (hi[0] - 1) >> l.fine;
  const uint32_t xa = a >> l.shift, xe = e >> l.shift;
  int n = 0;
  auto add = [&](uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1) {
    CellBox b{{x0, y0, 0}, {x1, y1, 0}, 0, 0};
    finish_box(b, L);
    out[n++] = b;
  };
  if (xa == xe) {
    add(xa, xa, a & m, e & m);
    return n;
  }
  add(xa, xa, a & m, m);
  if (xa + 1 < xe) add(xa + 1, xe - 1, 0, m);
  add(xe, xe, 0, e & m);
  return n;
}

RAYDB_HOST_DEVICE float cf(uint32_t v) { return static_cast<float>(v); }  // exact: v < 2^21

// The cube of a cell (point 1: exact quarter values).
RAYDB_HOST_DEVICE Aabb cell_cube(const uint32_t* c) {
  return Aabb{{cf(c[0]) - 0.25f, cf(c[1]) - 0.25f, cf(c[2]) - 0.25f},
              {cf(c[0]) + 0.25f, cf(c[1]) + 0.25f, cf(c[2]) + 0.25f}};
}

// Ray segment `item` (< b.items()) of a box: line = item / segs, segment = item % segs.
RAYDB_HOST_DEVICE Ray box_segment(const CellBox& b, uint32_t L, uint64_t item) {
  const uint32_t a = b.axis, u = (a + 1) % 3, v = (a + 2) % 3;
  const uint64_t line = item / b.segs, seg = item % b.segs;
  const uint64_t nu = b.extent(u);
  float o[3], d[3] = {0.0f, 0.0f, 0.0f};
  o[u] = cf(b.lo[u] + static_cast<uint32_t>(line % nu));
  o[v] = cf(b.lo[v] + static_cast<uint32_t>(line / nu));
  const uint32_t start = b.lo[a] + static_cast<uint32_t>(seg) * L;
  const uint32_t end = start + L - 1 < b.hi[a] ? start + L - 1 : b.hi[a];  // last cell, inclusive
  o[a] = cf(start) - 0.5f;
  d[a] = 1.0f;
  return Ray{{o[0], o[1], o[2]}, 0.0f, {d[0], d[1], d[2]}, cf(end - start + 1)};
}

// Exact intersection of a scan ray with the cube of cell c: the ray must run along an
// axis through the cell's integer coordinates on the other two, and the cell centre
// must lie strictly inside (tmin, tmax). All operands are exact (point 1).
RAYDB_HOST_DEVICE bool intersect_cell(const uint32_t* c, const Ray& r, float* t) {
  const float o[3] = {r.origin.x, r.origin.y, r.origin.z};
  const float d[3] = {r.dir.x, r.dir.y, r.dir.z};
  int a = -1;
  for (int k = 0; k < 3; ++k) {
    if (d[k] == 1.0f) {
      if (a >= 0) return false;
      a = k;
    } else if (d[k] != 0.0f || o[k] != cf(c[k])) {
      return false;
    }
  }
  if (a < 0) return false;
  const float tt = cf(c[a]) - o[a];
  if (!(tt > r.tmin && tt < r.tmax)) return false;
  *t = tt;
  return true;
}

}  // namespace raydb::rt::mapping
