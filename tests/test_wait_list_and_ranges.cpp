// A wait-list event of another context is a validation error naming the wait
// list, before anything is enqueued; range errors print the offset and count
// as given, never a sum that wrapped (issue 23, item 11).
#include <cstdint>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace optune;

namespace {

template <class F>
std::string error_of(Status want, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), want) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

}  // namespace

TEST(WaitList, EventOfAnotherContextIsRefusedBeforeEnqueueing) {
  const Queue& q = test::queue();
  if (q.device().caps().backend == Backend::CUDA)
    GTEST_SKIP() << "CUDA streams wait on events of any context (cuStreamWaitEvent)";
  Context other_ctx(q.device());
  Queue other(other_ctx);
  auto far = other_ctx.alloc<float>(4);
  const Event foreign = other.fill(far, 1.0f);
  foreign.wait();

  auto x = q.context().alloc<float>(4);
  auto y = q.context().alloc<float>(4);
  q.fill(x, 2.0f).wait();
  q.fill(y, 7.0f).wait();
  std::string msg = error_of(Status::InvalidArgument, [&] { unary(q, Unary::Neg, x, y, {}, {foreign}); });
  EXPECT_NE(msg.find("wait list: event 0 belongs to another context"), std::string::npos) << msg;
  msg = error_of(Status::InvalidArgument, [&] { q.fill(y, 3.0f, {Event(), foreign}); });
  EXPECT_NE(msg.find("wait list: event 1"), std::string::npos) << msg;
  q.finish();
  std::vector<float> got(4);
  q.read(y, std::span<float>(got)).wait();
  EXPECT_EQ(got, std::vector<float>(4, 7.0f)) << "nothing was enqueued";
}

TEST(RangeMessages, OffsetNearSizeMaxIsPrintedAsGiven) {
  auto b = test::context().alloc<float>(8);
  const std::string msg = error_of(Status::BufferTooSmall, [&] { b.view(SIZE_MAX, 2); });
  EXPECT_NE(msg.find("offset 18446744073709551615 + count 2 overflows"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("needs 1 "), std::string::npos) << msg;
  const std::string fits = error_of(Status::BufferTooSmall, [&] { b.view(5, 4); });
  EXPECT_NE(fits.find("offset 5 + count 4 needs 9 but holds 8"), std::string::npos) << fits;
}
