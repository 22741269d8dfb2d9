#include "storage/loaders/delimited_reader.h"

#include <fcntl.h>
#include <omp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <chrono>
#include <cstring>
#include <deque>
#include <limits>

#include "common/error.h"
#include "common/progress.h"
#include "storage/loaders/string_interner.h"
#include "storage/loaders/utf8.h"

namespace raydb {

namespace {

// A whole input file, mapped read-only. Strings of VARCHAR fields point into it
// until the column dictionaries are built.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) : path_(path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(ErrorKind::kIO, "cannot open {}: {}", path, std::strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
      int e = errno;
      ::close(fd);
      fail(ErrorKind::kIO, "cannot stat {}: {}", path, std::strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
      ::close(fd);
      fail(ErrorKind::kIO, "cannot read {}: it is a directory", path);
    }
    size_ = size_t(st.st_size);
    if (size_ > 0) {
      void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        int e = errno;
        ::close(fd);
        fail(ErrorKind::kIO, "cannot map {}: {}", path, std::strerror(e));
      }
      madvise(p, size_, MADV_SEQUENTIAL);
      madvise(p, size_, MADV_WILLNEED);
      data_ = static_cast<const char*>(p);
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::string& path() const { return path_; }
  const char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::string path_;
  const char* data_ = nullptr;
  size_t size_ = 0;
};

// How a column's fields are parsed and stored.
enum class FieldKind { kInt32, kInt64, kDouble, kDecimal, kDate, kVarchar, kBoolean, kTimestamp };

FieldKind field_kind(const Type& t) {
  switch (t.id) {
    case TypeId::kInteger: return FieldKind::kInt32;
    case TypeId::kBigint: return FieldKind::kInt64;
    case TypeId::kDouble: return FieldKind::kDouble;
    case TypeId::kDecimal: return FieldKind::kDecimal;
    case TypeId::kDate: return FieldKind::kDate;
    case TypeId::kVarchar: return FieldKind::kVarchar;
    case TypeId::kBoolean: return FieldKind::kBoolean;
    case TypeId::kTimestamp: return FieldKind::kTimestamp;
    default: fail(ErrorKind::kInvalidInput, "type {} cannot be loaded", t.to_string());
  }
}

// A byte range of one file that starts and ends at record boundaries.
struct Chunk {
  size_t file = 0;
  const char* begin = nullptr;
  const char* end = nullptr;
};

struct ChunkOutput {
  uint64_t first_row = 0;  // of this chunk in the whole input
  uint64_t records = 0;    // counted before parsing
  uint64_t rows = 0;     // parsed
  std::vector<StringInterner> strings;  // per VARCHAR column: provisional codes
  std::deque<std::string> unescaped;  // VARCHAR values that contained "" (stable addresses)
  const char* error_at = nullptr;     // start of the bad record
  std::string error;                  // message without "file:line: "
  std::vector<std::vector<uint64_t>> null_rows;  // per column: NULL rows (of the whole input)
};

// Text of a bad field for a one-line message: control characters shown as '?',
// long values cut.
std::string excerpt(const char* b, const char* e) {
  std::string s;
  for (const char* p = b; p < e && s.size() < 40; p++) s += (static_cast<unsigned char>(*p) < 0x20) ? '?' : *p;
  if (e - b > 40) s += "...";
  return s;
}

void trim_blanks(const char*& b, const char*& e) {
  while (b < e && (*b == ' ' || *b == '\t')) b++;
  while (e > b && (e[-1] == ' ' || e[-1] == '\t')) e--;
}

enum class NumberResult { kOk, kSyntax, kRange };

// Decimal integer text in [lo, hi]; optional sign, leading zeros allowed.
NumberResult parse_integer(const char* b, const char* e, int64_t lo, int64_t hi, int64_t& out) {
  bool neg = false;
  if (b < e && (*b == '-' || *b == '+')) {
    neg = *b == '-';
    b++;
  }
  if (b == e) return NumberResult::kSyntax;
  while (b + 1 < e && *b == '0') b++;
  if (e - b > 19) {
    for (const char* p = b; p < e; p++)
      if (unsigned(*p - '0') > 9) return NumberResult::kSyntax;
    return NumberResult::kRange;
  }
  uint64_t v = 0;  // 19 digits always fit in uint64
  for (const char* p = b; p < e; p++) {
    unsigned d = unsigned(*p - '0');
    if (d > 9) return NumberResult::kSyntax;
    v = v * 10 + d;
  }
  if (neg) {
    if (v > uint64_t(-(lo + 1)) + 1) return NumberResult::kRange;
    out = v == 0 ? 0 : -int64_t(v - 1) - 1;
  } else {
    if (v > uint64_t(hi)) return NumberResult::kRange;
    out = int64_t(v);
  }
  return NumberResult::kOk;
}

// Whether `b..e` has the shape of a decimal number ([+-]digits[.digits]), used to tell
// "not a number" from "too many digits for this DECIMAL".
bool looks_like_decimal(const char* b, const char* e) {
  if (b < e && (*b == '-' || *b == '+')) b++;
  int digits = 0, dots = 0;
  for (; b < e; b++) {
    if (*b == '.')
      dots++;
    else if (unsigned(*b - '0') <= 9)
      digits++;
    else
      return false;
  }
  return digits > 0 && dots <= 1;
}

class ChunkParser {
 public:
  // `dst[c]` points at this chunk's first row in column c's final array, which has
  // room for exactly `out.records` rows.
  ChunkParser(const std::vector<ColumnDef>& schema, const std::vector<FieldKind>& kinds, const DelimitedFormat& format,
              const std::vector<char*>& dst, ChunkOutput& out)
      : schema_(schema), kinds_(kinds), format_(format), dst_(dst), out_(out) {
    // The integer fast path would read a numeric null string ("-1") as a value.
    for (auto& d : schema) fast_.push_back(!(d.nullable && !format.null_string.empty()));
  }

