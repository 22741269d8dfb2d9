#pragma once
// RAYDB_HOST_DEVICE marks small functions compiled for both the CPU and, under nvcc,
// the GPU (ray-tracing mappings, exact double sums, hash mixing).
#if defined(__CUDACC__)
#define RAYDB_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define RAYDB_HOST_DEVICE inline
#endif
