#pragma once
// RAYDB_HOST_DEVICE marks code that both tracers run: the Embree tracer compiles it
// for the CPU, the OptiX tracer's device programs (nvcc -> OptiX-IR) for the GPU.
// Mapping headers include only this file, <cstdint> and each other, so they stay
// free of host-only dependencies (no STL containers, no exceptions).
#include <cstdint>

#if defined(__CUDACC__)
#define RAYDB_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define RAYDB_HOST_DEVICE inline
#endif