  template <bool kQuoting>
  void run(const char* begin, const char* end) {
    end_ = end;
    out_.strings.resize(schema_.size());
    out_.null_rows.resize(schema_.size());
    const size_t ncols = schema_.size();
    const char* p = begin;
    while (p < end) {
      const char* record = p;
      if (*p == '\n') {  // blank line
        p++;
        continue;
      }
      if (*p == '\r' && (p + 1 == end || p[1] == '\n')) {
        p += p + 1 == end ? 1 : 2;
        continue;
      }
      if (out_.rows == out_.records)  // the count disagrees with the parse: never for valid input
        return fail_at(record, "malformed record (quotes do not pair up)");
      bool eol = false;
      for (size_t c = 0; c < ncols; c++) {
        if ((kinds_[c] == FieldKind::kInt32 || kinds_[c] == FieldKind::kInt64) && fast_[c] &&
            fast_integer(c, p, eol)) {
          if (eol && c + 1 < ncols) return fail_at(record, fmt::format("expected {} fields, found {}", ncols, c + 1));
          continue;
        }
        Field f;
        if (!next_field<kQuoting>(p, f, eol)) return fail_at(record);
        if (eol && c + 1 < ncols) {
          size_t found = c + 1;
          if (is_trailing_artifact(f, c)) found = c;
          return fail_at(record, fmt::format("expected {} fields, found {}", ncols, found));
        }
        if (eol && c + 1 == ncols && is_trailing_artifact(f, c))
          return fail_at(record, fmt::format("expected {} fields, found {}", ncols, c));
        if (!store_field(c, f)) return fail_at(record);
      }
      if (!eol) {
        // The last field ended with a delimiter: fine at the end of a dbgen line,
        // otherwise more fields follow.
        if (format_.trailing_delimiter && at_line_end(p)) {
          skip_line_end(p);
        } else {
          size_t found = ncols;
          while (!eol) {
            Field f;
            if (!next_field<kQuoting>(p, f, eol)) return fail_at(record);
            found++;
            if (eol && format_.trailing_delimiter && f.b == f.e && !f.quoted) found--;
          }
          return fail_at(record, fmt::format("expected {} fields, found {}", ncols, found));
        }
      }
      out_.rows++;
    }
  }

 private:
  struct Field {
    const char* b = nullptr;
    const char* e = nullptr;
    bool quoted = false;
    bool escaped = false;  // quoted and contains "" pairs
  };

