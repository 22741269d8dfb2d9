// The Embree 3 tracer: runs the shared mappings on CPU cores. Rays are traced one at
// a time (rtcIntersect1) from as many host threads as the caller uses; any-hit
// handling goes through a geometry intersect-filter function that forwards each hit
// to the caller's HitSink and rejects it, so traversal continues (OptiX's
// optixIgnoreIntersection).
#include <embree3/rtcore.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "common/error.h"
#include "common/timer.h"
#include "rt/mapping/view_aggregate.h"
#include "rt/tracer.h"

namespace raydb::rt {
namespace {

struct MemoryCounter {
  std::atomic<int64_t> current{0};
  std::atomic<int64_t> peak{0};
};

bool on_memory(void* user, ssize_t bytes, bool /*post*/) {
  auto* m = static_cast<MemoryCounter*>(user);
  const int64_t now = m->current.fetch_add(bytes) + bytes;
  int64_t p = m->peak.load();
  while (now > p && !m->peak.compare_exchange_weak(p, now)) {
  }
  return true;
}

// The intersect context carries the sink of an all_hits call (nullptr for closest).
struct Context {
  RTCIntersectContext base;
  HitSink* sink = nullptr;
  bool stopped = false;
};

uint32_t instance_of(unsigned id) { return id == RTC_INVALID_GEOMETRY_ID ? 0u : id; }

void filter_hit(const RTCFilterFunctionNArguments* args) {
  auto* ctx = reinterpret_cast<Context*>(args->context);
  if (ctx->sink == nullptr) return;  // closest-hit: accept, Embree keeps the nearest
  if (ctx->stopped) {
    args->valid[0] = 0;
    return;
  }
  Hit h;
  h.primitive = RTCHitN_primID(args->hit, args->N, 0);
  h.instance = instance_of(RTCHitN_instID(args->hit, args->N, 0, 0));
  h.t = RTCRayN_tfar(args->ray, args->N, 0);
  if (ctx->sink->on_hit(h)) {
    args->valid[0] = 0;  // ignore: keep traversing, tfar unchanged
  } else {
    ctx->stopped = true;  // accept this one; later candidates are rejected above
  }
}

struct CustomData {
  std::vector<Aabb> boxes;  // Embree asks for bounds during the build only, but keep
  IntersectFn intersect;    // them: rebuilds and refits would need them again
  const void* user;
};

void custom_bounds(const RTCBoundsFunctionArguments* args) {
  const auto* d = static_cast<const CustomData*>(args->geometryUserPtr);
  const Aabb& b = d->boxes[args->primID];
  RTCBounds* o = args->bounds_o;
  o->lower_x = b.lo.x;
  o->lower_y = b.lo.y;
  o->lower_z = b.lo.z;
  o->upper_x = b.hi.x;
  o->upper_y = b.hi.y;
  o->upper_z = b.hi.z;
}

void custom_intersect(const RTCIntersectFunctionNArguments* args) {
  if (!args->valid[0]) return;
  const auto* d = static_cast<const CustomData*>(args->geometryUserPtr);
  auto* rh = reinterpret_cast<RTCRayHit*>(args->rayhit);  // N == 1: rtcIntersect1 only
  Ray r{{rh->ray.org_x, rh->ray.org_y, rh->ray.org_z}, rh->ray.tnear,
        {rh->ray.dir_x, rh->ray.dir_y, rh->ray.dir_z}, rh->ray.tfar};
  float t = 0;
  if (!d->intersect(d->user, args->primID, r, &t)) return;
  RTCHit candidate{};
  candidate.Ng_x = -r.dir.x;
  candidate.Ng_y = -r.dir.y;
  candidate.Ng_z = -r.dir.z;
  candidate.primID = args->primID;
  candidate.geomID = args->geomID;
  candidate.instID[0] = args->context->instID[0];
  const float old_t = rh->ray.tfar;
  rh->ray.tfar = t;
  int valid = -1;
  RTCFilterFunctionNArguments fargs{&valid, args->geometryUserPtr, args->context,
                                    reinterpret_cast<RTCRayN*>(&rh->ray), reinterpret_cast<RTCHitN*>(&candidate), 1};
  rtcFilterIntersection(args, &fargs);
  if (valid == -1) {
    rh->hit = candidate;
  } else {
    rh->ray.tfar = old_t;
  }
}

class EmbreeAccel final : public Accel {
 public:
  EmbreeAccel(RTCScene scene, size_t count, size_t bytes, std::unique_ptr<CustomData> custom)
      : scene_(scene), count_(count), bytes_(bytes), custom_(std::move(custom)) {}
  ~EmbreeAccel() override { rtcReleaseScene(scene_); }
  size_t primitive_count() const override { return count_; }
  size_t memory_bytes() const override { return bytes_; }
  RTCScene scene() const { return scene_; }

