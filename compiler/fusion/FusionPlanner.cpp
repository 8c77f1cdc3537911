//===- FusionPlanner.cpp - which ops fuse into one kernel -----------------===//
//
// XLA's instruction fusion, adapted: ops are visited consumers first; each
// visited op roots (or already belongs to) a group, and the group tries to
// take each operand's producer. A producer joins when the kind rules allow,
// the group's VMEM estimate stays within budget and either all its readers
// are in the group, or (multi-output) its result becomes one more output of
// the group without creating a cycle. Cheap producers whose operands are no
// larger than their result (broadcasts, iotas, small constants) are
// recomputed in every group that reads them instead. A second phase merges
// sibling groups that read the same large value, a third the groups of a
// layer norm or softmax into one row-resident kernel (rowResidentKernel).
//
//===----------------------------------------------------------------------===//

#include "compiler/fusion/FusionPlanner.h"

#include "compiler/fusion/DotSizes.h"
#include "compiler/fusion/FusedKernelSupport.h"
#include "compiler/fusion/HbmTraffic.h"

#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tpuc::fusion {
namespace {


int64_t numElements(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type ? type.getNumElements() : 0;
}

int64_t blockBytes(Value value) {
  int64_t n = numElements(value);
  if (n == 0)
    return 0;
  return std::min(n, kBlockElements) * (logicalBytes(value.getType()) / n);
}

std::string opName(Operation *op) {
  return op->getName().getStringRef().str();
}

enum class Role { None, Loop, Reduce, Contraction };

bool allTensors(Operation *op) {
  auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::all_of(op->getOperandTypes(), isTensor) &&
         llvm::all_of(op->getResultTypes(), isTensor) &&
         op->getNumResults() > 0;
}

/// A reshape or transpose that a kernel does with addressing alone: it
/// keeps the tiles (the two minor-most dims) or touches one block.
bool isFreeInLayout(Operation *op) {
  if (numElements(op->getOperand(0)) <= kBlockElements)
    return true;
  if (isBitcastReshape(op))
    return true;
  if (auto transpose = dyn_cast<hlo::TransposeOp>(op)) {
    ArrayRef<int64_t> perm = transpose.getPermutation();
    int64_t rank = perm.size();
    return rank < 2 || (perm[rank - 1] == rank - 1 && perm[rank - 2] == rank - 2);
  }
  return false;
}

Role roleOf(Operation *op) {
  if (!allTensors(op))
    return Role::None;
  // A tiny batched dot is a VPU kernel of its own, with no prologue or
  // epilogue (Dot.cpp).
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op); dot && isVpuBatchedDot(dot))
    return Role::None;
  if (isa<hlo::DotGeneralOp, hlo::ConvolutionOp>(op))
    return Role::Contraction;
  if (auto reduce = dyn_cast<hlo::ReduceOp>(op)) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(reduce.getBody(), captured);
    return captured.empty() ? Role::Reduce : Role::None;
  }
  if (op->getNumRegions() != 0)
    return Role::None;
  // Splats are broadcasts; other large constants stay in HBM like any
  // other operand.
  if (auto constant = dyn_cast<hlo::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    return (dense && dense.isSplat()) ||
                   numElements(op->getResult(0)) <= kVregElements
               ? Role::Loop
               : Role::None;
  }
  if (op->hasTrait<OpTrait::Elementwise>() ||
      isa<hlo::SelectOp, hlo::ClampOp, hlo::BroadcastInDimOp, hlo::IotaOp,
          hlo::SliceOp, hlo::ConcatenateOp, hlo::PadOp, hlo::ReverseOp>(op))
    return Role::Loop;
  if (isa<hlo::ReshapeOp, hlo::TransposeOp>(op) && isFreeInLayout(op))
    return Role::Loop;
  return Role::None;
}