  // The common case of an integer field (plain digits, at most 18 of them, right up
  // to the terminator), parsed while scanning. Anything else returns false with p
  // unchanged, and the general path parses the field and reports errors.
  bool fast_integer(size_t c, const char*& p, bool& eol) {
    const char* s = p;
    bool neg = s < end_ && *s == '-';
    s += neg;
    const char* digits = s;
    uint64_t v = 0;
    while (s < end_ && unsigned(*s - '0') <= 9 && s - digits < 18) v = v * 10 + unsigned(*s++ - '0');
    if (s == digits || (s < end_ && unsigned(*s - '0') <= 9)) return false;
    const char* next;
    if (s < end_ && *s == format_.delimiter) {
      eol = false;
      next = s + 1;
    } else if (at_line_end(s)) {
      eol = true;
      next = s;
      skip_line_end(next);
    } else {
      return false;
    }
    int64_t x = neg ? -int64_t(v) : int64_t(v);
    if (kinds_[c] == FieldKind::kInt32) {
      if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max()) return false;
      put<int32_t>(c, int32_t(x));
    } else {
      put<int64_t>(c, x);
    }
    p = next;
    return true;
  }

  template <typename T>
  void put(size_t c, T v) {
    reinterpret_cast<T*>(dst_[c])[out_.rows] = v;
  }

  bool at_line_end(const char* p) const {
    return p == end_ || *p == '\n' || (*p == '\r' && (p + 1 == end_ || p[1] == '\n'));
  }
  void skip_line_end(const char*& p) const {
    if (p < end_ && *p == '\r') p++;
    if (p < end_ && *p == '\n') p++;
  }
  // In dbgen files an empty last "field" before the line end is the trailing '|'.
  bool is_trailing_artifact(const Field& f, size_t c) const {
    return format_.trailing_delimiter && c > 0 && f.b == f.e && !f.quoted;
  }

  // Reads the field at p; afterwards p is past its terminator (a delimiter or the line
  // end) and `eol` says which one it was. False (with error_) on malformed quoting.
  template <bool kQuoting>
  bool next_field(const char*& p, Field& f, bool& eol) {
    const char delim = format_.delimiter;
    if (kQuoting && p < end_ && *p == '"') {
      const char* q = p + 1;
      f.quoted = true;
      for (;;) {
        q = static_cast<const char*>(std::memchr(q, '"', size_t(end_ - q)));
        if (!q) {
          error_ = "unterminated quoted field (missing closing \")";
          return false;
        }
        if (q + 1 < end_ && q[1] == '"') {
          f.escaped = true;
          q += 2;
          continue;
        }
        break;
      }
      f.b = p + 1;
      f.e = q;
      p = q + 1;
      if (p < end_ && *p == delim) {
        p++;
        eol = false;
      } else if (at_line_end(p)) {
        skip_line_end(p);
        eol = true;
      } else {
        error_ = fmt::format("unexpected character '{}' after a closing quote", excerpt(p, p + 1));
        return false;
      }
      return true;
    }
    const char* q = p;
    if (kQuoting) {
      while (q < end_ && *q != delim && *q != '\n') {
        if (*q == '"') {
          error_ = "quote character inside an unquoted field (quote the whole field and double the quote)";
          return false;
        }
        q++;
      }
    } else {
      while (q < end_ && *q != delim && *q != '\n') q++;
    }
    f.b = p;
    f.e = q;
    if (q < end_ && *q == delim) {
      p = q + 1;
      eol = false;
    } else {
      p = q < end_ ? q + 1 : q;
      eol = true;
      if (f.e > f.b && f.e[-1] == '\r') f.e--;
    }
    return true;
  }

  // A NULL field (see the header): stores a placeholder (code -1 for VARCHAR, fixed
  // by merge_dictionaries and make_nullable_column) and notes the row. False with
  // error_ for the null string in a NOT NULL column; `is_null` false otherwise.
  bool store_null(size_t c, const Field& f, bool& is_null) {
    is_null = !f.quoted && std::string_view(f.b, size_t(f.e - f.b)) == format_.null_string;
    if (!is_null) return true;
    const ColumnDef& def = schema_[c];
    if (!def.nullable) {
      is_null = false;
      if (!format_.null_string_given) return true;  // the empty field: read as before
      error_ = fmt::format("column {} ({}): NULL ('{}') in a NOT NULL column", def.name, def.type.to_string(),
                           excerpt(f.b, f.e));
      return false;
    }
    out_.null_rows[c].push_back(out_.first_row + out_.rows);
    switch (schema_[c].type.physical_width()) {
      case 4: put<int32_t>(c, kinds_[c] == FieldKind::kVarchar ? -1 : 0); break;
      default: put<int64_t>(c, 0); break;  // DOUBLE 0.0 has the same bits
    }
    return true;
  }

