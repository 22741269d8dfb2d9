#include "storage/loaders/tpch_schema.h"

#include "common/error.h"

namespace raydb::tpch {

namespace {
std::vector<ColumnDef> cols(std::initializer_list<std::pair<const char*, Type>> l) {
  std::vector<ColumnDef> v;
  for (auto& [n, t] : l) v.push_back({n, t});
  return v;
}
}  // namespace

const std::vector<TableSchema>& schema() {
  static const std::vector<TableSchema> s = [] {
    const Type I = Type::integer(), V = Type::varchar(), D = Type::date(), M = Type::decimal(15, 2);
    return std::vector<TableSchema>{
        {"lineitem",
         cols({{"l_orderkey", I}, {"l_partkey", I}, {"l_suppkey", I}, {"l_linenumber", I}, {"l_quantity", M},
               {"l_extendedprice", M}, {"l_discount", M}, {"l_tax", M}, {"l_returnflag", V}, {"l_linestatus", V},
               {"l_shipdate", D}, {"l_commitdate", D}, {"l_receiptdate", D}, {"l_shipinstruct", V},
               {"l_shipmode", V}, {"l_comment", V}})},
        {"orders",
         cols({{"o_orderkey", I}, {"o_custkey", I}, {"o_orderstatus", V}, {"o_totalprice", M}, {"o_orderdate", D},
               {"o_orderpriority", V}, {"o_clerk", V}, {"o_shippriority", I}, {"o_comment", V}})},
        {"customer",
         cols({{"c_custkey", I}, {"c_name", V}, {"c_address", V}, {"c_nationkey", I}, {"c_phone", V},
               {"c_acctbal", M}, {"c_mktsegment", V}, {"c_comment", V}})},
        {"part",
         cols({{"p_partkey", I}, {"p_name", V}, {"p_mfgr", V}, {"p_brand", V}, {"p_type", V}, {"p_size", I},
               {"p_container", V}, {"p_retailprice", M}, {"p_comment", V}})},
        {"partsupp",
         cols({{"ps_partkey", I}, {"ps_suppkey", I}, {"ps_availqty", I}, {"ps_supplycost", M}, {"ps_comment", V}})},
        {"supplier",
         cols({{"s_suppkey", I}, {"s_name", V}, {"s_address", V}, {"s_nationkey", I}, {"s_phone", V},
               {"s_acctbal", M}, {"s_comment", V}})},
        {"nation", cols({{"n_nationkey", I}, {"n_name", V}, {"n_regionkey", I}, {"n_comment", V}})},
        {"region", cols({{"r_regionkey", I}, {"r_name", V}, {"r_comment", V}})},
    };
  }();
  return s;
}

const TableSchema& table_schema(std::string_view name) {
  for (const TableSchema& t : schema())
    if (t.name == name) return t;
  fail(ErrorKind::kInvalidInput, "unknown TPC-H table {}", name);
}

}  // namespace raydb::tpch
