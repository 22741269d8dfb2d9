// raydb check: verifies a database directory file by file (admin::check_database).
// Each problem is one line on stderr ("error: ..."); the exit status is 1 when there
// is any, so scripts can gate on it.
#include <cstdio>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "raydb/admin.h"

namespace raydb::cli {

void register_check(CLI::App& app) {
  auto db = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Verify a database: manifest and file checksums, sizes, dictionary codes, statistics, missing files");
  cmd->add_option("--db", *db, "database directory")->required();
  cmd->callback([db] {
    const admin::CheckResult r = admin::check_database(*db);
    for (const std::string& n : r.notes) std::fprintf(stderr, "note: %s\n", n.c_str());
    for (const std::string& p : r.problems) std::fprintf(stderr, "error: %s\n", p.c_str());
    if (!r.problems.empty()) {
      std::printf("%s: %zu problem%s found\n", db->c_str(), r.problems.size(), r.problems.size() == 1 ? "" : "s");
      throw ExitStatus{1};
    }
    std::printf("%s: ok (%llu tables, %llu files, %llu bytes verified)\n", db->c_str(), (unsigned long long)r.tables,
                (unsigned long long)r.files, (unsigned long long)r.bytes);
  });
}

}  // namespace raydb::cli
