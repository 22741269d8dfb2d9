#pragma once
// Shared by the libFuzzer targets (tests/fuzz): what counts as a finding. A raydb::Error
// of any kind but kInternal is the clean one-line error bad input must give; an
// internal error, any other exception, a crash or a sanitizer report is a defect.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "common/error.h"

namespace raydb::fuzz {

// Runs f; returns true when it finished, false on a clean raydb::Error; aborts (which
// libFuzzer records as a crash with its input) on anything else.
template <typename F>
bool runs_cleanly(F&& f) {
  try {
    f();
    return true;
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kInternal) return false;
    std::fprintf(stderr, "fuzz finding: internal error: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz finding: exception outside raydb::Error: %s\n", e.what());
  }
  std::abort();
}

// A property a target checks failed: report and abort.
[[noreturn]] inline void finding(const char* what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

}  // namespace raydb::fuzz
