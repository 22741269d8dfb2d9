// RT scan on the host at a size where timings mean something (label slow): 2^22 + 3
// rows x 3 columns of every distribution class, three `<` predicates at selectivities
// 0.01..1 per column; every method must return the CPU scan's bits, and the times,
// rays and refined rows are printed (the RTScan experiment's shape, CPU only).
#include <gtest/gtest.h>

#include <cstdio>

#include "common/timer.h"
#include "rt/rt_scan_cases.h"

namespace raydb::rtscan_cases {
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RtScanTest);  // the shared cases run in test_rt
namespace {

TEST(RtScanSlow, HostMethodsAgreeAndReportTimes) {
  auto tracer = rt::make_embree_tracer();
  const size_t n = (size_t{1} << 22) + 3;
  for (Dist d : {Dist::kUniform, Dist::kZipf15, Dist::kNormal, Dist::kSmall}) {
    const Table t = make_table({d, d, d}, n, 5 + static_cast<uint64_t>(d));
    const std::vector<ScanColumn> cols = t.columns();
    Timer build;
    auto ix = make_host_scan_index(cols, RtScanOptions{}, tracer.get());
    std::printf("dist %d: build %.0f ms, host %.1f MiB\n", static_cast<int>(d), build.elapsed_ms(),
                ix->build_stats().host_bytes() / 1048576.0);
    for (const StructureStats& s : ix->build_stats().structures)
      std::printf("  %-12s %8.1f ms %8.1f MiB\n", s.name.c_str(), s.build_ms, s.host_bytes / 1048576.0);
    std::vector<std::vector<int64_t>> sorted = t.values;
    for (auto& s : sorted) std::sort(s.begin(), s.end());
    for (double sel : {0.01, 0.1, 0.5, 0.9, 1.0}) {
      const size_t k = std::min(n - 1, static_cast<size_t>(sel * n));
      const ScanExpr e = ScanExpr::all_of({ScanExpr::pred(0, CompareOp::kLess, {sorted[0][k]}),
                                           ScanExpr::pred(1, CompareOp::kLess, {sorted[1][k]}),
                                           ScanExpr::pred(2, CompareOp::kLess, {sorted[2][k]})});
      BitVector want;
      ix->evaluate(e, ScanMethod::kCpuScan, want);
      for (ScanMethod m : ix->methods()) {
        BitVector got;
        ScanQueryStats st;
        ix->evaluate(e, m, got, &st);
        ASSERT_EQ(got.words, want.words) << scan_method_name(m) << " sel " << sel;
        std::printf("  sel %.2f %-9s %8.2f ms  rows %8llu refined %8llu rays %8llu\n", sel, scan_method_name(m),
                    st.total_ms, static_cast<unsigned long long>(got.count()),
                    static_cast<unsigned long long>(st.rows_refined), static_cast<unsigned long long>(st.rays));
      }
    }
  }
}

}  // namespace
}  // namespace raydb::rtscan_cases
