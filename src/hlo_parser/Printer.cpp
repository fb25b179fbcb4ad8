//===- Printer.cpp - HLO IR to canonical HLO text -------------------------===//
#include "Printer.h"

#include <cctype>

namespace hlo {

/// Names that read back as one bare identifier ([A-Za-z_][A-Za-z0-9_.-]*);
/// others (`%0p`) keep their '%' where XLA prints names bare.
static bool isBareIdentifier(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) ||
                        name[0] == '_'))
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' &&
        c != '-')
      return false;
  return true;
}

static void printBareName(std::string &out, std::string_view name) {
  if (!isBareIdentifier(name))
    out += '%';
  out += name;
}

static std::string_view asyncSuffix(HloOpcode opcode) {
  switch (opcode) {
  case HloOpcode::AsyncStart:
    return "-start";
  case HloOpcode::AsyncUpdate:
    return "-update";
  default:
    return "-done";
  }
}

void printInstruction(std::string &out, const HloInstruction &instruction) {
  if (instruction.isRoot())
    out += "ROOT ";
  out += '%';
  out += instruction.name();
  out += " = ";
  instruction.shape().print(out);
  out += ' ';
  if (std::optional<HloOpcode> wrapped = instruction.asyncWrappedOpcode()) {
    out += opcodeName(*wrapped);
    out += asyncSuffix(instruction.opcode());
  } else {
    out += opcodeName(instruction.opcode());
  }
  out += '(';
  if (instruction.opcode() == HloOpcode::Parameter) {
    out += std::to_string(instruction.parameterNumber());
  } else if (instruction.opcode() == HloOpcode::Constant) {
    instruction.literal().print(out);
  } else {
    for (int64_t i = 0; i < instruction.operandCount(); ++i) {
      if (i)
        out += ", ";
      out += '%';
      out += instruction.operand(i)->name();
    }
  }
  out += ')';
  for (const HloAttribute &attribute : instruction.attributes()) {
    out += ", ";
    out += attribute.name;
    out += '=';
    printAttrValue(out, attribute.value);
  }
}

std::string instructionToString(const HloInstruction &instruction) {
  std::string out;
  printInstruction(out, instruction);
  return out;
}

void printComputation(std::string &out, const HloComputation &computation,
                      bool isEntry) {
  if (isEntry)
    out += "ENTRY ";
  out += '%';
  out += computation.name();
  out += " (";
  for (int64_t i = 0; i < computation.parameterCount(); ++i) {
    if (i)
      out += ", ";
    const HloInstruction *parameter = computation.parameter(i);
    printBareName(out, parameter->name());
    out += ": ";
    parameter->shape().print(out);
  }
  out += ") -> ";
  computation.root()->shape().print(out);
  out += " {\n";
  for (const auto &instruction : computation.instructions()) {
    out += "  ";
    printInstruction(out, *instruction);
    out += '\n';
  }
  out += '}';
  if (!computation.executionThread().empty()) {
    out += ", execution_thread=";
    out += quoteString(computation.executionThread());
  }
  out += '\n';
}

std::string printModule(const HloModule &module) {
  std::string out = "HloModule ";
  printBareName(out, module.name());
  for (const ModuleAttribute &attribute : module.attributes()) {
    out += ", ";
    out += attribute.name;
    out += '=';
    out += attribute.text;
  }
  out += "\n";
  for (const ModuleSection &section : module.sections()) {
    out += '\n' + section.name + '\n';
    for (const auto &[id, text] : section.entries)
      out += std::to_string(id) + ' ' + text + '\n';
  }
  for (const auto &computation : module.computations()) {
    out += '\n';
    printComputation(out, *computation, computation.get() == module.entry());
  }
  return out;
}

} // namespace hlo
