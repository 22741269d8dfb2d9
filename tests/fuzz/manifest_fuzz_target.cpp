// libFuzzer target: the manifest reader (storage/persist/manifest.h). Arbitrary text must
// parse or be a clean "corrupted manifest" error; a manifest that parses must write out
// (to_json) as text that parses again to the same text (the round trip a commit does).
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/error.h"
#include "fuzz_support.h"
#include "storage/persist/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using raydb::persist::Manifest;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Manifest m;
  if (!raydb::fuzz::runs_cleanly([&] { m = Manifest::parse(text, "fuzz/manifest.json"); })) return 0;
  std::string written, rewritten;
  raydb::fuzz::runs_cleanly([&] { written = m.to_json(); });
  Manifest again;
  if (!raydb::fuzz::runs_cleanly([&] { again = Manifest::parse(written, "fuzz/written.json"); }))
    raydb::fuzz::finding("a parsed manifest writes text that does not parse");
  raydb::fuzz::runs_cleanly([&] { rewritten = again.to_json(); });
  if (rewritten != written) raydb::fuzz::finding("manifest round trip changed the text");
  return 0;
}
