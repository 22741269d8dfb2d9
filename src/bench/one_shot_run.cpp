#include "bench/one_shot_run.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/error.h"
#include "common/timer.h"

extern char** environ;

namespace raydb::bench {

namespace {

std::string self_exe() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) fail(ErrorKind::kIO, "cannot find this raydb binary (/proc/self/exe)");
  return std::string(buf, size_t(n));
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A private temporary file name (mkstemp), removed by the destructor.
struct TempFile {
  std::string path;
  TempFile() {
    const char* dir = std::getenv("TMPDIR");
    std::string templ = std::string(dir && *dir ? dir : "/tmp") + "/raydb-oneshot-XXXXXX";
    const int fd = ::mkstemp(templ.data());
    if (fd < 0) fail(ErrorKind::kIO, "cannot create a temporary file in {}", templ);
    ::close(fd);
    path = templ;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

void parse_breakdown(const std::string& err, OneShotRun& r) {
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    double a = 0, b = 0, c = 0;
    char backend[64] = {0};
    if (std::sscanf(line.c_str(), "end-to-end: %lf ms, stages %lf ms, other %lf ms", &a, &b, &c) == 3) {
      r.end_to_end_ms = a;
      continue;
    }
    if (std::sscanf(line.c_str(), "time: %lf ms (backend %63[^)])", &a, backend) == 2) {
      r.backend = backend;
      continue;
    }
    std::istringstream in(line);
    std::string word;
    in >> word;
    if (word == "stage") {
      std::string name;
      double ms = 0;
      if (in >> name >> ms) r.stage_ms[name] = ms;
    } else if (word == "kernels") {
      in >> r.kernels_ms;
    } else if (word == "bytes") {
      std::string name;
      unsigned long long n = 0;
      while (in >> name >> n) r.bytes[name] = n;
    }
  }
}

}  // namespace

OneShotRun run_one_shot(const std::string& db, const std::string& sql, const std::string& backend, int threads) {
  TempFile out, err;
  const std::string exe = self_exe();
  const std::string threads_text = std::to_string(threads);
  std::vector<std::string> args = {exe, "query", "--timing", "--format", "csv", "--db", db, "--backend", backend,
                                   "--threads", threads_text, sql};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.path.c_str(), O_WRONLY | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, err.path.c_str(), O_WRONLY | O_TRUNC, 0600);
  Timer timer;
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) fail(ErrorKind::kExecution, "cannot start {} for a one-shot run", exe);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  OneShotRun r;
  r.wall_ms = timer.elapsed_ms();
  const std::string err_text = slurp(err.path);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const size_t last = err_text.find_last_of('\n', err_text.size() >= 2 ? err_text.size() - 2 : 0);
    fail(ErrorKind::kExecution, "one-shot run failed: {}",
         last == std::string::npos ? err_text : err_text.substr(last + 1));
  }
  r.csv = slurp(out.path);
  parse_breakdown(err_text, r);
  return r;
}

}  // namespace raydb::bench
