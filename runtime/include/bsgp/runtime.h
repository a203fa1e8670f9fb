/*===- runtime.h - libbsgprt C ABI used by bsgpc-compiled programs-*- C -*-===*\
|*                                                                            *|
|* Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).     *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The code bsgpc generates calls only the functions below. Device pointers   *|
|* are plain 64-bit addresses; on the cpu backend they are host addresses.    *|
|* Every function reports failure through the error handler (see              *|
|* bsgprt_set_error_handler); when the handler returns, the failing call      *|
|* returns NULL (allocations) or does nothing.                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef BSGP_RUNTIME_H
#define BSGP_RUNTIME_H

#include <stdint.h>
#include <stdio.h>

#if defined(_WIN32)
#define BSGPRT_API
#else
#define BSGPRT_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define BSGPRT_ABI_VERSION 7

/*===-- Modules and launch ------------------------------------------------===*/

/** Native version of one kernel: runs ranks [begin, end) of a launch of
 *  `size` ranks. `args` is the packed argument struct. */
typedef void (*bsgprt_cpu_kernel_fn)(const void *args, uint64_t begin,
                                     uint64_t end, uint64_t size);

typedef struct bsgprt_kernel_desc {
  const char *name;          /* kernel symbol in the PTX / SPIR-V module */
  bsgprt_cpu_kernel_fn cpu;  /* native version for the cpu backend, or NULL */
  const char *srcloc;        /* BSGP source range of the superstep,
                                e.g. "find.bsgp:12:3-20:5" */
  uint32_t args_size;        /* bytes of the packed argument struct */
  uint32_t group_size;       /* CUDA threads per block the kernel must run
                                with: those it was compiled for (it uses
                                group.* or local arrays) or those its spawn
                                asked for ([[block_size(N)]]); 0: any (the
                                backend chooses) */
  uint32_t groups_per_block; /* CUDA: work groups of group_size ranks that
                                one block runs (ABI version 3). A launch of
                                n ranks has n / (group_size *
                                groups_per_block) such blocks, then one
                                block per remaining work group; or, where
                                that grid is smaller than the device's
                                multiprocessors, one block per work group
                                (ABI version 7: the kernel tells the two
                                apart by the grid's size). 0 or 1: one
                                work group per block */
  uint32_t flags;            /* BSGPRT_KERNEL_* bits (ABI version 6) */
} bsgprt_kernel_desc;

/** bsgprt_kernel_desc::flags: the kernel's CUDA blocks wait for the blocks
 *  before them by block number (a decoupled look-back), so that on several
 *  GPUs its slices run one device after another. */
#define BSGPRT_KERNEL_LOOKBACK 1u

typedef struct bsgprt_module_desc {
  uint32_t abi_version; /* BSGPRT_ABI_VERSION */
  uint32_t num_kernels;
  const bsgprt_kernel_desc *kernels;
  const char *ptx; /* NUL-terminated PTX text or NULL */
  uint64_t ptx_size;
  const uint32_t *spirv; /* SPIR-V words or NULL */
  uint64_t spirv_size;   /* in bytes */
  const char *source_file;
} bsgprt_module_desc;

/** Called before main by every object with GPU kernels (a global
 *  constructor bsgpc emits): records the module, whose device code the
 *  backend prepares when it starts (the cuda backend JIT-compiles the PTX
 *  then rather than at the first launch). A module compiled for another
 *  ABI version is reported at once. Modules that are not registered are
 *  prepared at their first launch. */
BSGPRT_API void bsgprt_register_module(const bsgprt_module_desc *m);

/** Runs kernel `kernel` of `m` on ranks [0, nthreads); `args` points to its
 *  packed argument struct. Returns when the kernel is done (the barrier). */
BSGPRT_API void bsgprt_launch(const bsgprt_module_desc *m, uint32_t kernel,
                              uint64_t nthreads, const void *args);

/** Whether the backend in use can launch kernel `kernel` of `m`, a loop of
 *  supersteps made one kernel (bsgp-fuse-uniform-loops, docs/cuda.md), for
 *  `nthreads` threads with all its thread blocks resident at once: 1 on a
 *  CUDA device with cooperative launches, 0 elsewhere or with
 *  BSGP_GRID_LOOPS=0. */
BSGPRT_API int bsgprt_can_launch_cooperative(const bsgprt_module_desc *m,
                                             uint32_t kernel,
                                             uint64_t nthreads);

