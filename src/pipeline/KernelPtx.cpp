//===- KernelPtx.cpp - A module's PTX cut into kernels and joined ---------===//
#include "pipeline/KernelPtx.h"

#include "pipeline/Pipeline.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace hlo::pipeline {
namespace {

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}

/// The identifiers of `text` (PTX names, directives without their dot).
std::vector<llvm::StringRef> identifiers(llvm::StringRef text) {
  std::vector<llvm::StringRef> tokens;
  for (size_t i = 0; i < text.size();) {
    if (!isIdentifierChar(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && isIdentifierChar(text[i]))
      ++i;
    tokens.push_back(text.slice(start, i));
  }
  return tokens;
}

/// The top-level statements of a PTX body: a comment line, or the lines
/// up to the `;` or `}` that closes what they open.
std::vector<llvm::StringRef> statements(llvm::StringRef body) {
  std::vector<llvm::StringRef> found;
  size_t start = llvm::StringRef::npos;
  int depth = 0;
  for (size_t at = 0; at < body.size();) {
    size_t end = body.find('\n', at);
    if (end == llvm::StringRef::npos)
      end = body.size();
    llvm::StringRef line = body.slice(at, end);
    llvm::StringRef code = line.split("//").first.trim();
    if (start == llvm::StringRef::npos) {
      if (line.trim().empty()) {
        at = end + 1;
        continue;
      }
      if (line.trim().starts_with("//")) {
        found.push_back(line.trim());
        at = end + 1;
        continue;
      }
      start = at;
    }
    for (char c : code)
      depth += (c == '{' || c == '(') - (c == '}' || c == ')');
    if (depth == 0 && (code.ends_with(";") || code.ends_with("}"))) {
      found.push_back(body.slice(start, end));
      start = llvm::StringRef::npos;
    }
    at = end + 1;
  }
  if (start != llvm::StringRef::npos)
    found.push_back(body.substr(start));
  return found;
}

/// The kernel (index into `symbols`) a token belongs to: the symbol, a
/// name that extends it (`S_param_N`, `S_shared$`) or a name made for it
/// (`X$S`); -1 if none.
int64_t ownerOf(llvm::StringRef token, const llvm::StringMap<int64_t> &symbols) {
  if (size_t dollar = token.rfind('$'); dollar != llvm::StringRef::npos && dollar > 0)
    if (auto found = symbols.find(token.substr(dollar + 1)); found != symbols.end())
      return found->second;
  for (size_t end = 1; end <= token.size(); ++end)
    if (end == token.size() || token[end] == '_' || token[end] == '$')
      if (auto found = symbols.find(token.take_front(end)); found != symbols.end())
        return found->second;
  return -1;
}

/// The names a shared declaration declares (not its directives, numbers,
/// or parameter names).
std::vector<std::string> declaredNames(llvm::StringRef statement) {
  std::vector<std::string> names;
  for (llvm::StringRef token : identifiers(statement)) {
    bool directive = token.data() > statement.data() && token.data()[-1] == '.';
    if (directive || std::isdigit(static_cast<unsigned char>(token[0])) ||
        token.starts_with("func_retval") || token.contains("_param_") ||
        token.starts_with("param"))
      continue;
    names.push_back(token.str());
  }
  return names;
}

/// `text` with each number after `prefix` (function numbers the back end
/// gives) renumbered from 0 in the order they first appear.
std::string renumber(const std::string &text, llvm::StringRef prefix) {
  std::string out;
  std::map<std::string, std::string> numbers;
  size_t at = 0;
  for (size_t found; (found = text.find(prefix.str(), at)) != std::string::npos;) {
    size_t digits = found + prefix.size();
    size_t end = digits;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
      ++end;
    out.append(text, at, digits - at);
    if (end > digits) {
      std::string number = text.substr(digits, end - digits);
      auto [entry, added] = numbers.emplace(number, std::to_string(numbers.size()));
      out += entry->second;
    }
    at = end;
  }
  out.append(text, at, std::string::npos);
  return out;
}

std::string replaceAll(std::string text, llvm::StringRef from, llvm::StringRef to) {
  if (from == to || from.empty())
    return text;
  std::string out;
  size_t at = 0;
  for (size_t found; (found = text.find(from.str(), at)) != std::string::npos;
       at = found + from.size())
    out.append(text, at, found - at).append(to.str());
  out.append(text, at, std::string::npos);
  return out;
}

} // namespace

