#pragma once
// The words of a star predicate's host bitmap (fact_set.h), left unwritten when sized
// without a value: a builder that writes every word itself (key_set_fact_set.cpp) then
// touches a 15 MB bitmap's fresh pages first in its own threads, instead of after one
// thread zeroed them all (the first touch of 15 MB of fresh pages took 5-9 ms on a
// 2-core VM; huge pages by madvise took 0.8 ms when free, but up to 75 ms where the
// kernel compacted memory for them first, so they are not asked for).
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace raydb::exec::cuda {

template <typename T>
struct UninitializedAllocator {
  using value_type = T;
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p); }
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialized: no store
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const UninitializedAllocator<U>&) const noexcept {
    return true;
  }
};

using BitWords = std::vector<uint32_t, UninitializedAllocator<uint32_t>>;

}  // namespace raydb::exec::cuda
