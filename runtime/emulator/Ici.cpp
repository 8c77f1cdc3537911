#include "runtime/emulator/Ici.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/hostio/FloatConversion.h"
#include "runtime/loader/Collectives.h"
#include "runtime/loader/Layout.h"

namespace tpuc::runtime {

IciPlacement placeCollective(exe::Opcode opcode, const exe::Collective &c,
                             int64_t device, const Torus &torus) {
  IciPlacement place;
  if (torus.dims.empty() || opcode == exe::DEVICE_ID)
    return place;
  // Every transfer of the collective (they run at once), and the device's.
  IciEdges all, mine;
  auto add = [&](int64_t from, int64_t to, bool own) {
    all.emplace_back(from, to);
    if (own)
      mine.emplace_back(from, to);
  };
  if (opcode == exe::COLLECTIVE_PERMUTE) {
    for (const exe::SourceTarget &p : c.pairs())
      if (p.source() != p.target())
        add(p.source(), p.target(),
            p.source() == device || p.target() == device);
  } else {
    bool chain = opcode == exe::COLLECTIVE_BROADCAST;
    for (const exe::ReplicaGroup &g : c.groups()) {
      int64_t n = g.devices_size();
      bool own = std::find(g.devices().begin(), g.devices().end(),
                           static_cast<uint32_t>(device)) != g.devices().end();
      for (int64_t m = 0; n > 1 && m < (chain ? n - 1 : n); ++m)
        add(g.devices(static_cast<int>(m)),
            g.devices(static_cast<int>((m + 1) % n)), own);
    }
  }
  int64_t hops = 0;
  for (const auto &[from, to] : mine) {
    int64_t h = std::max<int64_t>(torus.hops(from, to), 1);
    hops = opcode == exe::COLLECTIVE_BROADCAST ? hops + h : std::max(hops, h);
  }
  place.hops = std::max<int64_t>(hops, 1);
  place.linkLoad = maxLinkLoad(torus, all);
  return place;
}

IciCost collectiveCost(exe::Opcode opcode, int64_t n, int64_t bytes,
                       bool sends, const IciLinks &links, double clockHz,
                       const IciPlacement &place) {
  IciCost cost;
  if (opcode == exe::DEVICE_ID)
    return cost;
  // One ring step's latency, and the links' bandwidth shared by the
  // transfers that cross one.
  double lat = static_cast<double>(place.hops) * links.hopLatencySeconds;
  double link = (links.bytesPerSecondPerLink > 0
                     ? links.bytesPerSecondPerLink
                     : 1e12) /
                static_cast<double>(place.linkLoad);
  double ring = 2 * link; // both directions of the ring
  double seconds = 0, sent = 0;
  double b = static_cast<double>(bytes);
  switch (opcode) {
  case exe::ALL_REDUCE: // reduce-scatter then all-gather, blocks of b / n
    if (n > 1) {
      seconds = 2.0 * (n - 1) * (lat + b / n / ring);
      sent = 2.0 * (n - 1) * b / n;
    }
    break;
  case exe::ALL_GATHER: // n - 1 steps forwarding one operand
    if (n > 1) {
      seconds = (n - 1) * (lat + b / ring);
      sent = (n - 1) * b;
    }
    break;
  case exe::REDUCE_SCATTER:
  case exe::ALL_TO_ALL: // n - 1 steps of one block
    if (n > 1) {
      seconds = (n - 1) * (lat + b / n / ring);
      sent = (n - 1) * b / n;
    }
    break;
  case exe::COLLECTIVE_PERMUTE: // one hop, one direction
    seconds = lat + b / link;
    sent = sends ? b : 0;
    break;
  case exe::COLLECTIVE_BROADCAST: // pipelined along a chain
    if (n > 1) {
      // place.hops: the whole chain's (without a torus, one per step).
      seconds = static_cast<double>(std::max<int64_t>(n - 1, place.hops)) *
                    links.hopLatencySeconds +
                b / link;
      sent = sends ? b : 0;
    }
    break;
  default:
    break;
  }
  cost.cycles = static_cast<uint64_t>(std::ceil(seconds * clockHz));
  cost.bytesSent = static_cast<uint64_t>(std::llround(sent));
  return cost;
}

absl::StatusOr<std::shared_ptr<const IciFabric::Round>>
IciFabric::exchange(int64_t device, Arrival arrival) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (aborted_)
    return absl::AbortedError(why_);
  slots_[device - first_] = std::move(arrival);
  uint64_t generation = generation_;
  if (++arrived_ == local_)
    completeRound();
  else
    arrivedAll_.wait(lock,
                     [&] { return generation_ != generation || aborted_; });
  if (generation_ != generation)
    return published_;
  return absl::FailedPreconditionError(why_);
}

