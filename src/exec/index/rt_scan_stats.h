#pragma once
// What the RT scan paths of the query running on this thread did, for EXPLAIN ANALYZE:
// the executors record each evaluation (CPU: exec/index/index_access; CUDA: the
// general path's index steps) and append rt_scan_profile() to the query's profile.
// Per thread because a query's index steps run on the thread that executes it.
#include <string>

#include "access/rt_scan/scan_types.h"

namespace raydb::exec {

// Forgets what earlier queries on this thread recorded.
void reset_rt_scan_stats();
void record_rt_scan(const std::string& index, const char* method, const access::rt_scan::ScanQueryStats& st);
// One line per evaluation since the reset ("rt scan via IX (gpu-sieve): ..."), each
// ending in '\n'; empty when none ran.
std::string rt_scan_profile();

}  // namespace raydb::exec
