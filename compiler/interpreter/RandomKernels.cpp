//===- RandomKernels.cpp - rng_bit_generator ------------------------------===//
//
// XLA's counter-based bit generators, element by element, computing the
// same bits as the HLO XLA's RngBitGeneratorExpander builds
// (xla/hlo/builder/lib/prng.cc, ThreeFryBitGenerator/PhiloxBitGenerator):
//
//   THREE_FRY  state u64[2] = (key, counter). 32-bit and narrower elements:
//              the shape is split in halves along its first even dimension
//              (else its largest, rounded up; a scalar is one pair); half
//              element h draws Threefry-2x32(counter + h, key) and its two
//              words fill the elements 2j and 2j+1 of the split dimension.
//              The counter advances by the number of halves. 64-bit
//              elements: element e is the pair of Threefry(counter + e, key)
//              as (low, high); the counter advances by the element count.
//   PHILOX     state u64[3] = (key, counter low, counter high), or u64[2]
//              = (key, counter low) whose high word is the key itself (XLA
//              reverses the state). Block i = Philox-4x32-10(counter + i,
//              key) with a 128-bit add; 32-bit element e is word e%4 of
//              block e/4, 64-bit element e is words (0,1) or (2,3) of block
//              e/2. The counter advances by the number of blocks (u64[2]
//              keeps only the low word).
//
// Narrower elements take the low bits of the 32-bit draw (XLA's convert).
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"

#include "dialects/hlo/RngShape.h"

#include <array>

namespace tpuc::interpreter {
namespace {

using Words2 = std::array<uint32_t, 2>;
using Words4 = std::array<uint32_t, 4>;

Words2 splitU64(uint64_t v) {
  return {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
}
uint64_t joinU32(uint32_t low, uint32_t high) {
  return static_cast<uint64_t>(low) | static_cast<uint64_t>(high) << 32;
}
uint32_t rotateLeft(uint32_t v, int distance) {
  return (v << distance) | (v >> (32 - distance));
}

/// Threefry-2x32 with 20 rounds (Salmon et al., SC 2011).
Words2 threeFry2x32(Words2 x, Words2 key) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  x[0] += ks[0];
  x[1] += ks[1];
  for (uint32_t block = 0; block < 5; ++block) {
    for (int r = 0; r < 4; ++r) {
      x[0] += x[1];
      x[1] = rotateLeft(x[1], kRotations[(block % 2) * 4 + r]);
      x[1] ^= x[0];
    }
    x[0] += ks[(block + 1) % 3];
    x[1] += ks[(block + 2) % 3] + block + 1;
  }
  return x;
}

/// Philox-4x32 with 10 rounds (Salmon et al., SC 2011).
Words4 philox4x32(Words4 x, Words2 key) {
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = static_cast<uint64_t>(x[0]) * 0xD2511F53u;
    uint64_t p1 = static_cast<uint64_t>(x[2]) * 0xCD9E8D57u;
    x = {static_cast<uint32_t>(p1 >> 32) ^ x[1] ^ key[0],
         static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ x[3] ^ key[1],
         static_cast<uint32_t>(p0)};
    key[0] += 0x9E3779B9u;
    key[1] += 0xBB67AE85u;
  }
  return x;
}

/// XLA's Uint128AddUint64: (low, high) + delta.
std::array<uint64_t, 2> add128(uint64_t low, uint64_t high, uint64_t delta) {
  uint64_t sum = low + delta;
  return {sum, sum < low ? high + 1 : high};
}

/// Random bits of every element (row-major) as u64, and the new state.
struct Draw {
  std::vector<uint64_t> bits;
  std::vector<uint64_t> state;
};

Draw threeFry(llvm::ArrayRef<uint64_t> state, llvm::ArrayRef<int64_t> shape,
              unsigned bitWidth) {
  Words2 key = splitU64(state[0]);
  uint64_t counter = state[1];
  int64_t count = elementCount(shape);
  Draw draw;
  draw.bits.resize(count);
  if (bitWidth == 64) {
    for (int64_t e = 0; e < count; ++e) {
      Words2 out = threeFry2x32(splitU64(counter + e), key);
      draw.bits[e] = joinU32(out[0], out[1]);
    }
    draw.state = {state[0], counter + static_cast<uint64_t>(count)};
    return draw;
  }
  llvm::SmallVector<int64_t, 6> half(shape.begin(), shape.end());
  int64_t split = hlo::threeFrySplitDimension(shape);
  if (split >= 0)
    half[split] = (shape[split] + 1) / 2;
  int64_t halves = shape.empty() ? 1 : elementCount(half);
  std::vector<Words2> pairs(halves);
  for (int64_t h = 0; h < halves; ++h)
    pairs[h] = threeFry2x32(splitU64(counter + h), key);
  llvm::SmallVector<int64_t, 6> halfStrides = rowMajorStrides(half);
  IndexCounter index(shape);
  for (int64_t e = 0; e < count; ++e, index.next()) {
    int64_t h = 0, word = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t i = index[d];
      if (static_cast<int64_t>(d) == split) {
        word = i % 2;
        i /= 2;
      }
      h += i * halfStrides[d];
    }
    draw.bits[e] = pairs[h][word];
  }
  draw.state = {state[0], counter + static_cast<uint64_t>(halves)};
  return draw;
}

