//===- ParseThroughput.cpp - Parse + verify throughput benchmark ----------===//
//
// bench-parse FILE... [--repeat N]: for each file, parses and verifies it N
// times (default 10) and prints the median time and MB/s. The goal:
// >= 100 MB/s on shared/corpus/models (TORAX, 3.9 MB, under 100 ms).
//
//===----------------------------------------------------------------------===//
#include "hlo_parser/Parser.h"
#include "hlo_parser/Verifier.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace hlo;

int main(int argc, char **argv) {
  int repeat = 10;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++i]));
    else
      files.push_back(arg);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: bench-parse FILE... [--repeat N]\n");
    return 2;
  }
  std::printf("%-60s %10s %12s %12s %10s\n", "file", "bytes", "parse ms",
              "+verify ms", "MB/s");
  int failures = 0;
  for (const std::string &path : files) {
    ErrorOr<std::shared_ptr<SourceFile>> source = SourceFile::read(path);
    if (!source) {
      std::fprintf(stderr, "%s\n", source.error().c_str());
      ++failures;
      continue;
    }
    std::shared_ptr<SourceFile> file = std::move(*source);
    std::vector<double> parseTimes, totalTimes;
    for (int r = 0; r < repeat; ++r) {
      auto start = std::chrono::steady_clock::now();
      DiagnosticEngine diagnostics(file);
      auto module = parseHloModule(file, diagnostics);
      auto parsed = std::chrono::steady_clock::now();
      bool ok = module && verifyModule(*module, diagnostics);
      auto end = std::chrono::steady_clock::now();
      if (!ok) {
        std::fprintf(stderr, "%s", diagnostics.rendered().c_str());
        ++failures;
        break;
      }
      parseTimes.push_back(
          std::chrono::duration<double, std::milli>(parsed - start).count());
      totalTimes.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
    }
    if (totalTimes.empty())
      continue;
    std::sort(parseTimes.begin(), parseTimes.end());
    std::sort(totalTimes.begin(), totalTimes.end());
    double parseMedian = parseTimes[parseTimes.size() / 2];
    double totalMedian = totalTimes[totalTimes.size() / 2];
    double megabytes = file->text().size() / 1e6;
    std::printf("%-60s %10zu %12.2f %12.2f %10.1f\n", path.c_str(),
                file->text().size(), parseMedian, totalMedian,
                megabytes / (totalMedian / 1e3));
  }
  return failures ? 1 : 0;
}
