#include "cli/commands.h"

namespace raydb::cli {

void register_gen(CLI::App& app) { (void)app; }  // TODO(owner): implement

}  // namespace raydb::cli
