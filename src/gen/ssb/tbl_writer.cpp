// dbgen's .tbl text format: every field followed by '|', one row per line.
#include <omp.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/progress.h"
#include "gen/ssb/generator.h"

namespace raydb::ssb {

namespace {

constexpr uint64_t kRowsPerChunk = 1 << 15;

// A dictionary whose strings hold the separator or a line break cannot be written
// unambiguously in this format.
void check_dictionary(const Table& t, const Column& c) {
  const Dictionary* dict = c.dictionary();
  if (dict && dict->chars().find_first_of("|\n\r") != std::string::npos)
    fail(ErrorKind::kInvalidInput, "{}.{} holds a value with '|' or a line break; it cannot be written as .tbl", t.name(),
         c.name());
}

void append_int(std::string& out, int64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, end);
}

void append_field(std::string& out, const Column& c, uint64_t row) {
  switch (c.type().id) {
    case TypeId::kInteger: append_int(out, c.data<int32_t>()[row]); break;
    case TypeId::kBigint: append_int(out, c.data<int64_t>()[row]); break;
    case TypeId::kVarchar: out.append(c.dictionary()->at(uint32_t(c.data<int32_t>()[row]))); break;
    default: out.append(c.get(row).to_string()); break;
  }
  out.push_back('|');
}

void format_rows(const Table& t, uint64_t begin, uint64_t end, std::string& out) {
  out.clear();
  for (uint64_t r = begin; r < end; r++) {
    for (const ColumnPtr& c : t.columns()) append_field(out, *c, r);
    out.push_back('\n');
  }
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// Formats chunks of rows in parallel, one round of `threads` chunks at a time, and
// writes each round in row order.
void write_table(const Table& t, const std::string& path, int threads) {
  for (const ColumnPtr& c : t.columns()) check_dictionary(t, *c);
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
  if (!file) fail(ErrorKind::kIO, "cannot create {}: {}", path, std::strerror(errno));
  std::optional<Progress> progress;
  if (!progress_quiet()) progress.emplace("write " + t.name() + ".tbl", t.row_count());
  std::vector<std::string> chunks(static_cast<size_t>(threads));
  const uint64_t rows = t.row_count();
  for (uint64_t round = 0; round < rows; round += kRowsPerChunk * uint64_t(threads)) {
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (int k = 0; k < threads; k++) {
      const uint64_t begin = std::min(rows, round + uint64_t(k) * kRowsPerChunk);
      format_rows(t, begin, std::min(rows, begin + kRowsPerChunk), chunks[size_t(k)]);
    }
    for (const std::string& chunk : chunks)
      if (std::fwrite(chunk.data(), 1, chunk.size(), file.get()) != chunk.size())
        fail(ErrorKind::kIO, "cannot write {}: {}", path, std::strerror(errno));
    if (progress) progress->add(std::min(rows - round, kRowsPerChunk * uint64_t(threads)));
  }
  if (std::fflush(file.get()) != 0 || std::fclose(file.release()) != 0)
    fail(ErrorKind::kIO, "cannot write {}: {}", path, std::strerror(errno));
  if (progress) progress->finish();
}

}  // namespace

void write_tbl(const std::vector<TablePtr>& tables, const std::string& dir, int threads) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) fail(ErrorKind::kIO, "cannot create directory {}: {}", dir, ec.message());
  const int t = threads > 0 ? threads : omp_get_max_threads();
  for (const TablePtr& table : tables) write_table(*table, (std::filesystem::path(dir) / (table->name() + ".tbl")).string(), t);
}

}  // namespace raydb::ssb
