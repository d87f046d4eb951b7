// Man-page style usage texts of the `tritium` command and its subcommands, shown by
// `tritium help [CMD]`, `tritium --help` and `tritium CMD --help`.
#pragma once
#include <string>
#include <vector>

namespace tritium::cli {

/// The names of the subcommands that have a usage page, in display order.
const std::vector<std::string>& usage_topics();

/// The usage page of `topic` ("" or "tritium" for the top-level page); empty when unknown.
std::string usage_page(const std::string& topic);

/// Prints the page of `topic` to stdout; for an unknown topic prints an error listing the
/// topics to stderr and returns 2, else returns 0.
int print_usage(const std::string& topic);

}  // namespace tritium::cli
