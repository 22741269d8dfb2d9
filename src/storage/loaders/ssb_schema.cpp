#include "storage/loaders/ssb_schema.h"

#include "common/error.h"

namespace raydb::ssb {

namespace {
std::vector<ColumnDef> cols(std::initializer_list<std::pair<const char*, Type>> l) {
  std::vector<ColumnDef> v;
  for (auto& [n, t] : l) v.push_back({n, t});
  return v;
}
}  // namespace

const std::vector<TableSchema>& schema() {
  static const std::vector<TableSchema> s = [] {
    const Type I = Type::integer(), V = Type::varchar();
    return std::vector<TableSchema>{
        {"lineorder",
         cols({{"lo_orderkey", I}, {"lo_linenumber", I}, {"lo_custkey", I}, {"lo_partkey", I}, {"lo_suppkey", I},
               {"lo_orderdate", I}, {"lo_orderpriority", V}, {"lo_shippriority", V}, {"lo_quantity", I},
               {"lo_extendedprice", I}, {"lo_ordtotalprice", I}, {"lo_discount", I}, {"lo_revenue", I},
               {"lo_supplycost", I}, {"lo_tax", I}, {"lo_commitdate", I}, {"lo_shipmode", V}})},
        {"customer",
         cols({{"c_custkey", I}, {"c_name", V}, {"c_address", V}, {"c_city", V}, {"c_nation", V}, {"c_region", V},
               {"c_phone", V}, {"c_mktsegment", V}})},
        {"supplier",
         cols({{"s_suppkey", I}, {"s_name", V}, {"s_address", V}, {"s_city", V}, {"s_nation", V}, {"s_region", V},
               {"s_phone", V}})},
        {"part",
         cols({{"p_partkey", I}, {"p_name", V}, {"p_mfgr", V}, {"p_category", V}, {"p_brand1", V}, {"p_color", V},
               {"p_type", V}, {"p_size", I}, {"p_container", V}})},
        {"date",
         cols({{"d_datekey", I}, {"d_date", V}, {"d_dayofweek", V}, {"d_month", V}, {"d_year", I},
               {"d_yearmonthnum", I}, {"d_yearmonth", V}, {"d_daynuminweek", I}, {"d_daynuminmonth", I},
               {"d_daynuminyear", I}, {"d_monthnuminyear", I}, {"d_weeknuminyear", I}, {"d_sellingseason", V},
               {"d_lastdayinweekfl", V}, {"d_lastdayinmonthfl", V}, {"d_holidayfl", V}, {"d_weekdayfl", V}})},
    };
  }();
  return s;
}

const TableSchema& table_schema(std::string_view name) {
  for (auto& t : schema())
    if (iequals(t.name, name)) return t;
  fail(ErrorKind::kInvalidInput, "unknown SSB table '{}'", name);
}

}  // namespace raydb::ssb
