#include "sql/lexer.h"

#include <cctype>

#include "sql/parse_error.h"

namespace raydb::sql {

namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Bytes >= 0x80 (UTF-8 sequences) are word characters, as PostgreSQL allows.
bool is_word_start(char c) {
  auto u = static_cast<unsigned char>(c);
  return (u < 0x80 && std::isalpha(u)) || c == '_' || u >= 0x80;
}
bool is_word_char(char c) { return is_word_start(c) || is_digit(c) || c == '$'; }
}  // namespace

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < sql_.size(); i++) {
    if (sql_[pos_] == '\n') {
      line_++;
      column_ = 1;
    } else {
      column_++;
    }
    pos_++;
  }
}

void Lexer::skip_space_and_comments() {
  for (;;) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      advance();
    } else if (c == '-' && peek(1) == '-') {
      while (pos_ < sql_.size() && peek() != '\n') advance();
    } else if (c == '/' && peek(1) == '*') {
      int line = line_, column = column_;
      advance(2);
      // Block comments do not nest (as in SQLite; PostgreSQL nests them).
      while (pos_ < sql_.size() && !(peek() == '*' && peek(1) == '/')) advance();
      if (pos_ >= sql_.size()) parse_error_at(line, column, "unterminated comment");
      advance(2);
    } else {
      return;
    }
  }
}

Token Lexer::start_token(TokenType type) const {
  Token t;
  t.type = type;
  t.line = line_;
  t.column = column_;
  t.offset = pos_;
  return t;
}

Token Lexer::lex_number() {
  Token t = start_token(TokenType::kInteger);
  size_t begin = pos_;
  while (is_digit(peek())) advance();
  if (peek() == '.') {
    t.type = TokenType::kDecimal;
    advance();
    while (is_digit(peek())) advance();
  }
  if ((peek() == 'e' || peek() == 'E') &&
      (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
    t.type = TokenType::kFloat;
    advance(2);
    while (is_digit(peek())) advance();
  }
  // "12abc" is one malformed token, not the number 12 followed by an alias.
  if (is_word_char(peek())) {
    size_t end = pos_;
    while (end < sql_.size() && is_word_char(sql_[end])) end++;
    parse_error_at(t.line, t.column, "syntax error",
                   "malformed number '" + std::string(sql_.substr(begin, end - begin)) + "'");
  }
  t.text = t.raw = std::string(sql_.substr(begin, pos_ - begin));
  return t;
}

Token Lexer::lex_word() {
  Token t = start_token(TokenType::kIdentifier);
  size_t begin = pos_;
  while (is_word_char(peek())) advance();
  t.raw = std::string(sql_.substr(begin, pos_ - begin));
  t.text = t.raw;
  for (auto& c : t.text) c = char(std::tolower(static_cast<unsigned char>(c)));
  return t;
}

Token Lexer::lex_quoted(char quote) {
  Token t = start_token(quote == '\'' ? TokenType::kString : TokenType::kQuotedIdentifier);
  size_t begin = pos_;
  advance();
  for (;;) {
    if (pos_ >= sql_.size())
      parse_error_at(t.line, t.column, quote == '\'' ? "unterminated string literal" : "unterminated quoted identifier");
    char c = peek();
    if (c == quote) {
      if (peek(1) == quote) {  // doubled quote is an escaped quote
        t.text += quote;
        advance(2);
        continue;
      }
      advance();
      break;
    }
    t.text += c;
    advance();
  }
  t.raw = std::string(sql_.substr(begin, pos_ - begin));
  if (t.type == TokenType::kQuotedIdentifier && t.text.empty())
    parse_error_at(t.line, t.column, "syntax error", "zero-length quoted identifier");
  return t;
}

Token Lexer::lex_operator() {
  Token t = start_token(TokenType::kOperator);
  static const char* const two[] = {"<>", "!=", "<=", ">=", "::", "||"};
  for (const char* op : two) {
    if (peek() == op[0] && peek(1) == op[1]) {
      t.text = t.raw = op;
      advance(2);
      return t;
    }
  }
  static const std::string_view one = "(),.;*+-/%=<>[]";
  char c = peek();
  if (one.find(c) == std::string_view::npos) {
    std::string shown = std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + fmt::format("{:02x}", (unsigned char)c);
    parse_error_at(t.line, t.column, "syntax error", "unexpected character '" + shown + "'");
  }
  t.text = t.raw = std::string(1, c);
  advance();
  return t;
}

std::vector<Token> Lexer::tokenize() {
  std::vector<Token> out;
  for (;;) {
    skip_space_and_comments();
    if (pos_ >= sql_.size()) {
      out.push_back(start_token(TokenType::kEnd));
      return out;
    }
    char c = peek();
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      out.push_back(lex_number());
    } else if (is_word_start(c)) {
      out.push_back(lex_word());
    } else if (c == '\'' || c == '"') {
      out.push_back(lex_quoted(c));
    } else {
      out.push_back(lex_operator());
    }
  }
}

}  // namespace raydb::sql
