#include "support/tpch_gpu_case.h"

#include <gtest/gtest.h>

#include "exec/cuda/cuda_device.h"
#include "support/result_rows.h"
#include "support/tpch_fixture.h"

namespace raydb::test {

void expect_tpch_cuda_equals_cpu(const std::string& sf, const std::string& name) {
  if (exec::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << exec::cuda::no_device_reason();
  OracleFixture& f = tpch_fixture(sf, /*with_oracle=*/false);
  ASSERT_TRUE(f.db) << f.error;
  const std::string sql = read_file(source_dir() + "/tpch/queries/" + name + ".sql");
  QueryOptions cpu_options, cuda_options;
  cpu_options.backend = Backend::kCpu;
  cuda_options.backend = Backend::kCuda;
  QueryResult cpu = f.db->query(sql, cpu_options);
  try {
    QueryResult gpu = f.db->query(sql, cuda_options);
    EXPECT_EQ(gpu.backend, "cuda") << name;
    EXPECT_GE(gpu.device_ms, 0) << name;
    EXPECT_TRUE(same(cpu, gpu, sql)) << name << " at SF " << sf;
  } catch (const Error& e) {
    ADD_FAILURE() << name << " at SF " << sf << " did not run on the CUDA backend: " << e.what();
  }
}

}  // namespace raydb::test
