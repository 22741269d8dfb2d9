#include "common/wall_sampler.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace raydb::wall_sampler {

namespace {

constexpr int kDepth = 48;
constexpr size_t kMaxSamples = 1 << 17;  // 128 K samples: 32 s at the default rate

struct State {
  void** frames = nullptr;  // kMaxSamples x kDepth
  int* depths = nullptr;
  std::atomic<size_t> count{0};
  std::atomic<bool> paused{false};
  std::atomic<bool> running{false};
  timer_t timer{};
  std::string path;
};

State& state() {
  static State* s = new State();  // never destroyed: the handler may run during exit
  return *s;
}

void on_signal(int, siginfo_t*, void*) {
  State& s = state();
  if (!s.running.load(std::memory_order_relaxed) || s.paused.load(std::memory_order_relaxed)) return;
  const int saved = errno;
  const size_t i = s.count.fetch_add(1, std::memory_order_relaxed);
  if (i < kMaxSamples) s.depths[i] = backtrace(s.frames + i * kDepth, kDepth);
  errno = saved;
}

// Frames as "module:offset" with the modules listed first, so that a report can name
// them from the binaries of the same build on another machine.
void write_samples() {
  State& s = state();
  if (!s.running.exchange(false)) return;
  itimerspec off{};
  timer_settime(s.timer, 0, &off, nullptr);
  FILE* f = std::fopen(s.path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "wall sampler: cannot write %s\n", s.path.c_str());
    return;
  }
  const size_t n = std::min(s.count.load(), kMaxSamples);
  std::map<std::string, int> modules;
  std::string lines;
  for (size_t i = 0; i < n; i++) {
    lines += "S";
    // Frames 0-1 are the handler and the signal trampoline.
    for (int d = 2; d < s.depths[i]; d++) {
      void* pc = s.frames[i * kDepth + size_t(d)];
      Dl_info info{};
      std::string mod = "?";
      uintptr_t off = uintptr_t(pc);
      if (dladdr(pc, &info) && info.dli_fname) {
        mod = info.dli_fname;
        off = uintptr_t(pc) - uintptr_t(info.dli_fbase);
      }
      auto it = modules.emplace(mod, int(modules.size())).first;
      // A return address points after its call: one byte back names the caller's line.
      char buf[48];
      std::snprintf(buf, sizeof buf, " %d:%lx", it->second, (unsigned long)(d == 2 ? off : off - 1));
      lines += buf;
    }
    lines += "\n";
  }
  for (auto& [name, id] : modules) std::fprintf(f, "M %d %s\n", id, name.c_str());
  std::fputs(lines.c_str(), f);
  std::fclose(f);
  std::fprintf(stderr, "wall sampler: %zu samples to %s\n", n, s.path.c_str());
}

}  // namespace

void start_from_env(bool paused) {
  const char* path = std::getenv("RAYDB_SAMPLE");
  if (!path || !*path) return;
  State& s = state();
  if (s.running) return;
  const char* us_env = std::getenv("RAYDB_SAMPLE_US");
  const long us = us_env ? std::max(50L, std::atol(us_env)) : 250;
  s.path = path;
  const size_t bytes = kMaxSamples * kDepth * sizeof(void*) + kMaxSamples * sizeof(int);
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (mem == MAP_FAILED) return;
  s.frames = static_cast<void**>(mem);
  s.depths = reinterpret_cast<int*>(s.frames + kMaxSamples * kDepth);
  void* warm[4];
  backtrace(warm, 4);  // loads the unwinder now, not inside the handler
  struct sigaction sa{};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPROF, &sa, nullptr);
  sigevent ev{};
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGPROF;
  ev._sigev_un._tid = pid_t(syscall(SYS_gettid));
  if (timer_create(CLOCK_MONOTONIC, &ev, &s.timer) != 0) return;
  s.paused = paused;
  s.running = true;
  itimerspec its{};
  its.it_interval.tv_sec = us / 1000000;
  its.it_interval.tv_nsec = (us % 1000000) * 1000;
  its.it_value = its.it_interval;
  timer_settime(s.timer, 0, &its, nullptr);
  std::atexit(write_samples);
}

void pause() { state().paused = true; }
void resume() { state().paused = false; }

}  // namespace raydb::wall_sampler
