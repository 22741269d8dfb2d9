#include "sql/temp_table.h"

#include <cmath>

#include "common/error.h"
#include "storage/adopted_column.h"
#include "storage/string_column_build.h"
#include "storage/value_assign.h"

namespace raydb::sql {

namespace {

// The stored form of a result type: BOOLEAN and untyped NULL columns become INTEGER,
// wide integers and decimals their 64-bit forms (values that do not fit are an error).
Type stored_type(const Type& t, const std::string& column) {
  if (t.id == TypeId::kBoolean || t.id == TypeId::kNull) return Type::integer();
  return storable_type_for(t, column);
}

}  // namespace

void append_value_key(std::string& out, const Value& v) {
  if (v.is_null()) {
    out += 'N';
    return;
  }
  out += 'V';
  if (v.type().id == TypeId::kVarchar) {
    const uint64_t n = v.as_string().size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out += v.as_string();
    return;
  }
  if (v.type().id == TypeId::kDouble) {
    double d = v.as_double();
    if (d == 0) d = 0;                     // -0.0 and +0.0
    if (std::isnan(d)) d = std::nan("");  // one NaN
    out.append(reinterpret_cast<const char*>(&d), sizeof d);
    return;
  }
  const __int128 h = v.as_hugeint();
  out.append(reinterpret_cast<const char*>(&h), sizeof h);
}

TempTable TempTable::stored(TablePtr t) {
  TempTable s;
  bool any_null = false;
  for (auto& c : t->columns()) any_null = any_null || c->has_nulls();
  if (!any_null) {
    s.table = std::move(t);
    return s;
  }
  std::vector<ColumnPtr> cols = t->columns();
  s.null_flag.assign(cols.size(), -1);
  for (size_t c = 0; c < t->column_count(); c++) {
    s.types.push_back(t->column(c).type());
    if (!t->column(c).has_nulls()) continue;
    s.null_flag[c] = int(cols.size());
    cols.push_back(t->column(c).null_indicator());
  }
  s.table = std::make_shared<const Table>(t->name(), std::move(cols));
  return s;
}

int TempTable::find_column(std::string_view name) const {
  if (plain.empty()) {
    const int c = table->find_column(name);
    return c >= 0 && size_t(c) < columns() ? c : -1;
  }
  int found = -1;
  for (size_t c = 0; c < plain.size(); c++)
    if (iequals(plain[c], name)) found = found >= 0 ? -2 : int(c);
  return found;
}

bool TempTable::has_qualifier(std::string_view qualifier) const {
  for (auto& q : qualifiers)
    if (iequals(q, qualifier)) return true;
  return false;
}

int TempTable::find_qualified(std::string_view qualifier, std::string_view name) const {
  for (size_t c = 0; c < plain.size(); c++)
    if (iequals(qualifiers[c], qualifier) && iequals(plain[c], name)) return int(c);
  return -1;
}

Value TempTable::value(uint64_t row, size_t c) const {
  if (nullable(c) && table->column(size_t(null_flag[c])).get_int(row) != 0) return Value::null(type(c));
  Value v = table->column(c).get(row);
  if (!is_stored() && types[c].id == TypeId::kBoolean) return Value::boolean(v.as_int() != 0);
  return v;
}

TempTable TempTable::renamed(const std::string& table_name, const std::vector<std::string>& names) const {
  std::vector<ColumnPtr> cols;
  for (size_t c = 0; c < table->column_count(); c++) {
    const Column& col = table->column(c);
    const std::string& n = c < names.size() && c < columns() ? names[c] : col.name();
    for (size_t o = 0; o < cols.size(); o++)
      if (iequals(cols[o]->name(), n))
        fail(ErrorKind::kBinder, "{}: two columns are named {} (rename one)", table_name, n);
    cols.push_back(std::make_shared<const Column>(n, col.type(), col.buffer(), col.size(), col.dictionary_ptr(),
                                                  col.recorded_stats()));
  }
  TempTable t = *this;
  t.table = std::make_shared<const Table>(table_name, std::move(cols));
  return t;
}

TempTableBuilder::TempTableBuilder(std::string table_name, const std::vector<std::string>& names,
                                   const std::vector<Type>& types, std::string what)
    : name_(std::move(table_name)), what_(std::move(what)), types_(types) {
  for (size_t c = 0; c < names.size(); c++) {
    if (names[c].empty()) fail(ErrorKind::kBinder, "{}: column {} has no name (name it with AS)", what_, c + 1);
    for (size_t o = 0; o < c; o++)
      if (iequals(names[o], names[c]))
        fail(ErrorKind::kBinder, "{}: two columns are named {} (rename one with AS)", what_, names[c]);
    if (types[c].id == TypeId::kNull) types_[c] = Type::integer();
    columns_.emplace_back(names[c], stored_type(types[c], name_ + "." + names[c]));
  }
  taken_.resize(names.size());
  nulls_.resize(names.size());
  any_null_.assign(names.size(), false);
}

void TempTableBuilder::reserve(uint64_t rows) {
  reserve_rows_ = rows;
  reserved_.assign(columns_.size(), false);
}

ColumnBuilder& TempTableBuilder::appending(size_t c) {
  if (taken_[c]) fail(ErrorKind::kInternal, "{}: rows appended to column {} taken whole", what_, c + 1);
  if (reserve_rows_ > 0 && !reserved_[c]) {
    reserved_[c] = true;
    columns_[c].reserve(reserve_rows_);
    nulls_[c].reserve(reserve_rows_);
  }
  return columns_[c];
}

void TempTableBuilder::append(size_t c, const Value& v) {
  ColumnBuilder& b = appending(c);
  nulls_[c].push_back(v.is_null() ? 1 : 0);
  if (v.is_null()) {
    any_null_[c] = true;
    switch (b.type().id) {  // a placeholder the indicator hides
      case TypeId::kDouble: b.append_double(0); break;
      case TypeId::kVarchar: b.append_string(""); break;
      default: b.append_int(0); break;
    }
    return;
  }
  if (v.type().id == TypeId::kBoolean) return b.append_int(v.as_int() != 0);
  append_assigned(b, v, false, name_);
}

bool TempTableBuilder::holds_int64(size_t c) const {
  const Type& t = types_[c];
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDate || t.id == TypeId::kBoolean ||
         t.id == TypeId::kTimestamp || (t.id == TypeId::kDecimal && t.precision <= 18);
}

bool TempTableBuilder::append_ints(size_t c, const int64_t* v, const std::vector<uint8_t>& nulls, size_t n) {
  if (!holds_int64(c)) return false;
  ColumnBuilder& b = appending(c);
  for (size_t i = 0; i < n; i++) {
    const bool null = !nulls.empty() && nulls[i];
    nulls_[c].push_back(null);
    any_null_[c] = any_null_[c] || null;
    b.append_int(null ? 0 : v[i]);
  }
  return true;
}

bool TempTableBuilder::append_doubles(size_t c, const double* v, const std::vector<uint8_t>& nulls, size_t n) {
  if (types_[c].id != TypeId::kDouble) return false;
  ColumnBuilder& b = appending(c);
  for (size_t i = 0; i < n; i++) {
    const bool null = !nulls.empty() && nulls[i];
    nulls_[c].push_back(null);
    any_null_[c] = any_null_[c] || null;
    b.append_double(null ? 0 : v[i]);
  }
  return true;
}

bool TempTableBuilder::append_strings(size_t c, const std::string* v, const std::vector<uint8_t>& nulls, size_t n) {
  if (types_[c].id != TypeId::kVarchar) return false;
  ColumnBuilder& b = appending(c);
  for (size_t i = 0; i < n; i++) {
    const bool null = !nulls.empty() && nulls[i];
    nulls_[c].push_back(null);
    any_null_[c] = any_null_[c] || null;
    b.append_string(null ? std::string_view() : std::string_view(v[i]));
  }
  return true;
}

bool TempTableBuilder::can_take(size_t c, size_t values, const std::vector<uint8_t>& nulls, size_t n) const {
  return !taken_[c] && columns_[c].size() == 0 && nulls_[c].empty() && values >= n &&
         (nulls.empty() || nulls.size() >= n);
}

template <typename T>
void TempTableBuilder::take_nulls(size_t c, T* v, std::vector<uint8_t>&& nulls, size_t n) {
  if (nulls.empty()) return;
  const int64_t rows = int64_t(n);
  int64_t count = 0;
#pragma omp parallel for reduction(+ : count) schedule(static) if (rows > (1 << 16))
  for (int64_t i = 0; i < rows; i++) {
    const bool null = nulls[size_t(i)] != 0;
    nulls[size_t(i)] = null;  // flags of 0/1, as the indicator column holds them
    if (null) v[i] = T{};     // the placeholder the indicator hides
    count += null;
  }
  if (count == 0) return;
  any_null_[c] = true;
  nulls.resize(n);
  nulls_[c] = std::move(nulls);
}

bool TempTableBuilder::take_ints(size_t c, std::vector<int64_t>&& v, std::vector<uint8_t>&& nulls, size_t n) {
  if (!holds_int64(c) || !can_take(c, v.size(), nulls, n)) return false;
  take_nulls(c, v.data(), std::move(nulls), n);
  taken_[c] = adopt_int_column(columns_[c].name(), columns_[c].type(), std::move(v), n);
  return true;
}

bool TempTableBuilder::take_doubles(size_t c, std::vector<double>&& v, std::vector<uint8_t>&& nulls, size_t n) {
  if (types_[c].id != TypeId::kDouble || !can_take(c, v.size(), nulls, n)) return false;
  take_nulls(c, v.data(), std::move(nulls), n);
  taken_[c] = adopt_double_column(columns_[c].name(), std::move(v), n);
  return true;
}

bool TempTableBuilder::take_huge(size_t c, const std::vector<__int128>& v, std::vector<uint8_t>&& nulls, size_t n) {
  const Type& t = types_[c];
  const Type& stored = columns_[c].type();
  const bool decimal = t.id == TypeId::kDecimal && t.precision > 18 && stored.scale == t.scale;
  if ((t.id != TypeId::kHugeint && !decimal) || !can_take(c, v.size(), nulls, n)) return false;
  // The stored range, as append_assigned checks it.
  const __int128 hi = decimal ? pow10_i128(stored.precision) - 1 : __int128(INT64_MAX);
  const __int128 lo = decimal ? -hi : __int128(INT64_MIN);
  std::vector<int64_t> out(n);
  const int64_t rows = int64_t(n);
  int64_t bad = 0;
#pragma omp parallel for reduction(+ : bad) schedule(static) if (rows > (1 << 16))
  for (int64_t i = 0; i < rows; i++) {
    if (!nulls.empty() && nulls[size_t(i)]) continue;  // 0, the placeholder
    const __int128 x = v[size_t(i)];
    if (x < lo || x > hi) bad++;
    else out[size_t(i)] = int64_t(x);
  }
  if (bad > 0) return false;
  take_nulls(c, out.data(), std::move(nulls), n);
  taken_[c] = adopt_int_column(columns_[c].name(), stored, std::move(out), n);
  return true;
}

bool TempTableBuilder::take_strings(size_t c, const std::string* v, std::vector<uint8_t>&& nulls, size_t n) {
  if (types_[c].id != TypeId::kVarchar || !can_take(c, n, nulls, n)) return false;
  taken_[c] = build_string_column(columns_[c].name(), v, nulls, n);
  if (nulls.empty()) return true;
  // The flags as take_nulls keeps them (the strings' placeholders are already "").
  int64_t count = 0;
  for (size_t i = 0; i < n; i++) count += nulls[i] = nulls[i] != 0;
  if (count == 0) return true;
  any_null_[c] = true;
  nulls.resize(n);
  nulls_[c] = std::move(nulls);
  return true;
}

bool TempTableBuilder::take_column(size_t c, const ColumnPtr& col) {
  if (!col || col->has_nulls() || !(col->type() == columns_[c].type()) || !can_take(c, 0, {}, 0)) return false;
  col->verify();  // a stored column's check runs before its bytes are shared unchecked
  taken_[c] = std::make_shared<const Column>(columns_[c].name(), col->type(), col->buffer(), col->size(),
                                             col->dictionary_ptr(), col->stats());
  return true;
}

TempTable TempTableBuilder::finish() {
  TempTable t;
  std::vector<ColumnPtr> cols;
  for (size_t c = 0; c < columns_.size(); c++) cols.push_back(taken_[c] ? std::move(taken_[c]) : columns_[c].finish());
  t.types = types_;
  t.null_flag.assign(columns_.size(), -1);
  for (size_t c = 0; c < columns_.size(); c++) {
    if (!any_null_[c]) continue;
    t.null_flag[c] = int(cols.size());
    // The name cannot clash: visible names are checked, and hidden ones are never looked up.
    cols.push_back(flag_column("\x01null_" + std::to_string(c), nulls_[c], nulls_[c].size()));
  }
  t.table = std::make_shared<const Table>(name_, std::move(cols));
  return t;
}

}  // namespace raydb::sql
