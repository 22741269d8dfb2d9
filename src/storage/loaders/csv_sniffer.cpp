#include "storage/loaders/csv_sniffer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>

#include "common/error.h"

namespace raydb {

namespace {

struct SampleField {
  std::string text;
  bool quoted = false;
};
using SampleRecord = std::vector<SampleField>;

std::string read_prefix(const std::string& path, size_t limit, bool& whole) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::kIO, "cannot open {}: {}", path, std::strerror(errno));
  std::string data(limit + 1, '\0');
  in.read(data.data(), std::streamsize(limit + 1));
  if (in.bad()) fail(ErrorKind::kIO, "cannot read {}", path);
  data.resize(size_t(in.gcount()));
  whole = data.size() <= limit;
  if (!whole) data.resize(limit);
  return data;
}

// Splits `text` into records of fields (RFC 4180 quotes; blank lines skipped). A
// record cut off by the end of a partial sample is dropped. `stray_quote` is set when
// a quote sits inside an unquoted field, which the loader refuses.
std::vector<SampleRecord> split_sample(const std::string& text, char delim, bool whole, size_t max_records,
                                       bool& stray_quote) {
  std::vector<SampleRecord> records;
  size_t p = 0;
  const size_t n = text.size();
  stray_quote = false;
  while (p < n && records.size() < max_records) {
    if (text[p] == '\n' || (text[p] == '\r' && (p + 1 == n || text[p + 1] == '\n'))) {
      p += text[p] == '\r' && p + 1 < n ? 2 : 1;
      continue;
    }
    SampleRecord rec;
    bool complete = false;
    while (true) {
      SampleField f;
      if (p < n && text[p] == '"') {
        f.quoted = true;
        p++;
        bool closed = false;
        while (p < n) {
          if (text[p] == '"') {
            if (p + 1 < n && text[p + 1] == '"') {
              f.text += '"';
              p += 2;
              continue;
            }
            p++;
            closed = true;
            break;
          }
          f.text += text[p++];
        }
        if (!closed) break;  // runs past the sample
        while (p < n && text[p] != delim && text[p] != '\n' && text[p] != '\r') f.text += text[p++];
      } else {
        while (p < n && text[p] != delim && text[p] != '\n' && !(text[p] == '\r' && (p + 1 == n || text[p + 1] == '\n'))) {
          if (text[p] == '"') stray_quote = true;
          f.text += text[p++];
        }
      }
      rec.push_back(std::move(f));
      if (p < n && text[p] == delim) {
        p++;
        continue;
      }
      if (p < n) {  // a line end
        p += text[p] == '\r' && p + 1 < n ? 2 : 1;
        complete = true;
      } else {
        complete = whole;
      }
      break;
    }
    if (!complete) break;
    records.push_back(std::move(rec));
  }
  return records;
}

// How well a delimiter splits the sample: records whose field count is the most common
// one, and that count.
struct Split {
  char delimiter = ',';
  std::vector<SampleRecord> records;
  size_t columns = 0;
  size_t consistent = 0;
  bool stray_quote = false;
};

Split try_delimiter(const std::string& text, char delim, bool whole, size_t max_records) {
  Split s;
  s.delimiter = delim;
  s.records = split_sample(text, delim, whole, max_records, s.stray_quote);
  std::map<size_t, size_t> counts;
  for (const SampleRecord& r : s.records) counts[r.size()]++;
  for (auto [cols, k] : counts)
    if (k > s.consistent || (k == s.consistent && cols > s.columns)) {
      s.columns = cols;
      s.consistent = k;
    }
  return s;
}

// Better: no stray quotes, then every record of one width, then more columns. Ties keep
// the earlier candidate (',' first, as DuckDB).
bool better(const Split& a, const Split& b) {
  const bool a_all = a.consistent == a.records.size(), b_all = b.consistent == b.records.size();
  if (a.stray_quote != b.stray_quote) return !a.stray_quote;
  if (a_all != b_all) return a_all;
  return a.columns > b.columns;
}

// What one value could be. Each column combines its values' classes.
enum Kind : unsigned {
  kInt = 1, kDec = 2, kDbl = 4, kDateK = 8, kTimestamp = 16, kBool = 32, kText = 64
};

struct ColumnGuess {
  unsigned kinds = 0;
  bool wide = false;        // an integer outside int32
  bool huge = false;        // an integer outside int64 (DOUBLE)
  int int_digits = 0, frac_digits = 0;  // over the plain decimals and integers
  bool any_value = false;

  void add(const std::string& raw) {
    any_value = true;
    std::string_view t(raw);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    kinds |= classify(t);
  }

  Type type(std::string_view name, std::vector<std::string>* notes) const {
    if (!any_value || (kinds & kText)) return Type::varchar();
    if (kinds == kDateK) return Type::date();
    if ((kinds & ~unsigned(kInt | kDec | kDbl)) == 0) {
      if (kinds == kInt && !huge) return wide ? Type::bigint() : Type::integer();
      const int precision = std::max(1, int_digits + frac_digits);
      if ((kinds & kDbl) || huge || precision > 18) return Type::float64();
      return Type::decimal(precision, frac_digits);
    }
    // Dates and timestamps mixed: TIMESTAMP (a date is its midnight), as DuckDB.
    if ((kinds & ~unsigned(kDateK | kTimestamp)) == 0) return Type::timestamp();
    if (kinds == kBool) return Type::boolean();
    (void)name;
    (void)notes;
    return Type::varchar();
  }

