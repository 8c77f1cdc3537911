// The bytes a run spread over several processes (MpiFabric.h) sends between
// them: lists of byte strings and execution profiles, in a little-endian
// binary form both ends of one build share (not a file format).
#ifndef TPUC_RUNTIME_EMULATOR_WIRE_H
#define TPUC_RUNTIME_EMULATOR_WIRE_H

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/loader/Profile.h"

namespace tpuc::runtime::wire {

// Length-prefixed byte strings, concatenated.
std::string packStrings(const std::vector<std::string> &parts);
absl::StatusOr<std::vector<std::string>> unpackStrings(absl::string_view bytes);

// Every field of `p`, the trace too.
std::string packProfile(const ExecutionProfile &p);
absl::StatusOr<ExecutionProfile> unpackProfile(absl::string_view bytes);

} // namespace tpuc::runtime::wire

#endif // TPUC_RUNTIME_EMULATOR_WIRE_H
