//===- IndexingMapText.cpp - Text form of indexing maps -------------------===//
//
// Printing and parsing of XLA's "Indexing Analysis" notation:
//
//   (d0, d1)[s0]{rt0} -> (d0 + rt0, s0),
//   domain:
//   d0 in [0, 9],
//   d1 in [0, 19],
//   s0 in [0, 255],
//   rt0 in [0, 10],
//   d0 + s0 mod 3 in [0, 1]
//
// Expressions follow MLIR's affine syntax and layout; variables carry the
// map's names (defaults d0, s0, rt0). Constraints print sorted by their text
// so the output does not depend on the order they were found in.
//
//===----------------------------------------------------------------------===//
#include "analysis/IndexingMap.h"

#include "llvm/Support/Casting.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

using namespace mlir;

namespace hlo {

namespace {

enum class Binding { Weak, Strong };

class ExprPrinter {
public:
  ExprPrinter(const std::vector<std::string> &dimNames,
              const std::vector<std::string> &symbolNames)
      : dimNames(dimNames), symbolNames(symbolNames) {}

  void print(AffineExpr expr, Binding enclosing, std::string &out) const;

private:
  const std::vector<std::string> &dimNames;
  const std::vector<std::string> &symbolNames;
};

void ExprPrinter::print(AffineExpr expr, Binding enclosing,
                        std::string &out) const {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    out += std::to_string(llvm::cast<AffineConstantExpr>(expr).getValue());
    return;
  case AffineExprKind::DimId: {
    unsigned position = llvm::cast<AffineDimExpr>(expr).getPosition();
    out += position < dimNames.size() ? dimNames[position]
                                      : "d" + std::to_string(position);
    return;
  }
  case AffineExprKind::SymbolId: {
    unsigned position = llvm::cast<AffineSymbolExpr>(expr).getPosition();
    out += position < symbolNames.size() ? symbolNames[position]
                                         : "s" + std::to_string(position);
    return;
  }
  default:
    break;
  }
  auto binary = llvm::cast<AffineBinaryOpExpr>(expr);
  AffineExpr lhs = binary.getLHS(), rhs = binary.getRHS();
  bool parens = enclosing == Binding::Strong;
  if (parens)
    out += '(';
  if (expr.getKind() != AffineExprKind::Add) {
    auto rhsConstant = llvm::dyn_cast<AffineConstantExpr>(rhs);
    if (expr.getKind() == AffineExprKind::Mul && rhsConstant &&
        rhsConstant.getValue() == -1) {
      out += '-';
      print(lhs, Binding::Strong, out);
    } else {
      const char *spelling = expr.getKind() == AffineExprKind::Mul ? " * "
                             : expr.getKind() == AffineExprKind::FloorDiv
                                 ? " floordiv "
                             : expr.getKind() == AffineExprKind::CeilDiv
                                 ? " ceildiv "
                                 : " mod ";
      print(lhs, Binding::Strong, out);
      out += spelling;
      print(rhs, Binding::Strong, out);
    }
  } else if (auto product = llvm::dyn_cast<AffineBinaryOpExpr>(rhs);
             product && product.getKind() == AffineExprKind::Mul &&
             llvm::isa<AffineConstantExpr>(product.getRHS()) &&
             llvm::cast<AffineConstantExpr>(product.getRHS()).getValue() < 0) {
    // a + b * -k prints as a - b * k (a - b for k = 1).
    int64_t factor = -llvm::cast<AffineConstantExpr>(product.getRHS()).getValue();
    print(lhs, Binding::Weak, out);
    out += " - ";
    if (factor == 1) {
      print(product.getLHS(),
            product.getLHS().getKind() == AffineExprKind::Add ? Binding::Strong
                                                              : Binding::Weak,
            out);
    } else {
      print(product.getLHS(), Binding::Strong, out);
      out += " * " + std::to_string(factor);
    }
  } else if (auto constant = llvm::dyn_cast<AffineConstantExpr>(rhs);
             constant && constant.getValue() < 0) {
    print(lhs, Binding::Weak, out);
    out += " - " + std::to_string(-constant.getValue());
  } else {
    print(lhs, Binding::Weak, out);
    out += " + ";
    print(rhs, Binding::Weak, out);
  }
  if (parens)
    out += ')';
}

std::vector<std::string> varNames(const std::vector<IndexingVar> &vars,
                                  const char *prefix) {
  std::vector<std::string> names;
  for (size_t i = 0; i < vars.size(); ++i)
    names.push_back(vars[i].name.empty() ? prefix + std::to_string(i)
                                         : vars[i].name);
  return names;
}

} // namespace

