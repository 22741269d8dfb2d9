// The JSON form of a view definition, as the catalog persists it.
#include <nlohmann/json.hpp>

#include "access/rt_view/view_definition.h"
#include "common/error.h"

namespace raydb::rtview {
namespace {

using nlohmann::json;

json attr_json(const AttrRef& a) { return json{{"table", a.table}, {"column", a.column}}; }
AttrRef attr_from(const json& j) { return AttrRef{j.at("table").get<std::string>(), j.at("column").get<std::string>()}; }

json expr_json(const AggExpr& e) {
  switch (e.op) {
    case AggExpr::Op::kColumn: return json{{"column", attr_json(e.column)}};
    case AggExpr::Op::kConst: return json{{"const", e.constant}};
    default: break;
  }
  const char* op = e.op == AggExpr::Op::kAdd ? "+" : e.op == AggExpr::Op::kSub ? "-" : "*";
  return json{{"op", op}, {"args", json::array({expr_json(e.args.at(0)), expr_json(e.args.at(1))})}};
}

AggExpr expr_from(const json& j) {
  if (j.contains("column")) {
    const AttrRef a = attr_from(j.at("column"));
    return AggExpr::col(a.column, a.table);
  }
  if (j.contains("const")) return AggExpr::lit(j.at("const").get<int64_t>());
  const std::string op = j.at("op").get<std::string>();
  const AggExpr::Op o = op == "+" ? AggExpr::Op::kAdd : op == "-" ? AggExpr::Op::kSub : AggExpr::Op::kMul;
  if (op != "+" && op != "-" && op != "*") throw json::other_error::create(501, "unknown operator " + op, nullptr);
  return AggExpr::binary(o, expr_from(j.at("args").at(0)), expr_from(j.at("args").at(1)));
}

}  // namespace

std::string definition_to_json(const ViewDefinition& d) {
  json j{{"name", d.name}, {"fact", d.fact}};
  j["joins"] = json::array();
  for (const ViewJoin& vj : d.joins)
    j["joins"].push_back({{"dimension", vj.dimension}, {"fact_key", vj.fact_key}, {"dim_key", vj.dim_key}});
  j["filters"] = json::array();
  for (const AttrRef& a : d.filters) j["filters"].push_back(attr_json(a));
  j["groups"] = json::array();
  for (const AttrRef& a : d.groups) j["groups"].push_back(attr_json(a));
  j["inputs"] = json::array();
  for (const AggInputDef& in : d.inputs) j["inputs"].push_back({{"name", in.name}, {"expr", expr_json(in.expr)}});
  return j.dump();
}

ViewDefinition definition_from_json(const std::string& text) {
  try {
    const json j = json::parse(text);
    ViewDefinition d;
    d.name = j.at("name").get<std::string>();
    d.fact = j.at("fact").get<std::string>();
    for (const json& vj : j.at("joins"))
      d.joins.push_back({vj.at("dimension").get<std::string>(), vj.at("fact_key").get<std::string>(),
                         vj.at("dim_key").get<std::string>()});
    for (const json& a : j.at("filters")) d.filters.push_back(attr_from(a));
    for (const json& a : j.at("groups")) d.groups.push_back(attr_from(a));
    for (const json& in : j.at("inputs")) d.inputs.push_back({in.at("name").get<std::string>(), expr_from(in.at("expr"))});
    return d;
  } catch (const json::exception& e) {
    fail(ErrorKind::kCatalog, "rt view definition is corrupted: {}", e.what());
  }
}

}  // namespace raydb::rtview