  bool store_field(size_t c, const Field& f) {
    bool is_null = false;
    if (!store_null(c, f, is_null)) return false;
    if (is_null) return true;
    const char* b = f.b;
    const char* e = f.e;
    if (kinds_[c] == FieldKind::kVarchar) {
      std::string_view s(b, size_t(e - b));
      if (f.escaped) {
        std::string& u = out_.unescaped.emplace_back();
        u.reserve(s.size());
        for (size_t i = 0; i < s.size(); i++) {
          u += s[i];
          if (s[i] == '"') i++;  // "" -> "
        }
        s = u;
      }
      if (size_t at = invalid_utf8_at(s); at != std::string_view::npos) {
        error_ = fmt::format("column {}: invalid UTF-8 (byte 0x{:02X} at offset {} of the field)", schema_[c].name,
                             unsigned(static_cast<unsigned char>(s[at])), at);
        return false;
      }
      put<int32_t>(c, int32_t(out_.strings[c].add(s)));
      return true;
    }
    trim_blanks(b, e);
    const ColumnDef& def = schema_[c];
    if (b == e) {
      error_ = fmt::format("column {} ({}): expected {}, found an empty field", def.name, def.type.to_string(),
                           expected_text(c));
      return false;
    }
    switch (kinds_[c]) {
      case FieldKind::kInt32:
      case FieldKind::kInt64: {
        bool narrow = kinds_[c] == FieldKind::kInt32;
        int64_t lo = narrow ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
        int64_t hi = narrow ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
        int64_t v;
        NumberResult r = parse_integer(b, e, lo, hi, v);
        if (r == NumberResult::kSyntax) return bad_value(c, b, e);
        if (r == NumberResult::kRange) return out_of_range(c, b, e);
        if (narrow)
          put<int32_t>(c, int32_t(v));
        else
          put<int64_t>(c, v);
        return true;
      }
      case FieldKind::kDouble: {
        const char* s = b;
        if (*s == '+') s++;  // from_chars takes no '+'
        double d;
        auto r = std::from_chars(s, e, d);
        if (r.ptr != e || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)) return bad_value(c, b, e);
        if (r.ec == std::errc::result_out_of_range) {
          // Underflow to (sub)normal numbers is fine; overflow is not.
          std::string tmp(s, e);
          d = std::strtod(tmp.c_str(), nullptr);
          if (std::isinf(d)) return out_of_range(c, b, e);
        }
        put<double>(c, d);
        return true;
      }
      case FieldKind::kDecimal: {
        int64_t v;
        if (!parse_decimal(std::string_view(b, size_t(e - b)), def.type.precision, def.type.scale, v)) {
          if (looks_like_decimal(b, e)) {
            error_ = fmt::format("column {} ({}): '{}' does not fit {} (too many digits)", def.name,
                                 def.type.to_string(), excerpt(b, e), def.type.to_string());
            return false;
          }
          return bad_value(c, b, e);
        }
        put<int64_t>(c, v);
        return true;
      }
      case FieldKind::kDate: {
        int32_t days;
        if (!parse_date(std::string_view(b, size_t(e - b)), days)) return bad_value(c, b, e);
        put<int32_t>(c, days);
        return true;
      }
      case FieldKind::kBoolean: {
        bool v = false;
        if (!parse_boolean(std::string_view(b, size_t(e - b)), v)) return bad_value(c, b, e);
        put<int32_t>(c, v ? 1 : 0);
        return true;
      }
      case FieldKind::kTimestamp: {
        int64_t micros = 0;
        if (!parse_timestamp(std::string_view(b, size_t(e - b)), micros)) return bad_value(c, b, e);
        put<int64_t>(c, micros);
        return true;
      }
      case FieldKind::kVarchar: break;
    }
    return true;
  }

  std::string expected_text(size_t c) const {
    switch (kinds_[c]) {
      case FieldKind::kInt32: return "an INTEGER";
      case FieldKind::kInt64: return "a BIGINT";
      case FieldKind::kDouble: return "a DOUBLE";
      case FieldKind::kDecimal: return "a " + schema_[c].type.to_string();
      case FieldKind::kDate: return "a DATE (YYYY-MM-DD)";
      case FieldKind::kVarchar: return "text";
      case FieldKind::kBoolean: return "a BOOLEAN (true or false)";
      case FieldKind::kTimestamp: return "a TIMESTAMP (YYYY-MM-DD HH:MM:SS[.ffffff])";
    }
    return "?";
  }
  bool bad_value(size_t c, const char* b, const char* e) {
    error_ = fmt::format("column {} ({}): expected {}, found '{}'", schema_[c].name, schema_[c].type.to_string(),
                         expected_text(c), excerpt(b, e));
    return false;
  }
  bool out_of_range(size_t c, const char* b, const char* e) {
    error_ = fmt::format("column {} ({}): {} is out of range for {}", schema_[c].name, schema_[c].type.to_string(),
                         excerpt(b, e), schema_[c].type.to_string());
    return false;
  }
  void fail_at(const char* record) {
    out_.error_at = record;
    out_.error = error_;
  }
  void fail_at(const char* record, std::string message) {
    error_ = std::move(message);
    fail_at(record);
  }

  const std::vector<ColumnDef>& schema_;
  std::vector<bool> fast_;  // per column: the integer fast path applies
  const std::vector<FieldKind>& kinds_;
  const DelimitedFormat& format_;
  const std::vector<char*>& dst_;
  ChunkOutput& out_;
  const char* end_ = nullptr;
  std::string error_;
};

