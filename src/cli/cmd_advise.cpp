// raydb advise rt-views: propose RT views that cover a workload.
#include <cstdio>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "raydb/admin.h"

namespace raydb::cli {

void register_advise(CLI::App& app) {
  auto* advise = app.add_subcommand("advise", "Propose physical design for a workload");
  advise->require_subcommand(1);
  auto* cmd = advise->add_subcommand("rt-views", "Propose RT views (CREATE RT VIEW statements) covering a workload");
  struct Args {
    std::string db, file, prefix = "rt_view";
    uint64_t group_limit = 0;
    double max_view_mib = 0;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--db", a->db, "Database directory (the workload is bound against its tables)")->required();
  cmd->add_option("-f,--file", a->file, "Workload: SQL statements separated by ';' ('-': standard input)")->required();
  cmd->add_option("--prefix", a->prefix, "Name prefix of the proposed views");
  cmd->add_option("--group-limit", a->group_limit, "Group tuples a proposed view may have (default: the most a view takes, 2^21)");
  cmd->add_option("--max-view-mib", a->max_view_mib, "Estimated rows + BVH MiB a proposed view may take (default: no limit)");
  cmd->callback([a]() {
    const std::string sql = read_sql("", a->file);
    auto db = open_database(a->db);
    const RtViewAdvise r = advise_rt_views(*db, sql, a->prefix, a->group_limit, uint64_t(a->max_view_mib * 1048576.0));
    for (const RtViewAdvice& v : r.views) {
      std::string qs;
      for (const std::string& q : v.queries) qs += (qs.empty() ? "" : " ") + q;
      std::printf("-- %s: serves %s; %llu rows, up to %llu group tuples, %.1f MiB of rows (disk and host), ~%.1f MiB BVH\n",
                  v.name.c_str(), qs.c_str(), (unsigned long long)v.rows, (unsigned long long)v.group_bound,
                  v.row_bytes / 1048576.0, v.bvh_bytes / 1048576.0);
      std::printf("%s\n", v.create_sql.c_str());
    }
    for (const std::string& n : r.not_covered) std::printf("-- not covered: %s\n", n.c_str());
  });
}

}  // namespace raydb::cli