/** Launches that kernel (after bsgprt_can_launch_cooperative said 1). As
 *  bsgprt_launch, it runs in order with the other launches. */
BSGPRT_API void bsgprt_launch_cooperative(const bsgprt_module_desc *m,
                                          uint32_t kernel, uint64_t nthreads,
                                          const void *args);

/** The number of chunks the cpu backend splits a launch of `nthreads` ranks
 *  into, when called where the launch will be made: 0 for no ranks, 1 when
 *  the launch runs on the calling thread (few ranks, OMP_NUM_THREADS=1, or
 *  inside an OpenMP parallel region), otherwise one per OpenMP thread with
 *  at least 256 ranks each. Chunk c runs ranks
 *  [nthreads*c/chunks, nthreads*(c+1)/chunks), so no chunk is empty. The
 *  collective library sizes its per-chunk partials with it (in a require,
 *  on the host thread that then launches the kernel). */
BSGPRT_API uint64_t bsgprt_cpu_chunk_count(uint64_t nthreads);
/** In a native kernel run by the cpu backend: the index of the chunk the
 *  calling thread runs, in [0, bsgprt_cpu_chunk_count(n)). Kernels that
 *  accumulate over their chunk (bsgp.chunk_reduce, bsgp.chunk_scan) call
 *  it once per chunk. */
BSGPRT_API uint64_t bsgprt_cpu_chunk_index(void);
/** In a grid-loop kernel run by the cpu backend (bsgprt_launch_cooperative,
 *  docs/runtime.md): the calling thread's index in the team that runs the
 *  kernel, the team's size (1 outside such a kernel), and the barrier the
 *  team waits at between the loop's supersteps. */
BSGPRT_API uint64_t bsgprt_cpu_team_rank(void);
BSGPRT_API uint64_t bsgprt_cpu_team_size(void);
BSGPRT_API void bsgprt_cpu_team_barrier(void);

/** The thread count of `spawn (n)` when n is not an `int` (an int64, a
 *  uint, ...): n itself when 0 <= n <= INT32_MAX, else an INVALID_VALUE
 *  error at `srcloc` (the spawn) and 0, so that nothing runs. */
BSGPRT_API int32_t bsgprt_spawn_count(int64_t n, const char *srcloc);

/*===-- Device memory -----------------------------------------------------===*/

/** A device list that outlives the spawn. `srcloc` names the BSGP
 *  allocation site in error messages (may be NULL). */
BSGPRT_API void *bsgprt_dnew(uint64_t bytes, const char *srcloc);
BSGPRT_API void bsgprt_dfree(void *p);
/** bsgprt_dfree from `ddelete p;` at `srcloc`: freeing a pointer that is not
 *  a live dnew list (freed twice, say) is an error naming `srcloc`. */
BSGPRT_API void bsgprt_dfree_at(void *p, const char *srcloc);
/** The device list holding a global constant array of `bytes` bytes at
 *  `host` (compiled code calls it before a spawn that reads the array):
 *  uploaded on the first call, the same list afterwards. */
BSGPRT_API void *bsgprt_const_list(const void *host, uint64_t bytes);
/** printf in device code (docs/language.md, "Device printf"): the print
 *  buffer the threads store their records in (allocated on the first
 *  call, BSGP_PRINTF_BUFFER bytes, 4 MiB by default), and the printing of
 *  its records with the format table `table` of the compiled module, which
 *  empties it. Compiled code calls the first before each spawn that prints
 *  and the second after each launch of a kernel that can print. */
BSGPRT_API void *bsgprt_printf_buffer(void);
BSGPRT_API void bsgprt_printf_flush(void *buffer, const char *table);
/** dtempnew lists and temporary streams, taken from the reuse pool. */
BSGPRT_API void *bsgprt_temp_alloc(uint64_t bytes, const char *srcloc);
/** Gives a temporary allocation back to the pool. */
BSGPRT_API void bsgprt_temp_free(void *p);
/** dtempnew lists that must live until a spawn ends, where the compiler
 *  cannot name each one there (a list allocated in a loop of supersteps
 *  whose pointer leaves the loop body): each is pushed on the calling host
 *  thread's stack of deferred frees by `bsgprt_temp_defer_free`, and
 *  `bsgprt_temp_free_deferred(mark)` frees, latest first, those pushed
 *  since `bsgprt_temp_defer_mark()` returned `mark`. */
