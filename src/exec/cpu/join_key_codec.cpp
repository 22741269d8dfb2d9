#include "exec/cpu/join_key_codec.h"

#include "exec/core/exact_double_sum.h"

namespace raydb::exec::cpu {

using plan::ExprKind;

std::shared_ptr<std::vector<int64_t>> JoinKeyCodec::map_for(const Dictionary* probe) const {
  std::lock_guard<std::mutex> lock(cache_mutex);
  if (cached_probe_dict == probe && cached_map) return cached_map;
  auto m = std::make_shared<std::vector<int64_t>>(probe->size(), -1);
  // Both dictionaries are sorted: merge them.
  uint32_t j = 0;
  for (uint32_t i = 0; i < probe->size(); i++) {
    std::string_view s = probe->at(i);
    while (j < build_dict->size() && build_dict->at(j) < s) j++;
    if (j < build_dict->size() && build_dict->at(j) == s) (*m)[i] = j;
  }
  cached_probe_dict = probe;
  cached_map = m;
  return m;
}

VectorKind join_key_kind(const plan::Expr& build_key) {
  switch (build_key.type.id) {
    case TypeId::kVarchar: return build_key.kind == ExprKind::kColumnRef ? VectorKind::kCode : VectorKind::kString;
    case TypeId::kDouble: return VectorKind::kDouble;
    default: return VectorKind::kInt;
  }
}

namespace {

// VARCHAR keys against a build column's dictionary: its own codes, translated codes
// of another dictionary, or strings looked up.
void encode_code_key(const Vector& v, const JoinKeyCodec& codec, bool build_side, size_t k, size_t width,
                     int64_t* words, uint8_t* valid) {
  const size_t n = v.size;
  if (build_side || (v.kind == VectorKind::kCode && v.dict == codec.build_dict)) {
    for (size_t i = 0; i < n; i++) words[i * width + k] = v.ints[i];
    return;
  }
  if (v.kind == VectorKind::kCode) {
    auto m = codec.map_for(v.dict);
    for (size_t i = 0; i < n; i++) {
      int64_t c = (*m)[size_t(v.ints[i])];
      words[i * width + k] = c;
      if (c < 0) valid[i] = 0;
    }
    return;
  }
  for (size_t i = 0; i < n; i++) {
    auto c = codec.build_dict->find(v.strings[i]);
    words[i * width + k] = c ? int64_t(*c) : -1;
    if (!c) valid[i] = 0;
  }
}

// Strings from expressions on the build side: intern build values, look up probes.
void encode_string_key(const Vector& v, const JoinKeyCodec& codec, bool build_side, size_t k, size_t width,
                       int64_t* words, uint8_t* valid) {
  auto& map = *codec.build_strings;
  for (size_t i = 0; i < v.size; i++) {
    if (v.is_null(i)) continue;
    std::string s(v.string_at(i));
    if (build_side) {
      auto it = map.try_emplace(s, int64_t(map.size())).first;
      words[i * width + k] = it->second;
    } else {
      auto it = map.find(s);
      if (it == map.end()) {
        valid[i] = 0;
      } else {
        words[i * width + k] = it->second;
      }
    }
  }
}

}  // namespace

void encode_join_key(const Vector& v, const JoinKeyCodec& codec, bool build_side, size_t k, size_t width,
                     int64_t* words, uint8_t* valid) {
  const size_t n = v.size;
  for (size_t i = 0; i < n; i++)
    if (v.is_null(i)) valid[i] = 0;
  switch (codec.build_kind) {
    case VectorKind::kInt:
      for (size_t i = 0; i < n; i++) words[i * width + k] = v.ints[i];
      return;
    case VectorKind::kDouble:
      for (size_t i = 0; i < n; i++) words[i * width + k] = int64_t(same_value_bits(double_bits(v.doubles[i])));
      return;
    case VectorKind::kCode: encode_code_key(v, codec, build_side, k, width, words, valid); return;
    case VectorKind::kString:
    case VectorKind::kHuge: encode_string_key(v, codec, build_side, k, width, words, valid); return;
  }
}

}  // namespace raydb::exec::cpu
