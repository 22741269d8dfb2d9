// CUDA results through the Arrow C Device Data Interface (raydb/arrow_export.h): the
// exported buffers are device memory of device 0 (cudaPointerGetAttributes), the
// sync_event is a CUDA event, and the values copied back equal the CPU backend's, cell
// by cell. Without a CUDA device (or a CUDA build) every test reports SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#if RAYDB_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include "exec/core/device_result_columns.h"
#include "exec/cuda/cuda_backend.h"
#include "raydb/arrow_export.h"
#include "support/arrow_batch_check.h"
#include "support/fixtures.h"
#include "support/result_rows.h"

namespace raydb::test {
namespace {

#define REQUIRE_GPU()                         \
  if (exec::cuda::device_count() == 0)        \
  GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason()

#if RAYDB_HAVE_CUDA

void expect_on_device(const void* p) {
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, p), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attr.device, 0);
}

// The batch's device buffers copied back to the host, as a host ArrowArray tree that
// expect_batch reads (sizes from the Arrow layouts of the formats).
class HostCopy {
 public:
  HostCopy(const ArrowSchema& schema, const ArrowArray& device) {
    root_.length = device.length;
    root_.n_buffers = 1;
    root_.buffers = root_buffers_;
    children_.resize(size_t(device.n_children));
    for (int64_t c = 0; c < device.n_children; c++) {
      copy_column(schema.children[c]->format, *device.children[c], children_[size_t(c)]);
      child_ptrs_.push_back(&children_[size_t(c)]);
    }
    root_.n_children = device.n_children;
    root_.children = child_ptrs_.data();
  }
  const ArrowArray& root() const { return root_; }

 private:
  const void* back(const void* p, uint64_t bytes) {
    if (!p) return nullptr;
    expect_on_device(p);
    std::vector<char>& h = storage_.emplace_back(std::max<uint64_t>(bytes, 1));
    if (bytes) {
      EXPECT_EQ(cudaMemcpy(h.data(), p, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    }
    return h.data();
  }

  void copy_column(const std::string& f, const ArrowArray& d, ArrowArray& h) {
    const uint64_t n = uint64_t(d.offset + d.length);
    auto& bufs = buffers_.emplace_back();
    h = d;
    h.release = nullptr;
    h.private_data = nullptr;
    h.buffers = bufs.data();
    if (d.n_buffers > 0) bufs[0] = back(d.buffers[0], (n + 7) / 8);
    if (d.n_buffers < 2) return;
    uint64_t width = 0;
    if (f == "i" || f == "tdD") width = 4;
    if (f == "l" || f == "g" || f == "tsu:") width = 8;
    if (f.rfind("d:", 0) == 0) width = 16;
    if (f == "b") {
      bufs[1] = back(d.buffers[1], (n + 7) / 8);
    } else if (f == "u") {
      bufs[1] = back(d.buffers[1], (n + 1) * 4);
      bufs[2] = back(d.buffers[2], uint64_t(static_cast<const int32_t*>(bufs[1])[n]));
    } else {
      ASSERT_GT(width, 0u) << "format " << f;
      bufs[1] = back(d.buffers[1], n * width);
    }
  }

  ArrowArray root_{};
  const void* root_buffers_[1] = {nullptr};
  std::vector<ArrowArray> children_;
  std::vector<ArrowArray*> child_ptrs_;
  std::deque<std::array<const void*, 3>> buffers_;
  std::deque<std::vector<char>> storage_;
};

// The CUDA backend's result, or null when it turns the shape down (kNotImplemented).
std::shared_ptr<const QueryResult> run_on_cuda(Database& db, const std::string& sql, bool keep_on_device = false) {
  try {
    QueryOptions o{Backend::kCuda};
    o.keep_result_on_device = keep_on_device;
    auto r = std::make_shared<const QueryResult>(db.query(sql, o));
    EXPECT_EQ(r->backend, "cuda");
    return r;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotImplemented) << e.what();
    return nullptr;
  }
}

TEST(GpuArrowDevice, CudaResultOnTheDeviceEqualsTheCpuBackend) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::vector<std::string> queries{
      read_file(source_dir() + "/ssb/queries/q2.1.sql"),  // star kernels; VARCHAR and HUGEINT
      read_file(source_dir() + "/ssb/queries/q4.2.sql"),
      "select lo_orderkey, lo_linenumber, lo_revenue, lo_orderdate, lo_extendedprice * lo_discount as x "
      "from lineorder where lo_orderkey < 300 order by lo_orderkey, lo_linenumber",  // general path, projection
      "select lo_orderkey, lo_linenumber, case when lo_discount > 5 then lo_revenue end as r from lineorder "
      "where lo_orderkey < 200 order by lo_orderkey, lo_linenumber",  // NULLs
  };
  int ran = 0;
  for (const std::string& sql : queries) {
    SCOPED_TRACE(sql);
    const QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});
    auto gpu = run_on_cuda(*f.db, sql);
    if (!gpu) continue;
    ran++;
    ASSERT_TRUE(same(cpu, *gpu, sql));
    ArrowSchema schema;
    ArrowDeviceArray array;
    export_arrow_device(gpu, ARROW_DEVICE_CUDA, &schema, &array);
    EXPECT_EQ(array.device_type, ARROW_DEVICE_CUDA);
    EXPECT_EQ(array.device_id, 0);
    ASSERT_NE(array.sync_event, nullptr);
    ASSERT_EQ(cudaEventSynchronize(*static_cast<cudaEvent_t*>(array.sync_event)), cudaSuccess);
    HostCopy host(schema, array.array);
    expect_batch(cpu, schema, host.root());
    array.array.release(&array.array);
    EXPECT_EQ(array.array.release, nullptr);
    schema.release(&schema);
  }
  EXPECT_GE(ran, 3) << "the CUDA backend should run the star queries and the projection";
}

