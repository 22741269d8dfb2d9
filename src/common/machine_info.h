#pragma once
// What machine a benchmark ran on (recorded with every benchmark line).
#include <cstdint>
#include <string>

namespace raydb {

struct MachineInfo {
  std::string hostname;
  std::string cpu_model;
  int hardware_threads = 0;
  double memory_gib = 0;
};

MachineInfo machine_info();
// Host memory the system could give now (MemAvailable, read at most every 250 ms),
// else the physical memory; 0 when neither can be read.
uint64_t available_memory_bytes();

}  // namespace raydb
