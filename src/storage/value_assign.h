#pragma once
// Storing a SQL value into a column of a given type, as INSERT and CREATE TABLE AS
// do: PostgreSQL's assignment rules, with every loss that they reject rejected here
// as a one-line error naming the column.
#include <string_view>

#include "storage/column.h"
#include "storage/table.h"

namespace raydb {

// Appends `v` to `column` (of table `table`, for messages):
// - numbers into INTEGER, BIGINT, DECIMAL(p,s), DOUBLE: decimals and doubles are
//   rounded half away from zero to the target's scale (doubles to integers half to
//   even, as PostgreSQL's rint), then range-checked ("out of range" errors);
// - anything into VARCHAR as its text; DATE into DATE or TIMESTAMP (midnight),
//   TIMESTAMP into TIMESTAMP or DATE (its date), BOOLEAN only into BOOLEAN;
// - `literal` strings (VALUES entries written as '...') are parsed as the column's
//   type, as PostgreSQL reads an untyped literal; other strings into non-VARCHAR
//   columns are a type mismatch;
// - NULL is stored as NULL in a nullable column and violates a NOT NULL one (an error).
void append_assigned(ColumnBuilder& column, const Value& v, bool literal, std::string_view table);

// The stored type a query result column of type `t` gets in CREATE TABLE AS and views:
// HUGEINT becomes BIGINT and DECIMAL wider than 18 digits DECIMAL(18,s) (values are
// range-checked when stored). Throws (naming `column`) for types that cannot be stored.
Type storable_type_for(const Type& t, std::string_view column);

// The rows of `src` as rows of `target` (COPY FROM a Parquet file, load --append):
// columns by position, each value assigned as INSERT assigns it (text read as a
// literal). kBinder when the column counts differ.
TablePtr assign_rows(const Table& target, const Table& src);

}  // namespace raydb
