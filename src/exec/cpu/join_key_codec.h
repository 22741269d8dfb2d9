#pragma once
// Key encoding of one join column pair, so probe values become the build side's
// 64-bit words: integers as they are, DOUBLE as its canonical bits, VARCHAR codes of
// the build column's dictionary (probe codes of another dictionary translated by
// merging the two sorted dictionaries once), strings from expressions interned.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/core/vector.h"
#include "plan/logical/expression.h"
#include "storage/dictionary.h"
#include "exec/core/key_encoder.h"

namespace raydb::exec::cpu {

struct JoinKeyCodec {
  VectorKind build_kind = VectorKind::kInt;
  const Dictionary* build_dict = nullptr;  // VARCHAR build keys read from a column
  // VARCHAR build keys from expressions: string -> id.
  std::shared_ptr<std::unordered_map<std::string, int64_t>> build_strings;
  // Cached translation from a probe dictionary to build codes (-1: absent).
  mutable std::mutex cache_mutex;
  mutable const Dictionary* cached_probe_dict = nullptr;
  mutable std::shared_ptr<std::vector<int64_t>> cached_map;

  std::shared_ptr<std::vector<int64_t>> map_for(const Dictionary* probe) const;
};

// The vector kind a build key is encoded from.
VectorKind join_key_kind(const plan::Expr& build_key);

// Encodes one key vector into words (stride `width`, column `k`); valid[i] = 0 when
// the value is NULL or cannot match any build key.
void encode_join_key(const Vector& v, const JoinKeyCodec& codec, bool build_side, size_t k, size_t width,
                     int64_t* words, uint8_t* valid);

}  // namespace raydb::exec::cpu
