//===- rank-flow-moves.h - the rank changes of rank-flow-*.bsgp -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Each MOVE_<name> changes the threads' ranks (and sortby, kill and fork
// their number) from the per-thread key: 8 threads start with keys
// (5 * rank + 3) % 8, a permutation.
//
//===----------------------------------------------------------------------===//

struct P {
  int a;
  float b;
};

#define MOVE_sortby thread.sortby(key);
#define MOVE_kill thread.kill(key % 4 == 1 && thread.size > 2);
#define MOVE_split thread.split(key % 2 == 1);
#define MOVE_fork                                                              \
  int c = thread.fork(1 + key % 2);                                            \
  key = key + c;
#define MOVE_reassign                                                          \
  barrier(RANK_REASSIGNED);                                                    \
  thread.oldrank = thread.size - 1 - thread.rank;
