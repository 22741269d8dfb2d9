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

  uint32_t size() const { return uint32_t(offsets_.size() - 1); }
  std::string_view at(uint32_t code) const {
    return std::string_view(chars_).substr(offsets_[code], offsets_[code + 1] - offsets_[code]);
  }
  // Code of `s`, if present.
  std::optional<uint32_t> find(std::string_view s) const;
  // First code whose string is >= s (size() when none).
  uint32_t lower_bound(std::string_view s) const;
  // First code whose string is > s (size() when none).
  uint32_t upper_bound(std::string_view s) const;

  const std::vector<uint64_t>& offsets() const { return offsets_; }
  const std::string& chars() const { return chars_; }

 private:
  std::vector<uint64_t> offsets_;
  std::string chars_;
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
