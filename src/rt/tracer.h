#pragma once
// The backend-neutral ray-tracing API (OWL-small): geometry in, acceleration
// structures out, rays traced against them with per-method hit handling.
//
//   Tracer        one backend instance (Embree device, OptiX context)
//   Accel         an acceleration structure: a geometry structure over triangles or
//                 custom boxes, or an instance structure over several of them
//   trace         closest(accel, ray) for closest-hit methods; all_hits(accel, ray,
//                 sink) for any-hit methods (the sink sees every hit, may stop early)
//
// Mappings (rt/mapping/) are written against a tiny "trace context" concept with
// closest()/all_hits() so the same program runs on this host API (Embree) and as
// OptiX device programs, where closest/all_hits become optixTrace with closest-hit
// and any-hit programs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "rt/mapping/geometry.h"

namespace raydb::rt {

// The intersection program of a custom primitive: true and *t when ray hits
// primitive `primitive` strictly inside (tmin, tmax).
using IntersectFn = bool (*)(const void* user, uint32_t primitive, const Ray& ray, float* t);

struct GeometryInput {
  enum class Kind { kTriangles, kCustom };
  Kind kind = Kind::kTriangles;
  std::span<const Triangle> triangles;  // kTriangles: primitive i = triangles[i]
  std::span<const Aabb> boxes;          // kCustom: primitive i bounded by boxes[i]
  IntersectFn intersect = nullptr;      // kCustom
  const void* user = nullptr;           // kCustom: passed to intersect; must outlive the Accel

  static GeometryInput of_triangles(std::span<const Triangle> t) {
    GeometryInput g;
    g.triangles = t;
    return g;
  }
  static GeometryInput of_custom(std::span<const Aabb> b, IntersectFn fn, const void* user) {
    GeometryInput g;
    g.kind = Kind::kCustom;
    g.boxes = b;
    g.intersect = fn;
    g.user = user;
    return g;
  }
  size_t size() const { return kind == Kind::kTriangles ? triangles.size() : boxes.size(); }
};

struct BuildOptions {
  bool compact = true;     // OptiX: optixAccelCompact; Embree: RTC_SCENE_FLAG_COMPACT
  bool fast_trace = true;  // prefer trace speed over build speed
};

class Accel {
 public:
  virtual ~Accel() = default;
  virtual size_t primitive_count() const = 0;  // instances for an instance structure
  virtual size_t memory_bytes() const = 0;     // resident bytes after the build
};

class HitSink {
 public:
  virtual ~HitSink() = default;
  virtual bool on_hit(const Hit& hit) = 0;  // false stops the ray's traversal
};

struct TracerMemory {
  size_t current_bytes = 0;
  size_t peak_bytes = 0;
};

class Tracer {
 public:
  virtual ~Tracer() = default;
  virtual std::string name() const = 0;

  // Input buffers may be freed after build returns (the backend keeps what it needs),
  // except a custom input's `user` data, which its intersection program reads.
  virtual std::unique_ptr<Accel> build(const GeometryInput& input, const BuildOptions& options) = 0;
  // Instance i = children[i], identity transform; hits report instance = i. Children
  // must outlive the instance structure.
  virtual std::unique_ptr<Accel> build_instances(std::span<const Accel* const> children) = 0;

  virtual Hit closest(const Accel& accel, const Ray& ray) const = 0;
  virtual void all_hits(const Accel& accel, const Ray& ray, HitSink& sink) const = 0;

  virtual TracerMemory memory() const = 0;
  virtual void reset_peak_memory() = 0;
};

// Embree 3 on the CPU; always available (CI runs every RT method through it).
std::unique_ptr<Tracer> make_embree_tracer();

}  // namespace raydb::rt