BSGPRT_API uint64_t bsgprt_temp_defer_mark(void);
BSGPRT_API void bsgprt_temp_defer_free(void *p);
BSGPRT_API void bsgprt_temp_free_deferred(uint64_t mark);
/** dnew[count]T and dtempnew[count]T as compiled code calls them: `count`
 *  elements of `element_bytes` each. A negative count and a byte count that
 *  does not fit 64 bits are INVALID_VALUE errors at `srcloc` (and NULL). */
BSGPRT_API void *bsgprt_dnew_elements(int64_t count, uint64_t element_bytes,
                                      const char *srcloc);
BSGPRT_API void *bsgprt_temp_alloc_elements(int64_t count,
                                            uint64_t element_bytes,
                                            const char *srcloc);
/** thread.fork whose children number `total`, more than a spawn may have
 *  (INT32_MAX): an INVALID_VALUE error at the program's line that called
 *  into the collective library (the fork's; bsgprt_callsite_push). The
 *  collective library calls it, and makes no child if the handler returns. */
BSGPRT_API void bsgprt_fork_size_error(uint64_t total);
/** 1 if `a` and `b` point into two different live allocations (the
 *  runtime's dnew lists and temporaries; on the cuda backend also device
 *  memory allocated outside the runtime, as the driver places it), else 0
 *  (the same allocation, or memory nobody can place). Compiled spawns ask
 *  it before reading a list again after a barrier
 *  (bsgp-rematerialize-loads). */
BSGPRT_API int bsgprt_distinct_allocations(const void *a, const void *b);

BSGPRT_API void bsgprt_memcpy_htod(void *dst, const void *src, uint64_t bytes);
BSGPRT_API void bsgprt_memcpy_dtoh(void *dst, const void *src, uint64_t bytes);
BSGPRT_API void bsgprt_memcpy_dtod(void *dst, const void *src, uint64_t bytes);
BSGPRT_API void bsgprt_memset_d(void *dst, int value, uint64_t bytes);
BSGPRT_API void bsgprt_synchronize(void);

/** "cpu", "cuda: <name>" or "vulkan: <name>"; "cpu:N" for N cpu devices
 *  (BSGP_DEVICE=cpu:N, docs/multi-device.md). */
BSGPRT_API const char *bsgprt_device_name(void);

/** A monotonic wall clock in milliseconds (arbitrary origin): time a spawn
 *  as the difference of two calls, with bsgprt_synchronize() before each
 *  so that the device work launched before it is over. */
BSGPRT_API double bsgprt_time_ms(void);

/*===-- Several devices (docs/multi-device.md) ----------------------------===*/

/** How many devices a spawn's ranks are split over: N for BSGP_DEVICE=cpu:N,
 *  else 1. */
BSGPRT_API int bsgprt_device_count(void);
/** Where a dnew list lives on several devices: in rank-aligned slices
 *  (element i with the device that runs rank i of a spawn as long as the
 *  list; the default), or a copy on every device. */
enum { BSGPRT_PLACEMENT_DISTRIBUTED = 0, BSGPRT_PLACEMENT_REPLICATED = 1 };
/** Sets the placement of the list starting at `list` (a live dnew or
 *  dtempnew list). Returns BSGPRT_SUCCESS, or reports and returns
 *  INVALID_POINTER (not the start of a list) or INVALID_VALUE (an unknown
 *  placement). On one device every placement is accepted and changes
 *  nothing. */
BSGPRT_API int bsgprt_list_set_placement(const void *list, int placement);
/** The device holding the byte at `p`: -1 for a replicated list or memory
 *  that is no list of the runtime (0 on one device). */
BSGPRT_API int bsgprt_list_device(const void *p);
/** Bytes the runtime saw a device read or write in another device's slice
 *  (copies and list primitives; not kernels' own loads and stores) since
 *  start or bsgprt_profile_reset; 0 on one device. */
BSGPRT_API uint64_t bsgprt_remote_bytes(void);
/** A device scope: until bsgprt_device_scope_end, every launch runs all its
 *  ranks on `device` alone, and copies, memsets and temporaries go to it,
 *  without waiting for the other devices, so that work issued in scopes of
 *  different devices runs at once (the collective library's sort across
 *  devices). The work of different scopes must not touch the same bytes.
 *  Returns BSGPRT_SUCCESS, or reports INVALID_VALUE for a device out of
 *  range; on one device, device 0 is accepted and changes nothing. */
