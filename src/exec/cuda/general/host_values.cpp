#include "exec/cuda/general/host_values.h"

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "exec/cuda/general/arrow_kernels.h"

namespace raydb::exec::cuda::general {

namespace {

// Below this many rows a parallel region costs more than it saves.
constexpr int64_t kParallelRows = 1 << 16;

// Codes of a program's own string domain as strings viewing the result's interner:
// one intern per distinct code where the domain is not much larger than the rows (each
// intern takes the interner's lock and a hash; substr(c_phone, 1, 2) over TPC-H Q22's
// 127 K rows has 7 distinct results), the rows' views then written in parallel.
void detach(Vector& r, StringInterner& interner) {
  std::vector<std::string_view> views(r.size);
  const size_t d = r.dict->size();
  const bool per_code = d <= 2 * r.size + 1024;
  if (!per_code) {
    for (size_t i = 0; i < r.size; i++)
      if (!r.is_null(i)) views[i] = interner.get(interner.intern(r.dict->at(uint32_t(r.ints[i]))));
  } else {
    std::vector<uint8_t> used(d, 0);
    for (size_t i = 0; i < r.size; i++)
      if (!r.is_null(i)) used[uint32_t(r.ints[i])] = 1;
    std::vector<std::string_view> by_code(d);
    for (size_t c = 0; c < d; c++)
      if (used[c]) by_code[c] = interner.get(interner.intern(r.dict->at(uint32_t(c))));
    const int64_t rows = int64_t(r.size);
#pragma omp parallel for schedule(static) if (rows > kParallelRows)
    for (int64_t i = 0; i < rows; i++)
      if (!r.is_null(size_t(i))) views[size_t(i)] = by_code[uint32_t(r.ints[size_t(i)])];
  }
  r.kind = VectorKind::kString;
  r.strings = std::move(views);
  r.ints.clear();
  r.dict = nullptr;
}

// r's NULL mask from the device's flags, only when one is set (as Vector::set_null
// leaves it): a parallel count, then a parallel copy.
void set_nulls(Vector& r, const FillVector<uint8_t>& nl) {
  const int64_t rows = int64_t(nl.size());
  int64_t nulls = 0;
#pragma omp parallel for reduction(+ : nulls) schedule(static) if (rows > kParallelRows)
  for (int64_t i = 0; i < rows; i++) nulls += nl[size_t(i)] != 0;
  if (nulls == 0) return;
  r.nulls.resize(nl.size());
  uint8_t* out = r.nulls.data();
#pragma omp parallel for schedule(static) if (rows > kParallelRows)
  for (int64_t i = 0; i < rows; i++) out[i] = nl[size_t(i)] != 0;
}

}  // namespace

void to_host(const Column128& c, uint64_t n, FillVector<__int128>& v, FillVector<uint8_t>& nl, cudaStream_t s) {
  // Unwritten until the copy lands (FillVector): no serial zeroing of 17 bytes a row.
  v.resize(n);
  nl.resize(n);
  if (!n) return;
  gpu::check_cuda(cudaMemcpyAsync(v.data(), c.values.get(), n * 16, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaMemcpyAsync(nl.data(), c.nulls.get(), n, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "copy");
}

// Each value narrowed (or its bits moved) in one parallel pass; the NULL mask only when
// a flag is set (as Vector::set_null leaves it).
Vector to_vector(const CompiledProgram& p, const FillVector<__int128>& v, const FillVector<uint8_t>& nl,
                 StringInterner& interner) {
  const size_t n = v.size();
  const int64_t rows = int64_t(n);
  Vector r(p.type, 0);
  r.size = n;
  switch (p.kind) {
    case VectorKind::kCode:
      r.kind = VectorKind::kCode;
      r.strings.clear();
      r.dict = p.dict;
      [[fallthrough]];
    case VectorKind::kInt: {
      r.ints.resize(n);
      int64_t* out = r.ints.data();
#pragma omp parallel for schedule(static) if (rows > kParallelRows)
      for (int64_t i = 0; i < rows; i++) out[i] = int64_t(v[size_t(i)]);
      break;
    }
    case VectorKind::kHuge:
      r.huge.assign(v.begin(), v.end());
      break;
    case VectorKind::kDouble: {
      r.doubles.resize(n);
      double* out = r.doubles.data();
#pragma omp parallel for schedule(static) if (rows > kParallelRows)
      for (int64_t i = 0; i < rows; i++) {
        const int64_t bits = int64_t(v[size_t(i)]);
        std::memcpy(&out[i], &bits, 8);
      }
      break;
    }
    case VectorKind::kString:
      fail(ErrorKind::kInternal, "to_vector: a program of strings holds codes");
  }
  set_nulls(r, nl);
  if (p.kind == VectorKind::kCode && p.domain && p.dict == p.domain.get()) detach(r, interner);
  return r;
}

Vector host_vector(const CompiledProgram& p, const Column128& c, uint64_t n, StringInterner& interner, cudaStream_t s) {
  if (p.kind == VectorKind::kHuge || p.kind == VectorKind::kString || n == 0) {
    FillVector<__int128> v;
    FillVector<uint8_t> nl;
    to_host(c, n, v, nl, s);
    return to_vector(p, v, nl, interner);
  }
  // Integers, codes and DOUBLE bits are the values' low words: narrowed on the device
  // (the Arrow kernel's int64 payload), so 8 bytes a row cross the bus instead of 16
  // and land in the vector itself, with no narrowing pass on the host.
  Vector r(p.type, 0);
  r.size = n;
  void* dst = nullptr;
  if (p.kind == VectorKind::kDouble) {
    r.doubles.resize(n);
    dst = r.doubles.data();
  } else {
    if (p.kind == VectorKind::kCode) {
      r.kind = VectorKind::kCode;
      r.strings.clear();
      r.dict = p.dict;
    }
    r.ints.resize(n);
    dst = r.ints.data();
  }
  gpu::DeviceBuffer low(n * 8, "values to host");
  launch_arrow_values(c.values.get<__int128>(), n, ArrowValueMode::kLow64, low.get(), s);
  FillVector<uint8_t> nl(n);
  gpu::check_cuda(cudaMemcpyAsync(dst, low.get(), n * 8, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaMemcpyAsync(nl.data(), c.nulls.get(), n, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "copy");
  set_nulls(r, nl);
  if (p.kind == VectorKind::kCode && p.domain && p.dict == p.domain.get()) detach(r, interner);
  return r;
}

void detach_domains(const GeneralPlan& gp, ResultTable& result) {
  std::vector<const Dictionary*> owned;
  auto add = [&](const CompiledProgram& p) {
    if (p.domain) owned.push_back(p.domain.get());
  };
  for (auto& a : gp.aggs)
    if (a.has_arg) add(a.arg);
  for (auto& k : gp.group_keys) add(k);
  for (auto& o : gp.outputs) add(o);
  for (auto& c : result.columns)
    if (c.kind == VectorKind::kCode && std::find(owned.begin(), owned.end(), c.dict) != owned.end())
      detach(c, *result.interner);
}

}  // namespace raydb::exec::cuda::general