 private:
  static bool digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  }

  unsigned classify(std::string_view t) {
    std::string_view body = t;
    if (!body.empty() && (body[0] == '-' || body[0] == '+')) body.remove_prefix(1);
    if (digits(body)) {
      int64_t v = 0;
      const char* b = t.data() + (t[0] == '+');
      auto r = std::from_chars(b, t.data() + t.size(), v);
      if (r.ec != std::errc() || r.ptr != t.data() + t.size()) {
        huge = true;
        return kInt;
      }
      if (v < INT32_MIN || v > INT32_MAX) wide = true;
      size_t lead = 0;
      while (lead + 1 < body.size() && body[lead] == '0') lead++;
      int_digits = std::max(int_digits, int(body.size() - lead));
      return kInt;
    }
    const size_t dot = body.find('.');
    if (dot != std::string_view::npos && (dot > 0 || body.size() > 1) &&
        (dot == 0 || digits(body.substr(0, dot))) && (dot + 1 == body.size() || digits(body.substr(dot + 1)))) {
      std::string_view whole = body.substr(0, dot), frac = body.substr(dot + 1);
      while (whole.size() > 1 && whole[0] == '0') whole.remove_prefix(1);
      if (whole == "0") whole = {};
      int_digits = std::max(int_digits, int(whole.size()));
      frac_digits = std::max(frac_digits, int(frac.size()));
      return kDec;
    }
    if (is_double(t)) return kDbl;
    int32_t days;
    if (t.size() == 10 && parse_date(t, days)) return kDateK;
    if (is_timestamp(t)) return kTimestamp;
    std::string lower(t);
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "true" || lower == "false") return kBool;
    return kText;
  }

  // Exponent forms and inf/nan, which from_chars reads in full.
  static bool is_double(std::string_view t) {
    if (t.empty()) return false;
    const char* b = t.data() + (t[0] == '+');
    double d;
    auto r = std::from_chars(b, t.data() + t.size(), d);
    return r.ec == std::errc() && r.ptr == t.data() + t.size();
  }

  // YYYY-MM-DD[ T]HH:MM:SS[.fraction]
  static bool is_timestamp(std::string_view t) {
    int32_t days;
    if (t.size() < 19 || !parse_date(t.substr(0, 10), days) || (t[10] != ' ' && t[10] != 'T')) return false;
    std::string_view time = t.substr(11);
    if (time.size() < 8 || time[2] != ':' || time[5] != ':') return false;
    if (!digits(time.substr(0, 2)) || !digits(time.substr(3, 2)) || !digits(time.substr(6, 2))) return false;
    if (!(time.size() == 8 || (time[8] == '.' && digits(time.substr(9))))) return false;
    int64_t micros;
    return parse_timestamp(t, micros);  // a real time of day, at most microseconds
  }
};

bool is_null(const SampleField& f, const std::string& null_string) {
  return !f.quoted && f.text == null_string;
}

std::vector<Type> guess_types(const std::vector<SampleRecord>& records, size_t first, size_t columns,
                              const std::string& null_string, const std::vector<std::string>& names,
                              std::vector<std::string>* notes) {
  std::vector<ColumnGuess> guesses(columns);
  for (size_t r = first; r < records.size(); r++) {
    if (records[r].size() != columns) continue;
    for (size_t c = 0; c < columns; c++)
      if (!is_null(records[r][c], null_string)) guesses[c].add(records[r][c].text);
  }
  std::vector<Type> types;
  for (size_t c = 0; c < columns; c++) types.push_back(guesses[c].type(names.empty() ? "" : names[c], notes));
  return types;
}

