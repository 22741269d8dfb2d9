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

// One column prepared for formatting: raw pointers and decoded dictionary strings,
// so the per-cell work is a switch and a copy.
struct FieldSource {
  enum Kind { kInt32, kInt64, kString, kOther } kind;
  const Column* column;
  const int32_t* i32 = nullptr;
  const int64_t* i64 = nullptr;
  std::vector<std::string_view> strings;

  explicit FieldSource(const Column& c) : column(&c) {
    switch (c.type().id) {
      case TypeId::kInteger: kind = kInt32, i32 = c.data<int32_t>(); break;
      case TypeId::kBigint: kind = kInt64, i64 = c.data<int64_t>(); break;
      case TypeId::kVarchar:
        kind = kString, i32 = c.data<int32_t>();
        for (uint32_t k = 0; k < c.dictionary()->size(); k++) strings.push_back(c.dictionary()->at(k));
        break;
      default: kind = kOther; break;  // dates, decimals, doubles: as SQL prints them
    }
  }

  void append(std::string& out, uint64_t row) const {
    switch (kind) {
      case kInt32: append_int(out, i32[row]); break;
      case kInt64: append_int(out, i64[row]); break;
      case kString: out.append(strings[size_t(i32[row])]); break;
      case kOther: out.append(column->get(row).to_string()); break;
    }
    out.push_back('|');
  }
};

void format_rows(const std::vector<FieldSource>& fields, uint64_t begin, uint64_t end, std::string& out) {
  out.clear();
  for (uint64_t r = begin; r < end; r++) {
    for (const FieldSource& f : fields) f.append(out, r);
    out.push_back('\n');
  }
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// One thread's output text, on its own cache lines: threads appending to adjacent
// std::string headers would slow each other down (false sharing).
struct alignas(64) Chunk {
  std::string text;
};

// Threads format chunks of rows in parallel and append them to the file in row
// order (an ordered loop): while one thread writes, the others format, and no
// extra writer thread competes for cores.
void write_table(const Table& t, const std::string& path, int threads) {
  for (const ColumnPtr& c : t.columns()) check_dictionary(t, *c);
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
  if (!file) fail(ErrorKind::kIO, "cannot create {}: {}", path, std::strerror(errno));
  std::optional<Progress> progress;
  if (!progress_quiet()) progress.emplace("write " + t.name() + ".tbl", t.row_count());
  std::vector<FieldSource> fields;
  for (const ColumnPtr& c : t.columns()) fields.emplace_back(*c);
  const uint64_t rows = t.row_count(), chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  std::vector<Chunk> buffers(static_cast<size_t>(threads));
  bool failed = false;  // written only inside the ordered section
#pragma omp parallel for ordered schedule(static, 1) num_threads(threads)
  for (uint64_t k = 0; k < chunks; k++) {
    std::string& text = buffers[size_t(omp_get_thread_num())].text;
    const uint64_t begin = k * kRowsPerChunk, end = std::min(rows, begin + kRowsPerChunk);
    format_rows(fields, begin, end, text);
#pragma omp ordered
    {
      if (!failed && std::fwrite(text.data(), 1, text.size(), file.get()) != text.size()) failed = true;
      if (progress) progress->add(end - begin);
    }
  }
  if (failed || std::fflush(file.get()) != 0 || std::fclose(file.release()) != 0)
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
