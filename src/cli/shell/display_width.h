#pragma once
// Terminal display width of UTF-8 text: East Asian wide characters take two columns,
// combining marks none (the C library's wcwidth under C.UTF-8), so the shell's table
// lines up whatever the script.
#include <cstddef>
#include <string>
#include <string_view>

namespace raydb::cli::shell {

size_t display_width(std::string_view s);
// The longest prefix of s that fits `width` columns, with "…" when it was cut.
std::string fit_width(std::string_view s, size_t width);
// s with newlines, carriage returns, tabs and other control characters written as
// escapes (\n, \r, \t, \x01), so a value stays on its line.
std::string escape_controls(std::string_view s);

}  // namespace raydb::cli::shell
