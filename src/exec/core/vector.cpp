#include "exec/core/vector.h"

#include "common/error.h"
#include "common/prefault_pages.h"

namespace raydb::exec {

VectorKind kind_of(const Type& t) {
  switch (t.id) {
    case TypeId::kHugeint: return VectorKind::kHuge;
    case TypeId::kDecimal: return t.precision > 18 ? VectorKind::kHuge : VectorKind::kInt;
    case TypeId::kDouble: return VectorKind::kDouble;
    case TypeId::kVarchar: return VectorKind::kString;
    default: return VectorKind::kInt;
  }
}

Vector::Vector(Type t, size_t n) : type(t), kind(kind_of(t)), size(n) {
  // Zeroed as before; a large payload's fresh pages are faulted in on all threads first
  // (a star block's 1.3 M-group keys and aggregates, prefault_pages.h).
  switch (kind) {
    case VectorKind::kInt:
    case VectorKind::kCode: zeroed_resize(ints, n); break;
    case VectorKind::kHuge: zeroed_resize(huge, n); break;
    case VectorKind::kDouble: zeroed_resize(doubles, n); break;
    case VectorKind::kString: zeroed_resize(strings, n); break;
  }
}

void Vector::set_null(size_t i) {
  if (nulls.empty()) nulls.assign(size, 0);
  nulls[i] = 1;
}

double Vector::double_at(size_t i) const {
  switch (kind) {
    case VectorKind::kDouble: return doubles[i];
    case VectorKind::kHuge:
      return type.id == TypeId::kDecimal ? double(huge[i]) / double(pow10_i128(type.scale)) : double(huge[i]);
    case VectorKind::kInt:
      return type.id == TypeId::kDecimal ? double(ints[i]) / double(pow10_i64(type.scale)) : double(ints[i]);
    default: fail(ErrorKind::kInternal, "double_at on a string vector");
  }
}

Value Vector::value_at(size_t i) const {
  if (is_null(i)) return Value::null(type);
  switch (type.id) {
    case TypeId::kNull: return Value::null();
    case TypeId::kBoolean: return Value::boolean(ints[i] != 0);
    case TypeId::kInteger: return Value::integer(int32_t(ints[i]));
    case TypeId::kBigint: return Value::bigint(ints[i]);
    case TypeId::kHugeint: return Value::hugeint(huge[i]);
    case TypeId::kDouble: return Value::float64(doubles[i]);
    case TypeId::kDecimal:
      if (kind == VectorKind::kHuge) return Value::decimal_wide(huge[i], type.precision, type.scale);
      return Value::decimal(ints[i], type.precision, type.scale);
    case TypeId::kDate: return Value::date(int32_t(ints[i]));
    case TypeId::kTimestamp: return Value::timestamp(ints[i]);
    case TypeId::kVarchar: return Value::varchar(std::string(string_at(i)));
  }
  return Value::null();
}

Vector Vector::constant(const Value& v, const Type& t, size_t n) {
  Vector r(t, n);
  if (v.is_null()) {
    r.nulls.assign(n, 1);
    return r;
  }
  switch (r.kind) {
    case VectorKind::kInt: {
      int64_t x = v.as_int();
      if (t.id == TypeId::kDecimal && v.type().id != TypeId::kDecimal) x *= pow10_i64(t.scale);
      if (t.id == TypeId::kDecimal && v.type().id == TypeId::kDecimal && v.type().scale < t.scale)
        x *= pow10_i64(t.scale - v.type().scale);
      std::fill(r.ints.begin(), r.ints.end(), x);
      break;
    }
    case VectorKind::kHuge: {
      __int128 x = v.as_hugeint();
      int from = v.type().id == TypeId::kDecimal ? v.type().scale : 0;
      if (t.id == TypeId::kDecimal && from < t.scale) x *= pow10_i128(t.scale - from);
      std::fill(r.huge.begin(), r.huge.end(), x);
      break;
    }
    case VectorKind::kDouble: std::fill(r.doubles.begin(), r.doubles.end(), v.as_double()); break;
    case VectorKind::kString:
    case VectorKind::kCode: {
      auto& arena = r.new_arena();
      arena.push_back(v.type().id == TypeId::kVarchar ? v.as_string() : v.to_string());
      std::string_view sv = arena.back();
      std::fill(r.strings.begin(), r.strings.end(), sv);
      break;
    }
  }
  return r;
}

Vector Vector::select(const uint32_t* idx, size_t m) const {
  Vector r;
  r.type = type;
  r.kind = kind;
  r.size = m;
  r.dict = dict;
  r.owners = owners;
  switch (kind) {
    case VectorKind::kInt:
    case VectorKind::kCode:
      r.ints.resize(m);
      for (size_t i = 0; i < m; i++) r.ints[i] = ints[idx[i]];
      break;
    case VectorKind::kHuge:
      r.huge.resize(m);
      for (size_t i = 0; i < m; i++) r.huge[i] = huge[idx[i]];
      break;
    case VectorKind::kDouble:
      r.doubles.resize(m);
      for (size_t i = 0; i < m; i++) r.doubles[i] = doubles[idx[i]];
      break;
    case VectorKind::kString:
      r.strings.resize(m);
      for (size_t i = 0; i < m; i++) r.strings[i] = strings[idx[i]];
      break;
  }
  if (!nulls.empty()) {
    r.nulls.resize(m);
    for (size_t i = 0; i < m; i++) r.nulls[i] = nulls[idx[i]];
  }
  return r;
}

void Vector::append(const Vector& o) {
  if (o.size == 0) return;
  if (size == 0 && ints.empty() && huge.empty() && doubles.empty() && strings.empty()) {
    Type t = type;
    *this = o;
    if (t.id != TypeId::kNull) type = t;
    return;
  }
  if (kind == VectorKind::kCode && (o.kind != VectorKind::kCode || o.dict != dict)) decode_strings();
  Vector other = o;
  if (kind == VectorKind::kString && other.kind == VectorKind::kCode) other.decode_strings();
  if (kind != other.kind) fail(ErrorKind::kInternal, "append of mismatched vectors");
  if (!nulls.empty() || !other.nulls.empty()) {
    nulls.resize(size, 0);
    if (other.nulls.empty())
      nulls.resize(size + other.size, 0);
    else
      nulls.insert(nulls.end(), other.nulls.begin(), other.nulls.end());
  }
  switch (kind) {
    case VectorKind::kInt:
    case VectorKind::kCode: ints.insert(ints.end(), other.ints.begin(), other.ints.end()); break;
    case VectorKind::kHuge: huge.insert(huge.end(), other.huge.begin(), other.huge.end()); break;
    case VectorKind::kDouble: doubles.insert(doubles.end(), other.doubles.begin(), other.doubles.end()); break;
    case VectorKind::kString:
      strings.insert(strings.end(), other.strings.begin(), other.strings.end());
      owners.insert(owners.end(), other.owners.begin(), other.owners.end());
      break;
  }
  size += other.size;
}

std::deque<std::string>& Vector::new_arena() {
  auto a = std::make_shared<std::deque<std::string>>();
  auto& ref = *a;
  owners.push_back(std::move(a));
  return ref;
}

void Vector::decode_strings() {
  if (kind != VectorKind::kCode) return;
  strings.resize(size);
  for (size_t i = 0; i < size; i++) strings[i] = dict->at(uint32_t(ints[i]));
  ints.clear();
  kind = VectorKind::kString;
}

}  // namespace raydb::exec