void IciFabric::finish(int64_t device) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (aborted_)
    return;
  slots_[device - first_] = Arrival{};
  if (++arrived_ == local_)
    completeRound();
}

void IciFabric::completeRound() {
  std::vector<Arrival> local = std::move(slots_);
  slots_ = std::vector<Arrival>(local_);
  arrived_ = 0;
  Round all;
  if (transport_) {
    absl::StatusOr<Round> gathered = transport_->allGather(std::move(local));
    if (!gathered.ok()) {
      aborted_ = true;
      why_ = std::string(gathered.status().message());
      arrivedAll_.notify_all();
      return;
    }
    all = std::move(*gathered);
  } else {
    all = std::move(local);
  }
  // The first device at a collective and the first that stopped.
  int64_t at = -1, stopped = -1;
  for (int64_t d = 0; d < count_ && !aborted_; ++d) {
    if (all[d].pc == Arrival::kStopped) {
      if (stopped < 0)
        stopped = d;
    } else if (at < 0) {
      at = d;
    } else if (all[d].pc != all[at].pc) {
      aborted_ = true;
      why_ = absl::StrCat("device ", at, " is at the collective of instruction ",
                          all[at].pc, ", device ", d, " at instruction ",
                          all[d].pc,
                          " (devices must reach the same collectives in "
                          "the same order)");
    }
  }
  if (!aborted_ && stopped >= 0) {
    // Every device stopped (the run is over: nobody waits), or one stopped
    // while others wait: those fail.
    aborted_ = true;
    why_ = at < 0 ? absl::StrCat("device ", stopped,
                                 " stopped before reaching this collective")
                  : absl::StrCat("device ", stopped,
                                 " stopped while device ", at,
                                 " waits at the collective of instruction ",
                                 all[at].pc);
  }
  if (!aborted_) {
    published_ = std::make_shared<const Round>(std::move(all));
    ++generation_;
  }
  arrivedAll_.notify_all();
}

std::vector<int64_t> groupOf(const exe::Collective &c, int64_t device) {
  for (const exe::ReplicaGroup &g : c.groups())
    for (uint32_t d : g.devices())
      if (d == device)
        return {g.devices().begin(), g.devices().end()};
  std::vector<int64_t> members;
  for (const exe::SourceTarget &p : c.pairs()) {
    members.push_back(p.source());
    members.push_back(p.target());
  }
  return members;
}