// Whether one value can be read as `type` by the loader (for the header test against a
// given schema).
bool fits(const std::string& text, const Type& type) {
  if (type.id == TypeId::kVarchar) return true;
  ColumnGuess g;
  g.add(text);
  const Type t = g.type("", nullptr);
  if (t.id == TypeId::kVarchar) return false;
  switch (type.id) {
    case TypeId::kInteger: return t.id == TypeId::kInteger;
    case TypeId::kBigint: return t.id == TypeId::kInteger || t.id == TypeId::kBigint;
    case TypeId::kDouble: return t.id != TypeId::kDate;
    case TypeId::kDecimal: {
      int64_t v;
      return t.id != TypeId::kDate && parse_decimal(text, type.precision, type.scale, v);
    }
    case TypeId::kDate: return t.id == TypeId::kDate;
    case TypeId::kTimestamp: return t.id == TypeId::kDate || t.id == TypeId::kTimestamp;
    case TypeId::kBoolean: return t.id == TypeId::kBoolean;
    default: return false;
  }
}

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::vector<std::string> column_names(const SampleRecord* header, size_t columns) {
  std::vector<std::string> names;
  for (size_t c = 0; c < columns; c++) {
    std::string n;
    if (header) {
      for (char ch : (*header)[c].text) n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      while (n.size() > 1 && n.back() == '_' && !is_identifier((*header)[c].text)) n.pop_back();
      if (!n.empty() && n != "_" && n[0] >= '0' && n[0] <= '9') n = "_" + n;
      if (n == "_") n.clear();
    }
    if (n.empty()) n = fmt::format("column{}", c);
    // Names are case-insensitive: a repeated one gets a suffix (DuckDB: name_1).
    auto taken = [&names](const std::string& x) {
      return std::any_of(names.begin(), names.end(), [&x](const std::string& o) { return iequals(o, x); });
    };
    if (taken(n)) {
      int k = 1;
      while (taken(fmt::format("{}_{}", n, k))) k++;
      n = fmt::format("{}_{}", n, k);
    }
    names.push_back(n);
  }
  return names;
}

// DuckDB's rule: the first record is a header when one of its values does not fit the
// type the later records give its column (a column with no value there fits nothing),
// when every column is text, or when the record holds only NULLs.
bool decide_header(const std::vector<SampleRecord>& records, const std::vector<Type>& rest,
                   const std::vector<Type>& all, const std::string& null_string) {
  const SampleRecord& first = records[0];
  std::vector<bool> valued(rest.size(), records.size() == 1);
  for (size_t r = 1; r < records.size(); r++)
    for (size_t c = 0; c < rest.size() && c < records[r].size(); c++)
      if (!is_null(records[r][c], null_string)) valued[c] = true;
  bool all_text = true, all_null = true;
  for (size_t c = 0; c < rest.size(); c++) {
    const bool null = is_null(first[c], null_string);
    all_null = all_null && null;
    if (!valued[c]) {
      all_text = false;
      if (!null) return true;
      continue;
    }
    if (rest[c].id == TypeId::kVarchar) continue;
    all_text = false;
    if (all[c].id == TypeId::kVarchar) return true;
  }
  return all_text || all_null;
}

}  // namespace

CsvSniff sniff_csv(const std::string& path, const CsvSniffOptions& options) {
  bool whole = false;
  const std::string text = read_prefix(path, options.sample_bytes, whole);
  std::vector<char> candidates = {',', '|', ';', '\t'};
  if (options.delimiter) candidates = {*options.delimiter};
  Split best;
  bool have = false;
  for (char d : candidates) {
    Split s = try_delimiter(text, d, whole, options.sample_records);
    if (!have || better(s, best)) best = std::move(s);
    have = true;
  }
  if (best.records.empty()) fail(ErrorKind::kLoad, "{}: no records to guess the columns from", path);
  if (best.consistent != best.records.size())
    fail(ErrorKind::kLoad, "{}: records have different numbers of fields with every delimiter tried (give --schema "
         "and --delimiter)", path);
  CsvSniff out;
  out.delimiter = best.delimiter;
  out.sampled_records = best.records.size();
  const size_t columns = best.columns;
  const std::string& nulls = options.null_string;
  if (options.schema) {
    const std::vector<ColumnDef>& schema = *options.schema;
    if (schema.size() != columns)
      fail(ErrorKind::kLoad, "{}: {} fields per record, the table has {} columns", path, columns, schema.size());
    out.schema = schema;
    if (options.header) {
      out.header = *options.header;
    } else {  // a header is a first record that does not fit the table (DuckDB's rule)
      out.header = false;
      bool typed = false;
      for (size_t c = 0; c < columns; c++) {
        const SampleField& f = best.records[0][c];
        if (schema[c].type.id != TypeId::kVarchar) typed = true;
        if (!is_null(f, nulls) && !fits(f.text, schema[c].type)) out.header = true;
      }
      if (!typed) out.header = false;  // nothing to tell a header from data: assume none
    }
    return out;
  }
  const std::vector<Type> all = guess_types(best.records, 0, columns, nulls, {}, nullptr);
  // One record: nothing after it to judge it by, so it is judged by itself.
  const std::vector<Type> rest =
      best.records.size() > 1 ? guess_types(best.records, 1, columns, nulls, {}, nullptr) : all;
  out.header = options.header ? *options.header : decide_header(best.records, rest, all, nulls);
  const std::vector<std::string> names = column_names(out.header ? &best.records[0] : nullptr, columns);
  const std::vector<Type> types =
      guess_types(best.records, out.header ? 1 : 0, columns, nulls, names, &out.notes);
  for (size_t c = 0; c < columns; c++) out.schema.push_back({names[c], types[c], true});
  return out;
}

std::string schema_text(const std::vector<ColumnDef>& schema) {
  std::string s;
  for (const ColumnDef& c : schema) {
    if (!s.empty()) s += ", ";
    s += c.name + " " + c.type.to_string();
    if (!c.nullable) s += " NOT NULL";
  }
  return s;
}

}  // namespace raydb
