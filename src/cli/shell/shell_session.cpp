#include "cli/shell/shell_session.h"

#include <readline/history.h>
#include <readline/readline.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "cli/shell/completion.h"
#include "cli/shell/interrupt.h"
#include "client/remote_connection.h"
#include "common/error.h"
#include "raydb/admin.h"

namespace raydb::cli::shell {

namespace {

constexpr size_t kTerminalRows = 40;  // rows a result shows on a terminal (.maxrows)
constexpr int kHistoryLines = 10000;

void print_help() {
  std::puts(
      "Enter SQL statements ending with ';'. Ctrl-C cancels a running statement. Commands:\n"
      "  .tables                 list tables\n"
      "  .schema [TABLE]         columns and types of TABLE (all tables without one)\n"
      "  .mode MODE              table | csv | tsv | json | jsonl | markdown (.format also)\n"
      "  .headers on|off         column names in table, csv and tsv output\n"
      "  .timer on|off           print execution time after each statement (.timing also)\n"
      "  .maxrows N              table mode: show the first and last of N rows at most (0: all)\n"
      "  .maxwidth N             table mode: elide middle columns beyond N columns of text (0: no limit)\n"
      "  .output [FILE]          write results to FILE (no FILE: back to the terminal)\n"
      "  .read FILE              run the statements and commands of FILE\n"
      "  .help                   this text\n"
      "  .quit                   leave (also Ctrl-D)");
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool on_off(const std::string& word, const std::string& value) {
  if (value == "on") return true;
  if (value == "off") return false;
  fail(ErrorKind::kInvalidInput, "{} takes on or off, got '{}'", word, value);
}

size_t count_of(const std::string& word, const std::string& value) {
  size_t n = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc() || p != value.data() + value.size())
    fail(ErrorKind::kInvalidInput, "{} takes a count, got '{}'", word, value);
  return n;
}

// A statement that may change the catalog (completion then reloads its names).
bool may_change_catalog(const std::string& sql) {
  std::string first;
  for (char c : sql) {
    if (std::isalpha(static_cast<unsigned char>(c))) first += char(std::tolower(static_cast<unsigned char>(c)));
    else if (!first.empty()) break;
  }
  return first != "select" && first != "with" && first != "explain" && first != "show" && first != "values";
}

}  // namespace

ShellSession::ShellSession(Database* db, Connection* local, client::RemoteConnection* remote, bool interactive)
    : db_(db), local_(local), remote_(remote), interactive_(interactive) {
  const bool terminal_out = isatty(STDOUT_FILENO);
  auto_width_ = terminal_out;
  if (terminal_out) printer_.max_rows = kTerminalRows;
  if (!interactive_) return;
  Interrupt::install();
  Completion::install([this] {
    CatalogNames names;
    if (!db_) return names;
    names.tables = admin::table_names(*db_);
    for (const std::string& t : names.tables)
      if (auto info = admin::describe_table(*db_, t))
        for (auto& c : info->columns) names.columns.push_back(c.name);
    return names;
  });
  if (const char* home = std::getenv("HOME")) history_ = std::string(home) + "/.raydb_history";
  if (!history_.empty()) {
    struct stat st {};
    if (stat(history_.c_str(), &st) != 0) write_history(history_.c_str());  // append_history needs the file
    read_history(history_.c_str());
    history_truncate_file(history_.c_str(), kHistoryLines);
  }
}

ShellSession::~ShellSession() {
  if (output_ != stdout) std::fclose(output_);
}

// Saved as it is entered, so a session that dies keeps its history.
void ShellSession::remember(const std::string& entry) {
  if (!interactive_ || entry.empty()) return;
  add_history(entry.c_str());
  if (!history_.empty()) append_history(1, history_.c_str());
}

void ShellSession::fit_terminal() {
  if (!auto_width_) return;
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) printer_.max_width = ws.ws_col;
}

void ShellSession::write(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), output_);
  std::fflush(output_);
}

void ShellSession::report(const std::string& message) {
  std::fflush(output_);
  std::string m = message;
  if (db_) {
    try {
      m = with_table_suggestion(m, admin::table_names(*db_));
    } catch (const Error&) {
    }
  }
  std::fprintf(stderr, "error: %s\n", m.c_str());
  failed_ = true;
}

bool ShellSession::run_statement(const std::string& sql) {
  try {
    Interrupt::begin_statement(remote_);
    struct End {
      ~End() { Interrupt::end_statement(); }
    } end;
    QueryResult r = remote_ ? remote_->query(sql) : local_->query(sql);
    if (may_change_catalog(sql)) Completion::invalidate();
    fit_terminal();
    if (!r.explain.empty() && printer_.mode == ShellMode::kTable)
      write(r.explain);
    else
      write(printer_.render(r));
    if (timer_) write(fmt::format("time: {:.3f} ms\n", r.elapsed_ms));
    return true;
  } catch (const Error& e) {
    report(e.what());
    return false;
  }
}

