#pragma once
// One `raydb shell` session: reads lines (readline on a terminal, or piped input),
// runs the statements they complete on a local Connection or a server, and the dot
// commands (.help lists them). Ctrl-C cancels the running statement (interrupt.h).
#include <cstdio>
#include <istream>
#include <string>

#include "cli/shell/result_printer.h"
#include "raydb/raydb.h"

namespace raydb::client {
class RemoteConnection;
}

namespace raydb::cli::shell {

class ShellSession {
 public:
  // `db` and `local` for a database directory, or `remote` for a server (then the
  // catalog commands are unavailable). `interactive`: standard input is a terminal.
  ShellSession(Database* db, Connection* local, client::RemoteConnection* remote, bool interactive);
  ~ShellSession();
  // The prompt loop until .quit or end of input. Returns false when a statement or
  // command failed (a piped session then exits non-zero).
  bool run(const std::string& banner_target);

  ResultPrinter& printer() { return printer_; }

 private:
  // One input line; false after .quit / .exit.
  bool handle_line(const std::string& line, std::string& pending);
  // Lines of `in` until its end (piped input, .read); false after .quit.
  bool run_stream(std::istream& in);
  bool run_statement(const std::string& sql);
  void dot_command(const std::string& word, const std::string& rest);
  void show_schema(const std::string& table);
  void report(const std::string& message);
  void write(const std::string& text);
  void fit_terminal();
  void remember(const std::string& entry);

  Database* db_;
  Connection* local_;
  client::RemoteConnection* remote_;
  const bool interactive_;
  ResultPrinter printer_;
  bool timer_ = false;
  bool auto_width_;  // follow the terminal's width until .maxwidth
  FILE* output_ = stdout;        // .output FILE
  std::string history_;
  int read_depth_ = 0;
  bool failed_ = false;
};

}  // namespace raydb::cli::shell
