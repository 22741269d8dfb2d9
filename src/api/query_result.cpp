#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "common/utf8_text.h"
#include "raydb/raydb.h"

namespace raydb {

Value QueryResult::get(size_t row, size_t col) const {
  const ColumnData& c = columns_[col];
  if (!c.nulls.empty() && c.nulls[row]) return Value::null(c.type);
  switch (c.type.id) {
    case TypeId::kNull: return Value::null();
    case TypeId::kBoolean: return Value::boolean(c.ints[row] != 0);
    case TypeId::kInteger: return Value::integer(int32_t(c.ints[row]));
    case TypeId::kBigint: return Value::bigint(c.ints[row]);
    case TypeId::kHugeint: return Value::hugeint(c.huge[row]);
    case TypeId::kDouble: return Value::float64(c.doubles[row]);
    case TypeId::kDecimal:
      return c.type.precision > 18 ? Value::decimal_wide(c.huge[row], c.type.precision, c.type.scale)
                                   : Value::decimal(c.ints[row], c.type.precision, c.type.scale);
    case TypeId::kDate: return Value::date(int32_t(c.ints[row]));
    case TypeId::kTimestamp: return Value::timestamp(c.ints[row]);
    case TypeId::kVarchar: return Value::varchar(c.strings[row]);
  }
  return Value::null();
}

OutputFormat parse_output_format(std::string_view name) {
  if (name == "table") return OutputFormat::kTable;
  if (name == "csv") return OutputFormat::kCsv;
  if (name == "json") return OutputFormat::kJson;
  fail(ErrorKind::kInvalidInput, "unknown format '{}' (expected table, csv or json)", name);
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

bool right_aligned(const Type& t) { return t.is_numeric(); }

}  // namespace

std::string format_result(const QueryResult& r, OutputFormat f) {
  const size_t nc = r.column_count(), nr = r.row_count();
  std::string out;
  if (f == OutputFormat::kCsv) {
    for (size_t c = 0; c < nc; c++) out += (c ? "," : "") + csv_field(r.column_name(c));
    out += "\n";
    for (size_t i = 0; i < nr; i++) {
      for (size_t c = 0; c < nc; c++) {
        Value v = r.get(i, c);
        out += (c ? "," : "") + (v.is_null() ? std::string() : csv_field(v.to_string()));
      }
      out += "\n";
    }
    return out;
  }
  if (f == OutputFormat::kJson) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (size_t i = 0; i < nr; i++) {
      nlohmann::ordered_json row = nlohmann::ordered_json::object();
      for (size_t c = 0; c < nc; c++) {
        Value v = r.get(i, c);
        const std::string& name = r.column_name(c);
        if (v.is_null()) {
          row[name] = nullptr;
        } else if (v.type().id == TypeId::kInteger || v.type().id == TypeId::kBigint) {
          row[name] = v.as_int();
        } else if (v.type().id == TypeId::kDouble) {
          // JSON has no NaN or infinity (nlohmann would print null, the same as SQL
          // NULL): strings, as DuckDB's JSON writes them.
          const double d = v.as_double();
          if (std::isnan(d))
            row[name] = "NaN";
          else if (std::isinf(d))
            row[name] = d > 0 ? "Infinity" : "-Infinity";
          else
            row[name] = d;
        } else if (v.type().id == TypeId::kBoolean) {
          row[name] = v.as_int() != 0;
        } else if (v.type().id == TypeId::kHugeint || v.type().id == TypeId::kDecimal) {
          // Exact: JSON numbers from text (nlohmann keeps 64-bit ints exact; wider
          // values and decimals go as their exact decimal text).
          std::string s = v.to_string();
          if (v.type().id == TypeId::kHugeint && v.as_hugeint() >= INT64_MIN && v.as_hugeint() <= INT64_MAX)
            row[name] = int64_t(v.as_hugeint());
          else
            row[name] = nlohmann::ordered_json::parse(s);
        } else {
          row[name] = v.to_string();
        }
      }
      rows.push_back(std::move(row));
    }
    // Loads reject invalid UTF-8; a database written before that policy may still hold
    // some: replace it (U+FFFD) rather than fail the whole result.
    return rows.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  }
  // Aligned text table.
  std::vector<std::vector<std::string>> cells(nr, std::vector<std::string>(nc));
  std::vector<size_t> width(nc);
  // Widths in UTF-8 characters, so non-ASCII text (upper('é'), names) lines up.
  for (size_t c = 0; c < nc; c++) width[c] = utf8::length(r.column_name(c));
  for (size_t i = 0; i < nr; i++)
    for (size_t c = 0; c < nc; c++) {
      cells[i][c] = r.get(i, c).to_string();
      width[c] = std::max(width[c], utf8::length(cells[i][c]));
    }
  auto line = [&]() {
    std::string s = "+";
    for (size_t c = 0; c < nc; c++) s += std::string(width[c] + 2, '-') + "+";
    return s + "\n";
  };
  auto pad = [&](const std::string& s, size_t w, bool right) {
    const size_t chars = utf8::length(s);
    std::string fill(w > chars ? w - chars : 0, ' ');
    return right ? fill + s : s + fill;
  };
  out += line();
  out += "|";
  for (size_t c = 0; c < nc; c++) out += " " + pad(r.column_name(c), width[c], false) + " |";
  out += "\n" + line();
  for (size_t i = 0; i < nr; i++) {
    out += "|";
    for (size_t c = 0; c < nc; c++) out += " " + pad(cells[i][c], width[c], right_aligned(r.column_type(c))) + " |";
    out += "\n";
  }
  out += line();
  out += fmt::format("{} row{}\n", nr, nr == 1 ? "" : "s");
  return out;
}

}  // namespace raydb
