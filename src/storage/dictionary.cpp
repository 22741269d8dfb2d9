#include "storage/dictionary.h"

#include <algorithm>
#include <numeric>

namespace raydb {

namespace {
struct OwnedImage {
  std::vector<uint64_t> offsets;
  std::string chars;
};
}  // namespace

Dictionary::Dictionary(const std::vector<std::string>& sorted_unique) {
  std::vector<uint64_t> offsets;
  offsets.reserve(sorted_unique.size() + 1);
  size_t total = 0;
  for (auto& s : sorted_unique) total += s.size();
  std::string chars;
  chars.reserve(total);
  offsets.push_back(0);
  for (auto& s : sorted_unique) {
    chars += s;
    offsets.push_back(chars.size());
  }
  own(std::move(offsets), std::move(chars));
}

Dictionary::Dictionary(std::vector<uint64_t> offsets, std::string chars) {
  if (offsets.empty()) offsets.push_back(0);
  own(std::move(offsets), std::move(chars));
}

Dictionary::Dictionary(std::shared_ptr<const void> owner, const uint64_t* offsets, uint32_t entries,
                       std::string_view chars)
    : owner_(std::move(owner)), offsets_{offsets, size_t(entries) + 1}, chars_(chars) {}

void Dictionary::own(std::vector<uint64_t> offsets, std::string chars) {
  auto image = std::make_shared<OwnedImage>(OwnedImage{std::move(offsets), std::move(chars)});
  offsets_ = {image->offsets.data(), image->offsets.size()};
  chars_ = image->chars;
  owner_ = std::move(image);
}

uint32_t Dictionary::lower_bound(std::string_view s) const {
  uint32_t lo = 0, hi = size();
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (at(mid) < s)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

uint32_t Dictionary::upper_bound(std::string_view s) const {
  uint32_t lo = 0, hi = size();
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (at(mid) <= s)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

std::optional<uint32_t> Dictionary::find(std::string_view s) const {
  uint32_t c = lower_bound(s);
  if (c < size() && at(c) == s) return c;
  return std::nullopt;
}

uint32_t DictionaryBuilder::add(std::string_view s) {
  auto [it, inserted] = index_.try_emplace(std::string(s), uint32_t(strings_.size()));
  if (inserted) strings_.emplace_back(s);
  return it->second;
}

std::shared_ptr<const Dictionary> DictionaryBuilder::finish(std::vector<uint32_t>& remap) {
  std::vector<uint32_t> order(strings_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return strings_[a] < strings_[b]; });
  remap.assign(strings_.size(), 0);
  std::vector<std::string> sorted;
  sorted.reserve(strings_.size());
  for (uint32_t i = 0; i < order.size(); i++) {
    remap[order[i]] = i;
    sorted.push_back(std::move(strings_[order[i]]));
  }
  strings_.clear();
  index_.clear();
  return std::make_shared<const Dictionary>(sorted);
}

}  // namespace raydb
