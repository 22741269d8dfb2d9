#include "exec/index/rt_scan_stats.h"

#include <fmt/format.h>

namespace raydb::exec {

namespace {
thread_local std::string t_lines;
}

void reset_rt_scan_stats() { t_lines.clear(); }

void record_rt_scan(const std::string& index, const char* method, const access::rt_scan::ScanQueryStats& st) {
  t_lines += fmt::format(
      "rt scan via {} ({}): {} jobs, {} rows in residual slabs, {} cell boxes, {} rays, {} rows refined; "
      "device {:.3f} ms, total {:.3f} ms\n",
      index, method, st.groups, st.sieve_rows, st.cell_boxes, st.rays, st.rows_refined, st.device_ms, st.total_ms);
}

std::string rt_scan_profile() { return t_lines; }

}  // namespace raydb::exec
