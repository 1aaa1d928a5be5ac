/* The listing's two halves: an engine's lister, which enumerates a board's prefixes in
 * lexicographic order and completes one into its solutions, and the listing runtime
 * (runtime/list.c), which runs the completions on worker threads and hands their boards
 * to the caller in order. An engine that lists names its lister in engine_desc.list. */
#ifndef NQ_LISTER_H
#define NQ_LISTER_H

#include <stdint.h>

#include "core/task.h"

/* Where a completion stores its boards, in the order it finds them: put stores one (the
 * columns of rows 0..n-1) and returns nonzero once the run is stopping; stopping asks
 * the same without storing. */
typedef struct list_sink {
    int (*put)(void *ctx, const uint8_t *cols);
    int (*stopping)(void *ctx);
    void *ctx;
} list_sink;

/* Receives each prefix in id order with the columns of its placed rows (t->row of them);
 * a nonzero return stops the enumeration. */
typedef int (*list_emit_fn)(void *user, const task *t, const uint8_t *prefix);

typedef struct engine_lister {
    /* The prefixes of rows rows on board n: their number, or cap if there are at least
     * that many (counting stops there). */
    uint64_t (*prefix_count)(int n, int rows, uint64_t cap);
    /* Emit every prefix of rows rows on board n in lexicographic order of their columns,
     * ids from 0; 1 when emit stopped it, else 0. Runs in the calling thread. */
    int (*source)(int n, int rows, list_emit_fn emit, void *user);
    /* Complete task t, whose placed rows take the columns prefix, in every way, lowest
     * column first (lexicographic order), each solution into sink; it returns when put
     * or stopping says the run is stopping. Runs in the worker threads, concurrently. */
    void (*search)(int n, const task *t, const uint8_t *prefix, const list_sink *sink);
} engine_lister;

#endif