// A child moved out of the batch keeps its device memory after the batch is released;
// the stream hands out CUDA arrays too.
TEST(GpuArrowDevice, MovedChildAndStream) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  const std::string sql = read_file(source_dir() + "/ssb/queries/q2.1.sql");
  auto gpu = run_on_cuda(*f.db, sql);
  ASSERT_TRUE(gpu);
  const QueryResult cpu = f.db->query(sql, QueryOptions{Backend::kCpu});

  ArrowDeviceArrayStream stream;
  export_arrow_device_stream(gpu, ARROW_DEVICE_CUDA, &stream);
  EXPECT_EQ(stream.device_type, ARROW_DEVICE_CUDA);
  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  ArrowDeviceArray batch;
  ASSERT_EQ(stream.get_next(&stream, &batch), 0);
  ASSERT_NE(batch.array.release, nullptr);
  EXPECT_EQ(batch.device_type, ARROW_DEVICE_CUDA);
  ArrowDeviceArray end;
  ASSERT_EQ(stream.get_next(&stream, &end), 0);
  EXPECT_EQ(end.array.release, nullptr);
  stream.release(&stream);
  gpu.reset();  // the batch keeps what it needs

  ASSERT_EQ(cudaEventSynchronize(*static_cast<cudaEvent_t*>(batch.sync_event)), cudaSuccess);
  const std::string format = schema.children[0]->format;  // sum(lo_revenue)
  const size_t width = format == "l" ? 8 : 16;
  ASSERT_TRUE(format == "l" || format.rfind("d:", 0) == 0) << format;
  ArrowArray moved = *batch.array.children[0];
  batch.array.children[0]->release = nullptr;
  HostCopy before(schema, batch.array);  // all columns, before the parent goes
  batch.array.release(&batch.array);
  expect_batch(cpu, schema, before.root());
  expect_on_device(moved.buffers[1]);
  std::vector<char> sums(size_t(moved.length) * width);
  ASSERT_EQ(cudaMemcpy(sums.data(), moved.buffers[1], sums.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  for (size_t i = 0; i < size_t(moved.length); i++) {
    __int128 v = 0;
    if (width == 8) {
      int64_t x;
      std::memcpy(&x, sums.data() + i * 8, 8);
      v = x;
    } else {
      std::memcpy(&v, sums.data() + i * 16, 16);
    }
    EXPECT_EQ(v, cpu.get(i, 0).as_hugeint()) << "row " << i;
  }
  moved.release(&moved);
  schema.release(&schema);
}

// keep_result_on_device: projections the general path finishes on the device (no
// ORDER BY, or ORDER BY over 65536 rows or more, sorted there) keep their columns in
// Arrow's layout, and the export hands out exactly those buffers (no copy), equal to
// the result's host copy row for row; elsewhere the result has none and the export copies.
void expect_resident_export(Database& db, const std::string& sql, bool resident) {
  SCOPED_TRACE(sql);
  const QueryResult cpu = db.query(sql, QueryOptions{Backend::kCpu});
  auto gpu = run_on_cuda(db, sql, true);
  ASSERT_TRUE(gpu) << "the CUDA backend should run it";
  ASSERT_TRUE(same(cpu, *gpu, sql));
  ASSERT_EQ(bool(gpu->device_columns), resident);
  ArrowSchema schema;
  ArrowDeviceArray array;
  export_arrow_device(gpu, ARROW_DEVICE_CUDA, &schema, &array);
  EXPECT_EQ(array.device_id, 0);
  ASSERT_NE(array.sync_event, nullptr);
  ASSERT_EQ(cudaEventSynchronize(*static_cast<cudaEvent_t*>(array.sync_event)), cudaSuccess);
  if (resident)
    for (size_t c = 0; c < gpu->column_count(); c++)
      EXPECT_EQ(array.array.children[c]->buffers[1], gpu->device_columns->columns[c].values) << "column " << c;
  HostCopy host(schema, array.array);
  expect_batch(*gpu, schema, host.root());
  array.array.release(&array.array);
  schema.release(&schema);
}

TEST(GpuArrowDevice, KeptResultColumnsAreExportedWithoutACopy) {
  REQUIRE_GPU();
  OracleFixture& f = ssb_fixture("0.01");
  ASSERT_TRUE(f.db) << f.error;
  expect_resident_export(*f.db,
                         "select lo_orderkey, lo_linenumber, case when lo_discount > 5 then lo_revenue end as r, "
                         "lo_extendedprice * lo_discount as x, lo_revenue * 0.25 - 400000 as d, "
                         "cast(lo_discount - 5 as double) * 1.5 as g, lo_orderdate from lineorder "
                         "where lo_orderkey < 3000",
                         true);
  // Finished on the host (ORDER BY under 65536 rows; strings): copied instead.
  expect_resident_export(*f.db, "select lo_orderkey, lo_revenue from lineorder where lo_orderkey < 300 "
                         "order by lo_orderkey, lo_linenumber", false);
  expect_resident_export(*f.db, "select lo_orderkey, lo_shipmode from lineorder where lo_orderkey < 300", false);
  std::string error;
  const std::string path = shared_ssb_database("0.2", error);
  ASSERT_FALSE(path.empty()) << error;
  auto db = Database::open(path);
  expect_resident_export(*db,
                         "select lo_orderkey, lo_linenumber, case when lo_quantity > 40 then null else lo_quantity end "
                         "as q, lo_revenue * 0.25 - 400000 as r, cast(lo_discount - 5 as double) * 1.5 as g "
                         "from lineorder where lo_orderkey % 8 = 1 order by q, lo_tax desc limit 50000 offset 100",
                         true);
}

#else

TEST(GpuArrowDevice, CudaResultOnTheDeviceEqualsTheCpuBackend) {
  REQUIRE_GPU();
  GTEST_SKIP() << "test_gpu was built without the CUDA runtime";
}

#endif

}  // namespace
}  // namespace raydb::test
