#pragma once
// Per-chunk string interning for the loaders: string_view keys (pointing into the
// mapped input file or a chunk's own storage, which outlive the interner's use)
// -> provisional codes in arrival order. Open addressing with linear probing; the
// last hit is cached because columns such as lo_shipmode repeat a few values.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace raydb {

class StringInterner {
 public:
  StringInterner() { slots_.assign(64, 0); }

  uint32_t add(std::string_view s) {
    if (last_code_ != UINT32_MAX && strings_[last_code_] == s) return last_code_;
    size_t h = std::hash<std::string_view>{}(s);
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      uint32_t slot = slots_[i];
      if (slot == 0) {
        uint32_t code = uint32_t(strings_.size());
        strings_.push_back(s);
        hashes_.push_back(h);
        slots_[i] = code + 1;
        if (strings_.size() * 2 > slots_.size()) grow();
        return last_code_ = code;
      }
      if (hashes_[slot - 1] == h && strings_[slot - 1] == s) return last_code_ = slot - 1;
    }
  }

  // Distinct strings, indexed by provisional code.
  const std::vector<std::string_view>& strings() const { return strings_; }

 private:
  void grow() {
    std::vector<uint32_t> bigger(slots_.size() * 2, 0);
    size_t mask = bigger.size() - 1;
    for (uint32_t code = 0; code < strings_.size(); code++) {
      size_t i = hashes_[code] & mask;
      while (bigger[i] != 0) i = (i + 1) & mask;
      bigger[i] = code + 1;
    }
    slots_.swap(bigger);
  }

  std::vector<uint32_t> slots_;  // code + 1; 0 = empty
  std::vector<std::string_view> strings_;
  std::vector<size_t> hashes_;
  uint32_t last_code_ = UINT32_MAX;
};

}  // namespace raydb
