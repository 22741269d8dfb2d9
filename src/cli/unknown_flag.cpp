#include <cstring>
#include <string>

#include "cli/commands.h"

namespace raydb::cli {

const char* unknown_flag(const CLI::App& command, int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (std::strcmp(a, "--") == 0) break;  // everything after is positional
    if (a[0] != '-' || a[1] == '\0') continue;
    // A negative number is a value, not a flag.
    if ((a[1] >= '0' && a[1] <= '9') || a[1] == '.') continue;
    std::string name(a);
    if (name.rfind("--", 0) == 0) {
      name = name.substr(0, name.find('='));
    } else {
      name = name.substr(0, 2);  // -fFILE or -f
    }
    bool known = false;
    for (const CLI::App* c = &command; c && !known; c = c->get_parent())
      known = c->get_option_no_throw(name) != nullptr;
    if (!known) return a;
  }
  return nullptr;
}

}  // namespace raydb::cli