BSGPRT_API int bsgprt_device_scope_begin(int device);
/** Closes the scope and waits for every device that ran work in scopes. */
BSGPRT_API int bsgprt_device_scope_end(void);
/** 1 when the collective library sorts n pairs across devices: several
 *  devices, the library's own list primitives, and n at least
 *  BSGP_SORT_ACROSS_MIN (default 1M). */
BSGPRT_API int bsgprt_sort_across_devices(uint64_t n);
/** Device d's slice [floor(n d / D), floor(n (d+1) / D)) of (keys, values)
 *  is sorted stably for every device d: writes to each device's slice of
 *  (outKeys, outValues) the pieces of every slice that its part of the
 *  stable order of the whole list takes, in device order (NCCL send and
 *  receive on several GPUs where libnccl loads, else copies), so that a
 *  stable sort of each slice then sorts the whole. `type` is a
 *  bsgprt_list_type. Reports BSGPRT_ERROR_BACKEND on one device. */
BSGPRT_API int bsgprt_list_exchange_runs(int type, const void *keys,
                                         const uint32_t *values, void *outKeys,
                                         uint32_t *outValues, uint64_t n);
/** After bsgprt_list_exchange_runs: where the piece of device `run`'s
 *  slice starts in device `device`'s slice of the output (run == D: the
 *  slice's length); 0 for devices out of range. */
BSGPRT_API uint64_t bsgprt_list_exchange_piece(int device, int run);

/** The backend that runs kernels, as one of the constants below. Host code
 *  of an object compiled for several targets reads `target.cpu`,
 *  `target.cuda` and `target.spirv` through it. */
enum {
  BSGPRT_TARGET_CPU = 1,
  BSGPRT_TARGET_CUDA = 2,
  BSGPRT_TARGET_VULKAN = 3
};
BSGPRT_API int bsgprt_target(void);

/*===-- Errors ------------------------------------------------------------===*/

enum {
  BSGPRT_SUCCESS = 0,
  BSGPRT_ERROR_OUT_OF_MEMORY = 1,
  BSGPRT_ERROR_LAUNCH_FAILED = 2,
  BSGPRT_ERROR_INVALID_POINTER = 3,
  BSGPRT_ERROR_NO_DEVICE = 4,
  BSGPRT_ERROR_INVALID_VALUE = 5,
  /** The device driver failed in a way none of the above describes. */
  BSGPRT_ERROR_BACKEND = 6
};

/** `message` is "<srcloc>: runtime error: <what>" and is only valid during
 *  the call. */
typedef void (*bsgprt_error_handler)(int code, const char *message, void *user);
/** NULL restores the default: print to stderr and exit(1). */
BSGPRT_API void bsgprt_set_error_handler(bsgprt_error_handler h, void *user);
/** Code of the most recent error, BSGPRT_SUCCESS if none; not reset by
 *  reading (see bsgprt_clear_last_error). */
BSGPRT_API int bsgprt_get_last_error(void);
BSGPRT_API const char *bsgprt_get_last_error_message(void);
BSGPRT_API void bsgprt_clear_last_error(void);

/*===-- Extensions beyond the code generator's ABI ------------------------===*/

/** Prints the BSGP_PROFILE table (one row per kernel launched so far) to
 *  `out`. Works whether or not profiling is enabled; with it disabled the
 *  table is empty. */
BSGPRT_API void bsgprt_profile_report(FILE *out);
/// Compiled code brackets each call of the program into the collective
/// library's host code with these: the profile and the trace attribute the
/// kernels launched in between to `srcloc`, the program's call.
BSGPRT_API void bsgprt_callsite_push(const char *srcloc);
BSGPRT_API void bsgprt_callsite_pop(void);
/** Turns launch timing on or off; BSGP_PROFILE=1 turns it on at first use
 *  and prints the report to stderr at exit. */
BSGPRT_API void bsgprt_profile_enable(int on);
/** Forgets the collected launch statistics. */
BSGPRT_API void bsgprt_profile_reset(void);

/** Device memory of the runtime, in bytes. `device_bytes` is what the
 *  runtime holds from the device (live lists and temporaries at their
 *  allocated capacity, plus the pool of freed temporaries kept for reuse);
 *  `live_bytes` is what the program asked for and has not freed (dnew
 *  lists, dtempnew lists, the compiler's temporary streams). The peaks are
 *  the largest values since start or bsgprt_memory_reset_peak. Memory the
 *  backend uses internally (the list primitives' scratch, argument
 *  buffers) is not counted. */
