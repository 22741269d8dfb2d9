// Materializing an RT view: the star join by dense key arrays, then codes, group ids
// and aggregate inputs per joined row.
#include "access/rt_view/view_rows.h"

#include <algorithm>
#include <optional>

#include "common/error.h"
#include "access/rt_view/dense_ids.h"
#include "access/rt_view/view_group_prune.h"
#include "rt/mapping/view_grid.h"

namespace raydb::rtview {
namespace {

constexpr uint32_t kNoRow = 0xFFFFFFFFu;
constexpr int64_t kMaxDomain = int64_t{1} << 23;  // codes must fit the Z budget (view_grid.h)

bool integer_physical(const Type& t) {
  return t.id == TypeId::kInteger || t.id == TypeId::kBigint || t.id == TypeId::kDate ||
         t.id == TypeId::kDecimal || t.id == TypeId::kVarchar || t.id == TypeId::kBoolean;
}

// Stored integers of an integer-physical column without a per-row call (get_int
// verifies and switches on the width each time: 13 s for one SSB SF 1 view).
struct IntReader {
  const int32_t* i32 = nullptr;
  const int64_t* i64 = nullptr;
  explicit IntReader(const Column& c) {
    if (c.type().physical_width() == 4) i32 = c.data<int32_t>();
    else i64 = c.data<int64_t>();
  }
  int64_t operator[](uint64_t r) const { return i32 != nullptr ? int64_t{i32[r]} : i64[r]; }
};

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

// Fact row -> source row of one slot, as a plain array (null: the fact table itself).
const uint32_t* slot_rows(const Joined& j, size_t slot) { return slot == 0 ? nullptr : j.dim_row[slot - 1].data(); }

// Dense array key - min -> dimension row; the key must be unique.
std::vector<uint32_t> key_positions(const Column& key, const std::string& dim, int64_t& min) {
  const ColumnStats& st = key.stats();
  min = st.min;
  if (key.size() == 0) return {};
  if (st.max - st.min >= (int64_t{1} << 32)) fail(ErrorKind::kInvalidInput, "rt view: key range of {} too wide", dim);
  std::vector<uint32_t> pos(static_cast<size_t>(st.max - st.min + 1), kNoRow);
  const IntReader k(key);
  for (uint64_t r = 0; r < key.size(); ++r) {
    uint32_t& p = pos[static_cast<size_t>(k[r] - min)];
    if (p != kNoRow) fail(ErrorKind::kInvalidInput, "rt view: key {} of {} is not unique", key.name(), dim);
    p = static_cast<uint32_t>(r);
  }
  return pos;
}

// Probes one dimension for every fact row (parallel; each row writes its own slots).
void probe(const Column& f, const std::vector<uint32_t>& pos, int64_t min, std::vector<uint32_t>& rows,
           std::vector<uint8_t>& keep) {
  const IntReader fk(f);
  const int64_t n = static_cast<int64_t>(rows.size()), span = static_cast<int64_t>(pos.size());
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < n; ++r) {
    const int64_t k = fk[static_cast<uint64_t>(r)] - min;
    const uint32_t p = k >= 0 && k < span ? pos[static_cast<size_t>(k)] : kNoRow;
    rows[static_cast<size_t>(r)] = p;
    if (p == kNoRow) keep[static_cast<size_t>(r)] = 0;
  }
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
    if (!integer_physical(fact.column(fk).type()) || !integer_physical(d->column(dk).type()))
      fail(ErrorKind::kInvalidInput, "rt view: join columns {} / {} are not integer-coded", vj.fact_key, vj.dim_key);
    int64_t min = 0;
    const std::vector<uint32_t> pos = key_positions(d->column(dk), vj.dimension, min);
    std::vector<uint32_t> rows(fact.row_count(), kNoRow);
    probe(fact.column(fk), pos, min, rows, keep);
    j.tables.push_back(std::move(d));
    j.names.push_back(vj.dimension);
    j.dim_row.push_back(std::move(rows));
  }
  j.fact_rows.reserve(fact.row_count());
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

// Codes of one attribute for every view row (parallel); dictionary codes have min 0.
void encode_attrs(const Joined& j, const std::vector<AttrRef>& refs, std::vector<AttrDomain>& domains,
                  std::vector<std::vector<uint32_t>>& codes) {
  for (const AttrRef& a : refs) {
    const ColRef c = resolve(j, a);
    domains.push_back(domain_of(*c.col));
    const int64_t min = domains.back().min;
    const IntReader col(*c.col);
    const uint32_t* via = slot_rows(j, c.slot);
    const uint32_t* fr = j.fact_rows.data();
    std::vector<uint32_t> v(j.fact_rows.size());
    const int64_t n = static_cast<int64_t>(v.size());
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t f = fr[i];
      v[static_cast<size_t>(i)] = static_cast<uint32_t>(col[via ? via[f] : f] - min);
    }
    codes.push_back(std::move(v));
  }
}

