#pragma once
// Helpers shared by the storage tests: directory snapshots (to prove that a failed
// operation changed nothing), one-line error checks, table comparison.
#include <fcntl.h>
#include <algorithm>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "common/error.h"
#include "storage/table.h"
#include "support/test_support.h"

extern char** environ;

namespace raydb::test {

// name -> size and hash of every entry under `dir` (the shared snapshot_tree).
inline std::map<std::string, std::string> snapshot_dir(const std::string& dir) { return snapshot_tree(dir); }

inline bool is_one_line(const std::string& s) {
  size_t nl = s.find('\n');
  return !s.empty() && (nl == std::string::npos || nl == s.size() - 1);
}

// Runs `f`, expects an Error of `kind` whose message is one line containing each of
// `parts`; returns the message.
template <typename F>
std::string expect_error(F&& f, ErrorKind kind, std::initializer_list<std::string> parts) {
  try {
    f();
  } catch (const Error& e) {
    std::string msg = e.what();
    EXPECT_EQ(int(e.kind()), int(kind)) << msg;
    EXPECT_TRUE(msg.find('\n') == std::string::npos) << msg;
    for (auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    return msg;
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

// Exact equality of two tables: names, types, rows, every value, stats, dictionaries.
inline void expect_tables_equal(const Table& a, const Table& b) {
  ASSERT_EQ(a.name(), b.name());
  ASSERT_EQ(a.column_count(), b.column_count());
  ASSERT_EQ(a.row_count(), b.row_count());
  for (size_t c = 0; c < a.column_count(); c++) {
    const Column& x = a.column(c);
    const Column& y = b.column(c);
    ASSERT_EQ(x.name(), y.name());
    ASSERT_TRUE(x.type() == y.type()) << x.type().to_string() << " vs " << y.type().to_string();
    EXPECT_EQ(x.null_count(), y.null_count()) << x.name();
    if (a.row_count() > 0) {
      EXPECT_EQ(x.stats().min, y.stats().min) << x.name();
      EXPECT_EQ(x.stats().max, y.stats().max) << x.name();
      if (x.type().id == TypeId::kDouble) {
        EXPECT_EQ(std::memcmp(&x.stats().min_d, &y.stats().min_d, 8) == 0 ||
                      (x.stats().min_d != x.stats().min_d && y.stats().min_d != y.stats().min_d),
                  true);
        EXPECT_EQ(std::memcmp(&x.stats().max_d, &y.stats().max_d, 8) == 0 ||
                      (x.stats().max_d != x.stats().max_d && y.stats().max_d != y.stats().max_d),
                  true);
      }
    }
    if (x.dictionary()) {
      ASSERT_TRUE(y.dictionary());
      EXPECT_TRUE(std::ranges::equal(x.dictionary()->offsets(), y.dictionary()->offsets()));
      EXPECT_EQ(x.dictionary()->chars(), y.dictionary()->chars());
    }
    size_t bytes = size_t(a.row_count()) * size_t(x.type().physical_width());
    if (bytes) {
      EXPECT_EQ(std::memcmp(x.buffer()->data(), y.buffer()->data(), bytes), 0) << x.name();
    }
    for (uint64_t r = 0; r < a.row_count(); r++) ASSERT_TRUE(x.get(r) == y.get(r)) << x.name() << " row " << r;
  }
}

// Starts `raydb args...` as a child process (stdout discarded, stderr into
// `err_file`), for tests that kill it mid-write.
inline pid_t spawn_raydb(const std::vector<std::string>& args, const std::string& err_file = "/dev/null") {
  std::vector<std::string> all = {RAYDB_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  setenv("RAYDB_QUIET", "1", 1);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, RAYDB_BINARY, &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  EXPECT_EQ(rc, 0);
  return pid;
}

// Whether `db` holds an entry that the snapshot `before` does not.
inline bool has_data_files_beyond(const std::string& db, const std::map<std::string, std::string>& before) {
  for (auto& e : std::filesystem::directory_iterator(db))
    if (!before.count(e.path().filename().string())) return true;
  return false;
}

}  // namespace raydb::test
