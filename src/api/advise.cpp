// raydb advise rt-views: binds each statement of a workload and asks the view advisor
// (exec/index/view_advisor.h) for views that cover them; and the views' listing.
#include "exec/index/view_advisor.h"
#include "raydb/admin.h"
#include "raydb/raydb.h"
#include "sql/sql.h"
#include "storage/persist/database_directory.h"

namespace raydb {

std::vector<std::string> split_sql_statements(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  bool quote = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!quote && c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      const size_t end = text.find('\n', i);
      cur += text.substr(i, end == std::string::npos ? std::string::npos : end - i);
      if (end == std::string::npos) break;
      i = end - 1;
      continue;
    }
    if (c == '\'') quote = !quote;
    if (c == ';' && !quote) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  // Drop statements that hold only blanks and comments.
  std::erase_if(out, [](const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '-' && i + 1 < s.size() && s[i + 1] == '-') {
        i = s.find('\n', i);
        if (i == std::string::npos) return true;
      } else if (!std::isspace(static_cast<unsigned char>(s[i]))) {
        return false;
      }
    }
    return true;
  });
  return out;
}

namespace {

// "-- name" as the statement's first non-blank line names it; else "#n".
std::string label_of(const std::string& sql, size_t n) {
  size_t i = sql.find_first_not_of(" \t\r\n");
  if (i != std::string::npos && sql.compare(i, 2, "--") == 0) {
    const size_t end = sql.find('\n', i);
    std::string l = sql.substr(i + 2, end == std::string::npos ? std::string::npos : end - i - 2);
    l.erase(0, l.find_first_not_of(" \t"));
    l.erase(l.find_last_not_of(" \t\r") + 1);
    if (!l.empty()) return l;
  }
  return "#" + std::to_string(n);
}

}  // namespace

std::vector<RtViewInfo> describe_rt_views(const std::string& db_path) {
  auto dir = DatabaseDirectory::open(db_path);
  std::vector<RtViewInfo> out;
  for (const RtViewEntry& e : dir->rt_views()) {
    RtViewInfo v{e.name, e.tables, e.rows, e.bytes, false};
    for (size_t t = 0; t < e.tables.size(); ++t) v.stale = v.stale || dir->table_version(e.tables[t]) != e.versions[t];
    out.push_back(std::move(v));
  }
  return out;
}

RtViewAdvise advise_rt_views(Database& db, const std::string& workload_sql, const std::string& prefix,
                             uint64_t group_limit, uint64_t max_view_bytes) {
  DatabaseDirectory& dir = db.directory();
  exec::ViewAdvisor advisor(exec::AdviseLimits{group_limit, max_view_bytes});
  RtViewAdvise out;
  const std::vector<std::string> statements = split_sql_statements(workload_sql);
  if (statements.empty()) fail(ErrorKind::kInvalidInput, "the workload has no SQL statements");
  for (size_t i = 0; i < statements.size(); ++i) {
    const std::string label = label_of(statements[i], i + 1);
    sql::BoundStatement st = sql::parse_and_bind(statements[i], [&dir](std::string_view n) { return dir.table(n); });
    if (st.kind != sql::StatementKind::kSelect && st.kind != sql::StatementKind::kExplain) {
      out.not_covered.push_back(label + ": not a SELECT");
      continue;
    }
    const std::string why = advisor.add(label, st.query);
    if (!why.empty()) out.not_covered.push_back(label + ": " + why);
  }
  exec::AdviseResult proposed = advisor.propose(prefix);
  for (const exec::ViewAdvice& a : proposed.views)
    out.views.push_back(
        {a.view.name, exec::create_rt_view_sql(a.view), a.queries, a.rows, a.row_bytes, a.bvh_bytes, a.group_bound});
  for (std::string& n : proposed.not_covered) out.not_covered.push_back(std::move(n));
  return out;
}

}  // namespace raydb
