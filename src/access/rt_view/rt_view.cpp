// Building an RT view on a tracer: encode rows into triangles (view_grid.h) and the
// arrays the hit program reads, build the structure, upload.
#include "access/rt_view/rt_view.h"

#include "common/error.h"
#include "common/timer.h"
#include "rt/mapping/view_grid.h"

namespace raydb::rtview {

namespace mp = rt::mapping;

RtView::RtView(std::shared_ptr<const ViewRows> rows, rt::Tracer& tracer, const LayoutOptions& options)
    : rows_(std::move(rows)), tracer_(tracer) {
  const ViewRows& v = *rows_;
  if (v.rows >= (uint64_t{1} << 31)) fail(ErrorKind::kInvalidInput, "rt view: 2^31 rows or more");
  Timer t;
  layout_ = plan_layout(v, options);
  std::vector<rt::Triangle> tris;
  if (layout_.merged) encode_merged(tris);
  else encode(tris);
  stats_.encode_ms = t.elapsed_ms();
  Timer b;
  rt::BuildOptions bo;
  bo.compact = true;
  accel_ = tracer_.build(rt::GeometryInput::of_triangles(tris), bo);
  stats_.bvh_ms = b.elapsed_ms();
  stats_.rows = v.rows;
  stats_.primitives = tris.size();
  stats_.groups = v.group_count;
  stats_.bvh_bytes = accel_->memory_bytes();
  stats_.array_bytes = array_bytes();
  // Host: the view's rows, plus what encoding added (X words, u32 side arrays, merged
  // arrays; int64 side and code arrays are the rows' own), plus a CPU tracer's structure.
  stats_.host_bytes = v.host_bytes() + xwords_.size() * 4 + (layout_.merged ? stats_.array_bytes : 0) +
                      (tracer_.on_gpu() ? 0 : stats_.bvh_bytes);
  for (const auto& s : side_u32_) stats_.host_bytes += s.size() * 4;
  stats_.device_bytes = tracer_.on_gpu() ? stats_.array_bytes + stats_.bvh_bytes : 0;
  stats_.layout = layout_.describe();
}

RtView::~RtView() = default;

// Row r: z = sum of its Z digits' codes times their multipliers, x = lane * D + packed
// inputs (all < 2^21 by the layout's budget), y = its group id.
void RtView::encode(std::vector<rt::Triangle>& tris) {
  const ViewRows& v = *rows_;
  const ViewLayout& L = layout_;
  const uint32_t D = 1u << L.x_bits;
  const bool packed = L.x_bits > 0;
  tris.resize(v.rows);
  if (packed) xwords_.assign(v.rows, 0);
  side_u32_.assign(L.inputs.size(), {});
  for (size_t i = 0; i < L.inputs.size(); ++i) {
    const InputPlacement& p = L.inputs[i];
    if (!p.in_x && p.u32) {
      side_u32_[i].resize(v.rows);
      for (uint64_t r = 0; r < v.rows; ++r) side_u32_[i][r] = static_cast<uint32_t>(v.inputs[i][r] - p.base);
    }
  }
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < static_cast<int64_t>(v.rows); ++r) {
    uint32_t z = 0;
    for (size_t d = 0; d < L.z_attrs.size(); ++d) z += v.filter_codes[L.z_attrs[d]][r] * L.z_div[d];
    uint32_t w = 0;
    for (size_t i = 0; i < L.inputs.size(); ++i)
      if (L.inputs[i].in_x) w |= static_cast<uint32_t>(v.inputs[i][r] - L.inputs[i].base) << L.inputs[i].shift;
    if (packed) xwords_[r] = w;
    const uint32_t lane = static_cast<uint32_t>(r % L.lanes);
    tris[r] = mp::view_triangle(lane * D + w, v.group_ids[r], z, D);
  }
  if (packed) xwords_buf_ = tracer_.upload(xwords_.data(), xwords_.size() * 4);
  input_bufs_.resize(L.inputs.size());
  for (size_t i = 0; i < L.inputs.size(); ++i) {
    if (L.inputs[i].in_x) continue;
    input_bufs_[i] = L.inputs[i].u32 ? tracer_.upload(side_u32_[i].data(), side_u32_[i].size() * 4)
                                     : tracer_.upload(v.inputs[i].data(), v.inputs[i].size() * 8);
  }
  for (uint32_t a : L.residual)
    residual_bufs_.push_back(tracer_.upload(v.filter_codes[a].data(), v.filter_codes[a].size() * 4));
}

// Merged primitives (view_primitives.h): primitive p is a triangle of its tuple's z and
// group at x = lane * D with D = 1 (nothing packed), lane = p mod L; its rows' count,
// sums and extremes and its residual codes are per-primitive arrays.
void RtView::encode_merged(std::vector<rt::Triangle>& tris) {
  const ViewRows& v = *rows_;
  const ViewLayout& L = layout_;
  std::optional<MergedRows> m = merge_rows(v, L.primitives);
  if (!m || m->primitives != L.primitives)  // plan_layout counted the same tuples
    fail(ErrorKind::kInternal, "rt view: merged primitives differ from the layout's count");
  merged_ = std::move(*m);
  const uint32_t D = 1u << L.x_bits;
  tris.resize(merged_.primitives);
#pragma omp parallel for schedule(static)
  for (int64_t p = 0; p < static_cast<int64_t>(merged_.primitives); ++p) {
    uint32_t z = 0;
    for (size_t d = 0; d < L.z_attrs.size(); ++d) z += merged_.filter_codes[L.z_attrs[d]][p] * L.z_div[d];
    const uint32_t lane = static_cast<uint32_t>(p % L.lanes);
    tris[p] = mp::view_triangle(lane * D, merged_.group_ids[p], z, D);
  }
  counts_buf_ = tracer_.upload(merged_.counts.data(), merged_.counts.size() * 4);
  for (size_t i = 0; i < v.inputs.size(); ++i)
    for (const auto* a : {&merged_.sum[i], &merged_.min[i], &merged_.max[i]})
      merged_bufs_.push_back(tracer_.upload(a->data(), a->size() * 8));
  input_bufs_.resize(L.inputs.size());
  for (uint32_t a : L.residual)
    residual_bufs_.push_back(tracer_.upload(merged_.filter_codes[a].data(), merged_.filter_codes[a].size() * 4));
}

size_t RtView::array_bytes() const {
  size_t n = xwords_buf_ ? xwords_buf_->bytes() : 0;
  if (counts_buf_) n += counts_buf_->bytes();
  for (const auto* bufs : {&input_bufs_, &residual_bufs_, &merged_bufs_})
    for (const auto& b : *bufs)
      if (b) n += b->bytes();
  return n;
}

}  // namespace raydb::rtview
