// The OptiX tracer when this binary was built without it (no OptiX headers or no
// nvcc at configure time): creating one fails with one line saying why.
#include "common/error.h"
#include "rt/tracer.h"

#ifndef RAYDB_OPTIX_MISSING
#define RAYDB_OPTIX_MISSING "not configured"
#endif

namespace raydb::rt {

const OptixDeviceInfo& optix_device_info() {
  static const OptixDeviceInfo info = [] {
    OptixDeviceInfo i;
    i.reason = "OptiX backend not built (" RAYDB_OPTIX_MISSING ")";
    return i;
  }();
  return info;
}

std::unique_ptr<Tracer> make_optix_tracer() {
  fail(ErrorKind::kNotImplemented, "optix tracer: {}", optix_device_info().reason);
}
std::unique_ptr<Tracer> make_optix_tracer_on(gpu::DeviceMemory&) { return make_optix_tracer(); }

}  // namespace raydb::rt
