#include "access/rt_view/view_definition.h"

namespace raydb::rtview {

std::string AggExpr::to_string() const {
  switch (op) {
    case Op::kColumn: return column.table.empty() ? column.column : column.table + "." + column.column;
    case Op::kConst: return std::to_string(constant);
    case Op::kAdd: return "(" + args[0].to_string() + " + " + args[1].to_string() + ")";
    case Op::kSub: return "(" + args[0].to_string() + " - " + args[1].to_string() + ")";
    case Op::kMul: return "(" + args[0].to_string() + " * " + args[1].to_string() + ")";
  }
  return "?";
}

}  // namespace raydb::rtview
