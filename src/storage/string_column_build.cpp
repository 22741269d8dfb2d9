#include "storage/string_column_build.h"

#include <omp.h>

#include <algorithm>
#include <string_view>

#include "storage/buffer.h"
#include "storage/dictionary.h"
#include "storage/view_code_table.h"

namespace raydb {

namespace {

// Below this many rows one thread codes them all.
constexpr uint64_t kParallelRows = 1 << 13;

}  // namespace

ColumnPtr build_string_column(std::string name, const std::string* v, const std::vector<uint8_t>& nulls, uint64_t n) {
  const int threads = n >= kParallelRows ? std::max(1, omp_get_max_threads()) : 1;
  std::vector<ViewCodeTable> slices(static_cast<size_t>(threads));
  std::vector<int32_t> codes(n);  // local codes first, final codes after the remap
  auto at = [&](uint64_t i) { return !nulls.empty() && nulls[i] ? std::string_view() : std::string_view(v[i]); };
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const uint64_t a = n * uint64_t(t) / uint64_t(threads), b = n * uint64_t(t + 1) / uint64_t(threads);
    ViewCodeTable& local = slices[size_t(t)];
    for (uint64_t i = a; i < b; i++) codes[i] = local.code(at(i));
  }
  // The slices' distinct strings, merged and sorted: the dictionary.
  std::vector<std::string_view> all;
  for (auto& s : slices) all.insert(all.end(), s.distinct().begin(), s.distinct().end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  if (all.empty() && n > 0) all.push_back(std::string_view());
  std::vector<std::vector<int32_t>> remap(slices.size());
  for (size_t t = 0; t < slices.size(); t++)
    for (std::string_view sv : slices[t].distinct())
      remap[t].push_back(int32_t(std::lower_bound(all.begin(), all.end(), sv) - all.begin()));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const uint64_t a = n * uint64_t(t) / uint64_t(threads), b = n * uint64_t(t + 1) / uint64_t(threads);
    const std::vector<int32_t>& r = remap[size_t(t)];
    for (uint64_t i = a; i < b; i++) codes[i] = r[size_t(codes[i])];
  }
  auto dict = std::make_shared<const Dictionary>(std::vector<std::string>(all.begin(), all.end()));
  const Type type = Type::varchar();
  std::shared_ptr<Buffer> buf = Buffer::adopt(std::move(codes), n * sizeof(int32_t));
  const ColumnStats stats = compute_stats(type, buf->data(), n);
  return std::make_shared<const Column>(std::move(name), type, std::move(buf), n, std::move(dict), stats);
}

}  // namespace raydb
