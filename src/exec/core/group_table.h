#pragma once
// Maps encoded group keys to group ids. Direct mode (a packed key whose range is
// small): the packed word IS the group id, no hashing. Hash mode: open addressing
// over the key words, dense group ids in first-seen order. A slot holds the group id
// and 32 bits of its hash, so that probing a large table touches the keys only on a
// likely match; batches hash their rows first and prefetch the slots ahead.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace raydb::exec {

class GroupTable {
 public:
  GroupTable(int width, bool direct, uint64_t direct_range);

  bool direct() const { return direct_; }
  int width() const { return width_; }
  // Group ids for n rows of `width` words each.
  void find_or_insert(const int64_t* words, size_t n, uint32_t* gids);
  uint32_t find_or_insert_one(const int64_t* key);
  // Room for `groups` groups without growing (hash mode; a merge knows its total).
  void reserve(size_t groups);
  // Capacity of state arrays needed (direct: the range; hash: the group count).
  size_t state_size() const { return direct_ ? size_t(range_) : count_; }
  // Ids of the groups present, in ascending id order, and their key words.
  std::vector<uint32_t> groups() const;
  void key_words(uint32_t gid, int64_t* out) const;
  // Hash mode: the key words of groups 0..group_count()-1, `width` words each.
  const int64_t* key_data() const { return keys_.data(); }
  size_t group_count() const;

 private:
  void grow();
  void rehash(size_t capacity);  // a power of two
  uint32_t probe(const int64_t* key, uint64_t h);
  int width_;
  bool direct_;
  uint64_t range_ = 0;
  std::vector<uint8_t> used_;  // direct
  size_t used_count_ = 0;
  // hash
  std::vector<uint64_t> slots_;  // 0: empty; else gid + 1 | the hash's high 32 bits << 32
  uint64_t mask_ = 0;
  std::vector<int64_t> keys_;  // width_ words per group
  std::vector<uint64_t> hashes_;
  std::vector<uint64_t> batch_hashes_;  // find_or_insert's scratch
  size_t count_ = 0;
};

}  // namespace raydb::exec
