#pragma once
// An RT view ready to query on one tracer: the layout (view_layout.h), the triangles'
// acceleration structure and the per-row arrays the hit program reads (packed X words,
// side arrays, residual code arrays) as tracer buffers. query() runs a ViewRequest as
// one launch of mapping::kViewAggregate (chunked past 2^31 rays).
#include <memory>
#include <vector>

#include "access/rt_view/view_layout.h"
#include "access/rt_view/view_primitives.h"
#include "access/rt_view/view_request.h"
#include "access/rt_view/view_rows.h"
#include "rt/tracer.h"

namespace raydb::rtview {

struct ViewBuildStats {
  uint64_t rows = 0;
  uint64_t primitives = 0;   // triangles (rows, or merged tuples: view_primitives.h)
  uint32_t groups = 0;
  double encode_ms = 0;      // layout, triangles, arrays
  double bvh_ms = 0;         // the tracer's build (with compaction)
  size_t bvh_bytes = 0;      // compacted structure
  // X words, side arrays, code arrays, merged counts / sums / extremes the hit program
  // reads: the same on every tracer, so known without a GPU.
  size_t array_bytes = 0;
  size_t host_bytes = 0;     // view rows + encoded arrays (+ the structure on a CPU tracer)
  size_t device_bytes = 0;   // GPU tracer: arrays + structure; 0 on a CPU tracer
  std::string layout;        // ViewLayout::describe()
  double array_bytes_per_row() const { return rows ? double(array_bytes) / double(rows) : 0; }
  double bvh_bytes_per_row() const { return rows ? double(bvh_bytes) / double(rows) : 0; }
};

class RtView {
 public:
  RtView(std::shared_ptr<const ViewRows> rows, rt::Tracer& tracer, const LayoutOptions& options = {});
  ~RtView();
  RtView(const RtView&) = delete;
  RtView& operator=(const RtView&) = delete;

  ViewResult query(const ViewRequest& request) const;

  const ViewRows& rows() const { return *rows_; }
  const ViewLayout& layout() const { return layout_; }
  const ViewBuildStats& stats() const { return stats_; }
  rt::Tracer& tracer() const { return tracer_; }

 private:
  struct Query;  // one request's buffers and parameters (rt_view_query.cpp)
  void encode(std::vector<rt::Triangle>& tris);
  void encode_merged(std::vector<rt::Triangle>& tris);
  size_t array_bytes() const;

  std::shared_ptr<const ViewRows> rows_;
  rt::Tracer& tracer_;
  ViewLayout layout_;
  ViewBuildStats stats_;
  std::vector<uint32_t> xwords_;
  std::vector<std::vector<uint32_t>> side_u32_;  // per input (empty unless u32)
  MergedRows merged_;                            // layout_.merged: the primitives' arrays
  std::unique_ptr<rt::Accel> accel_;
  std::unique_ptr<rt::Buffer> xwords_buf_;
  std::vector<std::unique_ptr<rt::Buffer>> input_bufs_;     // per input (null when in X)
  std::vector<std::unique_ptr<rt::Buffer>> residual_bufs_;  // per layout_.residual
  std::unique_ptr<rt::Buffer> counts_buf_;                  // merged: rows per primitive
  std::vector<std::unique_ptr<rt::Buffer>> merged_bufs_;    // merged: sum, min, max per input
};

// Brute force over the view's rows (the tests' oracle; same result shape and order).
ViewResult evaluate_brute_force(const ViewRows& v, const ViewRequest& r);

}  // namespace raydb::rtview
