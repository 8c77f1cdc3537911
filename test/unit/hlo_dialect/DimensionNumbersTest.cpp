//===- DimensionNumbersTest.cpp - hlo dimension-number attributes ---------===//

#include "dialects/hlo/HloDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/AsmParser/AsmParser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tpuc::hlo;

namespace {

class DimensionNumbersTest : public ::testing::Test {
protected:
  DimensionNumbersTest() { context.loadDialect<HloDialect>(); }
  MLIRContext context;
};

TEST_F(DimensionNumbersTest, DimLabelsNhwc) {
  std::string error;
  auto attr = ConvDimensionNumbersAttr::parseDimLabels(
      &context, "b01f_01io->b01f", error);
  ASSERT_TRUE(succeeded(attr)) << error;
  EXPECT_EQ(attr->getInputBatch(), 0);
  EXPECT_EQ(attr->getInputFeature(), 3);
  EXPECT_EQ(attr->getInputSpatial(), ArrayRef<int64_t>({1, 2}));
  EXPECT_EQ(attr->getKernelInputFeature(), 2);
  EXPECT_EQ(attr->getKernelOutputFeature(), 3);
  EXPECT_EQ(attr->getKernelSpatial(), ArrayRef<int64_t>({0, 1}));
  EXPECT_EQ(attr->getOutputFeature(), 3);
  EXPECT_EQ(attr->getDimLabels(), "b01f_01io->b01f");
}

TEST_F(DimensionNumbersTest, DimLabelsRoundTripOtherOrders) {
  for (const char *labels :
       {"bf01_oi01->bf01", "f01b_i01o->01bf", "b012f_012io->b012f",
        "bf_io->bf", "0b1f_1o0i->f01b"}) {
    std::string error;
    auto attr =
        ConvDimensionNumbersAttr::parseDimLabels(&context, labels, error);
    ASSERT_TRUE(succeeded(attr)) << labels << ": " << error;
    EXPECT_EQ(attr->getDimLabels(), labels);
  }
}

TEST_F(DimensionNumbersTest, DimLabelsErrors) {
  struct Case {
    const char *labels;
    const char *message;
  } cases[] = {
      {"b01f", "dim_labels 'b01f' is not of the form "
               "<input>_<kernel>-><output>"},
      {"b01f_01io->b0f", "dim_labels 'b01f_01io->b0f' has different numbers "
                         "of spatial dimensions in its parts"},
      {"bb1f_01io->b01f", "label 'b' appears twice in 'bb1f'"},
      {"b01f_01ix->b01f", "unexpected label 'x' in '01ix' (expected 'i', "
                          "'o' and spatial digits below 2)"},
      {"b01f_02io->b01f", "unexpected label '2' in '02io' (expected 'i', "
                          "'o' and spatial digits below 2)"},
  };
  for (const Case &c : cases) {
    std::string error;
    EXPECT_TRUE(failed(
        ConvDimensionNumbersAttr::parseDimLabels(&context, c.labels, error)))
        << c.labels;
    EXPECT_EQ(error, c.message);
  }
}

TEST_F(DimensionNumbersTest, DotPrintsOnlyNonEmptyLists) {
  auto attr = DotDimensionNumbersAttr::get(&context, {}, {}, {1}, {0});
  std::string text;
  llvm::raw_string_ostream os(text);
  os << Attribute(attr);
  EXPECT_EQ(text,
            "#hlo.dot<lhs_contracting = [1], rhs_contracting = [0]>");
  EXPECT_EQ(parseAttribute(text, &context), Attribute(attr));
}

TEST_F(DimensionNumbersTest, GatherParsesAllFields) {
  Attribute parsed = parseAttribute(
      "#hlo.gather<offset_dims = [2], collapsed_slice_dims = [1], "
      "operand_batching_dims = [0], start_indices_batching_dims = [0], "
      "start_index_map = [1], index_vector_dim = 2>",
      &context);
  auto attr = dyn_cast_or_null<GatherDimensionNumbersAttr>(parsed);
  ASSERT_TRUE(attr);
  EXPECT_EQ(attr.getOffsetDims(), ArrayRef<int64_t>({2}));
  EXPECT_EQ(attr.getOperandBatchingDims(), ArrayRef<int64_t>({0}));
  EXPECT_EQ(attr.getStartIndexMap(), ArrayRef<int64_t>({1}));
  EXPECT_EQ(attr.getIndexVectorDim(), 2);
}

} // namespace