/// Ops of many VPU instructions per element (tpuc-expand-math turns the
/// math functions into 30 to 300 per vreg: docs/math-functions.md).
bool isTranscendental(Operation *op) {
  return isa<hlo::ExpOp, hlo::Expm1Op, hlo::LogOp, hlo::Log1pOp,
             hlo::LogisticOp, hlo::TanhOp, hlo::SineOp, hlo::CosineOp,
             hlo::TanOp, hlo::AtanOp, hlo::Atan2Op, hlo::AsinOp, hlo::AcosOp,
             hlo::SinhOp, hlo::CoshOp, hlo::AsinhOp, hlo::AcoshOp,
             hlo::AtanhOp, hlo::ErfOp, hlo::CbrtOp, hlo::PowerOp, hlo::SqrtOp,
             hlo::RsqrtOp, hlo::DivideOp, hlo::RemainderOp>(op);
}

/// Ops that fit a contraction's operand fetch (XLA TPU's convolution
/// fusion): type conversion and data movement without arithmetic.
bool isPrologueOp(Operation *op) {
  return isa<hlo::ConvertOp, hlo::BroadcastInDimOp, hlo::ReshapeOp,
             hlo::TransposeOp>(op);
}

/// Whether `op` converts to a narrower element type what an elementwise op
/// computes (not a parameter, a constant, data movement or a reduction's
/// result): its producer's fusion should write the narrow array.
bool narrowsComputedValue(Operation *op) {
  if (!isa<hlo::ConvertOp>(op))
    return false;
  Value in = op->getOperand(0);
  Operation *def = in.getDefiningOp();
  return def && roleOf(def) == Role::Loop &&
         (def->hasTrait<OpTrait::Elementwise>() ||
          isa<hlo::SelectOp, hlo::ClampOp>(def)) &&
         getElementTypeOrSelf(in.getType()).getIntOrFloatBitWidth() >
             getElementTypeOrSelf(op->getResult(0).getType())
                 .getIntOrFloatBitWidth();
}

/// Whether `user` reads elements of `value` more than once.
bool reusesElements(Operation *user, Value value) {
  if (isa<hlo::DotGeneralOp, hlo::ConvolutionOp>(user))
    return true;
  if (isa<hlo::BroadcastInDimOp>(user))
    return numElements(user->getResult(0)) > numElements(value);
  return false;
}

/// The contraction whose epilogue `op` would end: `op` fits a contraction
/// epilogue and reads, at its own size, the result of a dot or convolution
/// that nothing else reads, directly or through such ops that only the
/// next one reads (a convert, then a relu mask). Null otherwise.
Operation *epilogueContractionOf(Operation *op) {
  if (!fitsContractionEpilogue(op))
    return nullptr;
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!def || def->getBlock() != op->getBlock() || !operand.hasOneUse() ||
        numElements(operand) != numElements(op->getResult(0)))
      continue;
    if (isa<hlo::DotGeneralOp, hlo::ConvolutionOp>(def))
      return def;
    if (Operation *contraction = epilogueContractionOf(def))
      return contraction;
  }
  return nullptr;
}

struct Group {
  llvm::SetVector<Operation *> owned, clones;
  SmallVector<Operation *> heroes; // reductions or one contraction
  bool alive = true;

  Role heroRole() const {
    return heroes.empty() ? Role::Loop : roleOf(heroes.front());
  }
  bool contains(Operation *op) const {
    return owned.contains(op) || clones.contains(op);
  }
};

/// A node of the graph where each group is contracted to one node: a group
/// (group >= 0) or a single op.
struct Node {
  int group = -1;
  Operation *op = nullptr;
  bool operator==(const Node &o) const {
    return group == o.group && op == o.op;
  }
};

class Planner {
public:
  Planner(Block &block, const FusionOptions &options)
      : block(block), options(options) {}
  FusionPlan run();

private:
  void visit(Operation *op);
  bool tryFuse(Operation *producer, int g, Operation *user);
  void trySiblings();
  bool tryMerge(int a, int b);
  /// Moves group b's ops, clones and heroes into group a.
  void absorb(int a, int b);
  /// Whether `op` (a member of `group`, or its contraction) computes an
  /// operand of `group`'s contraction: the contraction itself, or an op
  /// whose value reaches it through members (a prologue), not an epilogue.
  bool feedsContraction(const Group &group, Operation *op) const;
  /// The contraction, other than `group`'s, whose epilogue the loop op
  /// `producer` (read by the add `user`) would end instead: the other
  /// branch of a residual add of two contractions (resnet's projection
  /// shortcut and its batch norm). That contraction's kernel then stores
  /// the branch's value (bf16 in mixed_bfloat16, not its f32 product) and
  /// `group`'s epilogue does not apply the branch's ops. Null otherwise.
  Operation *endsOtherEpilogue(const Group &group, Operation *producer,
                               Operation *user) const;
  /// Merges a loop group with the reduction and statistics groups it reads
  /// (and the other loop groups of its size reading those) into one
  /// row-resident kernel when rowResidentKernel accepts the merged ops.
  void mergeRowKernels();

