// Materializing an RT view: the star join by dense key arrays, then codes, group ids
// and aggregate inputs per joined row.
#include "access/rt_view/view_rows.h"

#include <algorithm>
#include <map>

#include "common/error.h"
#include "rt/mapping/view_grid.h"

namespace raydb::rtview {
namespace {

constexpr uint32_t kNoRow = 0xFFFFFFFFu;
constexpr int64_t kMaxDomain = int64_t{1} << 23;  // codes must fit the Z budget (view_grid.h)

bool integer_physical(const Type& t) {
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDate ||
         t.id == TypeId::kDecimal || t.id == TypeId::kVarchar || t.id == TypeId::kBoolean;
}

// The joined tables: slot 0 is the fact table, slot 1 + j the dimension of join j;
// dim_row[j][fact row] is its partner row.
struct Joined {
  std::vector<TablePtr> tables;
  std::vector<std::string> names;
  std::vector<std::vector<uint32_t>> dim_row;
  std::vector<uint32_t> fact_rows;  // fact rows with every partner, in fact order
};

struct ColRef {
  size_t slot;
  const Column* col;
};

ColRef resolve(const Joined& j, const AttrRef& a) {
  for (size_t s = 0; s < j.tables.size(); ++s) {
    if (!a.table.empty() && !iequals(a.table, j.names[s])) continue;
    const int c = j.tables[s]->find_column(a.column);
    if (c >= 0) {
      const Column& col = j.tables[s]->column(c);
      if (!integer_physical(col.type()))
        fail(ErrorKind::kInvalidInput, "rt view: column {} has type {}, views take integer-coded columns only",
             a.column, col.type().to_string());
      return ColRef{s, &col};
    }
  }
  fail(ErrorKind::kBinder, "rt view: no column {}{}{} in the view's tables", a.table, a.table.empty() ? "" : ".",
       a.column);
}

uint32_t source_row(const Joined& j, size_t slot, uint32_t fact_row) {
  return slot == 0 ? fact_row : j.dim_row[slot - 1][fact_row];
}

// Dense array key - min -> dimension row; the key must be unique.
std::vector<uint32_t> key_positions(const Column& key, const std::string& dim, int64_t& min) {
  const ColumnStats& st = key.stats();
  min = st.min;
  if (key.size() == 0) return {};
  if (st.max - st.min >= (int64_t{1} << 32)) fail(ErrorKind::kInvalidInput, "rt view: key range of {} too wide", dim);
  std::vector<uint32_t> pos(static_cast<size_t>(st.max - st.min + 1), kNoRow);
  for (uint64_t r = 0; r < key.size(); ++r) {
    uint32_t& p = pos[static_cast<size_t>(key.get_int(r) - min)];
    if (p != kNoRow) fail(ErrorKind::kInvalidInput, "rt view: key {} of {} is not unique", key.name(), dim);
    p = static_cast<uint32_t>(r);
  }
  return pos;
}

Joined join(const ViewDefinition& def, const TableResolver& tables) {
  Joined j;
  auto get = [&](const std::string& n) {
    TablePtr t = tables(n);
    if (t == nullptr) fail(ErrorKind::kBinder, "rt view: no table {}", n);
    return t;
  };
  j.tables.push_back(get(def.fact));
  j.names.push_back(def.fact);
  const Table& fact = *j.tables[0];
  if (fact.row_count() >= kNoRow) fail(ErrorKind::kInvalidInput, "rt view: fact table has 2^32 rows or more");
  std::vector<uint8_t> keep(fact.row_count(), 1);
  for (const ViewJoin& vj : def.joins) {
    TablePtr d = get(vj.dimension);
    const int fk = fact.find_column(vj.fact_key), dk = d->find_column(vj.dim_key);
    if (fk < 0 || dk < 0) fail(ErrorKind::kBinder, "rt view: no join column {} / {}", vj.fact_key, vj.dim_key);
    int64_t min = 0;
    const std::vector<uint32_t> pos = key_positions(d->column(dk), vj.dimension, min);
    const Column& f = fact.column(fk);
    std::vector<uint32_t> rows(fact.row_count(), kNoRow);
    for (uint64_t r = 0; r < fact.row_count(); ++r) {
      const int64_t k = f.get_int(r) - min;
      if (k >= 0 && k < static_cast<int64_t>(pos.size())) rows[r] = pos[static_cast<size_t>(k)];
      if (rows[r] == kNoRow) keep[r] = 0;
    }
    j.tables.push_back(std::move(d));
    j.names.push_back(vj.dimension);
    j.dim_row.push_back(std::move(rows));
  }
  for (uint64_t r = 0; r < fact.row_count(); ++r)
    if (keep[r]) j.fact_rows.push_back(static_cast<uint32_t>(r));
  return j;
}

AttrDomain domain_of(const Column& c) {
  AttrDomain d;
  d.name = c.name();
  d.type = c.type();
  if (c.type().id == TypeId::kVarchar) {
    d.dict = c.dictionary_ptr();
    d.size = d.dict ? d.dict->size() : 0;
    return d;
  }
  const ColumnStats& st = c.stats();
  d.min = st.min <= st.max ? st.min : 0;
  const int64_t size = st.min <= st.max ? st.max - st.min + 1 : 0;
  if (size > kMaxDomain)
    fail(ErrorKind::kInvalidInput, "rt view: attribute {} spans {} values, more than the 2^23 codes a view takes",
         c.name(), size);
  d.size = static_cast<uint32_t>(size);
  return d;
}

uint32_t code_at(const Column& c, const AttrDomain& d, uint64_t row) {
  return static_cast<uint32_t>(c.get_int(row) - d.min);  // dictionary codes: min 0
}

void encode_attrs(const Joined& j, const std::vector<AttrRef>& refs, std::vector<AttrDomain>& domains,
                  std::vector<std::vector<uint32_t>>& codes) {
  for (const AttrRef& a : refs) {
    const ColRef c = resolve(j, a);
    domains.push_back(domain_of(*c.col));
    std::vector<uint32_t> v(j.fact_rows.size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = code_at(*c.col, domains.back(), source_row(j, c.slot, j.fact_rows[i]));
    codes.push_back(std::move(v));
  }
}

__int128 eval(const Joined& j, const AggExpr& e, uint32_t fact_row) {
  switch (e.op) {
    case AggExpr::Op::kColumn: {
      const ColRef c = resolve(j, e.column);
      return c.col->get_int(source_row(j, c.slot, fact_row));
    }
    case AggExpr::Op::kConst: return e.constant;
    case AggExpr::Op::kAdd: return eval(j, e.args[0], fact_row) + eval(j, e.args[1], fact_row);
    case AggExpr::Op::kSub: return eval(j, e.args[0], fact_row) - eval(j, e.args[1], fact_row);
    case AggExpr::Op::kMul: return eval(j, e.args[0], fact_row) * eval(j, e.args[1], fact_row);
  }
  return 0;
}

// Group ids: the occurring tuples sorted lexicographically.
void encode_groups(ViewRows& v, const std::vector<std::vector<uint32_t>>& codes) {
  const size_t k = codes.size();
  std::map<std::vector<uint32_t>, uint32_t> ids;
  std::vector<uint32_t> t(k);
  for (uint64_t r = 0; r < v.rows; ++r) {
    for (size_t a = 0; a < k; ++a) t[a] = codes[a][r];
    ids.emplace(t, 0);
  }
  if (ids.size() >= rt::mapping::kViewGroupLimit)
    fail(ErrorKind::kInvalidInput, "rt view: {} group tuples, more than a view takes", ids.size());
  uint32_t g = 0;
  for (auto& [tuple, id] : ids) {
    id = g++;
    v.group_tuples.insert(v.group_tuples.end(), tuple.begin(), tuple.end());
  }
  v.group_count = g;
  v.group_ids.resize(v.rows);
  for (uint64_t r = 0; r < v.rows; ++r) {
    for (size_t a = 0; a < k; ++a) t[a] = codes[a][r];
    v.group_ids[r] = ids.at(t);
  }
}

}  // namespace

std::shared_ptr<ViewRows> materialize_view(const ViewDefinition& def, const TableResolver& tables) {
  const Joined j = join(def, tables);
  auto v = std::make_shared<ViewRows>();
  v->name = def.name;
  v->rows = j.fact_rows.size();
  encode_attrs(j, def.filters, v->filter_domains, v->filter_codes);
  std::vector<std::vector<uint32_t>> gcodes;
  encode_attrs(j, def.groups, v->group_domains, gcodes);
  encode_groups(*v, gcodes);
  for (const AggInputDef& in : def.inputs) {
    std::vector<int64_t> vals(v->rows);
    for (size_t i = 0; i < vals.size(); ++i) {
      const __int128 x = eval(j, in.expr, j.fact_rows[i]);
      if (x > INT64_MAX || x < INT64_MIN)
        fail(ErrorKind::kInvalidInput, "rt view: aggregate input {} does not fit in 64 bits", in.name);
      vals[i] = static_cast<int64_t>(x);
    }
    v->input_names.push_back(in.name.empty() ? in.expr.to_string() : in.name);
    v->inputs.push_back(std::move(vals));
  }
  return v;
}

size_t ViewRows::host_bytes() const {
  size_t b = group_tuples.size() * 4 + group_ids.size() * 4;
  for (const auto& c : filter_codes) b += c.size() * 4;
  for (const auto& c : inputs) b += c.size() * 8;
  return b;
}

Value AttrDomain::decode(uint32_t code) const {
  if (type.id == TypeId::kVarchar) {
    Value v = Value::null(type);
    return dict ? Value::varchar(std::string(dict->at(code))) : v;
  }
  const int64_t x = min + static_cast<int64_t>(code);
  switch (type.id) {
    case TypeId::kInteger: return Value::integer(static_cast<int32_t>(x));
    case TypeId::kDate: return Value::date(static_cast<int32_t>(x));
    case TypeId::kDecimal: return Value::decimal(x, type.precision, type.scale);
    case TypeId::kBoolean: return Value::boolean(x != 0);
    default: return Value::bigint(x);
  }
}

std::optional<std::pair<uint32_t, uint32_t>> AttrDomain::int_range(int64_t lo, int64_t hi) const {
  const int64_t a = std::max<int64_t>(lo, min), b = std::min<int64_t>(hi, min + static_cast<int64_t>(size) - 1);
  if (size == 0 || a > b) return std::nullopt;
  return std::make_pair(static_cast<uint32_t>(a - min), static_cast<uint32_t>(b - min));
}

std::optional<uint32_t> AttrDomain::string_code(std::string_view s) const {
  if (!dict) return std::nullopt;
  return dict->find(s);
}

}  // namespace raydb::rtview
