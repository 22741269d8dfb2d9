// libFuzzer target: the delimited-text reader (storage/loaders/delimited_reader.h). The
// first input byte picks the format (delimiter, header, .tbl style) and the schema; the
// rest is the file. Bad rows must be a clean raydb::Error; and the reader splits a file
// into chunks for parallel parsing, so reading with tiny chunks must give exactly what
// one chunk gives (same table, or the same error message).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/error.h"
#include "fuzz_support.h"
#include "storage/loaders/delimited_reader.h"
#include "storage/table.h"

namespace {

using namespace raydb;

const std::vector<std::vector<ColumnDef>>& schemas() {
  static const auto* s = new std::vector<std::vector<ColumnDef>>{
      parse_schema("i INTEGER, s VARCHAR, d DOUBLE"),
      parse_schema("b BIGINT, m DECIMAL(12,2), dt DATE, s VARCHAR"),
      parse_schema("s VARCHAR"),
      parse_schema("m DECIMAL(18,6), i INTEGER"),
  };
  return *s;
}

// The file the reader maps: one per process, rewritten for every input.
const std::string& input_path() {
  static const std::string* p = [] {
    const char* dir = std::getenv("TMPDIR");
    return new std::string(std::string(dir ? dir : "/tmp") + "/raydb_csv_fuzz." + std::to_string(getpid()) + ".csv");
  }();
  return *p;
}

void write_input(const uint8_t* data, size_t size) {
  FILE* f = std::fopen(input_path().c_str(), "wb");
  if (!f) raydb::fuzz::finding("cannot write the fuzz input file");
  if (size && std::fwrite(data, 1, size, f) != size) raydb::fuzz::finding("short write of the fuzz input file");
  std::fclose(f);
}

// Every value of the table, as text, row by row (the comparison of the two reads).
std::string contents(const Table& t) {
  std::string out;
  for (uint64_t r = 0; r < t.row_count(); r++) {
    for (size_t c = 0; c < t.column_count(); c++) out += t.column(c).get(r).to_string() + "\x1f";
    out += "\n";
  }
  return out;
}

struct Outcome {
  bool ok = false;
  std::string text;  // the table's contents, or the error message
};

Outcome read(const std::vector<ColumnDef>& schema, DelimitedFormat format) {
  Outcome o;
  TablePtr t;
  try {
    t = read_delimited_table("t", schema, {input_path()}, format);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::kInternal) raydb::fuzz::finding(e.what());
    o.text = e.what();
    return o;
  }
  o.ok = true;
  o.text = contents(*t);
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t pick = data[0];
  write_input(data + 1, size - 1);
  const auto& schema = schemas()[pick % schemas().size()];
  DelimitedFormat format = (pick & 0x40) ? DelimitedFormat::tbl() : DelimitedFormat::csv((pick & 0x10) ? ';' : ',');
  format.header = (pick & 0x20) != 0;
  Outcome whole, chunked;
  raydb::fuzz::runs_cleanly([&] { whole = read(schema, format); });
  format.chunk_bytes = 1 + (pick >> 7) * 6;  // 1 or 7 bytes: every record boundary is a split point
  raydb::fuzz::runs_cleanly([&] { chunked = read(schema, format); });
  if (whole.ok != chunked.ok || whole.text != chunked.text) {
    std::fprintf(stderr, "one chunk: %s\n[%s]\nsmall chunks: %s\n[%s]\n", whole.ok ? "ok" : "error",
                 whole.text.c_str(), chunked.ok ? "ok" : "error", chunked.text.c_str());
    raydb::fuzz::finding("reading in small chunks differs from reading in one");
  }
  return 0;
}