  void note(Operation *op, const std::string &reason) {
    reasons.try_emplace(op, reason);
  }
  /// The nodes that read `value` from HBM (not groups holding its producer).
  SmallVector<Node> readersOf(Value value);
  SmallVector<Node> successors(const Node &node);
  /// Whether a path leads from any of `from` to group `target`.
  bool reaches(ArrayRef<Node> from, int target);
  int64_t iterationElements(const Group &group) const;
  int64_t vmemEstimate(ArrayRef<Operation *> members) const;
  int64_t vmemWith(const Group &group, ArrayRef<Operation *> extra) const;
  const llvm::SmallSetVector<Value, 4> &recomputeReads(Operation *op);
  bool isWorthRecomputing(Operation *op);

  Block &block;
  const FusionOptions &options;
  llvm::DenseMap<Operation *, int> position;
  llvm::DenseSet<Operation *> visited;
  std::vector<Group> groups;
  llvm::DenseMap<Operation *, int> owner;
  llvm::DenseMap<Operation *, SmallVector<int>> cloneGroups;
  llvm::DenseMap<Operation *, std::string> reasons;
  llvm::DenseMap<Operation *, llvm::SmallSetVector<Value, 4>> reads;
};

int64_t totalBytes(ValueRange values) {
  int64_t bytes = 0;
  for (Value value : values)
    bytes += logicalBytes(value.getType());
  return bytes;
}

/// A cheap elementwise-like producer: a candidate for recomputation.
bool isCheap(Operation *op) {
  return roleOf(op) == Role::Loop && !isExpensive(op) &&
         op->getNumResults() == 1;
}

/// A producer recomputed rather than stored: cheap, and its recompute reads
/// no more bytes than it writes (or than one block). Recomputing it pulls
/// these producers (broadcasts, iotas, a one-hot's compare) in with it.
bool isCloneable(Operation *op) {
  return isCheap(op) &&
         totalBytes(op->getOperands()) <=
             std::max(logicalBytes(op->getResult(0).getType()),
                      kBlockElements * int64_t(sizeof(float)));
}

/// The HBM values a recompute of `op` reads: its operands, looking through
/// the cloneable producers it recomputes with it (memoized; the block is a
/// DAG, so operands come first).
const llvm::SmallSetVector<Value, 4> &Planner::recomputeReads(Operation *op) {
  if (auto it = reads.find(op); it != reads.end())
    return it->second;
  llvm::SmallSetVector<Value, 4> set;
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def && def->getBlock() == &block && isCloneable(def)) {
      const llvm::SmallSetVector<Value, 4> &inner = recomputeReads(def);
      set.insert(inner.begin(), inner.end());
    } else {
      set.insert(operand);
    }
  }
  return reads[op] = std::move(set);
}

