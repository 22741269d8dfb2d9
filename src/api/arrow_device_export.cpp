// A query result as an ArrowDeviceArray (raydb/arrow_export.h): the host export as is
// for the CPU; for CUDA the columns the backend left on the device, or else the host
// export's buffers copied once into CUDA device memory that the exported array owns.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "exec/core/device_result_columns.h"
#include "exec/cuda/cuda_device.h"
#include "exec/cuda/device_copies.h"
#include "raydb/arrow_export.h"

namespace raydb {

namespace {

// What every node of one CUDA export shares: the device copies and the host export
// they were copied from (kept until the copies are surely done: the last node's release).
struct DeviceExport {
  ArrowArray host{};
  std::unique_ptr<exec::cuda::DeviceCopies> copies;
  ~DeviceExport() {
    if (host.release) host.release(&host);
  }
};

// One ArrowArray of the device tree. Each node holds what owns the device memory (the
// shared DeviceExport, or the result holding its device columns), so a child a
// consumer moved out keeps the memory alive after its parent is released.
struct DeviceNode {
  std::shared_ptr<const void> keep;
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_ptrs;
};

void release_device_node(ArrowArray* a) {
  if (!a->release) return;
  for (int64_t i = 0; i < a->n_children; i++)
    if (a->children[i]->release) a->children[i]->release(a->children[i]);
  delete static_cast<DeviceNode*>(a->private_data);
  a->release = nullptr;
}

// Byte sizes of the buffers of an array of `format`, for the layouts export_arrow writes.
std::vector<uint64_t> buffer_sizes(const std::string& format, const ArrowArray& a) {
  const uint64_t n = uint64_t(a.offset + a.length);
  std::vector<uint64_t> sizes(size_t(a.n_buffers), 0);
  if (a.n_buffers > 0) sizes[0] = (n + 7) / 8;  // validity
  if (a.n_buffers < 2) return sizes;
  if (format == "b") {
    sizes[1] = (n + 7) / 8;
  } else if (format == "i" || format == "tdD") {
    sizes[1] = n * 4;
  } else if (format == "l" || format == "g" || format.rfind("ts", 0) == 0) {
    sizes[1] = n * 8;
  } else if (format.rfind("d:", 0) == 0) {
    sizes[1] = n * 16;
  } else if (format == "u" || format == "U") {
    const bool large = format == "U";
    sizes[1] = (n + 1) * (large ? 8 : 4);
    sizes[2] = large ? uint64_t(static_cast<const int64_t*>(a.buffers[1])[n])
                     : uint64_t(static_cast<const int32_t*>(a.buffers[1])[n]);
  } else {
    fail(ErrorKind::kInternal, "Arrow device export: no buffer layout for format '{}'", format);
  }
  return sizes;
}

// The host buffers of the tree in depth-first order (absent ones skipped).
void gather(const ArrowSchema& s, const ArrowArray& a, std::vector<exec::cuda::HostRange>& out) {
  const std::vector<uint64_t> sizes = buffer_sizes(s.format, a);
  for (int64_t b = 0; b < a.n_buffers; b++)
    if (a.buffers[b]) out.push_back({a.buffers[b], sizes[size_t(b)]});
  for (int64_t i = 0; i < a.n_children; i++) gather(*s.children[i], *a.children[i], out);
}

// Hands `node` (its buffers and children filled) to `d`, which releases it.
void publish(std::unique_ptr<DeviceNode> node, int64_t length, int64_t null_count, ArrowArray* d) {
  *d = ArrowArray{};
  d->length = length;
  d->null_count = null_count;
  d->n_buffers = int64_t(node->buffers.size());
  d->n_children = int64_t(node->children.size());
  d->buffers = node->buffers.empty() ? nullptr : node->buffers.data();
  for (auto& c : node->children) node->child_ptrs.push_back(&c);
  d->children = node->child_ptrs.empty() ? nullptr : node->child_ptrs.data();
  d->release = release_device_node;
  d->private_data = node.release();
}

// The device twin of `h`, taking the device copies in gather's order.
void mirror(const ArrowArray& h, const std::shared_ptr<DeviceExport>& x, size_t& next, ArrowArray* d) {
  auto node = std::make_unique<DeviceNode>();
  node->keep = x;
  for (int64_t b = 0; b < h.n_buffers; b++)
    node->buffers.push_back(h.buffers[b] ? x->copies->device_pointer(next++) : nullptr);
  node->children.resize(size_t(h.n_children));
  for (int64_t i = 0; i < h.n_children; i++) mirror(*h.children[i], x, next, &node->children[size_t(i)]);
  publish(std::move(node), h.length, h.null_count, d);
}

// Whether the result's own device columns (QueryOptions::keep_result_on_device) cover it.
bool has_device_columns(const QueryResult& r) {
  const DeviceResultColumns* dc = r.device_columns.get();
  if (!dc || dc->columns.size() != r.column_count() || dc->rows != int64_t(r.row_count())) return false;
  for (size_t c = 0; c < r.column_count(); c++)
    if (r.column_type(c).id == TypeId::kVarchar || r.column_type(c).id == TypeId::kNull) return false;
  return true;
}

// The batch over the result's device columns: nothing is copied; the array holds the result.
void export_device_columns(const std::shared_ptr<const QueryResult>& result, ArrowSchema* schema,
                           ArrowDeviceArray* array) {
  const DeviceResultColumns& dc = *result->device_columns;
  auto root = std::make_unique<DeviceNode>();
  root->keep = result;
  root->buffers.push_back(nullptr);  // a struct's validity: none
  root->children.resize(result->column_count());
  for (size_t c = 0; c < result->column_count(); c++) {
    const std::vector<uint8_t>& nulls = result->columns()[c].nulls;
    const int64_t null_count = int64_t(std::count_if(nulls.begin(), nulls.end(), [](uint8_t x) { return x != 0; }));
    auto node = std::make_unique<DeviceNode>();
    node->keep = result;
    node->buffers = {null_count ? dc.columns[c].validity : nullptr, dc.columns[c].values};
    publish(std::move(node), int64_t(result->row_count()), null_count, &root->children[c]);
  }
  ArrowSchema s;
  export_arrow_schema(*result, &s);
  *array = ArrowDeviceArray{};
  publish(std::move(root), int64_t(result->row_count()), 0, &array->array);
  array->device_id = dc.device_id;
  array->device_type = ARROW_DEVICE_CUDA;
  array->sync_event = dc.sync_event;
  *schema = s;
}

void export_to_cuda(const std::shared_ptr<const QueryResult>& result, ArrowSchema* schema, ArrowDeviceArray* array) {
  if (has_device_columns(*result)) return export_device_columns(result, schema, array);
  auto x = std::make_shared<DeviceExport>();
  ArrowSchema s;
  export_arrow(result, &s, &x->host);
  try {
    std::vector<exec::cuda::HostRange> ranges;
    gather(s, x->host, ranges);
    x->copies = exec::cuda::copy_to_device(ranges);
    *array = ArrowDeviceArray{};
    size_t next = 0;
    mirror(x->host, x, next, &array->array);
    array->device_id = x->copies->device_id();
    array->device_type = ARROW_DEVICE_CUDA;
    array->sync_event = x->copies->sync_event();
  } catch (...) {
    s.release(&s);
    throw;
  }
  *schema = s;
}

}  // namespace

std::string arrow_device_unavailable(ArrowDeviceType device) {
  if (device == ARROW_DEVICE_CPU) return "";
  if (device == ARROW_DEVICE_CUDA)
    return exec::cuda::device_count() > 0 ? "" : "no CUDA device: " + exec::cuda::no_device_reason();
  return fmt::format("Arrow device type {} is not supported (raydb exports to the CPU, 1, and CUDA, 2)", device);
}

void export_arrow_device(const std::shared_ptr<const QueryResult>& result, ArrowDeviceType device,
                         ArrowSchema* schema, ArrowDeviceArray* array) {
  const std::string why = arrow_device_unavailable(device);
  if (!why.empty()) fail(ErrorKind::kInvalidInput, "Arrow device export: {}", why);
  if (device == ARROW_DEVICE_CUDA) return export_to_cuda(result, schema, array);
  *array = ArrowDeviceArray{};
  export_arrow(result, schema, &array->array);
  array->device_id = -1;  // the CPU is one device
  array->device_type = ARROW_DEVICE_CPU;
}

}  // namespace raydb
