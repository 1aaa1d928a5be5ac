/* The counting options that count, verify, list, bench, estimate and nqueens-mpi share
 * (threads, engine, prefix rows, pinning, devices, vector path, memory), the settings
 * they make, and the checks made before a run of what an engine takes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "args_help.h"
#include "args_messages.h"
#include "build_info.h"
#include "count_opts.h"
#include "devices.h"
#include "number.h"

void count_opts_default(count_opts *o)
{
    nq_settings s;
    nq_default_settings(&s);
    *o = (count_opts){.threads = s.n_threads,
                      .engine = s.engine,
                      .prefix_rows = s.prefix_rows,
                      .pin = s.pin_threads,
                      .devices = s.devices,
                      .simd = s.simd};
}

const char *count_opts_thread_word(int i, const char **about)
{
    static const char *const words[] = {"max", NULL};
    return args_word_at(words, i, about);
}

const char *count_opts_memory_word(int i, const char **about)
{
    static const char *const words[] = {"none", NULL};
    return args_word_at(words, i, about);
}

/* Parse --worker-memory: a size within the library's bounds. */
static int take_worker_memory(count_opts *o, const char *cmd, const char *value)
{
    uint64_t v;

    if (number_parse_size(value, &v) != 0 || v < NQ_WORKER_MEMORY_MIN || v > NQ_WORKER_MEMORY_MAX)
        return args_usage_error(cmd,
                                "invalid --worker-memory '%s': expected a size from %lluM to "
                                "%lluG, such as 256M",
                                value, (unsigned long long)(NQ_WORKER_MEMORY_MIN >> 20),
                                (unsigned long long)(NQ_WORKER_MEMORY_MAX >> 30));
    o->worker_memory = v;
    return 1;
}

/* Parse --simd: a path the library knows and this CPU runs. */
static int take_simd(count_opts *o, const char *cmd, const char *value)
{
    char usable[64];
    int p = nq_simd_from_name(value);

    if (p < 0)
        return args_usage_error(cmd, "unknown --simd '%s': expected auto, avx512, avx2 or scalar",
                                value);
    if (!nq_simd_built(p))
        return args_usage_error(
            cmd, "--simd %s: not built into this library (built: see nqueens --version)", value);
    if (!nq_simd_usable(p))
        return args_usage_error(cmd, "--simd %s: this CPU lacks it (it runs: %s)", value,
                                args_simd_names(nq_simd_usable, usable, sizeof(usable)));
    o->simd = p;
    return 1;
}

int count_opts_engine(const char *cmd, const char *value)
{
    int e = nq_engine_from_name(value);

    if (e == NQ_EUNSUPPORTED)
        args_usage_error(cmd,
                         "--engine %s: not built with CUDA (needs nvcc at build time; see "
                         "nqueens --version)",
                         value);
    else if (e < 0)
        args_usage_error(cmd, "unknown --engine '%s': expected one of %s", value,
                         args_engine_names());
    return e < 0 ? -1 : e;
}

int count_opts_take(count_opts *o, const char *cmd, int id, const char *value)
{
    long v;
    int e;

    switch (id) {
    case OPT_THREADS:
        if (strcmp(value, "max") == 0) {
            o->threads = 0;
            return 1;
        }
        if (number_parse_long(value, 1, NQ_MAX_THREADS, &v) != 0)
            return args_usage_error(cmd,
                                    "invalid --threads '%s': expected 1..%d, or 'max' for "
                                    "every CPU this process may use",
                                    value, NQ_MAX_THREADS);
        o->threads = (int)v;
        return 1;
    case OPT_ENGINE:
        e = count_opts_engine(cmd, value);
        if (e < 0)
            return EXIT_USAGE;
        o->engine = e;
        o->engine_set = 1;
        return 1;
    case OPT_PREFIX_ROWS:
        if (number_parse_long(value, 1, NQ_MAX_N, &v) != 0)
            return args_usage_error(cmd, "invalid --prefix-rows '%s': expected 1..%d", value,
                                    NQ_MAX_N);
        o->prefix_rows = (int)v;
        return 1;
    case OPT_NO_PIN:
        o->pin = 0;
        return 1;
    case OPT_SIMD:
        return take_simd(o, cmd, value);
    case OPT_MAX_MEMORY:
        if (strcmp(value, "none") == 0) {
            o->memory_limit = UINT64_MAX;
            return 1;
        }
        if (number_parse_size(value, &o->memory_limit) != 0)
            return args_usage_error(cmd,
                                    "invalid --max-memory '%s': expected a size such as 512M, "
                                    "8G or 1.5T, or 'none'",
                                    value);
        return 1;
    case OPT_WORKER_MEMORY:
        return take_worker_memory(o, cmd, value);
    case OPT_DEVICES:
        if (devices_parse(value, &o->devices) != 0)
            return args_usage_error(cmd,
                                    "invalid --devices '%s': expected GPU numbers 0..63, "
                                    "e.g. 0 or 0,2 or 0-3, or 'all'",
                                    value);
        o->devices_set = 1;
        return 1;
    default:
        return 0;
    }
}

nq_engine_info args_engine_info(int engine)
{
    nq_engine_info info;

    if (nq_engine_describe(engine, &info) != NQ_OK)
        memset(&info, 0, sizeof(info));
    return info;
}

int args_engine_id(const char *name)
{
    nq_engine_info info;

    for (int e = 0; name && nq_engine_describe(e, &info) == NQ_OK; e++)
        if (strcmp(info.name, name) == 0)
            return e;
    return NQ_EINVAL;
}