/// Whether recomputing a cheap elementwise producer in a second fusion beats
/// storing it (XLA duplicates such producers): a stored value is written once
/// and read back, so a recompute that reads at most twice its bytes moves no
/// more HBM traffic, and the value (often a padded intermediate such as
/// `logits - max` of a softmax) need not exist at all.
bool Planner::isWorthRecomputing(Operation *op) {
  if (isCloneable(op))
    return true;
  if (!isCheap(op) || !op->hasTrait<OpTrait::Elementwise>())
    return false;
  // Only when no reader needs it stored anyway: every reader is an
  // elementwise-like op or a reduction that can recompute it.
  for (Operation *user : op->getUsers()) {
    Operation *reader = block.findAncestorOpInBlock(*user);
    if (!reader || reader != user ||
        (roleOf(reader) != Role::Loop && roleOf(reader) != Role::Reduce))
      return false;
  }
  // What the recompute reads must exist anyway: arguments, values of ops
  // that are stored whatever the plan (reductions, ops no kernel fuses),
  // or values small next to the result (a broadcast source). Otherwise
  // storing an operand replaces storing the result. A contraction's result
  // is not stored when this op becomes its epilogue (a bias add).
  // And it must combine a reduction's result with what it reduced (a
  // softmax's `x - max`, a log-softmax: the values that would otherwise
  // split the input fusions around the reduction), or expand what it reads
  // at least twofold (a one-hot's compare of broadcast labels with an
  // iota). Recomputing a plain map of one array only moves where that
  // array is read, which can lengthen its life (an MLP step's peak grew
  // 14% with it).
  int64_t resultBytes = logicalBytes(op->getResult(0).getType());
  bool readsReduction = false;
  for (Value v : recomputeReads(op)) {
    Operation *def = v.getDefiningOp();
    bool inBlock = def && def->getBlock() == &block;
    readsReduction |= inBlock && roleOf(def) == Role::Reduce;
    if (inBlock && roleOf(def) != Role::Reduce && roleOf(def) != Role::None &&
        4 * logicalBytes(v.getType()) > resultBytes)
      return false;
  }
  int64_t reads = totalBytes(recomputeReads(op).getArrayRef());
  if (!readsReduction && 2 * reads > resultBytes)
    return false;
  return reads <= 2 * resultBytes;
}

SmallVector<Node> Planner::readersOf(Value value) {
  Operation *producer = value.getDefiningOp();
  SmallVector<Node> nodes;
  auto add = [&](Node node) {
    if (node.group >= 0 && producer && groups[node.group].contains(producer))
      return;
    if (!llvm::is_contained(nodes, node))
      nodes.push_back(node);
  };
  for (OpOperand &use : value.getUses()) {
    Operation *user = block.findAncestorOpInBlock(*use.getOwner());
    if (!user)
      continue;
    if (auto it = owner.find(user); it != owner.end())
      add({it->second, nullptr});
    else if (!visited.contains(user) || roleOf(user) == Role::None)
      add({-1, user});
    // A visited, unowned fusible op survives only as clones.
    for (int g : cloneGroups.lookup(user))
      add({g, nullptr});
  }
  return nodes;
}

SmallVector<Node> Planner::successors(const Node &node) {
  SmallVector<Node> next;
  auto addAll = [&](Operation *op) {
    for (Value result : op->getResults())
      for (const Node &n : readersOf(result))
        if (!(n == node) && !llvm::is_contained(next, n))
          next.push_back(n);
  };
  if (node.group >= 0) {
    for (Operation *op : groups[node.group].owned)
      addAll(op);
  } else {
    addAll(node.op);
  }
  return next;
}

bool Planner::reaches(ArrayRef<Node> from, int target) {
  SmallVector<Node> stack(from.begin(), from.end());
  llvm::DenseSet<int> seenGroups;
  llvm::DenseSet<Operation *> seenOps;
  while (!stack.empty()) {
    Node node = stack.pop_back_val();
    if (node.group == target)
      return true;
    bool fresh = node.group >= 0 ? seenGroups.insert(node.group).second
                                 : seenOps.insert(node.op).second;
    if (!fresh)
      continue;
    for (const Node &n : successors(node))
      stack.push_back(n);
  }
  return false;
}

int64_t Planner::iterationElements(const Group &group) const {
  if (!group.heroes.empty()) {
    Operation *hero = group.heroes.front();
    return isa<hlo::ReduceOp>(hero) ? numElements(hero->getOperand(0))
                                    : numElements(hero->getResult(0));
  }
  int64_t n = 0;
  for (Operation *op : group.owned)
    n = std::max(n, numElements(op->getResult(0)));
  return n;
}

