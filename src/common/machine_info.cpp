#include "common/machine_info.h"

#include <unistd.h>

#include <time.h>

#include <cstdio>
#include <mutex>
#include <fstream>
#include <thread>

namespace raydb {

MachineInfo machine_info() {
  MachineInfo m;
  char host[256] = {0};
  if (gethostname(host, sizeof(host) - 1) == 0) m.hostname = host;
  std::ifstream cpu("/proc/cpuinfo");
  for (std::string line; std::getline(cpu, line);) {
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) m.cpu_model = line.substr(p + 2);
      break;
    }
  }
  m.hardware_threads = int(std::thread::hardware_concurrency());
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) m.memory_gib = double(pages) * double(page) / (1024.0 * 1024 * 1024);
  return m;
}

namespace {

uint64_t read_available_memory() {
  if (FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kb = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
    std::fclose(f);
    if (found) return uint64_t(kb) * 1024;
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

}  // namespace

uint64_t available_memory_bytes() {
  // Read at most every 250 ms: every statement and subquery block asks (its CPU memory
  // budget), and /proc/meminfo took 0.1 ms a read on the GPU machine, about 1 ms of
  // the 22 TPC-H queries' time there.
  constexpr uint64_t kMaxAgeNs = 250'000'000;
  static std::mutex m;
  static uint64_t value = 0, read_at = 0;
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  const uint64_t now = uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
  std::lock_guard<std::mutex> lock(m);
  if (read_at == 0 || now - read_at > kMaxAgeNs) {
    value = read_available_memory();
    read_at = now;
  }
  return value;
}

}  // namespace raydb
