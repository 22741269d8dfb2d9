// What any CUDA process pays before its first copy on this machine (docs/benchmarks/gpu-session18.md):
// the driver's start (cuInit), the primary context (cudaFree(0)) and one 16 MiB pinned buffer.
// Not part of the build:  nvcc -O2 -o ctx_probe tools/cuda_context_probe.cu -lcuda && ./ctx_probe
#include <cuda.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
int main() {
  using C = std::chrono::steady_clock;
  auto ms = [](C::time_point a, C::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  auto t0 = C::now();
  CUresult r = cuInit(0);
  auto t1 = C::now();
  int n = 0;
  cudaGetDeviceCount(&n);
  auto t2 = C::now();
  cudaSetDevice(0);
  cudaFree(nullptr);
  auto t3 = C::now();
  void* p = nullptr;
  cudaMallocHost(&p, 16 << 20);
  auto t4 = C::now();
  std::printf("cuInit %.1f ms (rc %d), device count %.1f ms, context %.1f ms, pinned 16MiB %.1f ms, total %.1f ms\n",
              ms(t0, t1), int(r), ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t0, t4));
  return 0;
}
