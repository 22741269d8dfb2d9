#pragma once
// Extended-query parameters: raydb's SQL has no placeholders, so a bound statement is
// its text with each $n replaced by a SQL literal of the parameter's value. Literals
// are built from validated values only (numbers checked as numbers, strings quoted with
// '' doubled), so a parameter can never become SQL of its own.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace raydb::server {

// The highest $n in `sql` outside strings, quoted identifiers and comments (0: none).
int count_parameters(std::string_view sql);

// `sql` with $n replaced by literals[n-1]; a $n beyond the list is an error (SqlError
// 08P01).
std::string substitute_parameters(std::string_view sql, const std::vector<std::string>& literals);

// The SQL literal of one parameter sent in text format with type `oid` (0: unspecified,
// taken as a string); nullopt value: NULL. Throws SqlError on a value its type rejects
// or a type this server does not take.
std::string parameter_literal(const std::optional<std::string>& value, int32_t oid);

// A binary-format parameter as text (integers, floats, booleans, strings); throws
// SqlError for other types.
std::string binary_parameter_text(std::string_view bytes, int32_t oid);

}  // namespace raydb::server
