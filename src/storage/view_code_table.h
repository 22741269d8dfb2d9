#pragma once
// Codes of distinct strings in first-seen order, keyed by views (the strings must
// outlive the table): open addressing over (hash, code) slots with a power-of-two
// capacity kept at most half full. A std::unordered_map of views cost about 12 ns a
// row on short strings (a node per entry, std::hash); this is a probe or two.
#include <xxhash.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace raydb {

class ViewCodeTable {
 public:
  ViewCodeTable() { slots_.assign(64, Slot{}); }

  // The code of `s`: an existing one, or the next (size()) when `s` is new.
  int32_t code(std::string_view s) {
    const uint64_t h = XXH3_64bits(s.data(), s.size());
    for (size_t i = size_t(h) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& slot = slots_[i];
      if (slot.code < 0) {
        slot = Slot{h, int32_t(distinct_.size())};
        distinct_.push_back(s);
        if (2 * distinct_.size() > slots_.size()) grow();
        return int32_t(distinct_.size() - 1);
      }
      if (slot.hash == h && distinct_[size_t(slot.code)] == s) return slot.code;
    }
  }
  // The distinct strings, by code.
  const std::vector<std::string_view>& distinct() const { return distinct_; }

 private:
  struct Slot {
    uint64_t hash = 0;
    int32_t code = -1;  // -1: empty
  };
  std::vector<Slot> slots_;
  std::vector<std::string_view> distinct_;

  void grow() {
    std::vector<Slot> old(slots_.size() * 2, Slot{});
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.code < 0) continue;
      size_t i = size_t(s.hash) & (slots_.size() - 1);
      while (slots_[i].code >= 0) i = (i + 1) & (slots_.size() - 1);
      slots_[i] = s;
    }
  }
};

}  // namespace raydb