namespace {

template <typename C> C combine(exe::CollectiveReduce kind, C a, C b) {
  switch (kind) {
  case exe::COLLECTIVE_ADD:
    if constexpr (std::is_integral_v<C>)
      return static_cast<C>(static_cast<std::make_unsigned_t<C>>(a) +
                            static_cast<std::make_unsigned_t<C>>(b));
    else
      return a + b;
  case exe::COLLECTIVE_MUL:
    if constexpr (std::is_integral_v<C>)
      return static_cast<C>(static_cast<std::make_unsigned_t<C>>(a) *
                            static_cast<std::make_unsigned_t<C>>(b));
    else
      return a * b;
  case exe::COLLECTIVE_MAX:
    if constexpr (std::is_integral_v<C>)
      return a > b ? a : b;
    else
      return (std::isnan(a) || a > b) ? a : b; // NaN in either gives NaN
  case exe::COLLECTIVE_MIN:
    if constexpr (std::is_integral_v<C>)
      return a < b ? a : b;
    else
      return (std::isnan(a) || a < b) ? a : b;
  case exe::COLLECTIVE_AND:
    if constexpr (std::is_integral_v<C>)
      return static_cast<C>(a & b);
    break;
  case exe::COLLECTIVE_OR:
    if constexpr (std::is_integral_v<C>)
      return static_cast<C>(a | b);
    break;
  default:
    break;
  }
  return a;
}

// acc = acc op x over `count` elements of `dtype`, rounded to the type.
absl::Status fold(exe::DType dtype, exe::CollectiveReduce kind, uint8_t *acc,
                  const uint8_t *x, int64_t count) {
  auto each = [&](auto load, auto store) {
    for (int64_t i = 0; i < count; ++i)
      store(i, combine(kind, load(acc, i), load(x, i)));
  };
  auto typed = [&](auto zero) {
    using T = decltype(zero);
    each(
        [](const uint8_t *p, int64_t i) {
          T v;
          std::memcpy(&v, p + i * sizeof(T), sizeof(T));
          return v;
        },
        [&](int64_t i, T v) { std::memcpy(acc + i * sizeof(T), &v, sizeof(T)); });
  };
  bool isFloat = dtype == exe::F32 || dtype == exe::BF16 || dtype == exe::F64;
  if (isFloat &&
      (kind == exe::COLLECTIVE_AND || kind == exe::COLLECTIVE_OR))
    return absl::InvalidArgumentError("and/or of a floating-point type");
  switch (dtype) {
  case exe::F32:
    typed(float());
    return absl::OkStatus();
  case exe::F64:
    typed(double());
    return absl::OkStatus();
  case exe::BF16:
    each(
        [](const uint8_t *p, int64_t i) {
          uint16_t bits;
          std::memcpy(&bits, p + 2 * i, 2);
          return hostio::bf16BitsToF32(bits);
        },
        [&](int64_t i, float v) {
          uint16_t bits = hostio::f32ToBf16Bits(v);
          std::memcpy(acc + 2 * i, &bits, 2);
        });
    return absl::OkStatus();
  case exe::S32:
    typed(int32_t());
    return absl::OkStatus();
  case exe::U32:
    typed(uint32_t());
    return absl::OkStatus();
  case exe::S64:
    typed(int64_t());
    return absl::OkStatus();
  case exe::U64:
    typed(uint64_t());
    return absl::OkStatus();
  case exe::S8:
    typed(int8_t());
    return absl::OkStatus();
  case exe::U8:
  case exe::PRED:
    typed(uint8_t());
    return absl::OkStatus();
  case exe::S16:
    typed(int16_t());
    return absl::OkStatus();
  case exe::U16:
    typed(uint16_t());
    return absl::OkStatus();
  default:
    return absl::InvalidArgumentError(
        absl::StrCat("cannot reduce ", dtypeName(dtype)));
  }
}

std::vector<int64_t> dimsOf(const exe::Shape &shape) {
  return {shape.dims().begin(), shape.dims().end()};
}

} // namespace

absl::StatusOr<std::vector<uint8_t>>
collectiveResult(exe::Opcode opcode, const exe::Collective &c, int64_t device,
                 const IciFabric::Round &round) {
  int64_t elem = elementBytes(c.operand().dtype());
  std::vector<int64_t> in = dimsOf(c.operand()), out = dimsOf(c.result());
  int64_t outBytes = elementCount(c.result()) * elem;
  std::vector<uint8_t> result(outBytes, 0);
  std::vector<int64_t> group = groupOf(c, device);
  int64_t n = static_cast<int64_t>(group.size());
  int64_t k = 0;
  while (k < n && group[k] != device)
    ++k;
  auto operand = [&](int64_t d) { return round[d].operand.data(); };
  auto reduced = [&]() -> absl::StatusOr<std::vector<uint8_t>> {
    std::vector<uint8_t> acc = round[group[0]].operand;
    for (int64_t m = 1; m < n; ++m)
      if (absl::Status s = fold(c.operand().dtype(), c.reduce(), acc.data(),
                                operand(group[m]), elementCount(c.operand()));
          !s.ok())
        return s;
    return acc;
  };
  std::vector<int64_t> zeros(in.size(), 0);
  switch (opcode) {
  case exe::ALL_REDUCE:
    return reduced();
  case exe::COLLECTIVE_BROADCAST:
    return round[group[0]].operand;
  case exe::COLLECTIVE_PERMUTE:
    for (const exe::SourceTarget &p : c.pairs())
      if (p.target() == device)
        return round[p.source()].operand;
    return result;
  case exe::ALL_GATHER: {
    int64_t dim = c.dimension();
    for (int64_t m = 0; m < n; ++m) {
      std::vector<int64_t> at = zeros;
      at[dim] = m * in[dim];
      copyBlock(operand(group[m]), in, zeros, result.data(), out, at, in,
                elem);
    }
    return result;
  }
  case exe::REDUCE_SCATTER: {
    absl::StatusOr<std::vector<uint8_t>> all = reduced();
    if (!all.ok())
      return all.status();
    std::vector<int64_t> at = zeros;
    at[c.dimension()] = k * out[c.dimension()];
    copyBlock(all->data(), in, at, result.data(), out, zeros, out, elem);
    return result;
  }
  case exe::ALL_TO_ALL: {
    // Block k of every member, concatenated in group order.
    int64_t dim = c.dimension();
    std::vector<int64_t> block = in;
    block[dim] = in[dim] / n;
    for (int64_t m = 0; m < n; ++m) {
      std::vector<int64_t> from = zeros, to = zeros;
      from[dim] = k * block[dim];
      to[dim] = m * block[dim];
      copyBlock(operand(group[m]), in, from, result.data(), out, to, block,
                elem);
    }
    return result;
  }
  default:
    return absl::InvalidArgumentError(
        absl::StrCat(exe::Opcode_Name(opcode), " is not a collective"));
  }
}

