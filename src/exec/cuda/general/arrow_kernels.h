#pragma once
// Kernels that write a general-path column (int128 values + NULL bytes) in Arrow's
// layouts (arrow_columns.h uses them). Plain pointers only, so nvcc sees no C++20 header.
#include <cuda_runtime.h>

#include <cstdint>

namespace raydb::exec::cuda::general {

// How a value becomes its Arrow payload.
enum class ArrowValueMode : int {
  kLow32,    // int32: INTEGER, DATE
  kLow64,    // int64: BIGINT, TIMESTAMP; DOUBLE (the low word holds the double's bits)
  kSext64,   // int128 from the low 64 bits, sign-extended: DECIMAL(p<=18) as decimal128
  kFull128,  // int128 as is: HUGEINT, DECIMAL(p>18)
  kBits,     // one bit per row, set when the value is not 0: BOOLEAN
};

// Writes n payloads of `mode` to `out` (kBits: (n+7)/8 bytes, LSB first).
void launch_arrow_values(const __int128* v, uint64_t n, ArrowValueMode mode, void* out, cudaStream_t s);
// Arrow's validity bitmap of n rows: bit i set when nulls[i] is 0 ((n+7)/8 bytes).
void launch_validity_bits(const uint8_t* nulls, uint64_t n, uint8_t* out, cudaStream_t s);

}  // namespace raydb::exec::cuda::general