// 1-based line number of `pos` in the file that starts at `begin`.
uint64_t line_of(const char* begin, const char* pos) { return uint64_t(std::count(begin, pos, '\n')) + 1; }

// End of the record that starts at p (past its newline), honouring quotes. Used
// only for header lines. Null when a quote is not closed.
const char* skip_record(const char* p, const char* end, bool quoting) {
  bool in_quotes = false;
  for (; p < end; p++) {
    if (quoting && *p == '"') in_quotes = !in_quotes;
    if (*p == '\n' && !in_quotes) return p + 1;
  }
  return in_quotes ? nullptr : end;
}

// Splits [begin, end) into chunks of about `target` bytes that start at record
// boundaries. Without quoting a boundary is the byte after a newline. With quoting
// it is the byte after a newline preceded by an even number of quote characters
// (in a valid file quotes come in pairs around and inside quoted fields, so parity
// says whether a newline is data). Quote counts per piece are found in parallel.
void split_chunks(size_t file, const char* begin, const char* end, size_t target, bool quoting,
                  std::vector<Chunk>& chunks) {
  size_t size = size_t(end - begin);
  if (size == 0) return;
  size_t pieces = std::max<size_t>(1, (size + target - 1) / target);
  std::vector<const char*> starts(pieces + 1);
  for (size_t i = 0; i <= pieces; i++) starts[i] = begin + std::min(size, i * target);
  std::vector<uint64_t> quotes(pieces, 0);
  bool any_quotes = false;
  if (quoting && pieces > 1) {
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < pieces; i++) quotes[i] = uint64_t(std::count(starts[i], starts[i + 1], '"'));
    for (auto q : quotes) any_quotes |= q > 0;
  }
  std::vector<const char*> bounds{begin};
  uint64_t quotes_before = 0;  // quote characters in [begin, starts[i])
  for (size_t i = 1; i < pieces; i++) {
    quotes_before += quotes[i - 1];
    if (bounds.back() > starts[i]) continue;  // the previous scan already ran past this piece
    const char* p = starts[i];
    if (any_quotes) {
      bool odd = quotes_before & 1;
      for (; p < end; p++) {
        if (*p == '"') odd = !odd;
        if (*p == '\n' && !odd) break;
      }
    } else {
      p = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
      if (!p) p = end;
    }
    if (p + 1 >= end) break;
    bounds.push_back(p + 1);
  }
  bounds.push_back(end);
  for (size_t i = 0; i + 1 < bounds.size(); i++) chunks.push_back({file, bounds[i], bounds[i + 1]});
}

// Records in a chunk, as the parser will find them: non-blank lines, where with
// quoting a newline inside quotes (odd quote count so far) is data. Counted first so
// that every chunk can parse straight into its slice of the final column arrays.
uint64_t count_records(const char* p, const char* end, bool quoting) {
  const bool quotes = quoting && std::memchr(p, '"', size_t(end - p)) != nullptr;
  uint64_t records = 0;
  while (p < end) {
    if (*p == '\n') {
      p++;
      continue;
    }
    if (*p == '\r' && (p + 1 == end || p[1] == '\n')) {
      p += p + 1 == end ? 1 : 2;
      continue;
    }
    records++;
    if (!quotes) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
      p = nl ? nl + 1 : end;
    } else {
      bool odd = false;
      for (; p < end; p++) {
        if (*p == '"') odd = !odd;
        if (*p == '\n' && !odd) break;
      }
      if (p < end) p++;
    }
  }
  return records;
}

