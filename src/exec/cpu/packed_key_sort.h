#pragma once
// A stable sort of join build keys (`width` 64-bit words per row, ordered as signed
// words left to right) that packs each row's words into one unsigned word, each word's
// offset from its minimum shifted past the bits of the words after it, and sorts the
// packed words by LSD radix passes of 11 bits. A comparison sort through an index
// permutation took most of a join build (1.5 M orders keys: ~80 ms on this machine's
// cores); the radix passes read and write arrays in order. Keys that need more than
// 64 bits together are left to the caller.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace raydb::exec {

class PackedKeySort {
 public:
  // Sorts the n rows of `keys`; false (nothing sorted) when they do not pack into 64 bits.
  bool sort(const int64_t* keys, size_t n, int width);
  // Input positions in key order; equal keys keep their input order.
  const std::vector<uint32_t>& order() const { return order_; }
  // The packed keys in sorted order: equal exactly when all their words are equal.
  const std::vector<uint64_t>& packed() const { return packed_; }
  // The words of a packed key.
  void unpack(uint64_t p, int64_t* words) const;

 private:
  bool pack(const int64_t* keys, size_t n);
  void radix_passes(int bits);

  int width_ = 1;
  std::vector<int64_t> min_;    // per word
  std::vector<int> shift_;      // per word: its offset's position in the packed word
  std::vector<uint64_t> mask_;  // per word: its offset's bits
  std::vector<uint64_t> packed_;
  std::vector<uint32_t> order_;
};

}  // namespace raydb::exec
