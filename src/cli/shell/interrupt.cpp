#include "cli/shell/interrupt.h"

#include <fcntl.h>
#include <poll.h>
#include <readline/readline.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "client/remote_connection.h"

namespace raydb::cli::shell {

namespace {

// Only lock-free atomics are touched by the handler.
std::atomic<bool> g_statement_cancel{false};
std::atomic<bool> g_interrupted{false};
std::atomic<client::RemoteConnection*> g_remote{nullptr};
bool g_line_interrupted = false;
// The handler also writes a byte here: SIGINT may be delivered to any thread (the
// executor's workers too), so the key reader waits on this pipe beside the terminal
// rather than on an interrupted read.
int g_wake[2] = {-1, -1};

void on_sigint(int) {
  g_interrupted.store(true);
  g_statement_cancel.store(true);
  if (client::RemoteConnection* r = g_remote.load()) r->cancel_running();
  const int saved = errno;
  if (g_wake[1] >= 0 && write(g_wake[1], "!", 1) < 0) {  // a full pipe already wakes the reader
  }
  errno = saved;
}

void drain_wake() {
  char buf[64];
  while (g_wake[0] >= 0 && read(g_wake[0], buf, sizeof buf) > 0) {
  }
}

// readline's key reader: Ctrl-C ends the line (as Enter would), marked void, so
// readline returns and the prompt starts afresh.
int read_key(FILE* in) {
  while (true) {
    if (g_interrupted.exchange(false)) {
      drain_wake();
      g_line_interrupted = true;
      rl_point = rl_end;  // the newline goes after the text, not through it
      std::fputs("^C", rl_outstream ? rl_outstream : stdout);
      return '\n';
    }
    pollfd fds[2] = {{fileno(in), POLLIN, 0}, {g_wake[0], POLLIN, 0}};
    if (poll(fds, g_wake[0] >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      return EOF;
    }
    if (fds[1].revents) drain_wake();
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    unsigned char c = 0;
    const ssize_t n = read(fileno(in), &c, 1);
    if (n == 1) return c;
    if (n == 0) return EOF;
    if (errno != EINTR) return EOF;
  }
}

}  // namespace

void Interrupt::install() {
  if (pipe2(g_wake, O_NONBLOCK | O_CLOEXEC) != 0) g_wake[0] = g_wake[1] = -1;
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR
  sigaction(SIGINT, &sa, nullptr);
  rl_catch_signals = 0;
  rl_getc_function = read_key;
}

std::shared_ptr<std::atomic<bool>> Interrupt::statement_flag() {
  // Not owned: the flag lives as long as the process.
  return std::shared_ptr<std::atomic<bool>>(&g_statement_cancel, [](std::atomic<bool>*) {});
}

void Interrupt::begin_statement(client::RemoteConnection* remote) {
  g_statement_cancel.store(false);
  g_remote.store(remote);
}

void Interrupt::end_statement() {
  g_remote.store(nullptr);
  g_interrupted.store(false);  // a Ctrl-C that cancelled the statement is spent
  drain_wake();
}

bool Interrupt::take_line_interrupt() {
  const bool was = g_line_interrupted;
  g_line_interrupted = false;
  return was;
}

}  // namespace raydb::cli::shell
