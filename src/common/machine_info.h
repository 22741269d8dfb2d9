#pragma once
// What machine a benchmark ran on (recorded with every benchmark line).
#include <string>

namespace raydb {

struct MachineInfo {
  std::string hostname;
  std::string cpu_model;
  int hardware_threads = 0;
  double memory_gib = 0;
};

MachineInfo machine_info();

}  // namespace raydb
