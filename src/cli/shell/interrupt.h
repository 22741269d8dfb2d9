#pragma once
// Ctrl-C in the shell. While a statement runs, SIGINT sets its cancel flag (the
// executors stop at their next check; on a server, a CancelRequest goes out) and the
// session goes on. At the prompt it abandons the line being typed, and any statement
// begun on earlier lines, and shows a fresh prompt. Readline must not catch SIGINT
// itself: install() turns that off and reads keys through a function that polls the
// terminal and a pipe the handler writes to.
#include <atomic>
#include <memory>

namespace raydb::client {
class RemoteConnection;
}

namespace raydb::cli::shell {

class Interrupt {
 public:
  // Installs the SIGINT handler and readline's key reader.
  static void install();
  // The cancel flag the running statement polls (QueryOptions::cancel); cleared here
  // before each statement.
  static std::shared_ptr<std::atomic<bool>> statement_flag();
  static void begin_statement(client::RemoteConnection* remote);
  static void end_statement();
  // True once after Ctrl-C ended a readline() call: the line it returned is void.
  static bool take_line_interrupt();
};

}  // namespace raydb::cli::shell
