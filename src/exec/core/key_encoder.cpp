#include "exec/core/key_encoder.h"
#include "common/int_math.h"

#include <bit>
#include <cstring>

#include "common/error.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/exact_double_sum.h"

namespace raydb::exec {

int64_t StringInterner::intern(std::string_view s) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ids_.find(s);
  if (it != ids_.end()) return it->second;
  strings_.emplace_back(s);
  int64_t id = int64_t(strings_.size() - 1);
  ids_.emplace(strings_.back(), id);
  return id;
}

std::string_view StringInterner::get(int64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return strings_[size_t(id)];
}

KeySpec group_key_spec(const plan::Expr& e, const plan::LogicalQuery& q) {
  KeySpec s;
  s.type = e.type;
  s.kind = kind_of(e.type);
  s.nullable = may_be_null(e);
  if (e.kind == plan::ExprKind::kColumnRef) {
    const Column& c = q.tables[size_t(e.table_index)].table->column(size_t(e.column_index));
    if (c.type().id == TypeId::kVarchar) {
      s.kind = VectorKind::kCode;
      s.dict = c.dictionary();
      s.has_range = c.dictionary()->size() > 0;
      s.min = 0;
      s.max = int64_t(c.dictionary()->size()) - 1;
    } else if (c.type().id != TypeId::kDouble && c.stats().min <= c.stats().max) {
      s.has_range = true;
      s.min = c.stats().min;
      s.max = c.stats().max;
    }
  }
  return s;
}

KeyEncoder::KeyEncoder(std::vector<KeySpec> specs, StringInterner* interner)
    : specs_(std::move(specs)), interner_(interner) {
  // Packing: every key integral with a known range, no NULLs, all bits fit 63.
  int bits = 0;
  bool can_pack = !specs_.empty();
  unsigned __int128 range = 1;
  for (auto& s : specs_) {
    if (!s.has_range || s.nullable || !(s.kind == VectorKind::kInt || s.kind == VectorKind::kCode) ||
        unsigned_span(s.min, s.max) >= (uint64_t(1) << 62)) {
      can_pack = false;
      break;
    }
    uint64_t r = value_count(s.min, s.max);
    int b = r <= 1 ? 0 : 64 - std::countl_zero(r - 1);
    shifts_.push_back(bits);
    bits += b;
    range *= (unsigned __int128)(uint64_t(1) << b);
  }
  if (can_pack && bits <= 62) {
    packed_ = true;
    width_ = 1;
    packed_range_ = uint64_t(range);
    return;
  }
  shifts_.clear();
  for (auto& s : specs_) {
    word_of_.push_back(width_);
    width_ += s.kind == VectorKind::kHuge ? 2 : 1;
    if (s.nullable) null_word_ = true;
  }
  if (null_word_) width_++;  // last word: bit k set when key k is NULL
  if (specs_.size() > 63) fail(ErrorKind::kNotImplemented, "at most 63 grouping keys are supported");
}

void KeyEncoder::encode(const std::vector<Vector>& keys, size_t n, std::vector<int64_t>& out) const {
  const size_t base = out.size();
  out.resize(base + n * size_t(width_), 0);
  int64_t* w = out.data() + base;
  if (packed_) {
    for (size_t k = 0; k < specs_.size(); k++) {
      const int64_t* v = keys[k].ints.data();
      const int64_t mn = specs_[k].min;
      const int sh = shifts_[k];
      if (k == 0)
        for (size_t i = 0; i < n; i++) w[i] = int64_t(unsigned_span(mn, v[i]) << sh);
      else
        for (size_t i = 0; i < n; i++) w[i] |= int64_t(unsigned_span(mn, v[i]) << sh);
    }
    return;
  }
  const size_t W = size_t(width_);
  for (size_t k = 0; k < specs_.size(); k++) {
    const Vector& v = keys[k];
    const size_t off = size_t(word_of_[k]);
    for (size_t i = 0; i < n; i++) {
      int64_t* row = w + i * W;
      if (v.is_null(i)) {
        row[W - 1] |= int64_t(1) << k;
        continue;  // value words stay 0
      }
      // By the key's declared kind: a kString key may arrive as codes (a cast of a
      // column), so strings go through string_at and the interner.
      switch (specs_[k].kind) {
        case VectorKind::kInt:
        case VectorKind::kCode: row[off] = v.ints[i]; break;
        case VectorKind::kDouble: row[off] = int64_t(same_value_bits(double_bits(v.doubles[i]))); break;
        case VectorKind::kHuge: {
          __int128 h = v.int_at(i);
          row[off] = int64_t(uint64_t(h));
          row[off + 1] = int64_t(h >> 64);
          break;
        }
        case VectorKind::kString: row[off] = interner_->intern(v.string_at(i)); break;
      }
    }
  }
}

std::vector<Vector> KeyEncoder::decode(const int64_t* words, size_t count) const {
  std::vector<Vector> out;
  const size_t W = size_t(width_);
  for (size_t k = 0; k < specs_.size(); k++) {
    const KeySpec& s = specs_[k];
    Vector v(s.type, count);
    if (s.kind == VectorKind::kCode) {
      v.kind = VectorKind::kCode;
      v.strings.clear();
      v.ints.resize(count);
      v.dict = s.dict;
    }
    for (size_t i = 0; i < count; i++) {
      if (packed_) {
        uint64_t r = value_count(s.min, s.max);
        int b = r <= 1 ? 0 : 64 - std::countl_zero(r - 1);
        uint64_t mask = b == 0 ? 0 : (b == 64 ? ~uint64_t(0) : (uint64_t(1) << b) - 1);
        v.ints[i] = int64_t((uint64_t(words[i]) >> shifts_[k]) & mask) + s.min;
        continue;
      }
      const int64_t* row = words + i * W;
      if (null_word_ && (row[W - 1] >> k & 1)) {
        v.set_null(i);
        continue;
      }
      const size_t off = size_t(word_of_[k]);
      switch (v.kind) {
        case VectorKind::kInt:
        case VectorKind::kCode: v.ints[i] = row[off]; break;
        case VectorKind::kDouble: std::memcpy(&v.doubles[i], &row[off], 8); break;
        case VectorKind::kHuge:
          v.huge[i] = (__int128(row[off + 1]) << 64) | __int128(uint64_t(row[off]));
          break;
        case VectorKind::kString: v.strings[i] = interner_->get(row[off]); break;
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace raydb::exec
