//===- Races.cpp - racing accesses to lists within a superstep ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The threads of a superstep run in no defined order, so two accesses of one
// list byte by different ranks in one superstep race when one of them is a
// store that changes the byte: the result depends on the order. Each list
// keeps, per unit (4 bytes while every access is a whole number of aligned
// words, as for lists of ints and floats; otherwise a byte), a record of the
// last plain store and of two loads by different ranks in the current
// superstep; a record packs the rank, the source place of the access and the
// phase of work-group barriers, because group.barrier() orders the accesses
// of one work group (not of others).
// Atomics, thread.get and thread.put (which read and write variables, not
// lists) and the stores of collectives (made between supersteps) are not
// recorded.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include <algorithm>

using namespace bsgp;
using namespace bsgp::interp;

namespace {

// A record: rank + 1 in bits 0-31, the site in bits 32-51, the group phase
// in bits 52-62, and for a store whether it changed the byte in bit 63.
constexpr unsigned SiteBits = 20, PhaseBits = 11;
constexpr uint64_t SiteMask = (1ull << SiteBits) - 1;
constexpr uint64_t PhaseMask = (1ull << PhaseBits) - 1;
constexpr uint64_t ChangedBit = 1ull << 63;

uint64_t makeRecord(uint32_t Rank, uint32_t Site, uint32_t Phase) {
  return (uint64_t)(Rank + 1) | (uint64_t)(Site & SiteMask) << 32 |
         (uint64_t)(Phase & PhaseMask) << (32 + SiteBits);
}
uint32_t recordRank(uint64_t R) { return (uint32_t)R - 1; }
uint32_t recordSite(uint64_t R) { return (R >> 32) & SiteMask; }
uint32_t recordPhase(uint64_t R) { return (R >> (32 + SiteBits)) & PhaseMask; }

/// The records of \p Log for units [Off, Off + N) of \p Size in superstep
/// \p Step, \p Slots a unit; the records of an earlier superstep are
/// cleared first.
uint64_t *useLog(RaceLog &Log, uint64_t Step, uint64_t Size, unsigned Slots,
                 uint64_t Off, uint64_t N) {
  if (Log.Rec.empty()) {
    Log.Rec.assign(Size * Slots, 0);
    Log.Lo = Log.Hi = 0;
  } else if (Log.Step != Step) {
    // Only the bytes the last superstep touched: a loop of supersteps that
    // each touch one element of a large list stays cheap.
    std::fill(Log.Rec.begin() + Log.Lo * Slots,
              Log.Rec.begin() + Log.Hi * Slots, 0);
    Log.Lo = Log.Hi = 0;
  }
  if (Log.Lo == Log.Hi) {
    Log.Lo = Off;
    Log.Hi = Off + N;
  } else {
    Log.Lo = std::min(Log.Lo, Off);
    Log.Hi = std::max(Log.Hi, Off + N);
  }
  Log.Step = Step;
  return Log.Rec.data() + Off * Slots;
}

/// Turns the word records of \p Log into byte records (a record stands for
/// each byte of its word).
void splitWords(RaceLog &Log, uint64_t Bytes, unsigned Slots) {
  if (Log.Rec.empty())
    return;
  std::vector<uint64_t> Rec(Bytes * Slots, 0);
  for (uint64_t U = Log.Lo; U < Log.Hi; ++U)
    for (unsigned B = 0; B < 4; ++B)
      std::copy_n(&Log.Rec[U * Slots], Slots, &Rec[(U * 4 + B) * Slots]);
  Log.Rec = std::move(Rec);
  Log.Lo *= 4;
  Log.Hi *= 4;
}

} // namespace

uint32_t Interpreter::raceSite(SourceRange R) {
  std::pair<uint64_t, uint32_t> Key{(uint64_t)R.Begin.File << 32 | R.Begin.Line,
                                    R.Begin.Col};
  auto [It, New] = RaceSiteIds.try_emplace(Key, 0);
  if (New) {
    // Site 0 stands for places past the record's capacity: no note.
    if (RaceSites.empty())
      RaceSites.push_back({});
    It->second = RaceSites.size() <= SiteMask ? RaceSites.size() : 0;
    if (It->second)
      RaceSites.push_back(R);
  }
  return It->second;
}

void Interpreter::groupBarrierPhase() {
  // The records keep 11 bits of phase: past them, the superstep's records
  // are dropped (races across those barriers go unreported).
  if (++GroupPhase > PhaseMask) {
    GroupPhase = 0;
    ++Superstep;
  }
}

/// Whether the access recorded in \p Rec and one by \p Rank now may run in
/// either order.
static bool unordered(const Interpreter &I, uint64_t Rec, uint32_t Rank) {
  uint32_t Other = recordRank(Rec);
  if (!Rec || Other == Rank)
    return false;
  return Other / I.Opts.GroupSize != Rank / I.Opts.GroupSize ||
         recordPhase(Rec) == I.GroupPhase;
}

