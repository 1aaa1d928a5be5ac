/* Argument parsing shared by the subcommands. Everything a person types is checked
 * here in full (range, trailing garbage) before the library sees it. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "devices.h"

int args_parse_long(const char *s, long min, long max, long *out)
{
    char *end;
    long v;
    const char *p = s;

    if (!s || !*s)
        return -1;
    if (*p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return -1; /* strtol would skip spaces and accept '+' */
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

const char *args_program = "nqueens";

static void vreport(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s%s%s: ", args_program, cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int args_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int args_run_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, fmt, ap);
    va_end(ap);
    return EXIT_RUN_FAILED;
}

void count_opts_default(count_opts *o)
{
    nq_settings s;
    nq_default_settings(&s);
    o->threads = s.n_threads;
    o->engine = s.engine;
    o->prefix_rows = s.prefix_rows;
    o->pin = s.pin_threads;
    o->devices = s.devices;
}

int count_opts_parse(count_opts *o, const char *cmd, const char *name, const char *value)
{
    long v;

    if (strcmp(name, "threads") == 0) {
        if (strcmp(value, "max") == 0 || strcmp(value, "0") == 0) {
            o->threads = 0;
            return 1;
        }
        if (args_parse_long(value, 1, 4096, &v) != 0)
            return args_usage_error(cmd, "invalid --threads '%s': expected 1..4096 or 'max'",
                                    value);
        o->threads = (int)v;
        return 1;
    }
    if (strcmp(name, "engine") == 0) {
        int e = nq_engine_from_name(value);
        if (e == NQ_EUNSUPPORTED)
            return args_usage_error(
                cmd, "--engine %s: not built with CUDA (needs nvcc at build time)", value);
        if (e < 0)
            return args_usage_error(cmd, "unknown --engine '%s': expected d4 or prefix", value);
        o->engine = e;
        o->engine_set = 1;
        return 1;
    }
    if (strcmp(name, "prefix-rows") == 0) {
        if (args_parse_long(value, 1, NQ_MAX_N, &v) != 0)
            return args_usage_error(cmd, "invalid --prefix-rows '%s': expected 1..%d", value,
                                    NQ_MAX_N);
        o->prefix_rows = (int)v;
        return 1;
    }
    if (strcmp(name, "devices") == 0) {
        if (devices_parse(value, &o->devices) != 0)
            return args_usage_error(cmd,
                                    "invalid --devices '%s': expected GPU numbers 0..63, "
                                    "e.g. 0 or 0,2 or 0-3, or 'all'",
                                    value);
        return 1;
    }
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
    devices_env(&s->gpu);
}

int args_parse_n(const char *cmd, const char *s, int *n)
{
    long v;
    if (args_parse_long(s, 1, NQ_MAX_N, &v) != 0)
        return args_usage_error(cmd, "invalid board size '%s': expected an integer 1..%d", s,
                                NQ_MAX_N);
    *n = (int)v;
    return 0;
}

void args_warn_unpinned(const count_opts *o, const nq_result *r)
{
    static int warned;
    if (!o->pin || warned || r->n_pinned >= r->n_threads)
        return;
    warned = 1;
    fprintf(stderr,
            "%s: warning: %d of %d workers unpinned (no hwloc in this build, or binding "
            "failed); --no-pin silences this\n",
            args_program, r->n_threads - r->n_pinned, r->n_threads);
}

void args_iter_init(args_iter *it, int argc, char **argv)
{
    memset(it, 0, sizeof(*it));
    it->argc = argc;
    it->argv = argv;
    it->i = 1; /* argv[0] is the subcommand itself */
}

int args_next(args_iter *it, const char **arg)
{
    const char *a, *eq;
    size_t len;

    if (it->i >= it->argc)
        return ARG_END;
    a = it->argv[it->i++];
    if (it->only_positional || a[0] != '-' || a[1] != '-') {
        *arg = a;
        return ARG_POSITIONAL;
    }
    if (a[2] == '\0') {
        it->only_positional = 1;
        return args_next(it, arg);
    }
    a += 2;
    eq = strchr(a, '=');
    len = eq ? (size_t)(eq - a) : strlen(a);
    if (len >= sizeof(it->name))
        len = sizeof(it->name) - 1;
    memcpy(it->name, a, len);
    it->name[len] = '\0';
    it->inline_value = eq ? eq + 1 : NULL;
    *arg = it->argv[it->i - 1];
    return ARG_OPTION;
}

const char *args_value(args_iter *it)
{
    if (it->inline_value)
        return it->inline_value;
    if (it->i >= it->argc)
        return NULL;
    return it->argv[it->i++];
}

int args_has_inline_value(const args_iter *it)
{
    return it->inline_value != NULL;
}

int count_opts_take(count_opts *o, const char *cmd, args_iter *it)
{
    static const char *const valued[] = {"threads", "engine", "prefix-rows", "devices"};
    const char *v;

    if (strcmp(it->name, "no-pin") == 0) {
        if (args_has_inline_value(it))
            return args_usage_error(cmd, "--no-pin takes no value");
        o->pin = 0;
        return 1;
    }
    for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); i++) {
        if (strcmp(it->name, valued[i]) != 0)
            continue;
        v = args_value(it);
        if (!v)
            return args_usage_error(cmd, "--%s needs a value", it->name);
        return count_opts_parse(o, cmd, it->name, v);
    }
    return 0;
}