int64_t Planner::vmemEstimate(ArrayRef<Operation *> members) const {
  llvm::SmallPtrSet<Operation *, 16> set(members.begin(), members.end());
  llvm::SetVector<Value> external;
  int64_t bytes = 0;
  for (Operation *op : members) {
    for (Value operand : op->getOperands())
      if (!set.contains(operand.getDefiningOp()))
        external.insert(operand);
    for (Value result : op->getResults()) {
      bytes += blockBytes(result);
      bool output = llvm::any_of(result.getUsers(), [&](Operation *user) {
        return !set.contains(block.findAncestorOpInBlock(*user));
      });
      if (output) // double-buffered on its way out
        bytes += blockBytes(result);
    }
  }
  for (Value value : external)
    bytes += 2 * blockBytes(value);
  return bytes;
}

int64_t Planner::vmemWith(const Group &group,
                          ArrayRef<Operation *> extra) const {
  SmallVector<Operation *> members(group.owned.begin(), group.owned.end());
  members.append(group.clones.begin(), group.clones.end());
  members.append(extra.begin(), extra.end());
  return vmemEstimate(members);
}

bool Planner::feedsContraction(const Group &group, Operation *op) const {
  SmallVector<Operation *> work{op};
  llvm::SmallPtrSet<Operation *, 8> seen{op};
  while (!work.empty()) {
    Operation *next = work.pop_back_val();
    if (isa<hlo::DotGeneralOp, hlo::ConvolutionOp>(next))
      return true;
    for (Operation *user : next->getUsers())
      if (group.contains(user) && seen.insert(user).second)
        work.push_back(user);
  }
  return false;
}

Operation *Planner::endsOtherEpilogue(const Group &group, Operation *producer,
                                      Operation *user) const {
  if (!isa<hlo::AddOp>(user) || !producer->hasOneUse())
    return nullptr;
  Operation *other = epilogueContractionOf(producer);
  if (!other || owner.count(other))
    return nullptr;
  if (group.heroRole() == Role::Contraction)
    return other == group.heroes.front() ? nullptr : other;
  // No contraction yet: of the user's operands that only it reads and that
  // lead to a contraction, the first one's branch stays, a later one's
  // ends its own contraction's epilogue.
  for (Value operand : user->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (def == producer)
      return nullptr;
    if (!def || def->getBlock() != &block || !operand.hasOneUse())
      continue;
    Operation *first = isa<hlo::DotGeneralOp, hlo::ConvolutionOp>(def)
                           ? def
                           : epilogueContractionOf(def);
    if (first && first != other)
      return other;
  }
  return nullptr;
}

