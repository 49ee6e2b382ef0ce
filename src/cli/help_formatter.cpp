#include "src/cli/help_formatter.hpp"

#include <sstream>
#include <utility>

namespace yeex {

std::string wrap_words(const std::string& text, std::size_t width) {
  std::string wrapped, line;
  std::istringstream paragraphs(text);
  for (std::string paragraph; std::getline(paragraphs, paragraph);) {
    if (!wrapped.empty() || !line.empty()) wrapped += line + "\n";
    line.clear();
    std::istringstream words(paragraph);
    for (std::string word; words >> word;) {
      if (!line.empty() && line.size() + 1 + word.size() > width) {
        wrapped += line + "\n";
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
  }
  return wrapped + line;
}

// CLI11 puts two blank lines between option groups; one is enough.
std::string HelpFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const {
  std::string text = CLI::Formatter::make_help(app, std::move(name), mode);
  for (auto at = text.find("\n\n\n"); at != std::string::npos; at = text.find("\n\n\n", at)) text.erase(at, 1);
  return text;
}

// Only the value's name: the description says what it means, its range and its default.
std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
  const std::string& text = option->get_option_text();
  return text.empty() ? "" : " " + text;
}

std::string HelpFormatter::make_option_desc(const CLI::Option* option) const {
  return wrap_words(option->get_description(), kWidth - get_column_width());
}

std::string HelpFormatter::make_subcommand(const CLI::App* command) const {
  std::ostringstream out;
  CLI::detail::format_help(out, command->get_display_name(true),
                           wrap_words(command->get_description(), kWidth - get_column_width()), get_column_width());
  return out.str();
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string& description = app->get_description();
  return description.empty() ? "" : wrap_words(description, kWidth) + "\n\n";
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  const std::string& footer = app->get_footer();
  return footer.empty() ? "" : wrap_words(footer, kWidth) + "\n";
}

}  // namespace yeex
