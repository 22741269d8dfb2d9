#pragma once
// Splits SQL text into tokens, skipping whitespace and comments (-- and /* */).
// Throws Error(kParse) with line and column on unterminated strings, quoted
// identifiers or comments and on characters that start no token.
#include <string_view>
#include <vector>

#include "sql/token.h"

namespace raydb::sql {

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}
  // All tokens, the last one of type kEnd.
  std::vector<Token> tokenize();

 private:
  char peek(size_t ahead = 0) const { return pos_ + ahead < sql_.size() ? sql_[pos_ + ahead] : '\0'; }
  void advance(size_t n = 1);
  void skip_space_and_comments();
  Token start_token(TokenType type) const;
  Token lex_number();
  Token lex_word();
  Token lex_quoted(char quote);
  Token lex_operator();

  std::string_view sql_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace raydb::sql