bool Planner::tryFuse(Operation *producer, int g, Operation *user) {
  Group &group = groups[g];
  if (group.contains(producer))
    return true;
  Role role = roleOf(producer);
  if (role == Role::None) {
    note(producer, opName(producer) + " cannot be fused");
    return false;
  }
  Role hero = group.heroRole();
  if (role == Role::Reduce) {
    note(producer, "a reduction only roots its own input fusion");
    return false;
  }
  if (role == Role::Contraction) {
    if (hero != Role::Loop) {
      note(producer, "its consumer's fusion already has a " +
                         opName(group.heroes.front()));
      return false;
    }
    int64_t n = numElements(producer->getResult(0));
    for (Operation *op : llvm::concat<Operation *const>(group.owned,
                                                        group.clones)) {
      // Ops of the output's size run on its tiles; smaller side inputs
      // (a bias reshaped, a scale broadcast) are computed per tile.
      if (numElements(op->getResult(0)) == n && !fitsContractionEpilogue(op)) {
        note(producer, "its consumer " + opName(op) +
                           " does not fit a contraction epilogue");
        return false;
      }
    }
  }
  if (role == Role::Loop && hero == Role::Contraction) {
    bool prologue = feedsContraction(group, user);
    if (prologue && narrowsComputedValue(producer)) {
      note(producer, "a narrowing convert of a computed value stays with its "
                     "producer (the contraction would read the wider array)");
      return false;
    }
    bool fits = prologue ? isPrologueOp(producer)
                         : fitsContractionEpilogue(producer) ||
                               numElements(producer->getResult(0)) !=
                                   numElements(group.heroes.front()->getResult(0));
    if (!fits) {
      note(producer, prologue ? "only converts, broadcasts, reshapes and "
                                "transposes fuse into a contraction operand"
                              : opName(producer) +
                                    " does not fit a contraction epilogue");
      return false;
    }
  }
  if (role == Role::Loop && hero != Role::Reduce &&
      !(hero == Role::Contraction && feedsContraction(group, user))) {
    if (Operation *other = endsOtherEpilogue(group, producer, user)) {
      note(producer, "it ends " + opName(other) + "'s epilogue");
      return false;
    }
  }
  if (isTranscendental(producer) &&
      numElements(producer->getResult(0)) > kVregElements &&
      reusesElements(user, producer->getResult(0))) {
    note(producer, "fusing would recompute " + opName(producer) +
                       " for every element its consumer expands it to");
    return false;
  }
  int64_t budget = options.vmemBudgetBytes;
  SmallVector<Node> outside;
  for (Value result : producer->getResults())
    for (const Node &n : readersOf(result))
      if (n.group != g && !llvm::is_contained(outside, n))
        outside.push_back(n);
  if ((!outside.empty() || owner.count(producer)) &&
      isWorthRecomputing(producer)) {
    // Recompute it here, and the cheap producers it reads with it.
    if (vmemWith(group, producer) > budget) {
      note(producer, "the fusion would exceed the VMEM budget");
      return false;
    }
    group.clones.insert(producer);
    cloneGroups[producer].push_back(g);
    llvm::SetVector<Value> operands(producer->operand_begin(),
                                    producer->operand_end());
    for (Value operand : operands) {
      Operation *next = operand.getDefiningOp();
      if (next && next->getBlock() == &block && isWorthRecomputing(next))
        tryFuse(next, g, producer);
    }
    return true;
  }
  if (owner.count(producer)) {
    note(producer, "it is fused into another consumer, and " +
                       opName(producer) + " is not duplicated");
    return false;
  }
  if (!outside.empty()) {
    if (!options.multiOutput) {
      note(producer, "it has consumers outside the fusion");
      return false;
    }
    if (role == Role::Contraction) {
      note(producer, opName(producer) +
                         " has consumers outside its epilogue");
      return false;
    }
    // A value stored for other readers that a contraction's epilogue can
    // compute (a relu gradient summed for the bias gradient and kept for
    // the weight gradient) is better stored by the contraction's kernel:
    // the reduction then reads it instead of the contraction's result and
    // the epilogue's other inputs, and the contraction's own result is
    // never stored (one array of its size less written and read).
    Operation *contraction = epilogueContractionOf(producer);
    if (hero == Role::Reduce && contraction && !owner.count(contraction)) {
      note(producer, "it is stored anyway, and " + opName(contraction) +
                         "'s epilogue computes it");
      return false;
    }
    if (numElements(producer->getResult(0)) != iterationElements(group)) {
      note(producer, "its other consumers need it, and a multi-output "
                     "fusion's outputs must have one shape");
      return false;
    }
    if (reaches(outside, g)) {
      note(producer, "fusing it as an extra output would create a cycle");
      return false;
    }
  }
  if (vmemWith(group, producer) > budget) {
    note(producer, "the fusion would exceed the VMEM budget");
    return false;
  }
  group.owned.insert(producer);
  owner[producer] = g;
  if (role == Role::Contraction)
    group.heroes.push_back(producer);
  return true;
}

void Planner::visit(Operation *op) {
  visited.insert(op);
  Role role = roleOf(op);
  if (role == Role::None)
    return;
  if (!owner.count(op)) {
    bool survives = false;
    for (Value result : op->getResults())
      survives |= !readersOf(result).empty();
    if (!survives && !cloneGroups.lookup(op).empty())
      return; // every reader recomputes it
    owner[op] = groups.size();
    groups.emplace_back();
    groups.back().owned.insert(op);
    if (role != Role::Loop)
      groups.back().heroes.push_back(op);
  }
  int g = owner[op];
  llvm::SetVector<Value> operands(op->operand_begin(), op->operand_end());
  for (Value operand : operands) {
    Operation *producer = operand.getDefiningOp();
    if (producer && producer->getBlock() == &block)
      tryFuse(producer, g, op);
  }
}

