/* The engine table: the descriptors of every engine (core/engine.h), in enum nq_engine
 * order, and the lookups the library's top makes in it. It lives above the engines and
 * the GPU host, which define the descriptors, and above the runtime, whose CPU count
 * resolves an automatic thread count. */
#ifndef NQ_ENGINE_TABLE_H
#define NQ_ENGINE_TABLE_H

#include "core/engine.h"

/* The engines, in enum nq_engine order, and their number. */
extern const engine_desc *const engine_table[];
extern const int engine_count;

/* The engine with this enum nq_engine id or name; NULL if there is none (built or not). */
const engine_desc *engine_find(int id);
/* The engine settings s run: engine_find(s->engine), or for NQ_ENGINE_AUTO the one
 * chosen for the board (engine_pick). */
const engine_desc *engine_of(const nq_settings *s);
/* auto's choice for board n: the built engine of highest auto_rank whose n range holds
 * n and, with listing, that lists; NULL if none. */
const engine_desc *engine_pick(int n, int listing);
/* The boards e takes, and its task family (e itself when it shares none). */
int engine_min_n(const engine_desc *e);
int engine_max_n(const engine_desc *e);
const engine_desc *engine_family(const engine_desc *e);
const engine_desc *engine_by_name(const char *name);

/* s with its automatic parameters resolved for s->n_threads workers (0 = every CPU this
 * process may use), as nq_count would run it, or for a slice as for NQ_SLICE_WORKERS
 * workers per slice (NQ_MAX_THREADS at most), so that every slice makes the same task set; s must
 * be checked. */
void engine_resolve(const engine_desc *e, nq_settings *s);

/* The vector paths (core/cpu.h) of every built engine together: the library's, which
 * nq_simd_built and nq_simd_auto report. */
unsigned engine_simd_paths(void);
/* Whether a count of e takes settings.simd = simd on this CPU: auto always, a path when
 * e carries it (an engine without vector paths: when some engine does) and this CPU
 * runs it. e NULL: whether some engine does (nq_simd_usable). */
int engine_simd_usable(const engine_desc *e, int simd);

#endif