int args_engine_at(int engine, int n)
{
    nq_settings s;

    if (engine != NQ_ENGINE_AUTO)
        return engine;
    nq_default_settings(&s);
    s.n = n;
    return nq_resolve_settings(&s) == NQ_OK ? s.engine : engine;
}

/* The capabilities an option needs of its engine. */
enum capability { TAKES_DEVICES, HAS_SIMD, TAKES_WORKER_MEMORY };

static int has_capability(const nq_engine_info *info, enum capability c)
{
    return c == TAKES_DEVICES ? info->takes_devices
           : c == HAS_SIMD    ? info->has_simd
                              : info->takes_worker_memory;
}

/* The first engine that has the capability (the one a message points to), or "" */
static const char *engine_with(enum capability c)
{
    nq_engine_info info;

    for (int e = 0; nq_engine_describe(e, &info) == NQ_OK; e++)
        if (has_capability(&info, c))
            return info.name;
    return "";
}

int count_opts_check_engine(const char *cmd, const count_opts *o, int engine)
{
    /* auto's capabilities are those of some engine it may pick (nq_engine_describe):
     * it never picks the GPUs, and --simd is harmless past the boards of the engine
     * that has vector paths */
    nq_engine_info info = args_engine_info(engine);

    if (o->prefix_rows && !info.takes_prefix_rows)
        return args_usage_error(cmd,
                                "--prefix-rows does not apply to --engine %s, which places "
                                "its rows itself",
                                nq_engine_name(engine));
    if (o->devices_set && !info.takes_devices)
        return args_usage_error(cmd,
                                "--devices does not apply to --engine %s, which runs on the "
                                "CPU (GPUs: --engine %s)",
                                nq_engine_name(engine), engine_with(TAKES_DEVICES));
    if (o->simd != NQ_SIMD_AUTO && !info.has_simd)
        return args_usage_error(cmd,
                                "--simd does not apply to --engine %s, which has no vector "
                                "paths (--simd picks the %s engine's)",
                                nq_engine_name(engine), engine_with(HAS_SIMD));
    if (o->worker_memory && !info.takes_worker_memory)
        return args_usage_error(cmd,
                                "--worker-memory does not apply to --engine %s, which has no "
                                "lists to size (--worker-memory sizes the %s engine's)",
                                nq_engine_name(engine), engine_with(TAKES_WORKER_MEMORY));
    return 0;
}

int count_opts_check(const char *cmd, const count_opts *o, int unique)
{
    if (unique && !args_engine_info(o->engine).has_unique)
        return args_usage_error(cmd, "--unique needs an engine that counts symmetry classes: "
                                     "--engine d4");
    return count_opts_check_engine(cmd, o, o->engine);
}

int count_opts_check_slice(const char *cmd, const char *slice, int unique, int subtotals)
{
    if (unique)
        return args_usage_error(cmd,
                                "%s and --unique: a slice's share is no count of classes; "
                                "nqueens merge prints the unique count",
                                slice);
    if (subtotals)
        return args_usage_error(cmd,
                                "%s and --subtotals: the subtotals are of a whole count; "
                                "a slice's are in its --checkpoint journal",
                                slice);
    return 0;
}

int count_opts_check_n(const char *cmd, const count_opts *o, int engine, int n)
{
    int most = nq_engine_max_n(engine), runs = args_engine_at(engine, n);
    if (most > 0 && n > most)
        return args_usage_error(cmd,
                                "--engine %s takes boards up to n = %d (its tables would "
                                "not fit): use --engine d4, or auto",
                                nq_engine_name(engine), most);
    /* auto takes --simd as some engine it picks does; at this n it is one engine */
    if (o && o->simd != NQ_SIMD_AUTO && runs != engine && !args_engine_info(runs).has_simd)
        return args_usage_error(cmd,
                                "--simd does not apply to n = %d: auto counts it with %s, "
                                "which has no vector paths",
                                n, nq_engine_name(runs));
    if (o && o->worker_memory && runs != engine && !args_engine_info(runs).takes_worker_memory)
        return args_usage_error(cmd,
                                "--worker-memory does not apply to n = %d: auto counts it "
                                "with %s, which has no lists to size",
                                n, nq_engine_name(runs));
    return 0;
}

void count_opts_settings(const count_opts *o, int n, nq_settings *s)
{
    nq_default_settings(s);
    s->n = n;
    s->n_threads = o->threads;
    s->engine = o->engine;
    /* Deeper than the board means "every row": clamp rather than fail per n in a range. */
    s->prefix_rows = o->prefix_rows > n ? n : o->prefix_rows;
    s->pin_threads = o->pin;
    s->devices = o->devices;
    s->simd = o->simd;
    s->memory_limit = o->memory_limit;
    s->worker_memory = o->worker_memory;
    s->slice_index = o->slice_index;
    s->slice_count = o->slice_count;
    devices_env(&s->gpu);
}

void args_warn_unpinned(const count_opts *o, const nq_result *r)
{
    static int warned;
    /* A build without hwloc leaves pinning out on purpose; a GPU engine's n_threads are
     * GPUs, not pinned workers. */
    if (!NQ_BUILT_HWLOC || !args_engine_info(r->engine).pins_workers || !o->pin || warned ||
        r->n_pinned >= r->n_threads)
        return;
    warned = 1;
    args_note(NULL, "warning: %d of %d workers unpinned (binding failed); --no-pin silences this",
              r->n_threads - r->n_pinned, r->n_threads);
}
