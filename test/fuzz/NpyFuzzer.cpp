//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//
//
// Any input must give an array or an error status. An array that was read
// must survive a write/read round trip unchanged.
//
//===----------------------------------------------------------------------===//

#include "runtime/hostio/Npy.h"

#include <cstdlib>

using namespace tpuc::hostio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  absl::string_view bytes(reinterpret_cast<const char *>(data), size);
  absl::StatusOr<HostArray> array = parseNpy(bytes, "fuzz.npy");
  if (!array.ok())
    return 0;
  absl::StatusOr<HostArray> again = parseNpy(serializeNpy(*array), "again");
  if (!again.ok() || *again != *array)
    std::abort();
  return 0;
}
