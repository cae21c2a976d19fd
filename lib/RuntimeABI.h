//===- RuntimeABI.h - What instrumented code shares with libsampler_rt ----===//
//
// The names and layouts the pass emits and the runtime defines. The runtime's
// side is runtime/sampler_abi.h; docs/internals.md §1 is the contract for both.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_RUNTIMEABI_H
#define SAMPLER_RUNTIMEABI_H

#include "llvm/IR/DerivedTypes.h"

#include <cstdint>

namespace sampler {
namespace abi {

inline constexpr unsigned Version = 9;
/// Flags in __sampler_unit::flags.
inline constexpr unsigned FlagSampled = 1;
/// The counters hold two halves, summed by the runtime (ThreadCopies.h);
/// never in the site table's record.
inline constexpr unsigned FlagHalves = 2;
/// Metadata on the counters of such a unit: !{i64 N}, the second half's
/// first cell.
inline constexpr char HalvesMD[] = "sampler.halves";
/// The unit counts down ProcessCountdown, not the thread's (built
/// -fsampler-single-threaded); never in the site table's record.
inline constexpr unsigned FlagProcessCountdown = 4;

/// The site marker: `call i1 @__sampler_site(i32 id)` (docs/internals.md §3).
/// Every marker is lowered by the pass; none may reach the object file.
inline constexpr char SiteMarker[] = "__sampler_site";
/// Thread-local countdown to the next sample (initial-exec TLS, i64).
inline constexpr char Countdown[] = "__sampler_countdown";
/// The countdown of units built -fsampler-single-threaded: one for the
/// process, a plain global (i64), in place of Countdown.
inline constexpr char ProcessCountdown[] = "__sampler_countdown_process";
/// i64 () : > 0 sample now and count down from it; < 0 do not, count down from -r.
inline constexpr char NextCountdown[] = "__sampler_next_countdown";
/// The same with LLVM's preserve_most convention (x86-64): the rare call does
/// not make the function save callee-saved registers on its fast path.
inline constexpr char NextCountdownPreserveMost[] =
    "__sampler_next_countdown_preserve_most";
/// i64 (i64 unknown) (ABI 4): a site execution that may be sampled; the draw
/// r = next(unknown) answered in one word, 2|r| + (r > 0): the distance to the
/// next sample (>> 1, unsigned) and whether this one is sampled (bit 0).
inline constexpr char Fire[] = "__sampler_fire";
/// The same with preserve_most (x86-64).
inline constexpr char FirePreserveMost[] = "__sampler_fire_preserve_most";
/// What x86-64 code calls (ABI 5): the same draws without an argument
/// register (EntryTwin.h says why). A check's fresh countdown, i64 ():
inline constexpr char FreshCountdownPreserveMost[] =
    "__sampler_fresh_countdown_preserve_most";
/// A site's draw in ABI 5, i64 (): its argument in the thread-local
/// __sampler_fire_unknown (the pass no longer calls it).
inline constexpr char FireTLSPreserveMost[] = "__sampler_fire_tls_preserve_most";
/// What x86-64 code calls for a site's draw since ABI 7, from inline assembly
/// (SamplingTransform.cpp's fireAsm): the argument negated in rax, the answer
/// |r| in rax and r > 0 in CF; every register kept but rax, r11 and the flags,
/// the vector registers included; no stack alignment needed. (ABI 6 called
/// the same entry __sampler_fire_rax, and counted the vector registers
/// clobbered.)
inline constexpr char FireRax[] = "__sampler_fire_rax_all";
/// What x86-64 code calls for a check's fresh countdown since ABI 8, from
/// inline assembly (SamplingTransform.cpp's freshAsm): FreshCountdownPreserveMost's
/// answer in rax, every other register kept but r11 and the flags (the vector
/// registers included), no stack alignment needed.
inline constexpr char FreshRax[] = "__sampler_fresh_rax_all";
/// The argument with which a check asks for a fresh countdown (ABI 3): the
/// result is the number of trials that fail before the next success, >= 0.
inline constexpr int64_t FreshCountdown = INT64_MIN;
/// The runtime's answer to FreshCountdown at d = 1 (every trial succeeds): a
/// countdown so far below zero that it stays below EveryBelow through any
/// run's payments (2^61 of them). A site that finds the countdown below
/// EveryBelow is sampled without asking the runtime, and a check does not ask
/// for a fresh countdown: at d = 1 no execution calls the runtime after the
/// first check. (Code built without this test still asks, and is answered as
/// before.) A site tests it with one bit: a negative countdown is below
/// EveryBelow exactly when bit 62 is clear (x86: `btq $62`, no 64-bit
/// constant to load).
inline constexpr int64_t EveryBelow = -(int64_t(1) << 62);
inline constexpr int64_t EveryCountdown = EveryBelow - (int64_t(1) << 61);
inline constexpr int64_t EveryBit = -EveryBelow;
static_assert((EveryCountdown & EveryBit) == 0 && EveryCountdown < EveryBelow,
              "the d = 1 countdown must read as such by its bit 62");
/// Not the runtime's: glibc's flag (2.32 and later), non-zero while the
/// process has one thread, which counter updates read under
/// -fsampler-atomic-counters=when-threaded (SiteTable.h).
inline constexpr char GlibcSingleThreaded[] = "__libc_single_threaded";
inline constexpr char RegisterUnit[] = "__sampler_register_unit";
inline constexpr char UnregisterUnit[] = "__sampler_unregister_unit";
/// Prefix shared by everything the runtime defines: calls to it are weightless
/// and are never sites.
inline constexpr char Prefix[] = "__sampler_";

/// Function attribute of an instrumented copy that is a function of its own
/// (SamplingTransform's outline(), SlowCopyOutliner.h) and of a twin
/// (EntryTwin.h, a copy of its function entered where the entry check goes
/// instrumented): a call to it stands where the fast copy goes instrumented,
/// and it reads and writes the countdown in memory (LoopCountdownPromotion
/// stores the countdown before such a call and reloads it after). It also
/// marks them as sampler's private copies (isPrivateCopy: CopyComdat.h, and
/// EntryTwin gives them no twin).
inline constexpr char InstrumentedCopyAttr[] = "sampler-instrumented-copy";

/// Function attribute of a paid callee's body (SamplingTransform.h): a copy
/// of a leaf function with its sites folded away and no check, which its
/// callers' fast copies call after their region's check has paid for its
/// trials. It neither reads nor writes the countdown, and calls nothing that
/// does.
inline constexpr char PaidBodyAttr[] = "sampler-paid-body";

/// The section holding one site-table record per unit (docs/internals.md §2).
inline constexpr char SiteSection[] = ".sampler_sites";
/// Module flag set once a module is instrumented, so that loading the pass
/// twice (e.g. -fplugin and -fpass-plugin in one compile) instruments once.
inline constexpr char InstrumentedFlag[] = "sampler.instrumented";
/// Module flag set once the sampling transformation has lowered the markers.
inline constexpr char LoweredFlag[] = "sampler.lowered";

/// struct __sampler_unit { u32 abi_version; u32 flags; u64 num_counters;
///   u8 signature[16]; u64 *counters; const char *name; __sampler_unit *next; }
inline llvm::StructType *getUnitType(llvm::LLVMContext &C) {
  using namespace llvm;
  auto *Ptr = PointerType::getUnqual(C);
  return StructType::get(C, {Type::getInt32Ty(C), Type::getInt32Ty(C),
                             Type::getInt64Ty(C),
                             ArrayType::get(Type::getInt8Ty(C), 16), Ptr, Ptr,
                             Ptr});
}

} // namespace abi
} // namespace sampler

#endif
