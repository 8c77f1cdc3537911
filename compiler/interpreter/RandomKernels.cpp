//===- RandomKernels.cpp - rng_bit_generator and rng ----------------------===//
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
// rng is XLA's RngExpander (xla/hlo/transforms/expanders/rng_expander.cc)
// over prng.cc's distributions, in the f32 arithmetic of the HLO they
// build, so that passes/ExpandRng.cpp compiles the same numbers.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"

#include "dialects/hlo/RngShape.h"

#include <algorithm>
#include <array>
#include <cmath>

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

namespace {

/// Philox-4x32 bits of u32[shape] keyed by `key` at the counter.
Tensor philoxBits(llvm::ArrayRef<int64_t> shape, uint64_t key,
                  uint64_t counterLow, uint64_t counterHigh) {
  Tensor state(DType::U64, {3});
  uint64_t *words = state.data<uint64_t>();
  words[0] = key;
  words[1] = counterLow;
  words[2] = counterHigh;
  return rngBitGenerator(state, hlo::RngAlgorithm::PHILOX, DType::U32,
                         shape)[1];
}

/// prng.cc's ConvertRandomBitsToUniformFloatingPoint: the 23 high bits as
/// a float in [0, 1), scaled to [a, b).
float uniformFloat(uint32_t bits, float a, float b) {
  float value = static_cast<float>(bits >> 9) * 0x1p-23f;
  float range = b - a;
  float scaled = value * range;
  return scaled + a;
}

} // namespace

Tensor rng(hlo::RngDistribution distribution, const Tensor &a,
           const Tensor &b, DType outType, llvm::ArrayRef<int64_t> shape,
           uint64_t key, uint64_t counterLow, uint64_t counterHigh) {
  // XLA draws bf16 numbers as f32 ones and converts them.
  if (outType == DType::BF16)
    return convert(rng(distribution, convert(a, DType::F32),
                       convert(b, DType::F32), DType::F32, shape, key,
                       counterLow, counterHigh),
                   DType::BF16);
  Tensor out(outType, shape);
  int64_t count = out.numElements();
  if (outType != DType::F32) {
    // prng.cc's ConvertRandomBitsToUniformInt, in wrapping u32 arithmetic:
    // a + (d >> 1) + (d - (d >> 1)), d = bits % (b - a) (x % 0 = x).
    Tensor bits = philoxBits(shape, key, counterLow, counterHigh);
    const uint32_t *word = bits.data<uint32_t>();
    uint32_t low = *a.data<uint32_t>();
    uint32_t range = *b.data<uint32_t>() - low;
    uint32_t *result = out.data<uint32_t>();
    for (int64_t i = 0; i < count; ++i) {
      uint32_t d = range == 0 ? word[i] : word[i] % range;
      result[i] = low + (d >> 1) + (d - (d >> 1));
    }
    return out;
  }
  float low = *a.data<float>(), high = *b.data<float>();
  float *result = out.data<float>();
  if (distribution == hlo::RngDistribution::UNIFORM) {
    Tensor bits = philoxBits(shape, key, counterLow, counterHigh);
    const uint32_t *word = bits.data<uint32_t>();
    for (int64_t i = 0; i < count; ++i)
      result[i] = uniformFloat(word[i], low, high);
    return out;
  }
  // NormalFloatingPointDistribution: uniform [0, 1) numbers of the shape
  // with its split dimension d halved (rounded up) and a new dimension of 2
  // after it; each pair (x0, x1) along that dimension gives the elements
  // 2h and 2h + 1 of d by the Box-Muller transform.
  int64_t split = hlo::threeFrySplitDimension(shape);
  int64_t outer = 1, size = 1, inner = 1;
  llvm::SmallVector<int64_t> pairShape;
  if (split < 0) {
    pairShape.push_back(2);
  } else {
    for (int64_t d = 0; d < split; ++d)
      outer *= shape[d];
    size = shape[split];
    for (size_t d = split + 1; d < shape.size(); ++d)
      inner *= shape[d];
    pairShape.append(shape.begin(), shape.begin() + split);
    pairShape.push_back((size + 1) / 2);
    pairShape.push_back(2);
    pairShape.append(shape.begin() + split + 1, shape.end());
  }
  int64_t halves = (size + 1) / 2;
  Tensor bits = philoxBits(pairShape, key, counterLow, counterHigh);
  const uint32_t *word = bits.data<uint32_t>();
  const float twoPi = static_cast<float>(2.0f * M_PI);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < size; ++j)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t pair = ((o * halves + j / 2) * 2) * inner + i;
        float x0 = uniformFloat(word[pair], 0.0f, 1.0f);
        float x1 = uniformFloat(word[pair + inner], 0.0f, 1.0f);
        float u1 = std::max(x0, 1.0e-7f);
        float v1 = twoPi * x1;
        float u2 = std::sqrt(-2.0f * std::log(u1));
        float z = (j % 2 == 0 ? std::sin(v1) : std::cos(v1)) * u2;
        result[(o * size + j) * inner + i] = low + high * z;
      }
  return out;
}

} // namespace tpuc::interpreter