typedef struct bsgprt_memory_stats_t {
  uint64_t device_bytes;
  uint64_t peak_device_bytes;
  uint64_t live_bytes;
  uint64_t peak_live_bytes;
} bsgprt_memory_stats_t;
BSGPRT_API void bsgprt_memory_stats(bsgprt_memory_stats_t *out);
/** Sets both peaks to the current values. */
BSGPRT_API void bsgprt_memory_reset_peak(void);

/** Bytes of freed temporaries the pool keeps for reuse at most
 *  (BSGP_POOL_LIMIT). Lowering it releases the excess at once. */
BSGPRT_API void bsgprt_set_pool_limit(uint64_t bytes);
BSGPRT_API uint64_t bsgprt_get_pool_limit(void);
/** Bytes currently cached in the pool (free, kept for reuse). */
BSGPRT_API uint64_t bsgprt_pool_cached_bytes(void);
/** Releases every cached buffer to the device. */
BSGPRT_API void bsgprt_pool_trim(void);

/** Switches backend: "cpu", "cuda" or "vulkan"; NULL re-runs the default
 *  selection (honouring BSGP_DEVICE). Only legal while nothing allocated by
 *  the runtime is live. Returns BSGPRT_SUCCESS, or the error code after
 *  reporting it; on failure the runtime keeps working on the cpu backend. */
BSGPRT_API int bsgprt_select_device(const char *name);

/*===-- List primitives (docs/collectives.md) -----------------------------===*/

/* Device-wide operations on lists in device memory. The collective library
 * (reduce, scan, thread.sortby, ...) calls them from require blocks, like
 * the paper's global_merge (Listing 3). Each runs on the current backend;
 * a backend without them reports BSGPRT_ERROR_BACKEND. */

/** 1 when the current backend runs these primitives on its own device
 *  (the cpu backend), 0 when they would go through host round trips (the
 *  defaults of GPU backends). The collective library asks, and runs its
 *  own BSGP versions on the device in the second case. BSGP_LIST_PRIMITIVES=
 *  bsgp makes it 0 on every backend. */
BSGPRT_API int bsgprt_list_primitives_native(void);
/** 1 when a spawn may take the single-pass forms of scan and compact (a
 *  decoupled look-back inside the caller's superstep), 0 when it should
 *  take their two-level forms: on several GPUs, where a look-back kernel's
 *  slices run one device after another and so gain nothing from the
 *  others (docs/multi-device.md). Compiled spawns that have both forms
 *  ask it before each launch (bsgp-single-pass). */
BSGPRT_API int bsgprt_single_pass_forms(void);
/** A 32-bit word of the current device's memory that is 0, for a kernel
 *  whose work groups count themselves in it (the collective library's
 *  reduce on CUDA, where the last work group to arrive combines the
 *  partials): that kernel must leave it 0 again. The words come from a
 *  ring of 1024 zeroed once per device, so that the kernels of one
 *  device, which run one after another, never share one at the same time
 *  (up to 1024 such words in one kernel). Reports and returns null when
 *  the device is out of memory. */
BSGPRT_API uint32_t *bsgprt_zero_counter(void);

/** Operators of reduce and scan. Floats admit the first four only. */
typedef enum bsgprt_list_op {
  BSGPRT_LIST_ADD = 0,
  BSGPRT_LIST_MUL = 1,
  BSGPRT_LIST_MIN = 2,
  BSGPRT_LIST_MAX = 3,
  BSGPRT_LIST_AND = 4,
  BSGPRT_LIST_OR = 5,
  BSGPRT_LIST_XOR = 6
} bsgprt_list_op;

/** Element types: BSGP's int, uint, float, int64, uint64, double. */
typedef enum bsgprt_list_type {
  BSGPRT_LIST_I32 = 0,
  BSGPRT_LIST_U32 = 1,
  BSGPRT_LIST_F32 = 2,
  BSGPRT_LIST_I64 = 3,
  BSGPRT_LIST_U64 = 4,
  BSGPRT_LIST_F64 = 5
} bsgprt_list_type;

/** *result = in[0] op ... op in[n-1], or op's identity when n == 0 (0 for
 *  add/or/xor, 1 for mul, all ones for and, the type's largest/smallest
 *  value for min/max; +-infinity for floats). */
