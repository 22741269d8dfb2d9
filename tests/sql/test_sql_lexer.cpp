#include <gtest/gtest.h>

#include "common/error.h"
#include "sql/lexer.h"

namespace raydb::sql {
namespace {

std::vector<Token> lex(const std::string& s) { return Lexer(s).tokenize(); }

std::string lex_error(const std::string& s) {
  try {
    lex(s);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kParse);
    return e.what();
  }
  ADD_FAILURE() << "no error for " << s;
  return "";
}

TEST(SqlLexer, KindsTextAndPositions) {
  auto t = lex("SELECT a1, \"Quoted \"\"x\"\"\" FROM t\n  WHERE s = 'it''s' AND x <> 1.50;");
  ASSERT_EQ(t.size(), 16u);
  EXPECT_EQ(t[0].type, TokenType::kIdentifier);
  EXPECT_EQ(t[0].text, "select");  // lower-cased
  EXPECT_EQ(t[0].raw, "SELECT");
  EXPECT_EQ(t[1].text, "a1");
  EXPECT_EQ(t[2].type, TokenType::kOperator);
  EXPECT_EQ(t[3].type, TokenType::kQuotedIdentifier);
  EXPECT_EQ(t[3].text, "Quoted \"x\"");  // case kept, "" unescaped
  EXPECT_EQ(t[6].text, "where");
  EXPECT_EQ(t[6].line, 2);
  EXPECT_EQ(t[6].column, 3);
  EXPECT_EQ(t[8].type, TokenType::kOperator);
  EXPECT_EQ(t[9].type, TokenType::kString);
  EXPECT_EQ(t[9].text, "it's");
  EXPECT_EQ(t[12].text, "<>");
  EXPECT_EQ(t[13].type, TokenType::kDecimal);
  EXPECT_EQ(t[13].text, "1.50");
  EXPECT_TRUE(t[14].is_operator(";"));
  EXPECT_EQ(t[15].type, TokenType::kEnd);
}

TEST(SqlLexer, Numbers) {
  auto t = lex("1 12.5 .5 5. 1e3 2.5E-2 7e+1");
  EXPECT_EQ(t[0].type, TokenType::kInteger);
  EXPECT_EQ(t[1].type, TokenType::kDecimal);
  EXPECT_EQ(t[2].type, TokenType::kDecimal);
  EXPECT_EQ(t[3].type, TokenType::kDecimal);
  EXPECT_EQ(t[4].type, TokenType::kFloat);
  EXPECT_EQ(t[5].type, TokenType::kFloat);
  EXPECT_EQ(t[5].text, "2.5E-2");
  EXPECT_EQ(t[6].type, TokenType::kFloat);
  EXPECT_EQ(t[7].type, TokenType::kEnd);
}

TEST(SqlLexer, OperatorsAndComments) {
  auto t = lex("a<=b -- comment <> here\n/* block\n comment */ c!=d::int >= 1 % 2");
  std::vector<std::string> texts;
  for (auto& x : t) texts.push_back(x.text);
  std::vector<std::string> want = {"a", "<=", "b", "c", "!=", "d", "::", "int", ">=", "1", "%", "2", ""};
  EXPECT_EQ(texts, want);
  EXPECT_EQ(t[3].line, 3);
  EXPECT_EQ(t[3].column, 13);
}

TEST(SqlLexer, CommentAtEndAndEmptyInput) {
  EXPECT_EQ(lex("-- only a comment").size(), 1u);
  EXPECT_EQ(lex("").size(), 1u);
  EXPECT_EQ(lex("x /**/").size(), 2u);
}

TEST(SqlLexer, Errors) {
  EXPECT_EQ(lex_error("select 'abc"), "unterminated string literal at line 1, column 8");
  EXPECT_EQ(lex_error("select 1 /* never\n closed"), "unterminated comment at line 1, column 10");
  EXPECT_EQ(lex_error("select \"abc"), "unterminated quoted identifier at line 1, column 8");
  EXPECT_EQ(lex_error("select a\n  # b"), "syntax error at line 2, column 3: unexpected character '#'");
  EXPECT_EQ(lex_error("select 12abc"), "syntax error at line 1, column 8: malformed number '12abc'");
  EXPECT_EQ(lex_error("select \"\""), "syntax error at line 1, column 8: zero-length quoted identifier");
}

}  // namespace
}  // namespace raydb::sql
