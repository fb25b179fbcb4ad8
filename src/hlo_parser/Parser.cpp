//===- Parser.cpp - HLO text to HLO IR ------------------------------------===//
//
// Module header, computations, instructions and operands; the public entry
// points of Parser.h.
//
//===----------------------------------------------------------------------===//
#include "Parser.h"

#include "FillElidedLiteral.h"

#include "NonHloText.h"
#include "OpAttributes.h"
#include "ParserImpl.h"

#include <cctype>

namespace hlo {

bool ParserImpl::error(uint32_t offset, std::string message) {
  if (!failed)
    diags.error(offset, std::move(message));
  failed = true;
  return false;
}

bool ParserImpl::expect(TokenKind kind, std::string_view what) {
  if (tok.kind == TokenKind::Error)
    return errorHere(lexer.errorMessage());
  if (tok.kind != kind) {
    std::string seen = tok.kind == TokenKind::Eof
                           ? std::string("end of file")
                           : "'" + std::string(tok.text) + "'";
    return errorHere("expected " + std::string(what) + ", but sees " + seen);
  }
  advance();
  return true;
}

static bool isNameToken(const Token &token) {
  return token.kind == TokenKind::PercentName ||
         token.kind == TokenKind::Identifier;
}

std::unique_ptr<HloModule> ParserImpl::parseModule(std::string defaultName) {
  auto module = std::make_unique<HloModule>(std::move(defaultName));
  // HLO is text: a NUL byte means a binary file was given.
  size_t nul = lexer.buffer().find('\0');
  if (nul != std::string_view::npos) {
    error(static_cast<uint32_t>(nul),
          "this is not HLO text: it holds binary data (a NUL byte at offset " +
              std::to_string(nul) + ")");
    return nullptr;
  }
  // A file that is plainly something else is named, in one line.
  if (std::optional<std::string> kind = describeNonHloText(lexer.buffer())) {
    error(kNoOffset, "this is not HLO text but " + *kind +
                         "; the HLO modules of an XLA dump folder are its "
                         "*after_optimizations.txt files");
    return nullptr;
  }
  if (tok.kind == TokenKind::Error) {
    errorHere(lexer.errorMessage());
    return nullptr;
  }
  if (isIdentifier("HloModule")) {
    advance();
    if (!isNameToken(tok)) {
      errorHere("expected a module name after HloModule");
      return nullptr;
    }
    module = std::make_unique<HloModule>(std::string(tok.text));
    module->setHasHeader(true);
    advance();
    consumeIf(TokenKind::Colon);
    while (consumeIf(TokenKind::Comma)) {
      if (tok.kind != TokenKind::Identifier) {
        errorHere("expected a module attribute name");
        return nullptr;
      }
      ModuleAttribute attribute{std::string(tok.text), {}};
      advance();
      if (!expect(TokenKind::Equal, "'=' after a module attribute name"))
        return nullptr;
      if (attribute.name == "input_output_alias") {
        if (!parseInputOutputAlias(attribute.text))
          return nullptr;
      } else {
        attribute.text = scanRawValue();
        if (failed)
          return nullptr;
      }
      module->addAttribute(std::move(attribute));
    }
  }
  currentModule = module.get();
  HloComputation *entry = nullptr;
  while (!atEnd()) {
    if (tok.kind == TokenKind::Error) {
      errorHere(lexer.errorMessage());
      return nullptr;
    }
    if (tok.kind == TokenKind::Identifier && !isIdentifier("ENTRY")) {
      // Stack-frame index sections: `FileNames` followed by `1 "a.py"` lines.
      uint32_t after = lexer.skipTrivia(lexer.position());
      char next = after < lexer.buffer().size() ? lexer.buffer()[after] : '\0';
      if (next >= '0' && next <= '9') {
        if (!parseSection(*module))
          return nullptr;
        continue;
      }
    }
    bool isEntry = false;
    uint32_t entryOffset = tok.offset;
    if (!parseComputation(*module, isEntry))
      return nullptr;
    if (isEntry) {
      if (entry) {
        error(entryOffset, "expects only one ENTRY computation");
        return nullptr;
      }
      entry = module->computations().back().get();
    }
  }
  if (module->computations().empty() && !module->hasHeader()) {
    error(kNoOffset, "the file holds no HLO: no 'HloModule' line and no computation");
    return nullptr;
  }
  if (module->computations().empty()) {
    errorHere("the module has no computations");
    return nullptr;
  }
  if (!resolveComputationReferences(*module))
    return nullptr;
  module->setEntry(entry ? entry : module->computations().back().get());
  return module;
}

bool ParserImpl::parseSection(HloModule &module) {
  ModuleSection section;
  section.name = std::string(tok.text);
  advance();
  while (tok.kind == TokenKind::Integer) {
    int64_t id;
    if (!parseInt64(id))
      return false;
    if (tok.kind != TokenKind::String && tok.kind != TokenKind::LBrace)
      return errorHere("expected a string or '{...}' in section " +
                       section.name);
    std::string text = scanRawValue();
    if (failed)
      return false;
    section.entries.emplace_back(id, std::move(text));
  }
  module.addSection(std::move(section));
  return true;
}

bool ParserImpl::parseComputation(HloModule &module, bool &isEntry) {
  if (isIdentifier("ENTRY")) {
    isEntry = true;
    advance();
  }
  if (!isNameToken(tok))
    return errorHere("expected a computation name");
  std::string name(tok.text);
  uint32_t nameOffset = tok.offset;
  advance();
  std::optional<Shape> declaredResult;
  if (consumeIf(TokenKind::LParen)) {
    if (tok.kind != TokenKind::RParen) {
      do {
        if (!isNameToken(tok))
          return errorHere("expected a parameter name");
        advance();
        Shape ignored;
        if (!expect(TokenKind::Colon, "':' after a parameter name") ||
            !parseShape(ignored))
          return false;
      } while (consumeIf(TokenKind::Comma));
    }
    Shape result;
    if (!expect(TokenKind::RParen, "')' to end the parameter list") ||
        !expect(TokenKind::Arrow, "'->' before the result shape") ||
        !parseShape(result))
      return false;
    declaredResult = std::move(result);
  }
  return parseComputationBody(module, name, nameOffset, declaredResult) !=
         nullptr;
}

HloComputation *
ParserImpl::parseComputationBody(HloModule &module, std::string name,
                                 uint32_t nameOffset,
                                 const std::optional<Shape> &declaredResult) {
  if (auto it = computationsByName.find(name); it != computationsByName.end()) {
    error(nameOffset, "computation '" + name + "' is already defined");
    diags.note(it->second->sourceOffset(), "computation previously defined here");
    return nullptr;
  }
  if (!expect(TokenKind::LBrace, "'{' to start the computation body"))
    return nullptr;
  auto computation = std::make_unique<HloComputation>(name);
  computation->setSourceOffset(nameOffset);
  // Inline computations nest: keep the enclosing computation's state.
  auto savedInstructions = std::move(instructionsByName);
  auto savedParameters = std::move(parametersByNumber);
  auto savedControlDeps = std::move(pendingControlDeps);
  instructionsByName.clear();
  parametersByNumber.clear();
  pendingControlDeps.clear();
  auto restore = [&]() {
    instructionsByName = std::move(savedInstructions);
    parametersByNumber = std::move(savedParameters);
    pendingControlDeps = std::move(savedControlDeps);
  };
  HloInstruction *markedRoot = nullptr;
  while (tok.kind != TokenKind::RBrace) {
    if (tok.kind == TokenKind::Eof) {
      errorHere("expected '}' to end computation '" + name + "'");
      return nullptr;
    }
    if (tok.kind == TokenKind::Error) {
      errorHere(lexer.errorMessage());
      return nullptr;
    }
    bool isRoot = false;
    uint32_t rootOffset = tok.offset;
    if (!parseInstruction(*computation, isRoot))
      return nullptr;
    if (isRoot) {
      if (markedRoot) {
        error(rootOffset, "one computation should have only one ROOT");
        return nullptr;
      }
      markedRoot = computation->instructions().back().get();
    }
  }
  uint32_t closeOffset = tok.offset;
  advance();
  if (tok.kind == TokenKind::Comma && isIdentifierAfterComma("execution_thread")) {
    advance();
    advance();
    if (!expect(TokenKind::Equal, "'='"))
      return nullptr;
    if (tok.kind != TokenKind::String) {
      errorHere("expected a string");
      return nullptr;
    }
    computation->setExecutionThread(unescapeString(tok.text));
    advance();
  }
  if (computation->instructions().empty()) {
    error(closeOffset, "computation '" + name + "' has no instructions");
    return nullptr;
  }
  computation->setRoot(markedRoot ? markedRoot
                                  : computation->instructions().back().get());
  if (!finishComputation(*computation, closeOffset))
    return nullptr;
  restore();
  if (declaredResult &&
      !declaredResult->compatible(computation->root()->shape())) {
    error(nameOffset,
          "Shape of computation " + name + ", " +
              declaredResult->toString(false) +
              ", is not compatible with that of its root instruction " +
              computation->root()->name() + ", " +
              computation->root()->shape().toString(false));
    return nullptr;
  }
  computationsByName.emplace(name, computation.get());
  return module.addComputation(std::move(computation));
}

bool ParserImpl::isIdentifierAfterComma(std::string_view word) const {
  uint32_t after = lexer.skipTrivia(lexer.position());
  return after != UINT32_MAX && lexer.buffer().substr(after, word.size()) == word;
}

bool ParserImpl::looksLikeInlineComputation() {
  // '{' [ROOT] name '='
  uint32_t savedPos = lexer.position();
  Token savedTok = tok;
  advance();
  if (isIdentifier("ROOT"))
    advance();
  bool result = false;
  if (isNameToken(tok)) {
    advance();
    result = tok.kind == TokenKind::Equal;
  }
  lexer.reset(savedPos);
  tok = savedTok;
  return result;
}

bool ParserImpl::parseInlineComputation(std::string_view attributeName) {
  if (!enterNested(tok.offset))
    return false;
  std::string name = currentInstructionName + "." + std::string(attributeName);
  while (computationsByName.count(name))
    name += ".1";
  uint32_t offset = tok.offset;
  HloComputation *computation =
      parseComputationBody(*currentModule, name, offset, std::nullopt);
  if (!computation)
    return false;
  leaveNested();
  pendingNames.emplace_back(name, offset);
  return true;
}

bool ParserImpl::finishComputation(HloComputation &computation,
                                   uint32_t closeOffset) {
  if (!computation.finalizeParameters())
    return error(computation.sourceOffset(),
                 "parameter numbers of computation '" + computation.name() +
                     "' are not 0.." +
                     std::to_string(computation.parameterCount() - 1));
  for (PendingComputationRef &pending : pendingControlDeps) {
    AttrValue &value =
        pending.instruction->mutableAttributes()[pending.attributeIndex].value;
    for (auto &[name, offset] : pending.names) {
      auto it = instructionsByName.find(name);
      if (it == instructionsByName.end())
        return error(offset, "'" + name + "' is not defined");
      value.instructions.push_back(it->second);
    }
  }
  pendingControlDeps.clear();
  return true;
}

bool ParserImpl::resolveComputationReferences(HloModule &module) {
  std::unordered_map<std::string, HloComputation *> declarations;
  for (PendingComputationRef &pending : pendingComputationRefs) {
    AttrValue &value =
        pending.instruction->mutableAttributes()[pending.attributeIndex].value;
    for (auto &[name, offset] : pending.names) {
      auto it = computationsByName.find(name);
      if (it != computationsByName.end()) {
        value.computations.push_back(it->second);
        continue;
      }
      if (!options.allowUndefinedComputations)
        return error(offset, "computation '" + name + "' is not defined in this module");
      // Like a `declare` in LLVM IR: printable and verifiable, but nothing
      // that needs its body can be compiled.
      HloComputation *&declaration = declarations[name];
      if (!declaration) {
        diags.report(offset, Severity::Warning,
                     "computation '" + name +
                         "' is not defined in this module; treating it as "
                         "an external declaration");
        auto computation = std::make_unique<HloComputation>(name);
        computation->setSourceOffset(offset);
        declaration = module.addDeclaration(std::move(computation));
      }
      value.computations.push_back(declaration);
    }
  }
  pendingComputationRefs.clear();
  return true;
}

/// `call-start`, `custom-call-done`, ...: async sugar around another op.
static std::optional<std::pair<HloOpcode, HloOpcode>>
parseAsyncSugar(std::string_view name) {
  static const std::pair<std::string_view, HloOpcode> suffixes[] = {
      {"-start", HloOpcode::AsyncStart},
      {"-update", HloOpcode::AsyncUpdate},
      {"-done", HloOpcode::AsyncDone}};
  for (const auto &[suffix, asyncOpcode] : suffixes) {
    if (name.size() <= suffix.size() ||
        name.substr(name.size() - suffix.size()) != suffix)
      continue;
    if (auto wrapped =
            parseOpcodeName(name.substr(0, name.size() - suffix.size())))
      return std::make_pair(asyncOpcode, *wrapped);
  }
  return std::nullopt;
}

bool ParserImpl::atOpcode() const {
  if (tok.kind != TokenKind::Identifier || !glued('('))
    return false;
  return parseOpcodeName(tok.text) || parseAsyncSugar(tok.text);
}

bool ParserImpl::parseInstruction(HloComputation &computation, bool &isRoot) {
  if (isIdentifier("ROOT")) {
    isRoot = true;
    advance();
  }
  if (!isNameToken(tok))
    return errorHere("expected an instruction name");
  std::string name(tok.text);
  uint32_t nameOffset = tok.offset;
  advance();
  if (instructionsByName.count(name))
    return error(nameOffset, "instruction '" + name + "' is already defined");
  if (!expect(TokenKind::Equal, "'=' after the instruction name"))
    return false;
  std::optional<Shape> shape;
  if (!atOpcode()) {
    Shape parsed;
    if (!parseShape(parsed))
      return false;
    shape = std::move(parsed);
  }
  return parseInstructionBody(computation, std::move(name), nameOffset,
                              std::move(shape)) != nullptr;
}

HloInstruction *ParserImpl::parseInstructionBody(HloComputation &computation,
                                                 std::string name,
                                                 uint32_t nameOffset,
                                                 std::optional<Shape> shape) {
  if (tok.kind != TokenKind::Identifier) {
    errorHere("expected an opcode");
    return nullptr;
  }
  uint32_t opcodeOffset = tok.offset;
  std::optional<HloOpcode> opcode = parseOpcodeName(tok.text);
  std::optional<HloOpcode> wrapped;
  if (!opcode) {
    if (auto sugar = parseAsyncSugar(tok.text)) {
      opcode = sugar->first;
      wrapped = sugar->second;
    } else {
      errorHere("unknown opcode '" + std::string(tok.text) + "'");
      return nullptr;
    }
  }
  advance();
  bool inferred = !shape.has_value();
  if (inferred && (*opcode == HloOpcode::Parameter ||
                   *opcode == HloOpcode::Constant)) {
    error(opcodeOffset, "the shape of a " + std::string(opcodeName(*opcode)) +
                            " cannot be left out");
    return nullptr;
  }
  auto instruction = std::make_unique<HloInstruction>(
      *opcode, name, shape ? std::move(*shape) : Shape());
  instruction->setSourceOffset(nameOffset);
  if (wrapped)
    instruction->setAsyncWrappedOpcode(*wrapped);
  if (!expect(TokenKind::LParen, "'(' after the opcode"))
    return nullptr;
  if (*opcode == HloOpcode::Parameter) {
    int64_t number;
    uint32_t numberOffset = tok.offset;
    if (!parseInt64(number))
      return nullptr;
    if (number < 0) {
      error(numberOffset, "negative parameter number");
      return nullptr;
    }
    if (!parametersByNumber.emplace(number, instruction.get()).second) {
      error(numberOffset, "Duplicate parameter number " + std::to_string(number));
      return nullptr;
    }
    instruction->setParameterNumber(number);
    if (!expect(TokenKind::RParen, "')'"))
      return nullptr;
  } else if (*opcode == HloOpcode::Constant) {
    Literal literal;
    if (!parseLiteral(instruction->shape(), literal))
      return nullptr;
    if (options.fillElidedConstants)
      fillElidedLiteral(literal, name);
    instruction->setLiteral(std::move(literal));
    if (!expect(TokenKind::RParen, "')' to end the literal"))
      return nullptr;
  } else if (!parseOperands(*instruction, computation)) {
    return nullptr;
  }
  HloOpcode attributeOpcode = wrapped ? *wrapped : *opcode;
  currentInstructionName = name;
  while (consumeIf(TokenKind::Comma))
    if (!parseAttribute(*instruction, attributeOpcode))
      return nullptr;
  if (!wrapped) {
    for (std::string_view required : requiredAttributes(*opcode))
      if (!instruction->findAttribute(required)) {
        error(nameOffset, "attribute " + std::string(required) +
                              " is expected but not seen");
        return nullptr;
      }
    if (std::optional<int> arity = opcodeArity(*opcode);
        arity && *arity != instruction->operandCount()) {
      error(opcodeOffset, std::string(opcodeName(*opcode)) + " expects " +
                              std::to_string(*arity) + " operand" +
                              (*arity == 1 ? "" : "s") + ", but has " +
                              std::to_string(instruction->operandCount()));
      return nullptr;
    }
  }
  if (inferred && !inferShape(*instruction, opcodeOffset))
    return nullptr;
  HloInstruction *added = computation.addInstruction(std::move(instruction));
  instructionsByName.emplace(added->name(), added);
  return added;
}

bool ParserImpl::inferShape(HloInstruction &instruction, uint32_t offset) {
  HloOpcode opcode = instruction.opcode();
  Shape &shape = instruction.mutableShape();
  if (opcode == HloOpcode::Tuple) {
    std::vector<Shape> elements;
    for (HloInstruction *operand : instruction.operands())
      elements.push_back(operand->shape());
    shape = Shape::tuple(std::move(elements));
    return true;
  }
  if (opcode == HloOpcode::GetTupleElement &&
      instruction.operandCount() == 1 &&
      instruction.operand(0)->shape().isTuple()) {
    int64_t index = tupleIndex(instruction);
    const Shape &tuple = instruction.operand(0)->shape();
    if (index >= 0 && index < tuple.tupleSize()) {
      shape = tuple.tupleShapes()[index];
      return true;
    }
  }
  bool sameAsOperand =
      (isElementwiseOpcode(opcode) && opcode != HloOpcode::Convert &&
       opcode != HloOpcode::BitcastConvert &&
       opcode != HloOpcode::StochasticConvert && opcode != HloOpcode::Complex) ||
      opcode == HloOpcode::Copy || opcode == HloOpcode::OptimizationBarrier;
  if (sameAsOperand && instruction.operandCount() > 0) {
    const Shape &operand =
        instruction.operand(opcode == HloOpcode::Select ? 1 : 0)->shape();
    shape = operand;
    if (opcode == HloOpcode::Compare || opcode == HloOpcode::IsFinite)
      shape.setElementType(PrimitiveType::Pred);
    return true;
  }
  return error(offset, "cannot infer the shape of " +
                           std::string(opcodeName(opcode)) +
                           "; write it before the opcode");
}

HloInstruction *ParserImpl::lookupOperand(HloComputation &computation,
                                          std::string_view name,
                                          uint32_t offset) {
  auto it = instructionsByName.find(name);
  if (it == instructionsByName.end()) {
    error(offset, "instruction does not exist: " + std::string(name));
    return nullptr;
  }
  return it->second;
}

bool ParserImpl::parseOperands(HloInstruction &instruction,
                               HloComputation &computation) {
  if (consumeIf(TokenKind::RParen))
    return true;
  // Appended at the end, after any nested operand instruction is complete;
  // collected on a stack shared with nested operand lists.
  size_t base = operandStack.size();
  do {
    uint32_t operandOffset = tok.offset;
    std::optional<Shape> declared;
    if (tok.kind == TokenKind::LParen ||
        (tok.kind == TokenKind::Identifier && parsePrimitiveTypeName(tok.text) &&
         glued('['))) {
      Shape shape;
      if (!parseShape(shape))
        return false;
      declared = std::move(shape);
    }
    HloInstruction *operand = nullptr;
    std::string_view name;
    std::string nestedName;
    uint32_t nameOffset = tok.offset;
    if (atOpcode()) {
      // A nested instruction used as an operand: `exp(f32[] parameter(0))`.
      if (!enterNested(nameOffset))
        return false;
      std::string savedName = currentInstructionName;
      nestedName = std::string(tok.text) + ".nested" +
                   std::to_string(generatedNameCounter++);
      name = nestedName;
      operand = parseInstructionBody(computation, nestedName, nameOffset,
                                     declared);
      currentInstructionName = savedName;
      if (!operand)
        return false;
      leaveNested();
    } else {
      if (!isNameToken(tok))
        return errorHere("expected an operand name");
      name = tok.text;
      advance();
      operand = lookupOperand(computation, name, nameOffset);
      if (!operand)
        return false;
    }
    if (tok.kind == TokenKind::Hash) {
      // Compact tuple access: %t#1 is get-tuple-element(%t), index=1.
      advance();
      uint32_t indexOffset = tok.offset;
      int64_t index;
      if (!parseInt64(index))
        return false;
      if (!operand->shape().isTuple())
        return error(nameOffset,
                     "'" + std::string(name) + "' is not a tuple; '#' needs one");
      if (index < 0 || index >= operand->shape().tupleSize())
        return error(indexOffset, "GTE index " + std::to_string(index) +
                                      " out of bounds for " +
                                      operand->shape().toString());
      std::string gteName = std::string(name) + ".gte" + std::to_string(index);
      auto it = instructionsByName.find(gteName);
      if (it != instructionsByName.end()) {
        operand = it->second;
      } else {
        auto gte = std::make_unique<HloInstruction>(
            HloOpcode::GetTupleElement, gteName,
            operand->shape().tupleShapes()[index]);
        gte->setSourceOffset(nameOffset);
        gte->appendOperand(operand);
        HloAttribute attribute;
        attribute.name = "index";
        attribute.value.kind = AttrKind::Int;
        attribute.value.intValue = index;
        gte->addAttribute(std::move(attribute));
        operand = computation.addInstruction(std::move(gte));
        instructionsByName.emplace(operand->name(), operand);
      }
    }
    if (declared && !declared->compatible(operand->shape()))
      return error(operandOffset,
                   "The declared operand shape " + declared->toString() +
                       " is not compatible with the shape of the operand "
                       "instruction " +
                       operand->shape().toString() + ".");
    operandStack.push_back(operand);
  } while (consumeIf(TokenKind::Comma));
  instruction.reserveOperands(operandStack.size() - base);
  for (size_t i = base; i < operandStack.size(); ++i)
    instruction.appendOperand(operandStack[i]);
  operandStack.resize(base);
  return expect(TokenKind::RParen, "')' to end the operand list");
}

static std::string moduleNameFromPath(const std::string &path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.find('.');
  if (dot != std::string::npos && dot > 0)
    base = base.substr(0, dot);
  for (char &c : base)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' &&
        c != '-')
      c = '_';
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0])))
    base = "m" + base;
  return base;
}