// An aggregate input with its columns resolved once (not per row).
struct BoundExpr {
  AggExpr::Op op = AggExpr::Op::kConst;
  const uint32_t* via = nullptr;  // fact row -> source row (null: the fact table)
  std::optional<IntReader> col;
  int64_t constant = 0;
  std::vector<BoundExpr> args;

  __int128 eval(uint32_t fact_row) const {
    switch (op) {
      case AggExpr::Op::kColumn: return (*col)[via ? via[fact_row] : fact_row];
      case AggExpr::Op::kConst: return constant;
      case AggExpr::Op::kAdd: return args[0].eval(fact_row) + args[1].eval(fact_row);
      case AggExpr::Op::kSub: return args[0].eval(fact_row) - args[1].eval(fact_row);
      case AggExpr::Op::kMul: return args[0].eval(fact_row) * args[1].eval(fact_row);
    }
    return 0;
  }
};

BoundExpr bind(const Joined& j, const AggExpr& e) {
  BoundExpr b;
  b.op = e.op;
  b.constant = e.constant;
  if (e.op == AggExpr::Op::kColumn) {
    const ColRef c = resolve(j, e.column);
    b.via = slot_rows(j, c.slot);
    b.col.emplace(*c.col);
  }
  for (const AggExpr& a : e.args) b.args.push_back(bind(j, a));
  return b;
}

std::vector<int64_t> evaluate_input(const Joined& j, const AggInputDef& in) {
  const BoundExpr e = bind(j, in.expr);
  std::vector<int64_t> vals(j.fact_rows.size());
  const int64_t n = static_cast<int64_t>(vals.size());
  bool overflow = false;
#pragma omp parallel for schedule(static) reduction(|| : overflow)
  for (int64_t i = 0; i < n; ++i) {
    const __int128 x = e.eval(j.fact_rows[static_cast<size_t>(i)]);
    if (x > INT64_MAX || x < INT64_MIN) overflow = true;
    vals[static_cast<size_t>(i)] = static_cast<int64_t>(x);
  }
  if (overflow) fail(ErrorKind::kInvalidInput, "rt view: aggregate input {} does not fit in 64 bits", in.name);
  return vals;
}

// Group ids: the occurring tuples sorted lexicographically, one attribute at a time
// (each step renumbers (prefix id, next code) densely, which keeps the order).
void encode_groups(ViewRows& v, const std::vector<std::vector<uint32_t>>& codes) {
  const size_t k = codes.size();
  v.group_ids.assign(v.rows, 0);
  uint64_t count = v.rows != 0 ? 1 : 0;
  for (size_t a = 0; a < k && count != 0; ++a) {
    count = densify(v.group_ids, codes[a], count, std::max<uint32_t>(1, v.group_domains[a].size));
    // Prefixes have no more distinct tuples than the whole: stop as soon as one is over.
    if (count >= rt::mapping::kViewGroupLimit)
      fail(ErrorKind::kInvalidInput, "rt view: {} group tuples{}, more than a view takes", count,
           a + 1 < k ? " or more" : "");
  }
  v.group_count = static_cast<uint32_t>(count);
  std::vector<uint32_t> rep(count, kNoRow);  // the first row of each group
  for (uint64_t r = 0; r < v.rows; ++r)
    if (rep[v.group_ids[r]] == kNoRow) rep[v.group_ids[r]] = static_cast<uint32_t>(r);
  v.group_tuples.resize(count * k);
  for (uint64_t g = 0; g < count; ++g)
    for (size_t a = 0; a < k; ++a) v.group_tuples[g * k + a] = codes[a][rep[g]];
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
    v->input_names.push_back(in.name.empty() ? in.expr.to_string() : in.name);
    v->inputs.push_back(evaluate_input(j, in));
  }
  derive_group_filter_codes(*v);
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