bool Planner::tryMerge(int a, int b) {
  Group &x = groups[a], &y = groups[b];
  if (a == b || !x.alive || !y.alive ||
      x.heroRole() == Role::Contraction || y.heroRole() == Role::Contraction ||
      iterationElements(x) != iterationElements(y))
    return false;
  // Merging is legal unless a path between the two leaves through another
  // node (a direct producer/consumer edge becomes internal).
  auto throughOthers = [&](int from, int to) {
    SmallVector<Node> next;
    for (const Node &n : successors(Node{from, nullptr}))
      if (n.group != to)
        next.push_back(n);
    return reaches(next, to);
  };
  if (throughOthers(a, b) || throughOthers(b, a))
    return false;
  // A reduction's result is complete only at the end of its kernel.
  auto feeds = [&](int from, int to) {
    return llvm::is_contained(successors(Node{from, nullptr}),
                              Node{to, nullptr});
  };
  if ((x.heroRole() == Role::Reduce && feeds(a, b)) ||
      (y.heroRole() == Role::Reduce && feeds(b, a)))
    return false;
  SmallVector<Operation *> extra(y.owned.begin(), y.owned.end());
  extra.append(y.clones.begin(), y.clones.end());
  if (vmemWith(x, extra) > options.vmemBudgetBytes)
    return false;
  absorb(a, b);
  return true;
}

void Planner::absorb(int a, int b) {
  Group &x = groups[a], &y = groups[b];
  for (Operation *op : y.owned) {
    x.owned.insert(op);
    owner[op] = a;
    x.clones.remove(op);
  }
  for (Operation *op : y.clones) {
    if (!x.owned.contains(op))
      x.clones.insert(op);
    SmallVector<int> &in = cloneGroups[op];
    llvm::erase(in, b);
    if (!llvm::is_contained(in, a))
      in.push_back(a);
  }
  x.heroes.append(y.heroes.begin(), y.heroes.end());
  y = Group();
  y.alive = false;
}

void Planner::trySiblings() {
  SmallVector<Value> shared;
  for (BlockArgument arg : block.getArguments())
    shared.push_back(arg);
  for (Operation &op : block)
    for (Value result : op.getResults())
      shared.push_back(result);
  llvm::erase_if(shared, [](Value v) {
    return numElements(v) <= kBlockElements;
  });
  llvm::stable_sort(shared, [](Value x, Value y) {
    return logicalBytes(x.getType()) > logicalBytes(y.getType());
  });
  for (Value value : shared) {
    SmallVector<int> readers;
    for (const Node &n : readersOf(value))
      if (n.group >= 0)
        readers.push_back(n.group);
    llvm::sort(readers);
    for (size_t i = 0; i < readers.size(); ++i)
      for (size_t j = i + 1; j < readers.size(); ++j)
        tryMerge(readers[i], readers[j]);
  }
}