std::string affineExprToString(AffineExpr expr,
                               const std::vector<std::string> &dimNames,
                               const std::vector<std::string> &symbolNames) {
  std::string out;
  ExprPrinter(dimNames, symbolNames).print(expr, Binding::Weak, out);
  return out;
}

std::string IndexingMap::toString() const {
  if (isUndefined())
    return "UNDEFINED";
  if (knownEmpty)
    return "KNOWN EMPTY";
  std::vector<std::string> dimNames = varNames(dims, "d");
  std::vector<std::string> rangeNames = varNames(ranges, "s");
  std::vector<std::string> runtimeNames = varNames(runtime, "rt");
  std::vector<std::string> symbolNames = rangeNames;
  symbolNames.insert(symbolNames.end(), runtimeNames.begin(),
                     runtimeNames.end());
  auto list = [](const std::vector<std::string> &names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
      out += (i ? ", " : "") + names[i];
    return out;
  };
  std::string out = "(" + list(dimNames) + ")";
  if (!ranges.empty())
    out += "[" + list(rangeNames) + "]";
  if (!runtime.empty())
    out += "{" + list(runtimeNames) + "}";
  out += " -> (";
  for (unsigned i = 0; i < affineMap.getNumResults(); ++i) {
    if (i)
      out += ", ";
    out += affineExprToString(affineMap.getResult(i), dimNames, symbolNames);
  }
  out += ")";
  std::vector<std::string> lines;
  auto addVars = [&](const std::vector<IndexingVar> &vars,
                     const std::vector<std::string> &names) {
    for (size_t i = 0; i < vars.size(); ++i)
      lines.push_back(names[i] + " in " + vars[i].bounds.toString());
  };
  addVars(dims, dimNames);
  addVars(ranges, rangeNames);
  addVars(runtime, runtimeNames);
  std::vector<std::string> constraintLines;
  for (const IndexingConstraint &constraint : constraints)
    constraintLines.push_back(
        affineExprToString(constraint.expr, dimNames, symbolNames) + " in " +
        constraint.range.toString());
  std::sort(constraintLines.begin(), constraintLines.end());
  lines.insert(lines.end(), constraintLines.begin(), constraintLines.end());
  if (lines.empty())
    return out;
  out += ",\ndomain:\n";
  for (size_t i = 0; i < lines.size(); ++i)
    out += lines[i] + (i + 1 < lines.size() ? ",\n" : "");
  return out;
}

namespace {

/// Recursive-descent parser for the text form.
class MapParser {
public:
  MapParser(std::string_view text, MLIRContext *context)
      : text(text), context(context) {}

  std::optional<IndexingMap> parse(std::string &error);

private:
  void skipSpaces() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(std::string_view token) {
    skipSpaces();
    if (text.substr(pos, token.size()) != token)
      return false;
    pos += token.size();
    return true;
  }
  bool expect(std::string_view token) {
    if (consume(token))
      return true;
    return fail("expected '" + std::string(token) + "'");
  }
  bool fail(const std::string &message) {
    if (errorMessage.empty())
      errorMessage = message + " at offset " + std::to_string(pos) + ": '" +
                     std::string(text.substr(pos, 20)) + "'";
    return false;
  }
  bool parseName(std::string &name);
  bool parseInt(int64_t &value);
  bool parseNameList(char open, char close, std::vector<std::string> &names);
  AffineExpr parseExpr();
  AffineExpr parseSignedTerm();
  AffineExpr parseTerm();
  AffineExpr parseFactor();