std::unique_ptr<HloModule> parseHloModule(std::shared_ptr<const SourceFile> file,
                                          DiagnosticEngine &diagnostics,
                                          ParseOptions options) {
  ParserImpl parser(file->text(), diagnostics, options);
  std::unique_ptr<HloModule> module =
      parser.parseModule(moduleNameFromPath(file->name()));
  if (!module || parser.failed)
    return nullptr;
  module->setSource(std::move(file));
  return module;
}

ParsedModule parseHloModuleText(std::string_view text, std::string name,
                                ParseOptions options) {
  auto file = std::make_shared<SourceFile>(std::move(name), std::string(text));
  DiagnosticEngine diagnostics(file);
  std::unique_ptr<HloModule> module = parseHloModule(file, diagnostics, options);
  return ParsedModule{std::move(module), diagnostics.rendered()};
}

ErrorOr<Shape> parseShapeText(std::string_view text) {
  auto file = std::make_shared<SourceFile>("<shape>", std::string(text));
  DiagnosticEngine diagnostics(file);
  ParserImpl parser(file->text(), diagnostics);
  Shape shape;
  if (!parser.parseShape(shape) || !parser.atEnd()) {
    if (!parser.failed)
      parser.errorHere("unexpected text after the shape");
    return makeError(diagnostics.rendered());
  }
  return shape;
}

} // namespace hlo
