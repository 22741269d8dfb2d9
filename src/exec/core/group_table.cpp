#include "exec/core/group_table.h"

#include <cstring>

#include "common/error.h"

namespace raydb::exec {

namespace {
inline uint64_t hash_words(const int64_t* k, int w) {
  uint64_t h = 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < w; i++) {
    uint64_t x = uint64_t(k[i]) * 0x9E3779B97F4A7C15ull;
    h = (h ^ (x ^ (x >> 29))) * 0xBF58476D1CE4E5B9ull;
  }
  return h ^ (h >> 32);
}
inline uint64_t slot_entry(uint32_t g, uint64_t h) { return (h & 0xFFFFFFFF00000000ull) | (uint64_t(g) + 1); }
// Rows ahead whose slot a batch prefetches (a table of a million groups misses the
// cache on nearly every probe; the misses of rows in flight then overlap).
constexpr size_t kPrefetchAhead = 16;
}  // namespace

GroupTable::GroupTable(int width, bool direct, uint64_t direct_range) : width_(width), direct_(direct) {
  if (direct_) {
    range_ = direct_range;
    used_.assign(range_, 0);
  } else {
    slots_.assign(1024, 0);
    mask_ = 1023;
  }
}

void GroupTable::grow() { rehash(slots_.size() * 2); }

void GroupTable::rehash(size_t cap) {
  slots_.assign(cap, 0);
  mask_ = cap - 1;
  for (size_t g = 0; g < count_; g++) {
    if (g + kPrefetchAhead < count_) __builtin_prefetch(&slots_[hashes_[g + kPrefetchAhead] & mask_], 1);
    uint64_t h = hashes_[g] & mask_;
    while (slots_[h]) h = (h + 1) & mask_;
    slots_[h] = slot_entry(uint32_t(g), hashes_[g]);
  }
}

void GroupTable::reserve(size_t groups) {
  if (direct_) return;
  keys_.reserve(groups * size_t(width_));
  hashes_.reserve(groups);
  size_t cap = slots_.size();
  while (groups * 2 > cap) cap *= 2;
  if (cap > slots_.size()) rehash(cap);  // once, not once per doubling
}

uint32_t GroupTable::find_or_insert_one(const int64_t* key) {
  if (direct_) {
    uint64_t g = uint64_t(key[0]);
    if (!used_[g]) {
      used_[g] = 1;
      used_count_++;
    }
    return uint32_t(g);
  }
  return probe(key, hash_words(key, width_));
}

uint32_t GroupTable::probe(const int64_t* key, uint64_t h) {
  const uint64_t high = h & 0xFFFFFFFF00000000ull;
  uint64_t s = h & mask_;
  while (uint64_t e = slots_[s]) {
    const uint32_t v = uint32_t(e);
    if ((e & 0xFFFFFFFF00000000ull) == high &&
        std::memcmp(&keys_[size_t(v - 1) * size_t(width_)], key, sizeof(int64_t) * size_t(width_)) == 0)
      return v - 1;
    s = (s + 1) & mask_;
  }
  if (count_ >= UINT32_MAX - 1) fail(ErrorKind::kNotImplemented, "more than 2^32 groups");
  uint32_t g = uint32_t(count_++);
  keys_.insert(keys_.end(), key, key + width_);
  hashes_.push_back(h);
  slots_[s] = slot_entry(g, h);
  if (count_ * 2 > slots_.size()) grow();
  return g;
}

void GroupTable::find_or_insert(const int64_t* words, size_t n, uint32_t* gids) {
  if (direct_) {
    for (size_t i = 0; i < n; i++) {
      uint64_t g = uint64_t(words[i]);
      used_count_ += !used_[g];
      used_[g] = 1;
      gids[i] = uint32_t(g);
    }
    return;
  }
  // A row whose key equals the previous row's takes its group without a probe: rows
  // stored in key order (lineitem by l_orderkey, TPC-H Q18's GROUP BY) come in runs.
  const size_t w = size_t(width_);
  batch_hashes_.resize(n);
  for (size_t i = 0; i < n; i++) batch_hashes_[i] = hash_words(words + i * w, width_);
  for (size_t i = 0; i < n; i++) {
    if (i + kPrefetchAhead < n) __builtin_prefetch(&slots_[batch_hashes_[i + kPrefetchAhead] & mask_]);
    const int64_t* key = words + i * w;
    bool same = i > 0;
    for (size_t k = 0; k < w && same; k++) same = key[k] == key[k - w];
    gids[i] = same ? gids[i - 1] : probe(key, batch_hashes_[i]);
  }
}

std::vector<uint32_t> GroupTable::groups() const {
  std::vector<uint32_t> out;
  if (direct_) {
    out.reserve(used_count_);
    for (uint64_t g = 0; g < range_; g++)
      if (used_[g]) out.push_back(uint32_t(g));
  } else {
    out.resize(count_);
    for (size_t g = 0; g < count_; g++) out[g] = uint32_t(g);
  }
  return out;
}

void GroupTable::key_words(uint32_t gid, int64_t* out) const {
  if (direct_) {
    out[0] = int64_t(gid);
    return;
  }
  std::memcpy(out, &keys_[size_t(gid) * size_t(width_)], sizeof(int64_t) * size_t(width_));
}

size_t GroupTable::group_count() const { return direct_ ? used_count_ : count_; }

}  // namespace raydb::exec