  std::string_view text;
  size_t pos = 0;
  MLIRContext *context;
  std::string errorMessage;
  std::map<std::string, AffineExpr> variables;
};

bool MapParser::parseName(std::string &name) {
  skipSpaces();
  size_t start = pos;
  if (pos < text.size() &&
      (std::isalpha(static_cast<unsigned char>(text[pos])) || text[pos] == '_'))
    while (pos < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[pos])) ||
            text[pos] == '_'))
      ++pos;
  if (pos == start)
    return fail("expected a name");
  name = std::string(text.substr(start, pos - start));
  return true;
}

bool MapParser::parseInt(int64_t &value) {
  skipSpaces();
  size_t start = pos;
  if (pos < text.size() && text[pos] == '-')
    ++pos;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
    ++pos;
  auto result = std::from_chars(text.data() + start, text.data() + pos, value);
  if (result.ec != std::errc() || result.ptr != text.data() + pos || pos == start)
    return fail("expected an integer");
  return true;
}

bool MapParser::parseNameList(char open, char close,
                              std::vector<std::string> &names) {
  if (!consume(std::string(1, open)))
    return true; // optional list
  if (consume(std::string(1, close)))
    return true;
  do {
    std::string name;
    if (!parseName(name))
      return false;
    names.push_back(name);
  } while (consume(","));
  return expect(std::string(1, close));
}

AffineExpr MapParser::parseExpr() {
  AffineExpr result = parseSignedTerm();
  while (result) {
    if (consume("+")) {
      AffineExpr rhs = parseTerm();
      if (!rhs)
        return nullptr;
      result = result + rhs;
    } else if (consume("-")) {
      AffineExpr rhs = parseTerm();
      if (!rhs)
        return nullptr;
      result = result - rhs;
    } else {
      break;
    }
  }
  return result;
}

AffineExpr MapParser::parseSignedTerm() {
  // Unary minus negates a whole term: -x floordiv 2 is -(x floordiv 2).
  if (consume("-")) {
    AffineExpr operand = parseSignedTerm();
    return operand ? -operand : nullptr;
  }
  return parseTerm();
}

AffineExpr MapParser::parseTerm() {
  AffineExpr result = parseFactor();
  while (result) {
    skipSpaces();
    auto keyword = [&](std::string_view word) {
      // Keywords are case-insensitive (XLA's "Indexing Analysis" writes "floorDiv").
      if (pos + word.size() > text.size())
        return false;
      for (size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[pos + i])) != word[i])
          return false;
      size_t end = pos + word.size();
      if (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end])))
        return false;
      pos = end;
      return true;
    };
    if (consume("*")) {
      AffineExpr rhs = parseFactor();
      if (!rhs)
        return nullptr;
      result = result * rhs;
    } else if (keyword("floordiv")) {
      AffineExpr rhs = parseFactor();
      if (!rhs)
        return nullptr;
      result = result.floorDiv(rhs);
    } else if (keyword("ceildiv")) {
      AffineExpr rhs = parseFactor();
      if (!rhs)
        return nullptr;
      result = result.ceilDiv(rhs);
    } else if (keyword("mod")) {
      AffineExpr rhs = parseFactor();
      if (!rhs)
        return nullptr;
      result = result % rhs;
    } else {
      break;
    }
  }
  return result;
}

AffineExpr MapParser::parseFactor() {
  skipSpaces();
  if (consume("(")) {
    AffineExpr inner = parseExpr();
    if (!inner || !expect(")"))
      return nullptr;
    return inner;
  }
  if (pos < text.size() &&
      (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '-')) {
    int64_t value;
    if (!parseInt(value))
      return nullptr;
    AffineExpr constant = getAffineConstantExpr(value, context);
    // 16d0 means 16 * d0.
    if (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos]))) {
      AffineExpr variable = parseFactor();
      return variable ? variable * value : nullptr;
    }
    return constant;
  }
  std::string name;
  if (!parseName(name))
    return nullptr;
  auto it = variables.find(name);
  if (it == variables.end()) {
    fail("unknown variable '" + name + "'");
    return nullptr;
  }
  return it->second;
}