BSGPRT_API void bsgprt_list_reduce(int op, int type, const void *in, uint64_t n,
                                   void *result);
/** Forward exclusive scan: out[i] = in[0] op ... op in[i-1] (out[0] = the
 *  identity); *total = the reduction of all n. in may equal out. */
BSGPRT_API void bsgprt_list_scan_exclusive(int op, int type, const void *in,
                                           void *out, uint64_t n, void *total);
/** Stable ascending sort of keys[0, n), applying the same permutation to
 *  values (e.g. ranks). Floats are ordered by value with -0 < +0 and NaNs
 *  after +infinity (by sign and payload). */
BSGPRT_API void bsgprt_list_sort_pairs(int type, void *keys, uint32_t *values,
                                       uint64_t n);
/** Stable partition of the ranks [0, n): index[] receives the ranks i with
 *  flags[i] == 0 in ascending order, then those with flags[i] != 0.
 *  Returns the number of zero flags. */
BSGPRT_API uint64_t bsgprt_list_partition_index(const uint32_t *flags,
                                                uint32_t *index, uint64_t n);
/** index[0, k) = the ranks i with flags[i] != 0, ascending; returns k. */
BSGPRT_API uint64_t bsgprt_list_compact_index(const uint32_t *flags,
                                              uint32_t *index, uint64_t n);
/** parent[offsets[i] + j] = i for every j < counts[i], where offsets is the
 *  exclusive add-scan of counts (thread.fork's child-to-parent map). */
BSGPRT_API void bsgprt_list_expand_index(const uint32_t *offsets,
                                         const uint32_t *counts,
                                         uint32_t *parent, uint64_t n);

/* Typed forms, one per operator and element type, e.g.
 *   int32_t bsgprt_list_reduce_add_i32(const int32_t *in, uint64_t n);
 *   int32_t bsgprt_list_scan_exclusive_add_i32(const int32_t *in,
 *                                              int32_t *out, uint64_t n);
 *   void bsgprt_list_sort_pairs_i32(int32_t *keys, uint32_t *values,
 *                                   uint64_t n);
 * The scan returns the total. Suffixes: i32 u32 f32 i64 u64 f64; operators
 * add mul min max for every type, and or xor for the integer ones. */
#define BSGPRT_LIST_DECLARE_OP(OP, SUFFIX, T)                                  \
  BSGPRT_API T bsgprt_list_reduce_##OP##_##SUFFIX(const T *in, uint64_t n);    \
  BSGPRT_API T bsgprt_list_scan_exclusive_##OP##_##SUFFIX(const T *in, T *out, \
                                                          uint64_t n);
#define BSGPRT_LIST_DECLARE_TYPE(SUFFIX, T)                                    \
  BSGPRT_LIST_DECLARE_OP(add, SUFFIX, T)                                       \
  BSGPRT_LIST_DECLARE_OP(mul, SUFFIX, T)                                       \
  BSGPRT_LIST_DECLARE_OP(min, SUFFIX, T)                                       \
  BSGPRT_LIST_DECLARE_OP(max, SUFFIX, T)                                       \
  BSGPRT_API void bsgprt_list_sort_pairs_##SUFFIX(T *keys, uint32_t *values,   \
                                                  uint64_t n);
#define BSGPRT_LIST_DECLARE_INT_TYPE(SUFFIX, T)                                \
  BSGPRT_LIST_DECLARE_TYPE(SUFFIX, T)                                          \
  BSGPRT_LIST_DECLARE_OP(and, SUFFIX, T)                                       \
  BSGPRT_LIST_DECLARE_OP(or, SUFFIX, T)                                        \
  BSGPRT_LIST_DECLARE_OP(xor, SUFFIX, T)
BSGPRT_LIST_DECLARE_INT_TYPE(i32, int32_t)
BSGPRT_LIST_DECLARE_INT_TYPE(u32, uint32_t)
BSGPRT_LIST_DECLARE_TYPE(f32, float)
BSGPRT_LIST_DECLARE_INT_TYPE(i64, int64_t)
BSGPRT_LIST_DECLARE_INT_TYPE(u64, uint64_t)
BSGPRT_LIST_DECLARE_TYPE(f64, double)
#undef BSGPRT_LIST_DECLARE_INT_TYPE
#undef BSGPRT_LIST_DECLARE_TYPE
#undef BSGPRT_LIST_DECLARE_OP

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BSGP_RUNTIME_H */
