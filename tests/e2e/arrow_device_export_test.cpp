// raydb/arrow_export.h: results through the Arrow C Device Data Interface on the CPU
// (and the errors where a device is missing). Each cell read back from the exported
// buffers by the layout the specification gives is compared with QueryResult::get.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "raydb/arrow_export.h"
#include "raydb/system.h"
#include "support/arrow_batch_check.h"
#include "support/test_support.h"

namespace raydb::test {
namespace {

struct Inputs {
  std::vector<int32_t> ids{1, 2, 3, 4, 5};
  std::vector<int64_t> big{-5, 1LL << 40, 7, 0, INT64_MIN + 1};
  std::vector<double> dbl{0.5, -1.25, 3.0, 2.0, -0.0};
  std::vector<int64_t> cents{1250, -99, 0, 100, 999999};  // DECIMAL(6,2)
  std::vector<int32_t> days{0, 10957, -1, 20000, -719162};
  std::vector<int32_t> flags{1, 0, 1, 0, 1};
  std::vector<int64_t> micros{0, 86'400'000'005, -1, 5, 1};
  std::vector<int64_t> offsets{0, 2, 2, 7, 9, 11};
  std::string chars = "abgammaxy\xc3\xa9";  // "ab", "", "gamma", "xy", "é"
  uint8_t every_other = 0b10101;            // rows 1 and 3 NULL

  std::vector<ColumnInput> columns() const {
    std::vector<ColumnInput> c(8);
    c[0] = {"id", Type::integer(), 5, ids.data()};
    c[1] = {"big", Type::bigint(), 5, big.data()};
    c[2] = {"dbl", Type::float64(), 5, dbl.data()};
    c[3] = {"price", Type::decimal(6, 2), 5, cents.data()};
    c[4] = {"day", Type::date(), 5, days.data()};
    c[5] = {"s", Type::varchar(), 5, nullptr, offsets.data(), chars.data()};
    c[6] = {"b", Type::boolean(), 5, flags.data()};
    c[7] = {"ts", Type::timestamp(), 5, micros.data()};
    for (size_t i = 1; i < c.size(); i++) c[i].validity = &every_other;  // NULLs in all but id
    return c;
  }
};

std::shared_ptr<const QueryResult> run(Database& db, const std::string& sql) {
  return std::make_shared<const QueryResult>(db.query(sql, QueryOptions{Backend::kCpu}));
}

class ArrowDeviceExport : public ::testing::Test {
 protected:
  void SetUp() override {
    db = Database::open_or_create(dir.file("db"));
    db->register_table("t", in.columns());
  }
  TempDir dir;
  Inputs in;
  std::unique_ptr<Database> db;
};

TEST_F(ArrowDeviceExport, CpuArrayHoldsEveryTypeAndNull) {
  const char* queries[] = {
      "select id, big, dbl, price, day, s, b, ts from t order by id",
      "select id % 2 as k, sum(big) as total, sum(price) as p, count(s) as n, null as z from t group by k order by k",
      "select id, s from t where id > 100",  // no rows
  };
  for (const char* sql : queries) {
    SCOPED_TRACE(sql);
    auto r = run(*db, sql);
    ArrowSchema schema;
    ArrowDeviceArray array;
    std::memset(&array, 0xab, sizeof array);  // the export must set every field, reserved ones too
    export_arrow_device(r, ARROW_DEVICE_CPU, &schema, &array);
    EXPECT_EQ(array.device_type, ARROW_DEVICE_CPU);
    EXPECT_EQ(array.device_id, -1);
    EXPECT_EQ(array.sync_event, nullptr);
    for (int64_t x : array.reserved) EXPECT_EQ(x, 0);
    expect_batch(*r, schema, array.array);
    array.array.release(&array.array);
    EXPECT_EQ(array.array.release, nullptr);
    schema.release(&schema);
  }
}

TEST_F(ArrowDeviceExport, FormatsFollowTheColumnTypes) {
  auto r = run(*db, "select id, big, dbl, price, day, s, b, ts, sum(big) over () as w from t");
  ArrowSchema schema;
  export_arrow_schema(*r, &schema);
  std::vector<std::string> formats;
  for (int64_t i = 0; i < schema.n_children; i++) formats.push_back(schema.children[i]->format);
  const std::vector<std::string> expected{"i", "l", "g", "d:6,2", "tdD", "u", "b", "tsu:", "d:38,0"};
  EXPECT_EQ(formats, expected);
  for (int64_t i = 0; i < schema.n_children; i++) EXPECT_EQ(schema.children[i]->flags, ARROW_FLAG_NULLABLE);
  schema.release(&schema);
}

// A consumer may move a child out and release the parent first (the specification's
// moving rule); the child's buffers must stay valid (ASan checks the reads).
TEST_F(ArrowDeviceExport, MovedChildOutlivesItsParent) {
  auto r = run(*db, "select s, big from t order by id");
  ArrowSchema schema;
  ArrowDeviceArray array;
  export_arrow_device(r, ARROW_DEVICE_CPU, &schema, &array);
  r.reset();  // the array keeps the result alive
  ArrowArray moved = *array.array.children[0];
  array.array.children[0]->release = nullptr;
  array.array.release(&array.array);
  const auto* off = static_cast<const int32_t*>(moved.buffers[1]);
  EXPECT_EQ(std::string(static_cast<const char*>(moved.buffers[2]) + off[2], size_t(off[3] - off[2])), "gamma");
  moved.release(&moved);
  schema.release(&schema);
}

TEST_F(ArrowDeviceExport, StreamGivesOneBatchThenEnds) {
  auto r = run(*db, "select id, s, price from t order by id desc");
  ArrowDeviceArrayStream stream;
  export_arrow_device_stream(r, ARROW_DEVICE_CPU, &stream);
  EXPECT_EQ(stream.device_type, ARROW_DEVICE_CPU);
  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  ArrowDeviceArray batch;
  ASSERT_EQ(stream.get_next(&stream, &batch), 0);
  ASSERT_NE(batch.array.release, nullptr);
  EXPECT_EQ(batch.device_type, ARROW_DEVICE_CPU);
  ArrowDeviceArray end;
  ASSERT_EQ(stream.get_next(&stream, &end), 0);
  EXPECT_EQ(end.array.release, nullptr);  // released: the end of the stream
  stream.release(&stream);                // before the batch: the batch lives on its own
  EXPECT_EQ(stream.release, nullptr);
  expect_batch(*r, schema, batch.array);
  batch.array.release(&batch.array);
  schema.release(&schema);
}

TEST_F(ArrowDeviceExport, UnavailableDevicesAreOneLineErrors) {
  auto r = run(*db, "select id from t");
  ArrowSchema schema;
  ArrowDeviceArray array;
  EXPECT_EQ(arrow_device_unavailable(ARROW_DEVICE_CPU), "");
  try {
    export_arrow_device(r, ARROW_DEVICE_OPENCL, &schema, &array);
    FAIL() << "OpenCL export did not fail";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidInput);
    EXPECT_EQ(std::string(e.what()),
              "Arrow device export: Arrow device type 4 is not supported (raydb exports to the CPU, 1, and CUDA, 2)");
  }
  if (!system_info().gpus.empty()) GTEST_SKIP() << "a CUDA device is present (tests/gpu covers the CUDA export)";
  const std::string why = arrow_device_unavailable(ARROW_DEVICE_CUDA);
  EXPECT_EQ(why.rfind("no CUDA device: ", 0), 0u) << why;
  try {
    ArrowDeviceArrayStream stream;
    export_arrow_device_stream(r, ARROW_DEVICE_CUDA, &stream);
    FAIL() << "CUDA export without a device did not fail";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidInput);
    EXPECT_EQ(std::string(e.what()), "Arrow device export: " + why);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace raydb::test