 private:
  RTCScene scene_;
  size_t count_;
  size_t bytes_;
  std::unique_ptr<CustomData> custom_;
};

// A view of host memory, or (host == nullptr) memory of its own.
class HostBuffer final : public Buffer {
 public:
  HostBuffer(void* host, size_t bytes) : bytes_(bytes) {
    if (host == nullptr) {
      own_.resize((bytes + 7) / 8);
      host = own_.data();
    }
    p_ = host;
  }
  void* address() const override { return p_; }
  size_t bytes() const override { return bytes_; }

 private:
  void* p_;
  size_t bytes_;
  std::vector<uint64_t> own_;
};

// The trace context of the mapping programs on the CPU: one rtcIntersect1 per ray.
template <typename T>
struct HostTraceContext {
  const T& tracer;
  const Accel* slots[3];

  Hit closest(mapping::Slot s, const Ray& r) const {
    const Accel* a = slots[static_cast<int>(s)];
    return a == nullptr ? Hit{} : tracer.closest(*a, r);
  }
  // Embree has no cheaper "any single hit" query than the closest one.
  Hit first_hit(mapping::Slot s, const Ray& r) const { return closest(s, r); }
  template <typename A>
  void all_hits(mapping::Slot s, const Ray& r, A& action) const {
    const Accel* a = slots[static_cast<int>(s)];
    if (a == nullptr) return;
    struct Sink final : HitSink {
      explicit Sink(A& act) : act(act) {}
      bool on_hit(const Hit& h) override { return act(h); }
      A& act;
    } sink(action);
    tracer.all_hits(*a, r, sink);
  }
};

class EmbreeTracer final : public Tracer {
 public:
  EmbreeTracer() {
    device_ = rtcNewDevice(nullptr);
    if (device_ == nullptr) fail(ErrorKind::kInternal, "embree: cannot create a device");
    rtcSetDeviceMemoryMonitorFunction(device_, on_memory, &memory_);
  }
  ~EmbreeTracer() override { rtcReleaseDevice(device_); }
  std::string name() const override { return "embree"; }