void ShellSession::show_schema(const std::string& table) {
  std::vector<std::string> tables = table.empty() ? admin::table_names(*db_) : std::vector<std::string>{table};
  std::string out;
  for (const std::string& t : tables) {
    auto info = admin::describe_table(*db_, t);
    if (!info) fail(ErrorKind::kBinder, "unknown table '{}'", t);
    out += "CREATE TABLE " + info->name + " (\n";
    for (size_t c = 0; c < info->columns.size(); c++)
      out += "  " + info->columns[c].name + " " + info->columns[c].type + (c + 1 < info->columns.size() ? ",\n" : "\n");
    out += ");\n";
  }
  write(out);
}

void ShellSession::dot_command(const std::string& word, const std::string& rest) {
  if (!db_ && (word == ".tables" || word == ".schema"))
    fail(ErrorKind::kNotImplemented, "{} needs a local database (--db); on a server, query the tables directly", word);
  if (word == ".help") {
    print_help();
  } else if (word == ".tables") {
    std::string out;
    for (auto& n : admin::table_names(*db_)) out += n + "\n";
    write(out);
  } else if (word == ".schema") {
    show_schema(rest);
  } else if (word == ".mode" || word == ".format") {
    printer_.mode = parse_shell_mode(rest);
  } else if (word == ".headers") {
    printer_.headers = on_off(word, rest);
  } else if (word == ".timer" || word == ".timing") {
    timer_ = on_off(word, rest);
  } else if (word == ".maxrows") {
    printer_.max_rows = count_of(word, rest);
  } else if (word == ".maxwidth") {
    printer_.max_width = count_of(word, rest);
    auto_width_ = false;
  } else if (word == ".output") {
    FILE* next = stdout;
    if (!rest.empty() && !(next = std::fopen(rest.c_str(), "w")))
      fail(ErrorKind::kIO, ".output: cannot write {}", rest);
    if (output_ != stdout) std::fclose(output_);
    output_ = next;
  } else if (word == ".read") {
    if (rest.empty()) fail(ErrorKind::kInvalidInput, ".read needs a file name");
    std::ifstream in(rest, std::ios::binary);
    if (!in) fail(ErrorKind::kIO, ".read: cannot read {}", rest);
    if (read_depth_ >= 16) fail(ErrorKind::kInvalidInput, ".read: files nested more than 16 deep (a file reads itself?)");
    read_depth_++;
    struct Depth {
      int& d;
      ~Depth() { d--; }
    } depth{read_depth_};
    run_stream(in);
  } else {
    fail(ErrorKind::kInvalidInput, "unknown command {} (.help lists them)", word);
  }
}

bool ShellSession::handle_line(const std::string& line, std::string& pending) {
  const std::string t = trim(line);
  if (pending.empty() && !t.empty() && t[0] == '.') {
    if (read_depth_ == 0) remember(line);
    const std::string word = t.substr(0, t.find_first_of(" \t")), rest = trim(t.substr(word.size()));
    if (word == ".quit" || word == ".exit") return false;
    try {
      dot_command(word, rest);
    } catch (const Error& e) {
      report(e.what());
    }
    return true;
  }
  // Every statement the line completes runs, in order (`select 2; select 3;`);
  // blank and comment-only statements are no-ops.
  SqlScript script = split_sql_script(pending + line + "\n");
  if (read_depth_ == 0 && !script.statements.empty()) remember(trim(pending + line));
  pending = script.rest;
  for (const std::string& sql : script.statements) run_statement(sql);  // the session goes on after errors
  return true;
}

bool ShellSession::run_stream(std::istream& in) {
  std::string pending, line;
  while (std::getline(in, line))
    if (!handle_line(line, pending)) return false;
  // Input may end without a final ';': that statement runs too.
  if (!trim(pending).empty()) run_statement(pending);
  return true;
}

bool ShellSession::run(const std::string& banner_target) {
  if (!interactive_) {
    run_stream(std::cin);
    return !failed_;
  }
  std::printf("raydb shell on %s; .help for help\n", banner_target.c_str());
  std::string pending;
  while (true) {
    char* raw = readline(pending.empty() ? "raydb> " : "  ...> ");
    if (!raw) break;
    std::string line = raw;
    std::free(raw);
    if (Interrupt::take_line_interrupt()) {  // Ctrl-C at the prompt: a fresh line
      pending.clear();
      continue;
    }
    if (!handle_line(line, pending)) break;
  }
  return !failed_;
}

}  // namespace raydb::cli::shell
