//===- LexerTest.cpp - HLO tokens -----------------------------------------===//
#include "hlo_parser/Lexer.h"

#include <gtest/gtest.h>

#include <vector>

using namespace hlo;

static std::vector<std::pair<TokenKind, std::string>> lex(std::string_view text) {
  Lexer lexer(text);
  std::vector<std::pair<TokenKind, std::string>> tokens;
  while (true) {
    Token token = lexer.next();
    if (token.kind == TokenKind::Eof)
      break;
    tokens.emplace_back(token.kind, std::string(token.text));
    if (token.kind == TokenKind::Error)
      break;
  }
  return tokens;
}

TEST(Lexer, NamesAndPunctuation) {
  auto tokens = lex("%get-tuple-element.3 = f32[2]{0} add(%a, b)");
  ASSERT_EQ(tokens.size(), 15u);
  EXPECT_EQ(tokens[0], std::make_pair(TokenKind::PercentName,
                                      std::string("get-tuple-element.3")));
  EXPECT_EQ(tokens[1].first, TokenKind::Equal);
  EXPECT_EQ(tokens[2], std::make_pair(TokenKind::Identifier, std::string("f32")));
  EXPECT_EQ(tokens[3].first, TokenKind::LSquare);
  EXPECT_EQ(tokens[8].first, TokenKind::RBrace);
  EXPECT_EQ(tokens[9], std::make_pair(TokenKind::Identifier, std::string("add")));
  EXPECT_EQ(tokens[11], std::make_pair(TokenKind::PercentName, std::string("a")));
  EXPECT_EQ(tokens[13], std::make_pair(TokenKind::Identifier, std::string("b")));
}

TEST(Lexer, CompoundAttributeTokens) {
  auto tokens = lex("3x3 0_0x1_-1_2 b01f_01io->b01f 1e-07 -2 .5 ->");
  ASSERT_EQ(tokens.size(), 7u);
  EXPECT_EQ(tokens[0].first, TokenKind::DxD);
  EXPECT_EQ(tokens[1], std::make_pair(TokenKind::Pad, std::string("0_0x1_-1_2")));
  EXPECT_EQ(tokens[2].first, TokenKind::DimLabels);
  EXPECT_EQ(tokens[3].first, TokenKind::Float);
  EXPECT_EQ(tokens[4], std::make_pair(TokenKind::Integer, std::string("-2")));
  EXPECT_EQ(tokens[5].first, TokenKind::Float);
  EXPECT_EQ(tokens[6].first, TokenKind::Arrow);
}

TEST(Lexer, SkipsCommentsAndReportsUnterminatedOnes) {
  auto tokens = lex("a /* b */ c // d\n e /*index=5*/ f");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[3].second, "f");
  auto bad = lex("a /* open");
  ASSERT_EQ(bad.size(), 2u);
  EXPECT_EQ(bad[1].first, TokenKind::Error);
  EXPECT_EQ(bad[1].second, "/*");
}

TEST(Lexer, StringsAndEscapes) {
  auto tokens = lex(R"("a\"b\\c" "unterminated)");
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].first, TokenKind::String);
  EXPECT_EQ(unescapeString(tokens[0].second), "a\"b\\c");
  EXPECT_EQ(tokens[1].first, TokenKind::Error);
}

TEST(Lexer, ArrowDoesNotGlueToNames) {
  auto tokens = lex("f32[]->s32[]");
  ASSERT_EQ(tokens.size(), 7u);
  EXPECT_EQ(tokens[3].first, TokenKind::Arrow);
}

TEST(Lexer, MalformedNumberIsAnError) {
  auto tokens = lex("12abc");
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].first, TokenKind::Error);
}
