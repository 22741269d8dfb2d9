#pragma once
// Fresh pages of a large buffer faulted in on all threads before one thread writes
// them. A std::vector's resize zero-fills on one thread, and into fresh memory most of
// that time is page faults: 10.7 MB (a 1.3 M-group star block's key column), zeroed
// and then filled in parallel, took 5.3-5.5 ms on the 16-core GPU host, 1.5-1.7 ms
// with its pages populated first (0.7 for the populate in parallel, 0.75 for the zero
// fill into present pages). Where the payload type is fixed (exec::Vector, the API's
// result columns) this keeps the zeroed contents and moves the faults to all threads.
#include <cstddef>
#include <cstdint>

namespace raydb {

// Below this many bytes a resize is left as it is (few pages; a parallel region costs more).
constexpr uint64_t kPrefaultMinBytes = uint64_t(1) << 20;

// Populates the page tables of [p, p + bytes) for writing (Linux MADV_POPULATE_WRITE),
// in slices on all threads; contents are unchanged. Advice only: a kernel without it,
// or memory it refuses, is left to fault on first write as before.
void prefault_pages(void* p, uint64_t bytes);

// When v must grow by at least kPrefaultMinBytes to hold n elements: v.reserve(n) (room
// for exactly n) and the pages past its elements populated in parallel, before a loop
// appends to it or a resize zeroes them on one thread. Otherwise nothing (smaller
// growth keeps the vector's own geometric steps).
template <typename V>
void prefaulted_reserve(V& v, size_t n) {
  using T = typename V::value_type;
  if (n <= v.capacity() || uint64_t(n - v.size()) * sizeof(T) < kPrefaultMinBytes) return;
  v.reserve(n);
  prefault_pages(v.data() + v.size(), uint64_t(n - v.size()) * sizeof(T));
}

// v resized to n elements, the new ones value-initialized (zero) exactly as
// v.resize(n) does; when that reallocates for at least kPrefaultMinBytes more, the new
// storage's pages are populated in parallel first.
template <typename V>
void zeroed_resize(V& v, size_t n) {
  prefaulted_reserve(v, n);
  v.resize(n);
}

}  // namespace raydb
