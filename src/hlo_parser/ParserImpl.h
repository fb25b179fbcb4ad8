//===- ParserImpl.h - The recursive-descent HLO parser ----------*- C++ -*-===//
//
// Internal to src/hlo_parser: the parser class shared by Parser.cpp
// (module, computations, instructions), ParseShape.cpp, ParseAttribute.cpp
// and ParseLiteral.cpp. It stops at the first error.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_PARSERIMPL_H
#define HLO_PARSER_PARSERIMPL_H

#include "HloModule.h"
#include "Lexer.h"
#include "Parser.h"
#include "SourceFile.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace hlo {

class ParserImpl {
public:
  ParserImpl(std::string_view text, DiagnosticEngine &diagnostics,
             ParseOptions options = {})
      : lexer(text), diags(diagnostics), options(options) {
    advance();
  }

  std::unique_ptr<HloModule> parseModule(std::string defaultName);
  bool parseShape(Shape &shape);
  bool atEnd() const { return tok.kind == TokenKind::Eof; }

  // Token helpers.
  void advance() { tok = lexer.next(); }
  bool consumeIf(TokenKind kind) {
    if (tok.kind != kind)
      return false;
    advance();
    return true;
  }
  bool expect(TokenKind kind, std::string_view what);
  bool error(uint32_t offset, std::string message);
  bool errorHere(std::string message) { return error(tok.offset, message); }
  /// True if the character right after the current token is `c` (no
  /// whitespace in between).
  bool glued(char c) const;
  /// True if, after the current token (a comma), the next word is `word`.
  bool isIdentifierAfterComma(std::string_view word) const;
  bool isIdentifier(std::string_view text) const {
    return tok.kind == TokenKind::Identifier && tok.text == text;
  }

  // Numbers.
  bool parseInt64(int64_t &value);
  bool parseIntList(std::vector<int64_t> &values); // {1,2,3}

  // Shapes (ParseShape.cpp).
  bool parseLayout(Layout &layout);
  bool parseArrayShape(Shape &shape);
  /// Fast path for `[d0,d1,...]` and `{m0,m1,...}` (no dynamic dims, no
  /// layout items): scans the buffer directly. Returns false, consuming
  /// nothing, when the text needs the general token-based path.
  bool tryParseSimpleArrayShape(PrimitiveType type, Shape &shape);
  bool validateLayout(Shape &shape, Layout &layout, uint32_t offset);
  /// A shape that is only checked, never kept (declared operand shapes,
  /// signature parameters): parsed once per distinct source text. Null on
  /// error.
  const Shape *parseDeclaredShape();
  /// End offset of the shape text starting at `begin` (balanced brackets),
  /// or 0 if it cannot be delimited cheaply.
  uint32_t shapeTextEnd(uint32_t begin) const;
  std::unordered_map<std::string_view, std::unique_ptr<Shape>> declaredShapes;
  std::vector<std::unique_ptr<Shape>> uncachedShapes;
  std::vector<HloInstruction *> operandStack;

  // Attributes (ParseAttribute.cpp).
  bool parseAttribute(HloInstruction &instruction, HloOpcode opcodeForCheck);
  bool parseAttrValue(AttrKind kind, std::string_view name, AttrValue &value);
  bool parseWindow(std::vector<WindowDimension> &window);
  bool parseSliceRanges(std::vector<SliceRange> &ranges);
  bool parsePadding(std::vector<PaddingDimension> &padding);
  bool parseNameList(std::vector<std::pair<std::string, uint32_t>> &names);
  /// Verbatim text of a balanced value starting at the current token, with
  /// whitespace runs outside strings folded to one space.
  std::string scanRawValue();
  bool parseInputOutputAlias(std::string &text);

  // Literals (ParseLiteral.cpp).
  bool parseLiteral(const Shape &shape, Literal &literal);
  bool parseArrayLiteral(const Shape &shape, Literal &literal);
  bool parseScalarInto(Literal &literal, int64_t index);

  // Module structure (Parser.cpp).
  bool parseSection(HloModule &module);
  bool parseComputation(HloModule &module, bool &isEntry);
  /// Parses `{ instructions }` (and a trailing execution_thread) into a new
  /// computation and registers it with the module.
  HloComputation *parseComputationBody(HloModule &module, std::string name,
                                       uint32_t nameOffset,
                                       const std::optional<Shape> &declared);
  /// At '{': true if an inline computation (`{ x = ... }`) follows.
  bool looksLikeInlineComputation();
  bool parseInlineComputation(std::string_view attributeName);
  bool parseInstruction(HloComputation &computation, bool &isRoot);
  /// `[shape] opcode(operands), attributes` of an instruction named `name`;
  /// null on error.
  HloInstruction *parseInstructionBody(HloComputation &computation,
                                       std::string name, uint32_t nameOffset,
                                       std::optional<Shape> shape);
  bool inferShape(HloInstruction &instruction, uint32_t offset);
  /// At an Identifier: true if it is an opcode (or async sugar) followed by
  /// '(' — i.e. an instruction whose shape was left out.
  bool atOpcode() const;
  bool parseOperands(HloInstruction &instruction,
                     HloComputation &computation);
  HloInstruction *lookupOperand(HloComputation &computation,
                                std::string_view name, uint32_t offset);
  bool resolveComputationReferences(HloModule &module);
  bool finishComputation(HloComputation &computation, uint32_t closeOffset);

  /// Guards recursion (nested tuples, literals, inline computations).
  static constexpr int kMaxNesting = 200;
  int nesting = 0;
  bool enterNested(uint32_t offset);
  void leaveNested() { --nesting; }
  /// Largest constant, in elements, the parser materializes.
  static constexpr int64_t kMaxLiteralElements = int64_t(1) << 28;

  Lexer lexer;
  Token tok;
  DiagnosticEngine &diags;
  bool failed = false;

  // Per-module state.
  HloModule *currentModule = nullptr;
  std::string currentInstructionName;
  int64_t generatedNameCounter = 0;
  std::unordered_map<std::string, HloComputation *> computationsByName;
  /// Names read by the last computation / instruction-list attribute.
  std::vector<std::pair<std::string, uint32_t>> pendingNames;
  /// An attribute (by index into its instruction's list) whose names are
  /// resolved once the whole module / computation has been read.
  struct PendingComputationRef {
    HloInstruction *instruction;
    size_t attributeIndex;
    std::vector<std::pair<std::string, uint32_t>> names;
  };
  std::vector<PendingComputationRef> pendingComputationRefs;
  ParseOptions options;
  // Per-computation state.
  /// Keys view the instructions' own names.
  std::unordered_map<std::string_view, HloInstruction *> instructionsByName;
  std::unordered_map<int64_t, HloInstruction *> parametersByNumber;
  std::vector<PendingComputationRef> pendingControlDeps;
};

/// Upper-case element type spelling used in literal range errors ("F16").
std::string upperTypeName(PrimitiveType type);

} // namespace hlo

#endif // HLO_PARSER_PARSERIMPL_H
