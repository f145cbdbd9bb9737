// The per-queue scratch of the operators' passes (runtime/scratch.hpp): it
// grows to what a lease needs, is trimmed after a run of much smaller leases,
// and Queue::release_scratch() gives it back; a GEMM that needs padding still
// computes right after a release.
#include "runtime/scratch.hpp"
#include "support/gemm_fixture.hpp"

using namespace optune;

TEST(Scratch, GrowsTrimsAndReleases) {
  const Queue q(test::context());
  EXPECT_EQ(detail::scratch_bytes(q), 0u);
  { auto l = detail::lease_scratch(q, {1 << 20, 0, 4096}); EXPECT_TRUE(l.slot[0] && !l.slot[1] && l.slot[2]); }
  const std::size_t grown = detail::scratch_bytes(q);
  EXPECT_GE(grown, (1u << 20) + 4096);
  // Smaller leases reuse the slot...
  for (int i = 0; i + 1 < detail::kTrimAfter; ++i) detail::lease_scratch(q, {1024, 0, 0});
  EXPECT_EQ(detail::scratch_bytes(q), grown);
  // ...until kTrimAfter of them in a row: the large slot is given back.
  detail::lease_scratch(q, {1024, 0, 0});
  EXPECT_LT(detail::scratch_bytes(q), grown - (1u << 19));
  q.release_scratch();
  EXPECT_EQ(detail::scratch_bytes(q), 0u);
}

TEST(Scratch, GemmRunsAfterARelease) {
  // 37 x 29 x 45 with small tiles: A, B and C all go through scratch.
  const detail::Params tiles{{"MWG", 32}, {"NWG", 16}, {"KWG", 8},  {"MDIMC", 8}, {"NDIMC", 4},
                             {"MDIMA", 8}, {"NDIMB", 4}, {"KWI", 2}, {"VWM", 2},  {"VWN", 2},
                             {"STRM", 1},  {"STRN", 0},  {"SA", 1},  {"SB", 1},  {"DB", 1}};
  const detail::GemmForce f = test::force("tiled", &tiles);
  ref::GemmCase c;
  c.m = 37, c.n = 29, c.k = 45, c.beta = 0.5;
  EXPECT_TRUE(ref::check_gemm(c, &f));
  EXPECT_GT(detail::scratch_bytes(test::queue()), 0u);
  test::queue().release_scratch();
  EXPECT_EQ(detail::scratch_bytes(test::queue()), 0u);
  EXPECT_TRUE(ref::check_gemm(c, &f));
}

// The ticket slot (kTicketSlot) reads zero when allocated, grown or
// allocated again after a trim, whatever the memory held before; the other
// slots are not filled.
TEST(Scratch, TicketSlotStartsAtZero) {
  const Queue q(test::context());
  std::array<std::size_t, detail::kScratchSlots> bytes{};
  for (std::size_t words : {16u, 100000u, 7u}) {
    bytes[detail::kTicketSlot] = words * 4;
    std::shared_ptr<detail::MemImpl> mem = detail::lease_scratch(q, bytes).slot[detail::kTicketSlot];
    ASSERT_TRUE(mem);
    const Buffer<std::uint32_t> t(mem, 0, words);
    for (std::uint32_t w : q.download(t)) ASSERT_EQ(w, 0u) << words;
    q.fill(t, 0xdeadbeefu).wait();  // dirty it: the next, larger lease allocates again
    if (words == 100000u) {
      // The same size again keeps the (dirty) memory: its kernels' job to leave it zero.
      const Buffer<std::uint32_t> again(detail::lease_scratch(q, bytes).slot[detail::kTicketSlot], 0, words);
      EXPECT_EQ(q.download(again)[0], 0xdeadbeefu);
      q.release_scratch();
    }
  }
}
