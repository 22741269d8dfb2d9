#pragma once
// A per-expression merged string domain: the sorted union of the dictionaries and
// string constants one GPU program can produce. Codes are ranks in that union, so
// they order like the strings (bytewise, the CPU's order: std::string_view compares
// as unsigned char, as Dictionary does) and compare across source dictionaries as
// integers. Pure C++; the host builds it once per compiled program.
#include <memory>
#include <string>
#include <vector>

#include "storage/dictionary.h"

namespace raydb::exec::cuda::general {

class StringDomain {
 public:
  // The sorted distinct union of `dicts` and `constants`.
  static std::shared_ptr<const Dictionary> merge(const std::vector<const Dictionary*>& dicts,
                                                 const std::vector<std::string>& constants);
  // values[c] = code of src's string c in dst, nulls[c] = 1 where dst lacks it. Both
  // are sorted, so one merge walk (linear) does it.
  static void translate(const Dictionary& src, const Dictionary& dst, std::vector<int64_t>& values,
                        std::vector<uint8_t>& nulls);
};

}  // namespace raydb::exec::cuda::general
