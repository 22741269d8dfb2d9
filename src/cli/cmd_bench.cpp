#include "cli/commands.h"

namespace raydb::cli {

void register_bench(CLI::App& app) { (void)app; }  // TODO(owner): implement

}  // namespace raydb::cli
