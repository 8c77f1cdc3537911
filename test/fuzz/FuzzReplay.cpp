//===- FuzzReplay.cpp - a libFuzzer target as a seeded batch, no libFuzzer ===//
//
// Links with one fuzz target's `LLVMFuzzerTestOneInput` (and its
// `LLVMFuzzerCustomMutator`, when it has one) in the regular builds, with
// gcc, so that the Release and the ASan+UBSan test runs cover what the
// libFuzzer build cannot afford to: the target runs on every seed of its
// corpus, then on `--mutants` mutants of each, made by the target's own
// mutator from a fixed seed (so a failure reproduces), each mutant one to
// four successive mutations of its seed. A crash, a sanitizer report or a
// hang is the test's failure; the last line counts what ran.
//
//   tpuc-fuzz-replay-hlo-compile [--mutants=N] [--seed=S] CORPUS_DIR...
//
// `LLVMFuzzerMutate` (libFuzzer's byte-level mutator, which custom mutators
// call) is provided here: flip, insert, erase or duplicate bytes.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed)
    __attribute__((weak));

namespace {
std::minstd_rand byteRng;

/// What a mutant may grow to.
size_t maxSizeFor(size_t seedSize) { return 2 * seedSize + 64; }

bool parseCount(const char *arg, const char *flag, unsigned long &out) {
  size_t length = std::strlen(flag);
  if (std::strncmp(arg, flag, length) != 0)
    return false;
  char *end = nullptr;
  out = std::strtoul(arg + length, &end, 10);
  if (end == arg + length || *end != '\0') {
    std::fprintf(stderr, "error: bad number in '%s'\n", arg);
    std::exit(2);
  }
  return true;
}
} // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize) {
  switch (byteRng() % 4) {
  case 0: // flip bits of one byte
    if (size)
      data[byteRng() % size] ^= uint8_t(1u << (byteRng() % 8));
    return size;
  case 1: { // insert one byte
    if (size >= maxSize)
      return size;
    size_t at = byteRng() % (size + 1);
    std::memmove(data + at + 1, data + at, size - at);
    data[at] = uint8_t(byteRng());
    return size + 1;
  }
  case 2: { // erase a run of up to 8 bytes
    if (!size)
      return size;
    size_t at = byteRng() % size;
    size_t count = std::min<size_t>(1 + byteRng() % 8, size - at);
    std::memmove(data + at, data + at + count, size - at - count);
    return size - count;
  }
  default: { // copy a run of up to 32 bytes over another place
    if (size < 2)
      return size;
    size_t from = byteRng() % size, to = byteRng() % size;
    size_t count = std::min<size_t>({1 + byteRng() % 32, size - from,
                                     size - to});
    std::memmove(data + to, data + from, count);
    return size;
  }
  }
}

int main(int argc, char **argv) {
  unsigned long mutants = 4, seed = 1;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    if (parseCount(argv[i], "--mutants=", mutants) ||
        parseCount(argv[i], "--seed=", seed))
      continue;
    std::error_code error;
    std::filesystem::path dir(argv[i]);
    if (!std::filesystem::is_directory(dir, error)) {
      std::fprintf(stderr, "error: '%s' is not a corpus directory\n", argv[i]);
      return 2;
    }
    for (const auto &entry : std::filesystem::directory_iterator(dir))
      if (entry.is_regular_file())
        files.push_back(entry.path());
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s [--mutants=N] [--seed=S] CORPUS_DIR...\n"
                 "error: no corpus files\n", argv[0]);
    return 2;
  }
  std::sort(files.begin(), files.end());
  byteRng.seed(seed);
  std::minstd_rand rng(seed);
  unsigned long runs = 0;
  for (const std::filesystem::path &file : files) {
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> original{std::istreambuf_iterator<char>(in), {}};
    LLVMFuzzerTestOneInput(original.data(), original.size());
    ++runs;
    for (unsigned long m = 0; m < mutants; ++m) {
      std::vector<uint8_t> data = original;
      size_t maxSize = maxSizeFor(original.size());
      data.resize(maxSize);
      size_t size = original.size();
      for (unsigned steps = 1 + rng() % 4; steps; --steps)
        size = LLVMFuzzerCustomMutator
                   ? LLVMFuzzerCustomMutator(data.data(), size, maxSize,
                                             unsigned(rng()))
                   : LLVMFuzzerMutate(data.data(), size, maxSize);
      LLVMFuzzerTestOneInput(data.data(), size);
      ++runs;
    }
  }
  std::printf("fuzz replay: %zu seeds, %lu inputs run, seed %lu\n",
              files.size(), runs, seed);
  return 0;
}
