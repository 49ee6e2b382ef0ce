// How yeex and yeex-p2p print --help: each option with the name of its value (`--steps N`, set
// with option_text where the option is declared) and a sentence saying what the value means, its
// unit and its default, wrapped to 80 columns. CLI11's own formatter prints type and validator
// names instead ("INT:INT from 1 to 2147483647") and leaves long descriptions unwrapped.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

namespace yeex {

class HelpFormatter : public CLI::Formatter {
 public:
  static constexpr std::size_t kWidth = 80;
  HelpFormatter() {
    column_width(30);
    label("SUBCOMMAND", "COMMAND");
  }

  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;

  std::string make_option_opts(const CLI::Option* option) const override;
  std::string make_option_desc(const CLI::Option* option) const override;
  std::string make_subcommand(const CLI::App* command) const override;
  std::string make_description(const CLI::App* app) const override;
  std::string make_footer(const CLI::App* app) const override;
};

// `text` in lines of at most `width` columns, broken between words and joined by '\n'; a '\n' in
// `text` starts a new line (a word longer than `width` stays whole).
std::string wrap_words(const std::string& text, std::size_t width);

}  // namespace yeex