std::optional<IndexingMap> MapParser::parse(std::string &error) {
  std::vector<std::string> dimNames, rangeNames, runtimeNames;
  auto failed = [&]() -> std::optional<IndexingMap> {
    error = errorMessage.empty() ? "malformed indexing map" : errorMessage;
    return std::nullopt;
  };
  skipSpaces();
  if (text.substr(pos) == "KNOWN EMPTY") {
    IndexingMap empty(AffineMap::get(context), {}, {}, {});
    empty.markKnownEmpty();
    return empty;
  }
  if (!consume("(")) {
    fail("expected '('");
    return failed();
  }
  --pos;
  if (!parseNameList('(', ')', dimNames) || !parseNameList('[', ']', rangeNames) ||
      !parseNameList('{', '}', runtimeNames) || !expect("->") || !expect("("))
    return failed();
  for (size_t i = 0; i < dimNames.size(); ++i)
    variables[dimNames[i]] = getAffineDimExpr(i, context);
  std::vector<std::string> symbolNames = rangeNames;
  symbolNames.insert(symbolNames.end(), runtimeNames.begin(), runtimeNames.end());
  for (size_t i = 0; i < symbolNames.size(); ++i)
    variables[symbolNames[i]] = getAffineSymbolExpr(i, context);
  if (variables.size() != dimNames.size() + symbolNames.size()) {
    fail("a variable name is used twice");
    return failed();
  }
  std::vector<AffineExpr> results;
  if (!consume(")")) {
    do {
      AffineExpr result = parseExpr();
      if (!result)
        return failed();
      results.push_back(result);
    } while (consume(","));
    if (!expect(")"))
      return failed();
  }
  std::map<std::string, Interval> bounds;
  std::vector<IndexingConstraint> constraints;
  if (consume(",")) {
    if (!expect("domain:"))
      return failed();
    do {
      skipSpaces();
      if (pos >= text.size())
        break;
      AffineExpr expr = parseExpr();
      Interval range;
      if (!expr || !expect("in") || !expect("[") || !parseInt(range.lower) ||
          !expect(",") || !parseInt(range.upper) || !expect("]"))
        return failed();
      bool isVariable = false;
      for (const auto &[name, variable] : variables)
        if (variable == expr && !bounds.count(name)) {
          bounds[name] = range;
          isVariable = true;
          break;
        }
      if (!isVariable)
        constraints.push_back({expr, range});
    } while (consume(","));
  }
  skipSpaces();
  if (pos != text.size()) {
    fail("unexpected text");
    return failed();
  }
  auto makeVars = [&](const std::vector<std::string> &names, bool named,
                      const char *prefix) {
    std::vector<IndexingVar> vars;
    for (size_t i = 0; i < names.size(); ++i) {
      IndexingVar var;
      auto it = bounds.find(names[i]);
      var.bounds = it != bounds.end() ? it->second
                                      : Interval{Interval::kMin, Interval::kMax};
      if (names[i] != prefix + std::to_string(i))
        var.name = names[i];
      vars.push_back(var);
    }
    return vars;
  };
  for (const std::string &name : dimNames)
    if (!bounds.count(name)) {
      fail("no bounds for '" + name + "'");
      return failed();
    }
  for (const std::string &name : symbolNames)
    if (!bounds.count(name)) {
      fail("no bounds for '" + name + "'");
      return failed();
    }
  AffineMap map = AffineMap::get(dimNames.size(), symbolNames.size(), results,
                                 context);
  return IndexingMap(map, makeVars(dimNames, true, "d"),
                     makeVars(rangeNames, true, "s"),
                     makeVars(runtimeNames, true, "rt"), std::move(constraints));
}

} // namespace

llvm::Expected<IndexingMap> parseIndexingMap(std::string_view text,
                                             MLIRContext *context) {
  std::string error;
  std::optional<IndexingMap> map = MapParser(text, context).parse(error);
  if (!map)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  return std::move(*map);
}

} // namespace hlo
