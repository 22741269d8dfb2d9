#include "storage/loaders/csv_exporter.h"

#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "common/error.h"

namespace raydb {

bool csv_needs_quotes(std::string_view s, char delimiter) {
  for (char c : s)
    if (c == delimiter || c == '"' || c == '\n' || c == '\r') return true;
  return false;
}

namespace {
void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}
}  // namespace

void append_csv_field(std::string& out, std::string_view s, char delimiter) {
  if (csv_needs_quotes(s, delimiter))
    append_quoted(out, s);
  else
    out.append(s);
}

namespace {

void append_int(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Same text as format_decimal, without a heap string per value.
void append_decimal(std::string& out, int64_t v, int scale) {
  if (scale == 0) return append_int(out, v);
  uint64_t u = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  uint64_t p = uint64_t(pow10_i64(scale));
  if (v < 0) out += '-';
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, u / p);
  out.append(buf, r.ptr);
  out += '.';
  r = std::to_chars(buf, buf + sizeof buf, u % p);
  out.append(size_t(scale) - size_t(r.ptr - buf), '0');
  out.append(buf, r.ptr);
}

void append_date(std::string& out, int32_t days) {
  int y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  if (y < 0 || y > 9999) {
    out += format_date(days);
    return;
  }
  char buf[10] = {char('0' + y / 1000), char('0' + y / 100 % 10), char('0' + y / 10 % 10), char('0' + y % 10), '-',
                  char('0' + m / 10),   char('0' + m % 10),       '-',                     char('0' + d / 10),
                  char('0' + d % 10)};
  out.append(buf, 10);
}

void append_double(std::string& out, double d) {
  if (std::isnan(d))
    out += "nan";
  else if (std::isinf(d))
    out += d > 0 ? "inf" : "-inf";
  else
    fmt::format_to(std::back_inserter(out), "{}", d);
}

// Formats rows [begin, end) into `out`.
void format_rows(const Table& table, const std::vector<std::vector<uint8_t>>& quote_code, char delimiter,
                 std::string_view null_string, uint64_t begin, uint64_t end, std::string& out) {
  const size_t ncols = table.column_count();
  for (uint64_t row = begin; row < end; row++) {
    for (size_t c = 0; c < ncols; c++) {
      if (c) out += delimiter;
      const Column& col = table.column(c);
      if (col.is_null(row)) {
        out += null_string;
        continue;
      }
      switch (col.type().id) {
        case TypeId::kInteger: append_int(out, col.data<int32_t>()[row]); break;
        case TypeId::kBigint: append_int(out, col.data<int64_t>()[row]); break;
        case TypeId::kDecimal: append_decimal(out, col.data<int64_t>()[row], col.type().scale); break;
        case TypeId::kDate: append_date(out, col.data<int32_t>()[row]); break;
        case TypeId::kBoolean: out += col.data<int32_t>()[row] ? "true" : "false"; break;
        case TypeId::kTimestamp: out += format_timestamp(col.data<int64_t>()[row]); break;
        case TypeId::kDouble: append_double(out, col.data<double>()[row]); break;
        case TypeId::kVarchar: {
          uint32_t code = uint32_t(col.data<int32_t>()[row]);
          std::string_view s = col.dictionary()->at(code);
          if (quote_code[c][code])
            append_quoted(out, s);
          else
            out.append(s);
          break;
        }
        default: out += col.get(row).to_string(); break;
      }
    }
    out += '\n';
  }
}

void write_all(int fd, const std::string& path, const std::string& data) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail(ErrorKind::kIO, "cannot write {}: {}", path, std::strerror(errno));
    }
    p += w;
    left -= size_t(w);
  }
}

}  // namespace

uint64_t export_csv(const Table& table, const std::string& path, char delimiter, bool with_header,
                    std::string_view null_string) {
  if (delimiter == '"' || delimiter == '\n' || delimiter == '\r')
    fail(ErrorKind::kInvalidInput, "the delimiter cannot be a newline or a quote character");
  const size_t ncols = table.column_count();
  // Per dictionary code: does the string need quotes? Decided once per distinct value.
  std::vector<std::vector<uint8_t>> quote_code(ncols);
  for (size_t c = 0; c < ncols; c++) {
    const Column& col = table.column(c);
    if (col.type().id != TypeId::kVarchar) continue;
    const Dictionary& dict = *col.dictionary();
    quote_code[c].resize(dict.size());
    for (uint32_t i = 0; i < dict.size(); i++)
      quote_code[c][i] = csv_needs_quotes(dict.at(i), delimiter) || (ncols == 1 && dict.at(i).empty()) ||
                         (col.nullable() && dict.at(i) == null_string);  // else it would read back as NULL
  }

  std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(ErrorKind::kIO, "cannot create {}: {}", tmp, std::strerror(errno));
  try {
    std::string header;
    for (size_t c = 0; c < ncols; c++) {
      if (c) header += delimiter;
      append_csv_field(header, table.column(c).name(), delimiter);
    }
    header += '\n';
    if (with_header) write_all(fd, tmp, header);

    // Rows are formatted in parallel blocks and written in order, a round at a time,
    // so memory stays bounded for tables of any size.
    const uint64_t rows = table.row_count();
    const uint64_t block = 1 << 15;
    const int64_t per_round = int64_t(omp_get_max_threads()) * 4;
    std::vector<std::string> texts(static_cast<size_t>(per_round));
    for (uint64_t round_start = 0; round_start < rows; round_start += block * uint64_t(per_round)) {
#pragma omp parallel for schedule(dynamic, 1)
      for (int64_t k = 0; k < per_round; k++) {
        uint64_t b = round_start + uint64_t(k) * block;
        uint64_t e = std::min(rows, b + block);
        texts[size_t(k)].clear();
        if (b < e) format_rows(table, quote_code, delimiter, null_string, b, e, texts[size_t(k)]);
      }
      for (auto& t : texts) write_all(fd, tmp, t);
    }
    if (::fsync(fd) != 0) fail(ErrorKind::kIO, "cannot fsync {}: {}", tmp, std::strerror(errno));
    if (::close(fd) != 0) {
      fd = -1;
      fail(ErrorKind::kIO, "cannot close {}: {}", tmp, std::strerror(errno));
    }
    fd = -1;
    if (::rename(tmp.c_str(), path.c_str()) != 0)
      fail(ErrorKind::kIO, "cannot write {}: {}", path, std::strerror(errno));
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  return table.row_count();
}

}  // namespace raydb