void Interpreter::raceReport(SourceRange R, const llvm::Twine &Msg,
                             uint64_t Rec, const char *Verb) {
  uint32_t Site = recordSite(Rec);
  if (Site == 0)
    fatal(R, Msg);
  fatal(R, Msg, RaceSites[Site],
        "rank " + llvm::Twine(recordRank(Rec)) + " " + Verb + " it here");
}

bool Interpreter::checkReadRaceFast(Allocation &A, uint8_t *P, uint32_t Size,
                                    uint32_t Rank, uint32_t Site) {
  // What checkRace does for a load of whole words of a list no store has
  // touched in this superstep, inside the range its read records already
  // cover: only the records change.
  uint64_t Off = P - A.Base;
  if (A.RaceUnit != 4 || ((Off | Size) & 3))
    return false;
  if (A.Writes.Step == Superstep && !A.Writes.Rec.empty())
    return false;
  RaceLog &Log = A.Reads;
  uint64_t U = Off / 4, N = Size / 4;
  if (Log.Step != Superstep || Log.Rec.empty() || Log.Lo >= Log.Hi ||
      U < Log.Lo || U + N > Log.Hi)
    return false;
  uint64_t Mine = makeRecord(Rank, Site, GroupPhase);
  uint64_t *Rd = Log.Rec.data() + U * 2;
  for (uint64_t K = 0; K < N; ++K, Rd += 2) {
    if (!Rd[0] || recordRank(Rd[0]) == Rank)
      Rd[0] = Mine;
    else
      Rd[1] = Mine;
  }
  return true;
}

void Interpreter::checkRace(Allocation &A, uint8_t *P, const uint8_t *New,
                            uint32_t Size, uint32_t Rank, uint32_t Site,
                            SourceRange R) {
  uint64_t Off = P - A.Base;
  if (!A.RaceUnit)
    A.RaceUnit = A.Size % 4 ? 1 : 4;
  if (A.RaceUnit == 4 && (Off % 4 || Size % 4)) {
    splitWords(A.Writes, A.Size, 1);
    splitWords(A.Reads, A.Size, 2);
    A.RaceUnit = 1;
  }
  // From here on, offsets and sizes count units.
  const uint32_t G = A.RaceUnit;
  const uint64_t Units = A.Size / G;
  Off /= G;
  Size /= G;
  const char *Kind = A.Kind == AllocKind::List ? "list" : "temporary list";
  auto Where = [&](uint64_t U) {
    return " byte offset " + std::to_string(U * G) + " of a " + Kind;
  };
  uint64_t Mine = makeRecord(Rank, Site, GroupPhase);
  bool WrittenNow = A.Writes.Step == Superstep && !A.Writes.Rec.empty();
  if (!New) {
    // A load: a store of another rank changed the byte in this superstep.
    for (uint64_t B = Off; WrittenNow && B < Off + Size; ++B) {
      uint64_t W = A.Writes.Rec[B];
      if ((W & ChangedBit) && unordered(*this, W, Rank))
        raceReport(R,
                   "race: rank " + llvm::Twine(Rank) + " reads" + Where(B) +
                       " that rank " + llvm::Twine(recordRank(W)) +
                       " writes in the same superstep",
                   W, "writes");
    }
    uint64_t *Rd = useLog(A.Reads, Superstep, Units, 2, Off, Size);
    for (uint32_t K = 0; K < Size; ++K, Rd += 2) {
      // The first reader, and the last one of another rank.
      if (!Rd[0] || recordRank(Rd[0]) == Rank)
        Rd[0] = Mine;
      else
        Rd[1] = Mine;
    }
    return;
  }
  bool ReadNow = A.Reads.Step == Superstep && !A.Reads.Rec.empty();
  bool Differs = std::memcmp(P, New, Size * G) != 0;
  uint64_t *Wr = useLog(A.Writes, Superstep, Units, 1, Off, Size);
  for (uint64_t B = Off; B < Off + Size; ++B, ++Wr) {
    uint64_t At = (B - Off) * G;
    bool Changes = std::memcmp(P + At, New + At, G) != 0;
    for (unsigned S = 0; Changes && ReadNow && S < 2; ++S) {
      uint64_t Rd = A.Reads.Rec[B * 2 + S];
      if (unordered(*this, Rd, Rank))
        raceReport(R,
                   "race: rank " + llvm::Twine(Rank) + " writes" + Where(B) +
                       " that rank " + llvm::Twine(recordRank(Rd)) +
                       " reads in the same superstep",
                   Rd, "reads");
    }
    uint64_t W = *Wr;
    if (Differs && unordered(*this, W, Rank))
      raceReport(R,
                 "race: ranks " + llvm::Twine(recordRank(W)) + " and " +
                     llvm::Twine(Rank) + " write different values to" +
                     Where(Off) + " in one superstep",
                 W, "writes");
    // A byte changed earlier in the superstep stays changed for the loads
    // after this store.
    *Wr = Mine | ((Changes || (W & ChangedBit)) ? ChangedBit : 0);
  }
}
