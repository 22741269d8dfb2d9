#pragma once
// Order-preserving string dictionary: the sorted distinct strings of a VARCHAR
// column. Code i is the i-th smallest string (bytewise, as SQLite's BINARY
// collation and PostgreSQL's "C" collation order them), so string equality and
// ranges become integer equality and ranges on codes.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace raydb {

class Dictionary {
 public:
  // `sorted_unique` must be strictly increasing.
  explicit Dictionary(const std::vector<std::string>& sorted_unique);
  Dictionary(std::vector<uint64_t> offsets, std::string chars);  // offsets.size() == size()+1
  // Over a file image kept alive by `owner` (a mapped dictionary file, read without a
  // copy: copying TPC-H's o_comment, 84 MB at SF 1, into fresh heap pages was most of
  // a one-shot Q13): `offsets` (8-byte aligned) and `chars` point into it.
  Dictionary(std::shared_ptr<const void> owner, const uint64_t* offsets, uint32_t entries, std::string_view chars);

  // offsets()[i], for i in 0..size(), is where string i starts in chars().
  struct Offsets {
    const uint64_t* first;
    size_t count;
    const uint64_t* data() const { return first; }
    size_t size() const { return count; }
    const uint64_t* begin() const { return first; }
    const uint64_t* end() const { return first + count; }
    uint64_t operator[](size_t i) const { return first[i]; }
  };

  uint32_t size() const { return uint32_t(offsets_.size() - 1); }
  std::string_view at(uint32_t code) const {
    return chars_.substr(offsets_[code], offsets_[code + 1] - offsets_[code]);
  }
  // Code of `s`, if present.
  std::optional<uint32_t> find(std::string_view s) const;
  // First code whose string is >= s (size() when none).
  uint32_t lower_bound(std::string_view s) const;
  // First code whose string is > s (size() when none).
  uint32_t upper_bound(std::string_view s) const;

  Offsets offsets() const { return offsets_; }
  std::string_view chars() const { return chars_; }

 private:
  void own(std::vector<uint64_t> offsets, std::string chars);

  // The views below point into owner_ (shared, so a copy of a Dictionary stays valid).
  std::shared_ptr<const void> owner_;
  Offsets offsets_{nullptr, 0};
  std::string_view chars_;
};

// Collects strings in arrival order with provisional codes, then sorts them into a
// Dictionary and hands back provisional -> final code remapping.
class DictionaryBuilder {
 public:
  uint32_t add(std::string_view s);  // provisional code
  uint32_t size() const { return uint32_t(strings_.size()); }
  // Final dictionary; remap[provisional] = final code.
  std::shared_ptr<const Dictionary> finish(std::vector<uint32_t>& remap);

 private:
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<std::string> strings_;
};

}  // namespace raydb