// Turns a column's per-chunk provisional VARCHAR codes (already in `codes`) into
// codes of one sorted dictionary for the whole input.
std::shared_ptr<const Dictionary> merge_dictionaries(const ColumnDef& def, std::vector<ChunkOutput>& outs,
                                                     int32_t* codes, size_t c) {
  std::vector<std::string_view> all;
  size_t total = 0;
  for (auto& o : outs) total += o.strings[c].strings().size();
  all.reserve(total);
  for (auto& o : outs) all.insert(all.end(), o.strings[c].strings().begin(), o.strings[c].strings().end());
  bool any_null = false;
  for (auto& o : outs) any_null = any_null || (c < o.null_rows.size() && !o.null_rows[c].empty());
  if (any_null && all.empty()) all.push_back("");  // every row NULL: code 0 must still name an entry
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  if (all.size() > size_t(std::numeric_limits<int32_t>::max()))
    fail(ErrorKind::kLoad, "column {} has {} distinct strings; at most 2^31-1 are supported", def.name, all.size());
  const int64_t nchunks = int64_t(outs.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t k = 0; k < nchunks; k++) {
    auto& o = outs[size_t(k)];
    const auto& local = o.strings[c].strings();
    std::vector<int32_t> remap(local.size());
    for (size_t i = 0; i < local.size(); i++)
      remap[i] = int32_t(std::lower_bound(all.begin(), all.end(), local[i]) - all.begin());
    int32_t* out = codes + o.first_row;
    for (uint64_t i = 0; i < o.rows; i++) out[i] = out[i] < 0 ? -1 : remap[size_t(out[i])];  // -1: NULL
  }
  std::vector<uint64_t> offsets;
  offsets.reserve(all.size() + 1);
  offsets.push_back(0);
  size_t chars_size = 0;
  for (auto sv : all) chars_size += sv.size();
  std::string chars;
  chars.reserve(chars_size);
  for (auto sv : all) {
    chars.append(sv);
    offsets.push_back(chars.size());
  }
  for (auto& o : outs) o.strings[c] = StringInterner();
  return std::make_shared<const Dictionary>(std::move(offsets), std::move(chars));
}

// Column c of the input: with a validity bitmap when some row was NULL.
ColumnPtr finish_column(const ColumnDef& def, std::shared_ptr<Buffer> data, uint64_t rows,
                        std::shared_ptr<const Dictionary> dict, const std::vector<ChunkOutput>& outs, size_t c) {
  std::shared_ptr<Buffer> bits;
  for (auto& o : outs) {
    if (c >= o.null_rows.size() || o.null_rows[c].empty()) continue;
    if (!bits) {
      bits = Buffer::allocate(validity_bytes(rows));
      std::memset(bits->mutable_data(), 0xff, validity_bytes(rows));
    }
    auto* b = static_cast<uint8_t*>(bits->mutable_data());
    for (uint64_t r : o.null_rows[c]) b[r >> 3] = uint8_t(b[r >> 3] & ~(1u << (r & 7)));
  }
  if (bits) return make_nullable_column(def.name, def.type, std::move(data), rows, std::move(dict), std::move(bits), true);
  ColumnStats stats = compute_stats(def.type, data->data(), rows);
  auto col = std::make_shared<Column>(def.name, def.type, std::move(data), rows, std::move(dict), stats);
  col->set_nullable(def.nullable);
  return col;
}

}  // namespace

