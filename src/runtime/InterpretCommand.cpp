//===- InterpretCommand.cpp - hlo-run --interpret -------------------------===//
//
// Runs the entry computation in the reference interpreter on the given or
// seeded inputs and writes each output leaf as DIR/output_i.npy (or prints
// small ones).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ReferenceCases.h"

#include "interpreter/Evaluator.h"
#include "interpreter/Npy.h"

#include "hlo_parser/HloComputation.h"

#include <filesystem>
#include <iostream>

namespace hlo::runtime {

bool readInputFiles(const RunOptions &options, const HloModule &module,
                    std::map<int64_t, Literal> &inputs) {
  const HloComputation &entry = *module.entry();
  for (const auto &[number, path] : options.inputFiles) {
    if (number < 0 || number >= entry.parameterCount()) {
      std::cerr << "hlo-run: error: --input " << number << "=" << path << ": the entry has "
                << entry.parameterCount() << " parameters\n";
      return false;
    }
    const Shape &shape = entry.parameter(number)->shape();
    if (!shape.isArray()) {
      std::cerr << "hlo-run: error: --input " << number
                << ": tuple parameters cannot be read from .npy\n";
      return false;
    }
    ErrorOr<Literal> array = interp::readNpyFile(path, shape);
    if (!array) {
      std::cerr << "hlo-run: error: --input " << number << ": " << array.error() << "\n";
      return false;
    }
    inputs.emplace(number, std::move(*array));
  }
  return true;
}

bool createDirectories(const std::string &path) {
  if (path.empty())
    return true;
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error) {
    std::cerr << "hlo-run: error: cannot create directory '" << path << "': "
              << error.message() << "\n";
    return false;
  }
  return true;
}

/// Compares output `index` with the --expect-dir file; prints one line.
static bool compareWithExpected(const RunOptions &options, size_t index, const Literal &output) {
  std::string path = options.expectDir + "/output_" + std::to_string(index) + ".npy";
  Shape logical(output.shape().elementType(), output.shape().dimensions());
  ErrorOr<Literal> expected = interp::readNpyFile(path, logical);
  if (!expected) {
    std::cout << "  expected output " << index << ": " << expected.error() << "  FAIL\n";
    return false;
  }
  return reportComparison("against " + path, *expected, output, options).passed();
}

int runInterpreter(const RunOptions &options, const HloModule &module) {
  std::map<int64_t, Literal> given;
  if (!readInputFiles(options, module, given))
    return kExitError;
  interp::Evaluator evaluator(module);
  evaluator.setMaxWhileIterations(options.maxWhileIterations);
  evaluator.setMaxElements(options.maxElements);
  std::vector<interp::ValuePtr> inputs;
  interp::ValuePtr result;
  try {
    inputs = moduleInputs(module, evaluator, options.seed, given);
    result = evaluator.run(inputs);
  } catch (const interp::InterpreterError &error) {
    std::cerr << interp::formatInterpreterError(module, error);
    return kExitError;
  }
  if (!createDirectories(options.saveDir) || !createDirectories(options.outputDir))
    return kExitError;
  if (!options.saveDir.empty())
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!inputs[i]->shape().isArray())
        continue;
      Status written = interp::writeNpyFile(
          options.saveDir + "/input_" + std::to_string(i) + ".npy", *inputs[i]);
      if (!written) {
        std::cerr << "hlo-run: error: " << written.error() << "\n";
        return kExitError;
      }
    }
  std::vector<Literal> outputs = arrayLeaves(*result);
  bool passed = true;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Literal &output = outputs[i];
    std::string description = "output " + std::to_string(i) + ": " +
                              output.shape().toString(/*printLayout=*/false);
    if (!options.outputDir.empty()) {
      std::string path = options.outputDir + "/output_" + std::to_string(i) + ".npy";
      if (Status written = interp::writeNpyFile(path, output); !written) {
        std::cerr << "hlo-run: error: " << written.error() << "\n";
        return kExitError;
      }
      std::cout << description << " -> " << path << "\n";
    } else if (output.elementCount() <= 64) {
      std::cout << description << " " << output.toString() << "\n";
    } else {
      std::cout << description << " (" << output.elementCount()
                << " elements; --output-dir writes them)\n";
    }
    if (!options.expectDir.empty())
      passed &= compareWithExpected(options, i, output);
  }
  if (!options.expectDir.empty())
    std::cout << (passed ? "PASS" : "FAIL") << "\n";
  return passed ? kExitPass : kExitMismatch;
}

} // namespace hlo::runtime