void Planner::mergeRowKernels() {
  for (size_t l = 0; l < groups.size(); ++l) {
    if (!groups[l].alive || !groups[l].heroes.empty())
      continue;
    int64_t rowElements = iterationElements(groups[l]);
    // The reduce groups and the smaller loop groups (statistics) it reads,
    // transitively, and the other loop groups of its size that read those
    // (RMS norm's second result).
    llvm::SetVector<int> set;
    set.insert(l);
    bool anyReduce = false;
    auto isProducer = [&](const Group &p) {
      return (p.heroRole() == Role::Reduce &&
              iterationElements(p) == rowElements) ||
             (p.heroes.empty() && iterationElements(p) < rowElements);
    };
    for (size_t i = 0; i < set.size(); ++i) {
      const Group &g = groups[set[i]];
      for (Operation *op : llvm::concat<Operation *const>(g.owned, g.clones))
        for (Value operand : op->getOperands()) {
          auto it = owner.find(operand.getDefiningOp());
          if (it == owner.end() || set.contains(it->second) ||
              !groups[it->second].alive || !isProducer(groups[it->second]))
            continue;
          anyReduce |= groups[it->second].heroRole() == Role::Reduce;
          set.insert(it->second);
        }
      if (set[i] == static_cast<int>(l) || !isProducer(g))
        continue;
      for (Operation *op : g.owned)
        for (Value v : op->getResults())
          for (const Node &n : readersOf(v))
            if (n.group >= 0 && !set.contains(n.group) &&
                groups[n.group].alive && groups[n.group].heroes.empty() &&
                iterationElements(groups[n.group]) == rowElements)
              set.insert(n.group);
    }
    if (!anyReduce)
      continue;
    // Nothing outside reads what the merged producers compute.
    bool closed = llvm::all_of(set, [&](int g) {
      if (!isProducer(groups[g]))
        return true;
      return llvm::all_of(groups[g].owned, [&](Operation *op) {
        return llvm::all_of(op->getResults(), [&](Value v) {
          return llvm::all_of(readersOf(v), [&](const Node &n) {
            return n.group >= 0 && set.contains(n.group);
          });
        });
      });
    });
    if (!closed)
      continue;
    // No path leaves the merged groups and comes back.
    SmallVector<Node> outside;
    for (int g : set)
      for (Operation *op : groups[g].owned)
        for (Value v : op->getResults())
          for (const Node &n : readersOf(v))
            if (!(n.group >= 0 && set.contains(n.group)) &&
                !llvm::is_contained(outside, n))
              outside.push_back(n);
    if (llvm::any_of(set, [&](int g) { return reaches(outside, g); }))
      continue;
    llvm::SetVector<Operation *> members;
    for (int g : set)
      members.insert(groups[g].owned.begin(), groups[g].owned.end());
    for (int g : set)
      members.insert(groups[g].clones.begin(), groups[g].clones.end());
    SmallVector<Operation *> sorted(members.begin(), members.end());
    llvm::sort(sorted, [&](Operation *x, Operation *y) {
      return position[x] < position[y];
    });
    // Clones return nothing: their originals stay for other readers.
    auto readOutside = [&](Value v) {
      auto it = owner.find(v.getDefiningOp());
      if (it == owner.end() || !set.contains(it->second))
        return false;
      return llvm::any_of(v.getUsers(), [&](Operation *user) {
        return !members.contains(block.findAncestorOpInBlock(*user));
      });
    };
    std::optional<RowKernelShape> shape = rowResidentKernel(sorted, readOutside);
    if (!shape || shape->vmemBytes > options.vmemBudgetBytes)
      continue;
    for (int g : set)
      if (g != static_cast<int>(l))
        absorb(l, g);
  }
}

FusionPlan Planner::run() {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator()) {
    position[&op] = ops.size();
    ops.push_back(&op);
  }
  for (Operation *op : llvm::reverse(ops))
    visit(op);
  if (options.multiOutput)
    trySiblings();
  mergeRowKernels();

  FusionPlan plan;
  auto byPosition = [&](Operation *x, Operation *y) {
    return position[x] < position[y];
  };
  for (Group &group : groups) {
    if (!group.alive || group.owned.size() + group.clones.size() < 2)
      continue;
    FusionGroup fused;
    fused.ops.assign(group.owned.begin(), group.owned.end());
    fused.clones.assign(group.clones.begin(), group.clones.end());
    llvm::sort(fused.ops, byPosition);
    llvm::sort(fused.clones, byPosition);
    Role hero = group.heroRole();
    fused.kind = hero == Role::Contraction ? hlo::FusionKind::output
                 : hero == Role::Reduce    ? hlo::FusionKind::input
                                           : hlo::FusionKind::loop;
    plan.groups.push_back(std::move(fused));
  }
  auto first = [&](const FusionGroup &g) {
    int p = position[g.ops.front()];
    if (!g.clones.empty())
      p = std::min(p, position[g.clones.front()]);
    return p;
  };
  llvm::stable_sort(plan.groups,
                    [&](const FusionGroup &x, const FusionGroup &y) {
                      return first(x) < first(y);
                    });
  plan.reasons = std::move(reasons);
  return plan;
}

} // namespace

bool isFusible(Operation *op) { return roleOf(op) != Role::None; }

bool isExpensive(Operation *op) {
  Role role = roleOf(op);
  if (role != Role::Loop)
    return true;
  return isTranscendental(op) &&
         numElements(op->getResult(0)) > kVregElements;
}

FusionPlan planFusion(Block &block, const FusionOptions &options) {
  return Planner(block, options).run();
}

} // namespace tpuc::fusion
