#include "sql/column_words.h"

namespace raydb::sql {

namespace {

template <typename T>
void widen(const T* v, uint64_t n, int64_t* out) {
#pragma omp parallel for schedule(static) if (n > (uint64_t(1) << 16))
  for (uint64_t r = 0; r < n; r++) out[r] = v[r];
}

template <typename V>
void read_words(const Column& col, uint64_t n, V& out) {
  out.resize(n);
  if (n == 0) return;
  if (col.type().physical_width() == 4) widen(col.data<int32_t>(), n, out.data());
  else widen(col.data<int64_t>(), n, out.data());
}

}  // namespace

void read_column_words(const Column& col, uint64_t n, std::vector<int64_t>& out) { read_words(col, n, out); }

void read_column_words(const Column& col, uint64_t n, FillVector<int64_t>& out) { read_words(col, n, out); }

}  // namespace raydb::sql