Draw philox(llvm::ArrayRef<uint64_t> state, llvm::ArrayRef<int64_t> shape,
            unsigned bitWidth) {
  Words2 key = splitU64(state[0]);
  // A u64[2] state is reversed: (counter low, key) is the 128-bit counter.
  uint64_t low = state[1];
  uint64_t high = state.size() >= 3 ? state[2] : state[0];
  int64_t count = elementCount(shape);
  int64_t perBlock = bitWidth == 64 ? 2 : 4;
  int64_t blocks = (count + perBlock - 1) / perBlock;
  Draw draw;
  draw.bits.resize(count);
  for (int64_t i = 0; i < blocks; ++i) {
    auto c = add128(low, high, static_cast<uint64_t>(i));
    Words2 l = splitU64(c[0]), h = splitU64(c[1]);
    Words4 out = philox4x32({l[0], l[1], h[0], h[1]}, key);
    for (int64_t w = 0; w < perBlock && i * perBlock + w < count; ++w)
      draw.bits[i * perBlock + w] =
          bitWidth == 64 ? joinU32(out[2 * w], out[2 * w + 1]) : out[w];
  }
  auto next = add128(low, high, static_cast<uint64_t>(blocks));
  draw.state = {state[0], next[0]};
  if (state.size() >= 3)
    draw.state.push_back(next[1]);
  return draw;
}

template <typename T> void storeLowBits(Tensor &out, llvm::ArrayRef<uint64_t> bits) {
  T *data = out.data<T>();
  for (size_t i = 0; i < bits.size(); ++i)
    data[i] = static_cast<T>(bits[i]);
}

} // namespace

llvm::SmallVector<Tensor, 2> rngBitGenerator(const Tensor &state,
                                             hlo::RngAlgorithm algorithm,
                                             DType outType,
                                             llvm::ArrayRef<int64_t> shape) {
  llvm::ArrayRef<uint64_t> words(state.data<uint64_t>(), state.numElements());
  unsigned bytes = hostio::dtypeByteSize(outType);
  Draw draw = algorithm == hlo::RngAlgorithm::THREE_FRY
                  ? threeFry(words, shape, bytes * 8)
                  : philox(words, shape, bytes * 8);
  Tensor newState(DType::U64, state.shape());
  std::copy(draw.state.begin(), draw.state.end(), newState.data<uint64_t>());
  Tensor out(outType, shape);
  switch (bytes) {
  case 1: storeLowBits<uint8_t>(out, draw.bits); break;
  case 2: storeLowBits<uint16_t>(out, draw.bits); break;
  case 4: storeLowBits<uint32_t>(out, draw.bits); break;
  default: storeLowBits<uint64_t>(out, draw.bits); break;
  }
  return {newState, out};
}

} // namespace tpuc::interpreter
