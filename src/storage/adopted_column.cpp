#include "storage/adopted_column.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "common/error.h"

namespace raydb {

namespace {

// Below this many rows a parallel region costs more than it saves.
constexpr int64_t kParallelRows = 1 << 16;

// Narrows row i of the int64 words at `bytes` to int32 in place (row i's int32 at byte
// 4i), folding it into lo/hi. memcpy: the two views of the bytes alias.
inline void narrow_row(unsigned char* bytes, int64_t i, int32_t& lo, int32_t& hi) {
  int64_t wide;
  std::memcpy(&wide, bytes + 8 * i, sizeof wide);
  const int32_t v = int32_t(wide);
  std::memcpy(bytes + 4 * i, &v, sizeof v);
  lo = std::min(lo, v);
  hi = std::max(hi, v);
}

// Narrows n int64 words to int32 in the same storage and returns their min/max (one
// pass, no new memory to fault in). Row i's write lands on the bytes of row i / 2, so
// rows [a, 2a) may run in parallel once the rows below a are done: doubling rounds,
// all in one parallel region (a barrier between rounds, not a fork per round).
ColumnStats narrow_in_place(int64_t* words, int64_t n) {
  auto* bytes = reinterpret_cast<unsigned char*>(words);
  int32_t lo = std::numeric_limits<int32_t>::max(), hi = std::numeric_limits<int32_t>::lowest();
  const int64_t first = std::min<int64_t>(n, kParallelRows);
  for (int64_t i = 0; i < first; i++) narrow_row(bytes, i, lo, hi);  // sequential: rows below kParallelRows
  if (first < n) {
#pragma omp parallel reduction(min : lo) reduction(max : hi)
    {
      // Every thread walks the same rounds; the worksharing loop's closing barrier
      // orders a round's writes before the next round's reads of those bytes.
      for (int64_t done = first; done < n; done = std::min(n, 2 * done)) {
        const int64_t end = std::min(n, 2 * done);
        int32_t l = lo, h = hi;  // locals of this thread: the loop keeps them in registers
#pragma omp for schedule(static)
        for (int64_t i = done; i < end; i++) narrow_row(bytes, i, l, h);
        lo = l;
        hi = h;
      }
    }
  }
  ColumnStats s;
  if (n > 0) {
    s.min = lo;
    s.max = hi;
  }
  return s;
}

}  // namespace

ColumnPtr adopt_int_column(std::string name, const Type& type, std::vector<int64_t>&& values, uint64_t n) {
  if (type.id == TypeId::kVarchar || type.id == TypeId::kDouble || !type.storable())
    fail(ErrorKind::kInternal, "adopt_int_column {}: {} is not an integer type", name, type.to_string());
  if (n > values.size())
    fail(ErrorKind::kInternal, "adopt_int_column {}: {} rows of {} values", name, n, values.size());
  const size_t width = size_t(type.physical_width());
  // A 4-byte type keeps the vector's 8 bytes a row (half of them unused) rather than
  // copying its rows into new memory.
  const ColumnStats narrowed = width == 4 ? narrow_in_place(values.data(), int64_t(n)) : ColumnStats{};
  std::shared_ptr<Buffer> buf = Buffer::adopt(std::move(values), n * width);
  const ColumnStats stats = width == 4 ? narrowed : compute_stats(type, buf->data(), n);
  return std::make_shared<const Column>(std::move(name), type, std::move(buf), n, nullptr, stats);
}

ColumnPtr adopt_double_column(std::string name, std::vector<double>&& values, uint64_t n) {
  if (n > values.size())
    fail(ErrorKind::kInternal, "adopt_double_column {}: {} rows of {} values", name, n, values.size());
  std::shared_ptr<Buffer> buf = Buffer::adopt(std::move(values), n * sizeof(double));
  const ColumnStats stats = compute_stats(Type::float64(), buf->data(), n);
  return std::make_shared<const Column>(std::move(name), Type::float64(), std::move(buf), n, nullptr, stats);
}

ColumnPtr flag_column(std::string name, const std::vector<uint8_t>& flags, uint64_t n) {
  if (n > flags.size()) fail(ErrorKind::kInternal, "flag_column {}: {} rows of {} flags", name, n, flags.size());
  std::shared_ptr<Buffer> buf = Buffer::allocate(n * sizeof(int32_t));
  auto* out = static_cast<int32_t*>(buf->mutable_data());
  const int64_t rows = int64_t(n);
  int32_t lo = 1, hi = 0;
#pragma omp parallel for reduction(min : lo) reduction(max : hi) schedule(static) if (rows > kParallelRows)
  for (int64_t i = 0; i < rows; i++) {
    const int32_t v = flags[size_t(i)];
    out[i] = v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  ColumnStats stats;
  if (n > 0) {
    stats.min = lo;
    stats.max = hi;
  }
  return std::make_shared<const Column>(std::move(name), Type::integer(), std::move(buf), n, nullptr, stats);
}

}  // namespace raydb
