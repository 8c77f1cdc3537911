#include "runtime/loader/ProgramBuilder.h"

#include <cstring>

#include "runtime/loader/Layout.h"

namespace tpuc::runtime {
namespace {
constexpr uint64_t kBufferAlign = 4096;

void setArgs(exe::Instruction &in, const std::vector<Arg> &args) {
  for (const Arg &a : args) {
    exe::Operand *op = in.add_args();
    op->set_reg(a.reg);
    op->set_imm(a.imm);
  }
}
} // namespace

exe::Shape makeShape(exe::DType dtype, const std::vector<int64_t> &dims,
                     const std::vector<std::vector<int64_t>> &tiles) {
  exe::Shape s;
  s.set_dtype(dtype);
  for (int64_t d : dims)
    s.add_dims(d);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i)
    s.mutable_layout()->add_minor_to_major(i);
  for (const auto &tile : tiles) {
    exe::Tile *t = s.mutable_layout()->add_tiles();
    for (int64_t d : tile)
      t->add_dims(d);
  }
  return s;
}

ProgramBuilder::ProgramBuilder(exe::Target target) {
  proto_.set_format_version(exe::FORMAT_VERSION_CURRENT);
  *proto_.mutable_target() = std::move(target);
}

uint32_t ProgramBuilder::addBuffer(const std::string &name, uint64_t size) {
  exe::Buffer *b = proto_.add_buffers();
  b->set_name(name);
  b->set_offset(nextOffset_);
  b->set_size(size);
  nextOffset_ += (size + kBufferAlign - 1) / kBufferAlign * kBufferAlign;
  return proto_.buffers_size() - 1;
}

uint32_t ProgramBuilder::addParameter(const std::string &name,
                                      const exe::Shape &shape) {
  // An invalid shape gets a 1-byte buffer; build() then reports the shape.
  uint32_t buffer = addBuffer(name, paddedByteSize(shape).value_or(1));
  exe::Parameter *p = proto_.add_parameters();
  p->set_name(name);
  *p->mutable_shape() = shape;
  p->set_buffer(buffer);
  return proto_.parameters_size() - 1;
}

uint32_t ProgramBuilder::addResult(const std::string &name,
                                   const exe::Shape &shape,
                                   int aliasParameter) {
  uint32_t buffer =
      aliasParameter >= 0
          ? proto_.parameters(aliasParameter).buffer()
          : addBuffer(name, paddedByteSize(shape).value_or(1));
  exe::Result *r = proto_.add_results();
  r->set_name(name);
  *r->mutable_shape() = shape;
  r->set_buffer(buffer);
  if (aliasParameter >= 0) {
    exe::InputOutputAlias *a = proto_.add_aliases();
    a->set_result(proto_.results_size() - 1);
    a->set_parameter(aliasParameter);
  }
  return proto_.results_size() - 1;
}

uint32_t ProgramBuilder::addConstant(const std::string &name,
                                     const exe::Shape &shape,
                                     const std::string &rowMajorData) {
  uint32_t buffer = addBuffer(name, paddedByteSize(shape).value_or(1));
  exe::Constant *c = proto_.add_constants();
  c->set_name(name);
  *c->mutable_shape() = shape;
  c->set_buffer(buffer);
  c->set_data(rowMajorData);
  return buffer;
}

void ProgramBuilder::setDebugOp(const std::string &hloOp,
                                const std::string &opName) {
  if (hloOp.empty()) {
    debugOp_ = 0;
    return;
  }
  exe::DebugOp *d = proto_.add_debug_ops();
  d->set_hlo_op(hloOp);
  d->set_op_name(opName);
  debugOp_ = proto_.debug_ops_size();
}

exe::Instruction &ProgramBuilder::emit(exe::Opcode opcode) {
  exe::Instruction *in = proto_.add_instructions();
  in->set_opcode(opcode);
  in->set_debug_op(debugOp_);
  return *in;
}

exe::Instruction &ProgramBuilder::scalar(exe::Opcode opcode, uint32_t dst,
                                         std::vector<Arg> args) {
  exe::Instruction &in = emit(opcode);
  in.set_dst(dst);
  setArgs(in, args);
  return in;
}

exe::Instruction &ProgramBuilder::loopBegin(uint32_t counter, Arg tripCount) {
  return scalar(exe::LOOP_BEGIN, counter, {tripCount});
}

exe::Instruction &ProgramBuilder::loopEnd() { return emit(exe::LOOP_END); }

exe::Instruction &ProgramBuilder::dma(exe::MemorySpace srcSpace, Arg src,
                                      exe::MemorySpace dstSpace, Arg dst,
                                      Arg chunkBytes, Arg chunks,
                                      Arg srcStride, Arg dstStride, Arg sem) {
  exe::Instruction &in = scalar(
      exe::DMA, 0, {src, dst, chunkBytes, chunks, srcStride, dstStride, sem});
  in.set_src_space(srcSpace);
  in.set_dst_space(dstSpace);
  return in;
}

exe::Instruction &ProgramBuilder::semWait(Arg sem, Arg count) {
  return scalar(exe::SEM_WAIT, 0, {sem, count});
}

exe::Instruction &ProgramBuilder::semSignal(Arg sem, Arg count) {
  return scalar(exe::SEM_SIGNAL, 0, {sem, count});
}

exe::Instruction &ProgramBuilder::mxuLoadWeights(uint32_t mxu, Arg addr) {
  exe::Instruction &in = scalar(exe::MXU_LOAD_WEIGHTS, 0, {addr});
  in.set_mxu(mxu);
  return in;
}

exe::Instruction &ProgramBuilder::mxuMatmul(uint32_t mxu, Arg lhs, Arg dst,
                                            Arg rows, bool accumulate) {
  exe::Instruction &in = scalar(exe::MXU_MATMUL, 0, {lhs, dst, rows});
  in.set_mxu(mxu);
  in.set_accumulate(accumulate);
  return in;
}

exe::Instruction &ProgramBuilder::vld(uint32_t vd, Arg addr, exe::DType dtype,
                                      Arg sublaneStride) {
  return vector(exe::VLD, vd, {}, dtype, {addr, sublaneStride});
}

exe::Instruction &ProgramBuilder::vst(uint32_t vs, Arg addr, exe::DType dtype,
                                      Arg sublaneStride) {
  exe::Instruction &in = vector(exe::VST, 0, {vs}, dtype, {addr, sublaneStride});
  return in;
}

exe::Instruction &ProgramBuilder::vector(exe::Opcode opcode, uint32_t vd,
                                         std::vector<uint32_t> vsrc,
                                         exe::DType dtype,
                                         std::vector<Arg> args) {
  exe::Instruction &in = scalar(opcode, vd, std::move(args));
  for (uint32_t v : vsrc)
    in.add_vsrc(v);
  in.set_dtype(dtype);
  return in;
}

exe::Instruction &ProgramBuilder::vsplatF32(uint32_t vd, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return vector(exe::VSPLAT, vd, {}, exe::DTYPE_INVALID, {imm(bits)});
}

absl::StatusOr<Executable> ProgramBuilder::build() const {
  return validateExecutable(proto_);
}

} // namespace tpuc::runtime