absl::StatusOr<CollectiveProfile> runCollective(IciFabric *fabric,
                                                const Executable &e,
                                                const IciRequest &r) {
  const exe::Collective &c = *r.collective;
  const exe::Executable &proto = e.proto();
  int64_t devices = numDevices(proto);
  if (devices > 1 && (!fabric || fabric->numDevices() != devices))
    return absl::FailedPreconditionError(absl::StrCat(
        "the executable runs on ", devices,
        " devices; run them all (tpuc-run does)"));
  CollectiveProfile profile;
  profile.pc = r.pc;
  profile.opcode = exe::Opcode_Name(r.opcode);
  profile.hloOp = std::string(e.hloOp(r.pc));
  if (r.opcode == exe::DEVICE_ID) {
    int64_t p = numPartitions(proto);
    uint32_t id = static_cast<uint32_t>(
        c.id() == exe::REPLICA_ID ? r.device / p : r.device % p);
    if (r.functional)
      std::memcpy(r.result.data(), &id, 4);
    return profile;
  }
  const exe::Shape &in = c.operand(), &out = c.result();
  int64_t logical = elementCount(in) * elementBytes(in.dtype());
  std::vector<int64_t> group = groupOf(c, r.device);
  uint64_t start = r.arrival;
  IciFabric::Arrival mine;
  mine.pc = r.pc;
  mine.cycle = r.arrival;
  if (r.functional) {
    mine.operand.resize(logical);
    if (absl::Status s = deviceToHost(in, in.dtype(), r.operand,
                                      absl::MakeSpan(mine.operand));
        !s.ok())
      return s;
  }
  std::shared_ptr<const IciFabric::Round> round;
  int64_t self = r.device;
  if (fabric) {
    absl::StatusOr<std::shared_ptr<const IciFabric::Round>> met =
        fabric->exchange(r.device, std::move(mine));
    if (!met.ok())
      return met.status();
    round = *met;
  } else {
    // One device: groups of one.
    auto alone = std::make_shared<IciFabric::Round>(1);
    (*alone)[0] = std::move(mine);
    round = alone;
    self = 0;
  }
  for (int64_t d : group)
    if (d < static_cast<int64_t>(round->size()))
      start = std::max(start, (*round)[d].cycle);
  if (r.functional) {
    absl::StatusOr<std::vector<uint8_t>> result =
        collectiveResult(r.opcode, c, self, *round);
    if (!result.ok())
      return result.status();
    if (absl::Status s = hostToDevice(out, out.dtype(), *result, r.result);
        !s.ok())
      return s;
  }
  bool sends = false;
  if (r.opcode == exe::COLLECTIVE_BROADCAST)
    sends = group.size() > 1 && group.back() != r.device;
  for (const exe::SourceTarget &p : c.pairs())
    sends |= p.source() == r.device;
  IciLinks links = fabric ? fabric->links() : IciLinks{};
  IciCost cost = collectiveCost(
      r.opcode, static_cast<int64_t>(group.size()), logical, sends, links,
      r.clockHz, placeCollective(r.opcode, c, r.device, links.torus));
  profile.groupSize = static_cast<int64_t>(group.size());
  profile.bytes = logical;
  profile.iciBytes = cost.bytesSent;
  profile.waitCycles = start - r.arrival;
  profile.cycles = cost.cycles;
  return profile;
}

} // namespace tpuc::runtime