TablePtr read_delimited_table(const std::string& table_name, const std::vector<ColumnDef>& schema,
                              const std::vector<std::string>& files, const DelimitedFormat& format,
                              const std::string& label) {
  if (schema.empty()) fail(ErrorKind::kInvalidInput, "table {} has no columns", table_name);
  if (format.delimiter == '\n' || format.delimiter == '\r' || (format.quoting && format.delimiter == '"'))
    fail(ErrorKind::kInvalidInput, "the delimiter cannot be a newline or a quote character");
  std::vector<FieldKind> kinds;
  for (auto& d : schema) kinds.push_back(field_kind(d.type));
  auto start_time = std::chrono::steady_clock::now();

  std::vector<std::unique_ptr<MappedFile>> mapped;
  std::vector<Chunk> chunks;
  uint64_t total_bytes = 0;
  size_t target = std::max<size_t>(format.chunk_bytes, 1);
  for (size_t f = 0; f < files.size(); f++) {
    mapped.push_back(std::make_unique<MappedFile>(files[f]));
    const MappedFile& m = *mapped.back();
    const char* begin = m.data();
    const char* end = m.data() + m.size();
    total_bytes += m.size();
    if (format.quoting && m.size() >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;  // UTF-8 BOM
    if (format.header && begin < end) {
      const char* after = skip_record(begin, end, format.quoting);
      if (!after) fail(ErrorKind::kLoad, "{}:1: unterminated quoted field in the header line", m.path());
      begin = after;
    }
    split_chunks(f, begin, end, target, format.quoting, chunks);
  }

  std::unique_ptr<Progress> progress;
  if (total_bytes > (uint64_t(64) << 20))
    progress = std::make_unique<Progress>("loading " + (label.empty() ? table_name : label) + " (bytes)", total_bytes);

  std::vector<ChunkOutput> outs(chunks.size());
  const int64_t nchunks = int64_t(chunks.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t k = 0; k < nchunks; k++)
    outs[size_t(k)].records = count_records(chunks[size_t(k)].begin, chunks[size_t(k)].end, format.quoting);
  uint64_t rows = 0;
  for (auto& o : outs) {
    o.first_row = rows;
    rows += o.records;
  }
  std::vector<std::shared_ptr<Buffer>> buffers;
  for (auto& d : schema) buffers.push_back(Buffer::allocate(rows * uint64_t(d.type.physical_width())));

  // The first bad record in file order is reported; chunks after a failed one are
  // skipped. Chunks before it are still parsed, since one of them may hold an
  // earlier error.
  std::atomic<int64_t> first_failed{nchunks};
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t k = 0; k < nchunks; k++) {
    if (k > first_failed.load(std::memory_order_relaxed)) continue;
    ChunkOutput& out = outs[size_t(k)];
    std::vector<char*> dst(schema.size());
    for (size_t c = 0; c < schema.size(); c++)
      dst[c] = static_cast<char*>(buffers[c]->mutable_data()) + out.first_row * uint64_t(schema[c].type.physical_width());
    try {
      ChunkParser parser(schema, kinds, format, dst, out);
      if (format.quoting)
        parser.run<true>(chunks[size_t(k)].begin, chunks[size_t(k)].end);
      else
        parser.run<false>(chunks[size_t(k)].begin, chunks[size_t(k)].end);
      if (!out.error_at && out.rows != out.records) {
        out.error_at = chunks[size_t(k)].begin;
        out.error = "malformed records (quotes do not pair up)";
      }
    } catch (const std::bad_alloc&) {
      out.error_at = chunks[size_t(k)].begin;
      out.error = "out of memory";
    }
    if (out.error_at) {
      int64_t cur = first_failed.load();
      while (k < cur && !first_failed.compare_exchange_weak(cur, k)) {
      }
    }
    if (progress) progress->add(uint64_t(chunks[size_t(k)].end - chunks[size_t(k)].begin));
  }
  if (first_failed.load() < nchunks) {
    const Chunk& ch = chunks[size_t(first_failed.load())];
    const ChunkOutput& out = outs[size_t(first_failed.load())];
    const MappedFile& m = *mapped[ch.file];
    fail(ErrorKind::kLoad, "{}:{}: {}", m.path(), line_of(m.data(), out.error_at), out.error);
  }

  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < schema.size(); c++) {
    std::shared_ptr<const Dictionary> dict;
    if (kinds[c] == FieldKind::kVarchar)
      dict = merge_dictionaries(schema[c], outs, static_cast<int32_t*>(buffers[c]->mutable_data()), c);
    columns.push_back(finish_column(schema[c], std::move(buffers[c]), rows, std::move(dict), outs, c));
  }
  auto table = std::make_shared<const Table>(table_name, std::move(columns));
  if (progress && !progress_quiet()) {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
    std::fprintf(stderr, "loaded %s: %llu rows, %.1f MB in %.2f s (%.0f MB/s)\n",
                 (label.empty() ? table_name : label).c_str(), (unsigned long long)rows, double(total_bytes) / 1e6, s,
                 double(total_bytes) / 1e6 / std::max(s, 1e-9));
  }
  return table;
}

}  // namespace raydb