llvm::Expected<CutPtx> cutPtxIntoKernels(llvm::StringRef ptx,
                                         const std::vector<std::string> &symbols) {
  CutPtx cut;
  size_t header = ptx.find(".address_size");
  if (header == llvm::StringRef::npos)
    return pipelineError("internal error: the PTX has no .address_size");
  size_t bodyStart = std::min(ptx.find('\n', header), ptx.size());
  cut.header = ptx.substr(0, bodyStart).str() + "\n";
  llvm::StringMap<int64_t> owners;
  for (size_t i = 0; i < symbols.size(); ++i)
    owners[symbols[i]] = static_cast<int64_t>(i);
  std::vector<std::vector<llvm::StringRef>> parts(symbols.size());
  std::vector<llvm::StringRef> shared;
  for (llvm::StringRef statement : statements(ptx.substr(bodyStart))) {
    int64_t owner = -1;
    for (llvm::StringRef token : identifiers(statement)) {
      int64_t of = ownerOf(token, owners);
      if (of < 0 || of == owner)
        continue;
      if (owner >= 0)
        return pipelineError("internal error: kernels '" + symbols[owner] + "' and '" +
                             symbols[of] + "' share PTX: " +
                             statement.take_front(80).str());
      owner = of;
    }
    if (owner >= 0)
      parts[owner].push_back(statement);
    else if (!statement.starts_with("//"))
      shared.push_back(statement);
  }
  for (size_t i = 0; i < symbols.size(); ++i) {
    KernelPtx kernel;
    kernel.symbol = symbols[i];
    bool hasEntry = false;
    // Data first, then function prototypes, then the rest, each in the
    // back end's order (where the back end puts a kernel's data among
    // other kernels' statements depends on them); comments other than
    // `// .globl` say where a global went, which only depends on them.
    auto rank = [](llvm::StringRef s) {
      if (s.starts_with(".global") || s.starts_with(".const") || s.starts_with(".shared"))
        return 0;
      if (!s.contains('{') && s.ends_with(";"))
        return 1; // a prototype
      return s.starts_with("//") && !s.starts_with("// .globl") ? -1 : 2;
    };
    std::vector<llvm::StringRef> ordered;
    llvm::copy_if(parts[i], std::back_inserter(ordered),
                  [&](llvm::StringRef s) { return rank(s) >= 0; });
    std::stable_sort(ordered.begin(), ordered.end(),
                     [&](llvm::StringRef a, llvm::StringRef b) { return rank(a) < rank(b); });
    for (llvm::StringRef statement : ordered) {
      hasEntry |= statement.contains(".entry");
      kernel.text += statement.str() + "\n";
      if (statement.ends_with("}"))
        kernel.text += "\n";
    }
    if (!hasEntry)
      return pipelineError("internal error: no PTX entry for kernel '" + symbols[i] + "'");
    for (llvm::StringRef prefix : {"$L__BB", "__local_depot", "$L_brx_", "$L__tmp",
                                   "$L__func_begin", "$L__func_end", "// callseq "})
      kernel.text = renumber(kernel.text, prefix);
    llvm::StringSet<> used;
    for (llvm::StringRef token : identifiers(kernel.text))
      used.insert(token);
    for (llvm::StringRef statement : shared)
      for (const std::string &name : declaredNames(statement))
        if (used.contains(name)) {
          kernel.declarations.push_back(statement.str());
          break;
        }
    cut.kernels.push_back(std::move(kernel));
  }
  return cut;
}

std::string joinKernelPtx(llvm::StringRef header, const std::vector<const KernelPtx *> &kernels,
                          const std::vector<std::string> &names) {
  std::set<std::string> declarations;
  for (const KernelPtx *kernel : kernels)
    declarations.insert(kernel->declarations.begin(), kernel->declarations.end());
  std::string joined = header.str() + "\n";
  for (const std::string &declaration : declarations)
    joined += declaration + "\n";
  if (!declarations.empty())
    joined += "\n";
  for (size_t i = 0; i < kernels.size(); ++i)
    joined += replaceAll(kernels[i]->text, kernels[i]->symbol, names[i]);
  return joined;
}

} // namespace hlo::pipeline
