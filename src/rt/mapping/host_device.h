#pragma once
// RAYDB_HOST_DEVICE marks code that both tracers run: the Embree tracer compiles it
// for the CPU, the OptiX tracer's device programs (nvcc -> OptiX-IR) for the GPU.
// Mapping headers include only this file, <cstdint> and each other, so they stay
// free of host-only dependencies (no STL containers, no exceptions).
#include <cstdint>

#include "common/host_device.h"
