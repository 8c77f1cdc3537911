//===- LoaderFuzzer.cpp - libFuzzer target for the executable loader ------===//
//
// Any bytes: loadExecutable returns an executable or a Status, never
// crashes, hangs or reads out of bounds. (Running accepted mutants on the
// emulator is covered by the loader's mutation unit test.)
//
//===----------------------------------------------------------------------===//

#include "runtime/loader/Executable.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  absl::StatusOr<tpuc::runtime::Executable> exe =
      tpuc::runtime::loadExecutable(
          absl::string_view(reinterpret_cast<const char *>(data), size));
  (void)exe;
  return 0;
}
