#include "exec/cuda/general/host_values.h"

#include <algorithm>
#include <cstring>

namespace raydb::exec::cuda::general {

namespace {

// Codes of a program's own string domain as strings viewing the result's interner:
// one intern per distinct code where the domain is not much larger than the rows (each
// intern takes the interner's lock and a hash; substr(c_phone, 1, 2) over TPC-H Q22's
// 127 K rows has 7 distinct results).
void detach(Vector& r, StringInterner& interner) {
  std::vector<std::string_view> views(r.size);
  const size_t d = r.dict->size();
  const bool per_code = d <= 2 * r.size + 1024;
  std::vector<std::string_view> by_code(per_code ? d : 0);
  std::vector<uint8_t> done(per_code ? d : 0, 0);
  for (size_t i = 0; i < r.size; i++) {
    if (r.is_null(i)) continue;
    const auto c = uint32_t(r.ints[i]);
    if (!per_code) {
      views[i] = interner.get(interner.intern(r.dict->at(c)));
      continue;
    }
    if (!done[c]) by_code[c] = interner.get(interner.intern(r.dict->at(c))), done[c] = 1;
    views[i] = by_code[c];
  }
  r.kind = VectorKind::kString;
  r.strings = std::move(views);
  r.ints.clear();
  r.dict = nullptr;
}

}  // namespace

void to_host(const Column128& c, uint64_t n, std::vector<__int128>& v, std::vector<uint8_t>& nl, cudaStream_t s) {
  v.resize(n);
  nl.resize(n);
  if (!n) return;
  gpu::check_cuda(cudaMemcpyAsync(v.data(), c.values.get(), n * 16, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaMemcpyAsync(nl.data(), c.nulls.get(), n, cudaMemcpyDeviceToHost, s), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s), "copy");
}

Vector to_vector(const CompiledProgram& p, const std::vector<__int128>& v, const std::vector<uint8_t>& nl,
                 StringInterner& interner) {
  const size_t n = v.size();
  Vector r(p.type, n);
  switch (p.kind) {
    case VectorKind::kCode:
      r.kind = VectorKind::kCode;
      r.strings.clear();
      r.ints.resize(n);
      r.dict = p.dict;
      for (size_t i = 0; i < n; i++) r.ints[i] = int64_t(v[i]);
      break;
    case VectorKind::kHuge:
      r.huge.assign(v.begin(), v.end());
      break;
    case VectorKind::kDouble:
      for (size_t i = 0; i < n; i++) {
        const int64_t bits = int64_t(v[i]);
        std::memcpy(&r.doubles[i], &bits, 8);
      }
      break;
    default:
      for (size_t i = 0; i < n; i++) r.ints[i] = int64_t(v[i]);
      break;
  }
  for (size_t i = 0; i < n; i++)
    if (nl[i]) r.set_null(i);
  if (p.kind == VectorKind::kCode && p.domain && p.dict == p.domain.get()) detach(r, interner);
  return r;
}

Vector host_vector(const CompiledProgram& p, const Column128& c, uint64_t n, StringInterner& interner, cudaStream_t s) {
  std::vector<__int128> v;
  std::vector<uint8_t> nl;
  to_host(c, n, v, nl, s);
  return to_vector(p, v, nl, interner);
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
