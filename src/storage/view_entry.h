#pragma once
// A plain view (CREATE VIEW): its name and the SELECT as written. storage/ keeps the
// text; api/ expands it whenever a query names the view.
#include <string>

namespace raydb {

struct ViewEntry {
  std::string name;
  std::string sql;
};

}  // namespace raydb
