// The slice's chips as the preset's ICI topology (runtime/target: chips
// along each dimension, torus or mesh) and where a collective's transfers
// run on it: device d sits on chip d / devicesPerChip, chips are numbered
// with the first dimension fastest (x, then y, then z), a transfer takes the
// dimension-ordered shortest route (the shorter way round a torus), and
// transfers between the cores of one chip use no ICI link
// (docs/runtime.md, "ICI").
#ifndef TPUC_RUNTIME_EMULATOR_TORUS_H
#define TPUC_RUNTIME_EMULATOR_TORUS_H

#include <cstdint>
#include <utility>
#include <vector>

namespace tpuc::runtime {

struct Torus {
  std::vector<int64_t> dims; // chips along each dimension; empty: unknown
  bool wraparound = false;
  int64_t devicesPerChip = 1;

  // Hops between the chips of devices a and b (0 on one chip).
  int64_t hops(int64_t a, int64_t b) const;
  // The directed links a transfer from a to b crosses, in order; a link is
  // (chip, dimension, direction) numbered chip * 2 * rank + 2 * dim + (dir
  // > 0).
  std::vector<int64_t> route(int64_t a, int64_t b) const;

private:
  std::vector<int64_t> coords(int64_t device) const;
};

// Transfers that run at once (source, target devices).
using IciEdges = std::vector<std::pair<int64_t, int64_t>>;

// The most transfers of `edges` that cross one direction of one link
// (at least 1).
int64_t maxLinkLoad(const Torus &torus, const IciEdges &edges);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_EMULATOR_TORUS_H