  std::unique_ptr<Accel> build(const GeometryInput& in, const BuildOptions& options) override {
    if (in.device_resident) fail(ErrorKind::kInvalidInput, "embree: geometry in device memory (a GPU tracer's input)");
    const int64_t before = memory_.current.load();
    RTCScene scene = rtcNewScene(device_);
    int flags = RTC_SCENE_FLAG_ROBUST;  // conservative traversal: never skip a box on rounding
    if (options.compact) flags |= RTC_SCENE_FLAG_COMPACT;
    rtcSetSceneFlags(scene, static_cast<RTCSceneFlags>(flags));
    rtcSetSceneBuildQuality(scene, options.fast_trace ? RTC_BUILD_QUALITY_MEDIUM : RTC_BUILD_QUALITY_LOW);
    std::unique_ptr<CustomData> custom;
    const size_t n = in.size();
    if (n > 0) {
      RTCGeometry g;
      if (in.kind == GeometryInput::Kind::kTriangles) {
        g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
        // Embree has no non-indexed input: vertices 3i..3i+2 form triangle i.
        auto* v = static_cast<float*>(
            rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), 3 * n));
        auto* idx = static_cast<uint32_t*>(
            rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(uint32_t), n));
        if (v == nullptr || idx == nullptr) fail(ErrorKind::kOutOfMemory, "embree: cannot allocate {} triangles", n);
        for (size_t i = 0; i < n; ++i) {
          const Triangle& t = in.triangles[i];
          const float xyz[9] = {t.a.x, t.a.y, t.a.z, t.b.x, t.b.y, t.b.z, t.c.x, t.c.y, t.c.z};
          for (int k = 0; k < 9; ++k) v[9 * i + k] = xyz[k];
          idx[3 * i] = static_cast<uint32_t>(3 * i);
          idx[3 * i + 1] = static_cast<uint32_t>(3 * i + 1);
          idx[3 * i + 2] = static_cast<uint32_t>(3 * i + 2);
        }
      } else {
        g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_USER);
        custom = std::make_unique<CustomData>(
            CustomData{std::vector<Aabb>(in.boxes.begin(), in.boxes.end()), in.intersect, in.user});
        rtcSetGeometryUserPrimitiveCount(g, static_cast<unsigned>(n));
        rtcSetGeometryUserData(g, custom.get());
        rtcSetGeometryBoundsFunction(g, custom_bounds, nullptr);
        rtcSetGeometryIntersectFunction(g, custom_intersect);
      }
      rtcSetGeometryIntersectFilterFunction(g, filter_hit);
      rtcCommitGeometry(g);
      rtcAttachGeometry(scene, g);
      rtcReleaseGeometry(g);
    }
    rtcCommitScene(scene);
    check("build");
    const int64_t bytes = memory_.current.load() - before;
    return std::make_unique<EmbreeAccel>(scene, n, static_cast<size_t>(bytes > 0 ? bytes : 0), std::move(custom));
  }

  std::unique_ptr<Accel> build_instances(std::span<const Accel* const> children) override {
    const int64_t before = memory_.current.load();
    RTCScene scene = rtcNewScene(device_);
    rtcSetSceneFlags(scene, RTC_SCENE_FLAG_ROBUST);
    // Identity transform: Embree maps the ray into instance space by x' = 1*x + 0*y +
    // 0*z + 0, which is exact, so instancing keeps every mapping's exactness.
    const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    for (size_t i = 0; i < children.size(); ++i) {
      RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_INSTANCE);
      rtcSetGeometryInstancedScene(g, static_cast<const EmbreeAccel*>(children[i])->scene());
      rtcSetGeometryTransform(g, 0, RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR, identity);
      rtcCommitGeometry(g);
      rtcAttachGeometryByID(scene, g, static_cast<unsigned>(i));
      rtcReleaseGeometry(g);
    }
    rtcCommitScene(scene);
    check("instance build");
    const int64_t bytes = memory_.current.load() - before;
    return std::make_unique<EmbreeAccel>(scene, children.size(), static_cast<size_t>(bytes > 0 ? bytes : 0),
                                         nullptr);
  }

  Hit closest(const Accel& accel, const Ray& ray) const override {
    Context ctx;
    rtcInitIntersectContext(&ctx.base);
    RTCRayHit rh = to_embree(ray);
    rtcIntersect1(static_cast<const EmbreeAccel&>(accel).scene(), &ctx.base, &rh);
    Hit h;
    if (rh.hit.geomID != RTC_INVALID_GEOMETRY_ID) {
      h.primitive = rh.hit.primID;
      h.instance = instance_of(rh.hit.instID[0]);
      h.t = rh.ray.tfar;
    }
    return h;
  }

  void all_hits(const Accel& accel, const Ray& ray, HitSink& sink) const override {
    Context ctx;
    rtcInitIntersectContext(&ctx.base);
    ctx.sink = &sink;
    RTCRayHit rh = to_embree(ray);
    rtcIntersect1(static_cast<const EmbreeAccel&>(accel).scene(), &ctx.base, &rh);
  }

  std::unique_ptr<Buffer> buffer(void* host, size_t bytes, Transfer) override {
    return std::make_unique<HostBuffer>(host, bytes);
  }
  void fetch(const Buffer&) override {}  // launches wrote the host memory itself
  bool on_gpu() const override { return false; }
  double last_launch_ms() const override { return last_launch_ms_; }

  void launch(mapping::Program program, std::span<const Accel* const> slots, const void* params,
              size_t params_bytes, uint32_t n) override {
    if (slots.size() > 3) fail(ErrorKind::kInternal, "embree: a launch traces at most 3 structures");
    HostTraceContext<EmbreeTracer> tc{*this, {nullptr, nullptr, nullptr}};
    for (size_t s = 0; s < slots.size(); ++s) tc.slots[s] = slots[s];
    Timer timer;
    const int64_t items = n;
    switch (program) {
      case mapping::kViewAggregate: {  // RT views: rays differ widely in work
        if (params_bytes != sizeof(mapping::ViewAggregateParams)) fail(ErrorKind::kInternal, "embree: bad launch params");
        const auto& p = *static_cast<const mapping::ViewAggregateParams*>(params);
#pragma omp parallel for schedule(dynamic, 16)
        for (int64_t j = 0; j < items; ++j) mapping::view_aggregate(tc, p, static_cast<uint32_t>(j));
        break;
      }
      case mapping::Program::kKeyLookup: {
        if (params_bytes != sizeof(mapping::KeyLookupParams)) fail(ErrorKind::kInternal, "embree: bad launch params");
        const auto& p = *static_cast<const mapping::KeyLookupParams*>(params);
#pragma omp parallel for schedule(dynamic, 1024)
        for (int64_t j = 0; j < items; ++j) mapping::key_lookup(tc, p, static_cast<uint32_t>(j));
        break;
      }
      case mapping::Program::kBucketLookup: {
        if (params_bytes != sizeof(mapping::BucketLookupParams)) fail(ErrorKind::kInternal, "embree: bad launch params");
        const auto& p = *static_cast<const mapping::BucketLookupParams*>(params);
#pragma omp parallel for schedule(dynamic, 1024)
        for (int64_t j = 0; j < items; ++j) mapping::bucket_lookup(tc, p, static_cast<uint32_t>(j));
        break;
      }
      case mapping::Program::kScanRefine: {
        if (params_bytes != sizeof(mapping::ScanRefineParams)) fail(ErrorKind::kInternal, "embree: bad launch params");
        const auto& p = *static_cast<const mapping::ScanRefineParams*>(params);
#pragma omp parallel for schedule(dynamic, 256) if(items > 256)
        for (int64_t j = 0; j < items; ++j) mapping::scan_refine(tc, p, static_cast<uint32_t>(j));
        break;
      }
      case mapping::Program::kRays: {
        if (params_bytes != sizeof(mapping::RayBatchParams)) fail(ErrorKind::kInternal, "embree: bad launch params");
        const auto& p = *static_cast<const mapping::RayBatchParams*>(params);
#pragma omp parallel for schedule(dynamic, 1024)
        for (int64_t j = 0; j < items; ++j) mapping::trace_rays(tc, p, static_cast<uint32_t>(j));
        break;
      }
      default:
        fail(ErrorKind::kInternal, "embree: unknown program {}", static_cast<int>(program));
    }
    last_launch_ms_ = timer.elapsed_ms();
  }

  TracerMemory memory() const override {
    return TracerMemory{static_cast<size_t>(std::max<int64_t>(0, memory_.current.load())),
                        static_cast<size_t>(std::max<int64_t>(0, memory_.peak.load()))};
  }
  void reset_peak_memory() override { memory_.peak.store(memory_.current.load()); }

 private:
  static RTCRayHit to_embree(const Ray& r) {
    RTCRayHit rh{};
    rh.ray.org_x = r.origin.x;
    rh.ray.org_y = r.origin.y;
    rh.ray.org_z = r.origin.z;
    rh.ray.dir_x = r.dir.x;
    rh.ray.dir_y = r.dir.y;
    rh.ray.dir_z = r.dir.z;
    rh.ray.tnear = r.tmin;
    rh.ray.tfar = r.tmax;
    rh.ray.mask = 0xFFFFFFFFu;
    rh.ray.flags = 0;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    return rh;
  }
  void check(const char* what) const {
    const RTCError e = rtcGetDeviceError(device_);
    if (e == RTC_ERROR_OUT_OF_MEMORY) fail(ErrorKind::kOutOfMemory, "embree: out of memory during {}", what);
    if (e != RTC_ERROR_NONE) fail(ErrorKind::kInternal, "embree: error {} during {}", static_cast<int>(e), what);
  }

  RTCDevice device_;
  MemoryCounter memory_;
  double last_launch_ms_ = 0;
};

}  // namespace

std::unique_ptr<Tracer> make_embree_tracer() { return std::make_unique<EmbreeTracer>(); }

}  // namespace raydb::rt
