//===- Printer.h - HLO IR to canonical HLO text -----------------*- C++ -*-===//
//
// Prints modules, computations and instructions as canonical HLO text: a
// `HloModule` header, `ENTRY` on the entry computation, `ROOT` on every
// root, `%` on every name, layouts on every array shape, operands by name,
// attributes in source order. print(parse(print(parse(x)))) is
// print(parse(x)).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_PRINTER_H
#define HLO_PARSER_PRINTER_H

#include "HloModule.h"

#include <string>

namespace hlo {

std::string printModule(const HloModule &module);
void printComputation(std::string &out, const HloComputation &computation,
                      bool isEntry);
void printInstruction(std::string &out, const HloInstruction &instruction);
std::string instructionToString(const HloInstruction &instruction);

} // namespace hlo

#endif // HLO_PARSER_PRINTER_H
