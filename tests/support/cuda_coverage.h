#pragma once
// The ad-hoc cases (adhoc_cases.h) the CUDA backend does not run yet, by name: every
// other case must run on the GPU and equal the CPU backend (tests/gpu). Shrink these
// lists as the backend grows; a case leaving them must pass on a device first.
#include <set>
#include <string>

namespace raydb::test {

inline const std::set<std::string> kSsbCpuOnly = {
};

inline const std::set<std::string> kCsvCpuOnly = {
};

}  // namespace raydb::test
