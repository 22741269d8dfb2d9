#include "storage/loaders/jsonl_loader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/error.h"

namespace raydb {

namespace {

using json = nlohmann::ordered_json;  // keys in file order: columns in the order first seen

std::ifstream open_input(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::kIO, "cannot open {}: {}", path, std::strerror(errno));
  return in;
}

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

json parse_line(const std::string& path, uint64_t line_no, const std::string& line) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded()) fail(ErrorKind::kLoad, "{}:{}: not valid JSON", path, line_no);
  if (!j.is_object()) fail(ErrorKind::kLoad, "{}:{}: expected a JSON object, found {}", path, line_no, j.type_name());
  return j;
}

bool is_timestamp_text(const std::string& s) {
  int64_t micros;
  return s.size() >= 19 && parse_timestamp(s, micros);
}

// What a key's values have been so far.
struct KeyGuess {
  std::string name;
  bool ints = false, wide = false, floats = false, dates = false, strings = false, bools = false, nested = false,
       timestamps = false;

  void add(const json& v) {
    if (v.is_null()) return;
    if (v.is_boolean()) {
      bools = true;
    } else if (v.is_number_integer()) {
      ints = true;
      if (v.is_number_unsigned() ? v.get<uint64_t>() > uint64_t(INT32_MAX)
                                 : (v.get<int64_t>() < INT32_MIN || v.get<int64_t>() > INT32_MAX))
        wide = true;
    } else if (v.is_number()) {
      floats = true;
    } else if (v.is_string()) {
      const std::string& s = v.get_ref<const std::string&>();
      int32_t days;
      if (s.size() == 10 && parse_date(s, days))
        dates = true;
      else if (is_timestamp_text(s))
        timestamps = true;
      else
        strings = true;
    } else {
      nested = true;
    }
  }

  Type type(std::vector<std::string>& notes) const {
    const int kinds = int(ints || floats) + int(dates) + int(strings) + int(bools) + int(nested) + int(timestamps);
    if (kinds == 1 && (ints || floats)) return floats ? Type::float64() : wide ? Type::bigint() : Type::integer();
    if (kinds == 1 && dates) return Type::date();
    if (kinds == 1 && bools) return Type::boolean();
    if (kinds == 1 && timestamps) return Type::timestamp();
    if (kinds == 2 && dates && timestamps) return Type::timestamp();  // a date is its midnight
    if (kinds == 1 && nested)
      notes.push_back(fmt::format("column {}: object or array values, which raydb does not store; loaded as VARCHAR "
                                  "(their text)", name));
    return Type::varchar();
  }
};

// The value of `v` stored into column `b` of type `t`; false when it does not fit.
bool append_json(ColumnBuilder& b, const Type& t, const json& v) {
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kBigint: {
      if (!v.is_number_integer()) return false;
      if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)) return false;
      const int64_t x = v.get<int64_t>();
      if (t.id == TypeId::kInteger && (x < INT32_MIN || x > INT32_MAX)) return false;
      b.append_int(x);
      return true;
    }
    case TypeId::kDouble:
      if (!v.is_number()) return false;
      b.append_double(v.get<double>());
      return true;
    case TypeId::kDecimal: {
      int64_t x;
      if (!v.is_number() && !v.is_string()) return false;
      const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
      if (!parse_decimal(text, t.precision, t.scale, x)) return false;
      b.append_int(x);
      return true;
    }
    case TypeId::kDate: {
      int32_t days;
      if (!v.is_string() || !parse_date(v.get_ref<const std::string&>(), days)) return false;
      b.append_int(days);
      return true;
    }
    case TypeId::kVarchar:
      b.append_string(v.is_string() ? v.get_ref<const std::string&>() : v.dump());
      return true;
    case TypeId::kBoolean:
      if (!v.is_boolean()) return false;
      b.append_int(v.get<bool>() ? 1 : 0);
      return true;
    case TypeId::kTimestamp: {
      int64_t micros;
      if (!v.is_string() || !parse_timestamp(v.get_ref<const std::string&>(), micros)) return false;
      b.append_int(micros);
      return true;
    }
    default: return false;
  }
}

std::string excerpt(const json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 40) + "..." : s;
}

}  // namespace

JsonlSniff sniff_jsonl(const std::string& path, size_t sample_lines) {
  std::ifstream in = open_input(path);
  std::vector<KeyGuess> keys;
  std::string line;
  uint64_t line_no = 0;
  size_t seen = 0;
  while (seen < sample_lines && std::getline(in, line)) {
    line_no++;
    if (blank(line)) continue;
    seen++;
    const json j = parse_line(path, line_no, line);
    for (const auto& [k, v] : j.items()) {
      const std::string& key = k;  // clang 14 cannot capture a structured binding
      auto it = std::find_if(keys.begin(), keys.end(), [&key](const KeyGuess& g) { return g.name == key; });
      if (it == keys.end()) {
        keys.push_back(KeyGuess{k});
        it = keys.end() - 1;
      }
      it->add(v);
    }
  }
  if (in.bad()) fail(ErrorKind::kIO, "cannot read {}", path);
  if (keys.empty()) fail(ErrorKind::kLoad, "{}: no keys to guess the columns from", path);
  JsonlSniff out;
  for (const KeyGuess& g : keys) out.schema.push_back({g.name, g.type(out.notes), true});
  return out;
}

TablePtr read_jsonl_table(const std::string& table, const std::vector<ColumnDef>& schema,
                          const std::vector<std::string>& files, bool ignore_unknown_keys) {
  std::vector<ColumnBuilder> builders;
  for (const ColumnDef& d : schema) builders.emplace_back(d.name, d.type, d.nullable);
  std::vector<bool> set(schema.size());
  for (const std::string& path : files) {
    std::ifstream in = open_input(path);
    std::string line;
    uint64_t line_no = 0;
    while (std::getline(in, line)) {
      line_no++;
      if (blank(line)) continue;
      const json j = parse_line(path, line_no, line);
      std::fill(set.begin(), set.end(), false);
      for (const auto& [k, v] : j.items()) {
        size_t c = 0;
        while (c < schema.size() && schema[c].name != k) c++;
        if (c == schema.size()) {
          if (ignore_unknown_keys) continue;
          fail(ErrorKind::kLoad, "{}:{}: key '{}' is not a column (it was not in the sampled lines; give --schema)",
               path, line_no, k);
        }
        if (set[c]) continue;  // a repeated key: the first wins
        set[c] = true;
        if (v.is_null()) {
          if (!schema[c].nullable) fail(ErrorKind::kLoad, "{}:{}: column {} is NOT NULL, found null", path, line_no, k);
          builders[c].append_null(table);
        } else if (!append_json(builders[c], schema[c].type, v)) {
          fail(ErrorKind::kLoad, "{}:{}: column {} ({}): expected a {}, found {}", path, line_no, k,
               schema[c].type.to_string(), schema[c].type.to_string(), excerpt(v));
        }
      }
      for (size_t c = 0; c < schema.size(); c++)
        if (!set[c]) {
          if (!schema[c].nullable)
            fail(ErrorKind::kLoad, "{}:{}: column {} is NOT NULL, the key is missing", path, line_no, schema[c].name);
          builders[c].append_null(table);
        }
    }
    if (in.bad()) fail(ErrorKind::kIO, "cannot read {}", path);
  }
  std::vector<ColumnPtr> cols;
  for (auto& b : builders) cols.push_back(b.finish());
  return std::make_shared<const Table>(table, std::move(cols));
}

}  // namespace raydb
