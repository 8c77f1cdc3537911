#include "runtime/emulator/Torus.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace tpuc::runtime {

std::vector<int64_t> Torus::coords(int64_t device) const {
  int64_t chip = device / std::max<int64_t>(devicesPerChip, 1);
  std::vector<int64_t> at(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    at[i] = chip % dims[i];
    chip /= dims[i];
  }
  return at;
}

namespace {

// The signed steps along one dimension of `size` chips from a to b: the
// shorter way round a torus (forward on a tie).
int64_t stepsAlong(int64_t a, int64_t b, int64_t size, bool wraparound) {
  int64_t forward = b - a;
  if (!wraparound)
    return forward;
  int64_t up = ((forward % size) + size) % size, down = size - up;
  if (up == 0)
    return 0;
  return up <= down ? up : -down;
}

} // namespace

int64_t Torus::hops(int64_t a, int64_t b) const {
  std::vector<int64_t> from = coords(a), to = coords(b);
  int64_t total = 0;
  for (size_t i = 0; i < dims.size(); ++i)
    total += std::llabs(stepsAlong(from[i], to[i], dims[i], wraparound));
  return total;
}

std::vector<int64_t> Torus::route(int64_t a, int64_t b) const {
  std::vector<int64_t> at = coords(a), to = coords(b), links;
  int64_t rank = static_cast<int64_t>(dims.size());
  auto chipOf = [&] {
    int64_t chip = 0;
    for (int64_t i = rank - 1; i >= 0; --i)
      chip = chip * dims[i] + at[i];
    return chip;
  };
  for (int64_t i = 0; i < rank; ++i) {
    int64_t steps = stepsAlong(at[i], to[i], dims[i], wraparound);
    int64_t dir = steps > 0 ? 1 : -1;
    for (int64_t s = 0; s < std::llabs(steps); ++s) {
      links.push_back(chipOf() * 2 * rank + 2 * i + (dir > 0));
      at[i] = ((at[i] + dir) % dims[i] + dims[i]) % dims[i];
    }
  }
  return links;
}

int64_t maxLinkLoad(const Torus &torus, const IciEdges &edges) {
  std::map<int64_t, int64_t> load;
  int64_t most = 1;
  for (const auto &[from, to] : edges)
    for (int64_t link : torus.route(from, to))
      most = std::max(most, ++load[link]);
  return most;
}

} // namespace tpuc::runtime
