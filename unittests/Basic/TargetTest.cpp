//===- TargetTest.cpp - the target description ---------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Basic/Target.h"

#include "gtest/gtest.h"

using namespace bsgp;

namespace {

TEST(TargetTest, NamesRoundTrip) {
  for (const TargetInfo &I : TargetInfos) {
    EXPECT_EQ(getTargetName(I.Kind), I.Name);
    EXPECT_EQ(parseTargetName(I.Name), I.Kind);
  }
  EXPECT_EQ(parseTargetName("vulkan"), std::nullopt);
  EXPECT_EQ(parseTargetName(""), std::nullopt);
}

// The runtime's BSGPRT_TARGET_* values (bsgp/runtime.h) and the work
// groups docs/language.md documents per target.
TEST(TargetTest, MatchesRuntimeAndDocs) {
  EXPECT_EQ(getTargetInfo(Target::CPU).RuntimeId, 1);
  EXPECT_EQ(getTargetInfo(Target::CUDA).RuntimeId, 2);
  EXPECT_EQ(getTargetInfo(Target::SPIRV).RuntimeId, 3);
  EXPECT_EQ(getTargetInfo(Target::CPU).GroupSize, 1u);
  EXPECT_EQ(getTargetInfo(Target::CUDA).GroupSize, 256u);
  EXPECT_EQ(getTargetInfo(Target::SPIRV).GroupSize, 256u);
  EXPECT_EQ(getTargetInfo(Target::CUDA).SubgroupSize, 32u);
  EXPECT_EQ(getTargetInfo(Target::SPIRV).SubgroupSize, 0u);
}

TEST(TargetTest, ParseSet) {
  std::string Bad;
  std::optional<TargetSet> S = TargetSet::parse("spirv,cpu", &Bad);
  ASSERT_TRUE(S);
  EXPECT_TRUE(S->contains(Target::CPU));
  EXPECT_FALSE(S->contains(Target::CUDA));
  EXPECT_TRUE(S->contains(Target::SPIRV));
  EXPECT_EQ(S->size(), 2u);
  EXPECT_EQ(S->getSingle(), std::nullopt);
  // Printed in the order of Target, whatever the order given.
  EXPECT_EQ(S->str(), "cpu,spirv");

  EXPECT_FALSE(TargetSet::parse("cpu,gpu", &Bad));
  EXPECT_EQ(Bad, "gpu");
  EXPECT_FALSE(TargetSet::parse("", &Bad));
  EXPECT_EQ(Bad, "");
}

TEST(TargetTest, SingleTarget) {
  TargetSet S = {Target::CUDA};
  EXPECT_EQ(S.getSingle(), Target::CUDA);
  EXPECT_EQ(S.str(), "cuda");
  EXPECT_TRUE(TargetSet().empty());
  EXPECT_EQ(TargetSet::parse("cuda"), S);
}

} // namespace
