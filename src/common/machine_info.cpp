#include "common/machine_info.h"

#include <unistd.h>

#include <cstdio>
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

uint64_t available_memory_bytes() {
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

}  // namespace raydb
