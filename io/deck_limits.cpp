// The limits a deck's text must keep before the TOML parser reads it, and those of the text it
// hands to the output files (io/deck_reader.hpp; the numbers are in io/deck.hpp).
//
// toml++ limits the nesting of values (arrays, inline tables) to 256, but not that of tables: every
// part of a dotted key or of a [table.header] is one more table, built and freed by recursion, so a
// key of a hundred thousand parts overflows the stack. NestingScan measures the nesting on the
// text: a small scanner that knows TOML's strings, comments, keys and brackets, and nothing else.
// It need not validate: on text it does not understand it skips to the next line, where toml++
// will then stop with its syntax error. What it must do is never count less than toml++ builds
// on the text before that error, and it counts each [[array]] header as one level more than its
// parts, brackets and inline tables as one level each.
//
// The scanner also refuses a non-ASCII character outside strings and comments, where TOML 1.0
// allows none: toml++ 3.3 asks whether it is whitespace, and its table for that question reaches
// __builtin_unreachable for most letters (U+0432 'в' is one), which is undefined behaviour.
#include <algorithm>
#include <string>

#include "io/deck_reader.hpp"

namespace yeex::deck_detail {
namespace {

class NestingScan {
 public:
  NestingScan(std::string_view text, const std::string& origin) : text_(text), origin_(origin) {}

  // Throws at the first statement that nests deeper than kMaxDeckNesting.
  void run() {
    int table = 0;  // nesting of the last [header]
    for (;;) {
      skip_blank(true);
      if (at_end()) return;
      if (peek() == '[') {
        const bool array = peek(1) == '[';
        position_ += array ? 2 : 1;
        table = key_parts(']') + (array ? 1 : 0);
        deeper(table);
      } else {
        const int parts = key_parts('=');
        if (peek() == '=') {
          ++position_;
          deeper(table + parts);
          value(table + parts);
        }
      }
      skip_blank(false);
      skip_line();  // what toml++ will refuse
    }
  }

 private:
  bool at_end() const { return position_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const { return position_ + ahead < text_.size() ? text_[position_ + ahead] : '\0'; }
  void next() {
    if (text_[position_] == '\n') ++line_;
    ++position_;
  }
  // next(), for a character outside strings and comments.
  void next_plain() {
    if (static_cast<unsigned char>(peek()) >= 0x80)
      throw DeckError("", origin_ + ":" + std::to_string(line_) +
                              ": a non-ASCII character outside a string or comment (TOML allows them only there)");
    next();
  }

  void deeper(int depth) const {
    if (depth <= kMaxDeckNesting) return;
    throw DeckError("", origin_ + ":" + std::to_string(line_) + ": tables, arrays and dotted keys nested more than " +
                            std::to_string(kMaxDeckNesting) + " levels deep (docs/decks.md, \"Limits\")");
  }

  // Spaces, tabs, comments and, where `newlines`, line ends.
  void skip_blank(bool newlines) {
    while (!at_end()) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
        next();
      } else if (c == '#') {
        while (!at_end() && peek() != '\n') next();
      } else {
        return;
      }
    }
  }

  void skip_line() {
    while (!at_end() && peek() != '\n') next_plain();
  }

  // A basic ("...", """...""") or literal ('...', '''...''') string, from its opening quote. A
  // single-line string ends at the line's end at the latest.
  void skip_string() {
    const char quote = peek();
    const bool escapes = quote == '"';
    if (peek(1) == quote && peek(2) == quote) {
      position_ += 3;
      while (!at_end()) {
        if (escapes && peek() == '\\') {
          next();
          if (!at_end()) next();
        } else if (peek() == quote && peek(1) == quote && peek(2) == quote) {
          position_ += 3;
          for (int extra = 0; extra < 2 && peek() == quote; ++extra) ++position_;  // """a""""" holds a"
          return;
        } else {
          next();
        }
      }
      return;
    }
    next();
    while (!at_end() && peek() != '\n') {
      const char c = peek();
      next();
      if (escapes && c == '\\' && !at_end() && peek() != '\n')
        next();
      else if (c == quote)
        return;
    }
  }

  // A key (bare, quoted or dotted) up to `stop`, which is left unread: its number of parts.
  int key_parts(char stop) {
    int parts = 1;
    while (!at_end() && peek() != stop && peek() != '\n') {
      if (peek() == '"' || peek() == '\'') {
        skip_string();
      } else {
        if (peek() == '.') ++parts;
        next_plain();
      }
    }
    return parts;
  }

  // One value whose key sits at `depth`; the recursion is as deep as the nesting, which deeper()
  // bounds.
  void value(int depth) {
    skip_blank(false);
    const char c = peek();
    if (c == '"' || c == '\'') {
      skip_string();
    } else if (c == '[') {
      next();
      deeper(depth + 1);
      elements(']', [&] {
        value(depth + 1);
        return true;
      });
    } else if (c == '{') {
      next();
      deeper(depth + 1);
      elements('}', [&] {
        const int parts = key_parts('=');
        if (peek() != '=') return false;
        next();
        deeper(depth + parts);
        value(depth + parts);
        return true;
      });
    } else {
      while (!at_end() && peek() != ',' && peek() != ']' && peek() != '}' && peek() != '\n' && peek() != '#')
        next_plain();
    }
  }

  // The comma-separated entries of an array or inline table up to `close`; stops early on what
  // is not TOML (or an entry returning false).
  template <class Entry>
  void elements(char close, Entry entry) {
    for (;;) {
      skip_blank(true);
      if (at_end()) return;
      if (peek() == close) {
        next();
        return;
      }
      if (!entry()) return;
      skip_blank(true);
      if (peek() == ',') {
        next();
      } else {
        if (peek() == close) next();
        return;
      }
    }
  }

  std::string_view text_;
  const std::string& origin_;
  std::size_t position_ = 0;
  std::size_t line_ = 1;
};

}  // namespace

void check_deck_text(std::string_view text, const std::string& origin) {
  if (text.size() > kMaxDeckBytes)
    throw DeckError("", origin + ": " + std::to_string(text.size()) + " bytes is more than the limit of " +
                            std::to_string(kMaxDeckBytes) + " bytes (16 MiB) for a deck");
  NestingScan(text, origin).run();
}

const std::string& check_text(const std::string& text, const std::string& path, std::size_t most) {
  if (text.size() > most)
    throw DeckError(path, std::to_string(text.size()) + " bytes is more than the limit of " + std::to_string(most));
  const auto control = std::find_if(text.begin(), text.end(), [](char c) { return c >= 0 && (c < 0x20 || c == 0x7F); });
  if (control != text.end())
    throw DeckError(path, "must not contain control characters (byte " + std::to_string(control - text.begin()) +
                              " is " + std::to_string(static_cast<int>(*control)) + ")");
  return text;
}

}  // namespace yeex::deck_detail
