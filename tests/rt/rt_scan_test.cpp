// test_rt: RT scan on the host (Embree tracer, CPU scan, CPU sieve + refine) against
// brute force (rt_scan_cases.h), plus the float32 exactness of the scan grid for any N.
#include "rt/rt_scan_cases.h"
#include "rt/mapping/scan_grid.h"

namespace raydb::rtscan_cases {
namespace {

bool embree_available(std::string*) { return true; }
std::unique_ptr<ScanIndex> make_embree(std::span<const ScanColumn> cols, const RtScanOptions& o) {
  static std::unique_ptr<rt::Tracer> tracer = rt::make_embree_tracer();
  return make_host_scan_index(cols, o, tracer.get());
}
INSTANTIATE_TEST_SUITE_P(Embree, RtScanTest, ::testing::Values(ScanKind{"embree", embree_available, make_embree}),
                         scan_kind_name);

namespace mp = rt::mapping;

// scan_grid.h point 1-3 for N up to 2^32 - 1 (no GPU needed): every rank box maps to
// cell boxes whose segments reach the cell of every rank inside the box, with exact
// float coordinates, and the cell test accepts exactly that one segment per row.
// The default layout's grid has about n / 4 cells (within a factor 2), whatever the
// column count: the cell bits are shared out over the axes, never rounded up per axis.
TEST(ScanGrid, DefaultLayoutHasAboutAQuarterAsManyCellsAsRows) {
  for (uint64_t n : {uint64_t{5}, uint64_t{1000}, (uint64_t{1} << 24) + 3, uint64_t{100000000},
                     (uint64_t{1} << 32) - 1}) {
    for (uint32_t dims = 2; dims <= 3; ++dims) {
      const mp::ScanLayout l = mp::scan_default_layout(dims, n);
      ASSERT_TRUE(mp::scan_layout_exact(l, n));
      uint64_t grid = 1, widest = 0, narrowest = ~uint64_t{0};
      for (uint32_t d = 0; d < dims; ++d) {
        const uint64_t per_axis = ((n - 1) >> l.axis_shift(d)) + 1;
        grid *= per_axis;
        widest = std::max(widest, per_axis);
        narrowest = std::min(narrowest, per_axis);
      }
      if (n >= 1000) {  // the grid nearest n / 4 of those the whole-bit splits allow
        EXPECT_LE(double(grid), double(n) / 4 * 2) << n << " rows, " << dims << " columns";
        EXPECT_GE(double(grid), double(n) / 4 / 2) << n << " rows, " << dims << " columns";
      }
      EXPECT_LE(widest, narrowest * 2 + 1) << "axes differ by at most a factor 2";
    }
  }
}

TEST(ScanGrid, SegmentsReachEveryCellExactlyForAnyN) {
  std::mt19937_64 rng(7);
  for (uint64_t n : {uint64_t{1}, uint64_t{1000}, (uint64_t{1} << 24) + 3, uint64_t{100000007},
                     (uint64_t{1} << 32) - 1}) {
    for (uint32_t dims = 1; dims <= 3; ++dims) {
      for (const mp::ScanLayout l : {mp::scan_default_layout(dims, n), mp::ScanLayout{dims, mp::scan_bits(n) / 2, 0}}) {
      ASSERT_TRUE(mp::scan_layout_exact(l, n)) << n << " dims " << dims << " shift " << l.shift;
      for (int q = 0; q < 200; ++q) {
        uint32_t lo[3], hi[3];
        for (int d = 0; d < 3; ++d) {
          uint64_t a = rng() % n, b = rng() % n;
          if (q % 3 == 0) b = std::min(n - 1, a + rng() % 5);  // thin slabs
          if (a > b) std::swap(a, b);
          lo[d] = static_cast<uint32_t>(a);
          hi[d] = static_cast<uint32_t>(b + 1);
        }
        const uint32_t L = 1 + static_cast<uint32_t>(rng() % 9);
        mp::CellBox boxes[3];
        const int nb = mp::rank_box_cells(l, lo, hi, L, boxes);
        for (int k = 0; k < 20; ++k) {
          uint32_t r[3], c[3];
          for (int d = 0; d < 3; ++d) r[d] = lo[d] + static_cast<uint32_t>(rng() % (uint64_t{hi[d]} - lo[d]));
          l.cell(r, c);
          int found = 0;
          for (int i = 0; i < nb; ++i) {
            const mp::CellBox& b = boxes[i];
            bool inside = true;
            for (int a = 0; a < 3; ++a) inside &= b.lo[a] <= c[a] && c[a] <= b.hi[a];
            if (!inside) continue;
            // The segment whose cells hold c: line from the other axes, segment from the axis.
            const uint32_t a = b.axis, u = (a + 1) % 3, v = (a + 2) % 3;
            const uint64_t line = (c[u] - b.lo[u]) + uint64_t{c[v] - b.lo[v]} * b.extent(u);
            const uint64_t item = line * b.segs + (c[a] - b.lo[a]) / L;
            const rt::Ray ray = mp::box_segment(b, L, item);
            float t = 0;
            ASSERT_TRUE(mp::intersect_cell(c, ray, &t));
            // Exact: the float coordinates equal the integer / half-integer values.
            const float o[3] = {ray.origin.x, ray.origin.y, ray.origin.z};
            ASSERT_EQ(static_cast<double>(o[u]), static_cast<double>(c[u]));
            ASSERT_EQ(static_cast<double>(t), static_cast<double>(c[a]) - static_cast<double>(o[a]));
            const rt::Aabb cube = mp::cell_cube(c);
            ASSERT_EQ(static_cast<double>(cube.hi.x), c[0] + 0.25);
            // Neighbouring segments of the line do not reach it.
            if (item % b.segs > 0) {
              ASSERT_FALSE(mp::intersect_cell(c, mp::box_segment(b, L, item - 1), &t));
            }
            if (item % b.segs + 1 < b.segs) {
              ASSERT_FALSE(mp::intersect_cell(c, mp::box_segment(b, L, item + 1), &t));
            }
            ++found;
          }
          ASSERT_GE(found, 1) << "rank not covered, n " << n << " dims " << dims;
        }
      }
      }
    }
  }
}

}  // namespace
}  // namespace raydb::rtscan_cases
