#pragma once
// raydb types as PostgreSQL sees them: type OIDs and modifiers for RowDescription, and
// values in PostgreSQL's text format.
#include <cstdint>
#include <optional>
#include <string>

#include "raydb/raydb.h"

namespace raydb::server {

namespace oid {
constexpr int32_t kBool = 16, kInt8 = 20, kInt2 = 21, kInt4 = 23, kText = 25, kOid = 26, kFloat4 = 700,
                  kFloat8 = 701, kUnknown = 705, kBpchar = 1042, kVarchar = 1043, kDate = 1082, kTimestamp = 1114, kNumeric = 1700,
                  kName = 19;
}

int32_t type_oid(const Type& t);
int16_t type_size(const Type& t);     // bytes, -1 for variable length
int32_t type_modifier(const Type& t);  // NUMERIC(p,s): ((p << 16) | s) + 4; -1 otherwise

// Row `row` of column `c` in text format; nullopt for NULL.
std::optional<std::string> text_value(const QueryResult::ColumnData& c, size_t row);

}  // namespace raydb::server
