#pragma once
// A column of values for one batch of rows, the unit the CPU evaluator works on.
// The payload array in use depends on the type:
//   kInt    BOOLEAN (0/1), INTEGER, BIGINT, DATE, DECIMAL with precision <= 18 (scaled)
//   kHuge   HUGEINT, DECIMAL with precision > 18 (scaled int128)
//   kDouble DOUBLE
//   kCode   VARCHAR as codes of `dict` (a stored column's order-preserving dictionary)
//   kString VARCHAR as string views (into dictionaries, constants or `arena`)
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/dictionary.h"
#include "raydb/types.h"
#include "raydb/value.h"

namespace raydb::exec {

enum class VectorKind : uint8_t { kInt, kHuge, kDouble, kCode, kString };

// The payload kind a value of type `t` is computed in.
VectorKind kind_of(const Type& t);

struct Vector {
  Type type;
  VectorKind kind = VectorKind::kInt;
  size_t size = 0;
  std::vector<int64_t> ints;  // kInt; codes for kCode
  std::vector<__int128> huge;
  std::vector<double> doubles;
  std::vector<std::string_view> strings;
  const Dictionary* dict = nullptr;  // kCode; lives as long as the query's tables
  std::vector<uint8_t> nulls;        // empty: no NULLs; else 1 = NULL
  // Storage that kString views point into (string arenas); shared, never copied.
  std::vector<std::shared_ptr<const std::deque<std::string>>> owners;

  Vector() = default;
  Vector(Type t, size_t n);  // allocates the payload for kind_of(t), no NULLs

  bool has_nulls() const { return !nulls.empty(); }
  bool is_null(size_t i) const { return !nulls.empty() && nulls[i]; }
  void set_null(size_t i);  // allocates the null mask on first use
  std::string_view string_at(size_t i) const { return kind == VectorKind::kCode ? dict->at(uint32_t(ints[i])) : strings[i]; }
  // Exact value as int128 of a kInt/kHuge vector.
  __int128 int_at(size_t i) const { return kind == VectorKind::kHuge ? huge[i] : __int128(ints[i]); }
  double double_at(size_t i) const;  // numeric kinds, decimals unscaled
  Value value_at(size_t i) const;

  // A vector of `n` copies of `v` converted to type `t`.
  static Vector constant(const Value& v, const Type& t, size_t n);
  // Rows idx[0..m) of this vector.
  Vector select(const uint32_t* idx, size_t m) const;
  // Appends all rows of `other` (same type and kind; kCode must share the dictionary).
  void append(const Vector& other);
  // Turns kCode into kString (views into the dictionary).
  void decode_strings();
  // A new arena owned by this vector; strings pushed into it may be viewed by `strings`.
  std::deque<std::string>& new_arena();
};

}  // namespace raydb::exec
