#pragma once
// Copies of large host arrays on all threads, in chunks. Into fresh memory each thread
// then first-touches its own pages: one thread writing a result block of 10-20 MB into
// a new std::vector (assign) cost as much as the decode step that reads it.
#include <cstddef>
#include <cstdint>

#include "common/default_init_allocator.h"

namespace raydb {

// dst[0, bytes) = src[0, bytes); the ranges must not overlap. Below one chunk
// (256 KiB) on the calling thread.
void parallel_copy(void* dst, const void* src, uint64_t bytes);

// src[0, n) in a new vector written only by the parallel copy (no zero fill first).
template <typename T>
FillVector<T> parallel_copied(const T* src, size_t n) {
  FillVector<T> out;
  out.resize(n);
  parallel_copy(out.data(), src, uint64_t(n) * sizeof(T));
  return out;
}

}  // namespace raydb
