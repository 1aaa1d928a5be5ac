/* The help and the version, printed from the same option tables the parser reads, with
 * the engines and vector paths this build has filled in. */
#include <stdio.h>
#include <string.h>

#include "args_help.h"
#include "args_messages.h"
#include "build_info.h"
#include "build_vcs.h"
#include "config.h"
#include "nqueens/nqueens.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Every engine the library names, from nq_engine_name: the ones this build leaves out
 * answer NQ_EUNSUPPORTED, a name past the table NQ_EINVAL. */
static const char *engine_names(int all, char *names, size_t size)
{
    size_t len = (size_t)snprintf(names, size, "%s", nq_engine_name(NQ_ENGINE_AUTO));

    for (int e = 0;; e++) {
        int back = nq_engine_from_name(nq_engine_name(e));
        int k;
        if (back != e && back != NQ_EUNSUPPORTED)
            break;
        if (back == NQ_EUNSUPPORTED && !all)
            continue;
        k = snprintf(names + len, size - len, "%s%s%s", len ? ", " : "", nq_engine_name(e),
                     back == NQ_EUNSUPPORTED ? " (not in this build)" : "");
        if (k < 0 || (size_t)k >= size - len)
            break;
        len += (size_t)k;
    }
    return names;
}

const char *args_engine_names(void)
{
    static char names[256];
    return names[0] ? names : engine_names(1, names, sizeof(names));
}

/* For the help: the engines this build has. */
static const char *built_engine_names(void)
{
    static char names[256];
    return names[0] ? names : engine_names(0, names, sizeof(names));
}

static const char *default_engine_name(void)
{
    nq_settings s;
    nq_default_settings(&s);
    return nq_engine_name(s.engine);
}

static const char *max_threads(void)
{
    static char text[16];
    snprintf(text, sizeof(text), "%d", NQ_MAX_THREADS);
    return text;
}

/* Help text with the {engines}, {default_engine} and {max_threads} fields filled in, each
 * line after the first indented to column indent. */
static void put_help_text(FILE *f, const char *text, int indent)
{
    static const struct {
        const char *field;
        const char *(*value)(void);
    } fields[] = {{"{engines}", built_engine_names},
                  {"{default_engine}", default_engine_name},
                  {"{max_threads}", max_threads}};

    for (const char *p = text; *p; p++) {
        size_t i;
        if (*p == '\n') {
            fprintf(f, "\n%*s", indent, "");
            continue;
        }
        for (i = 0; i < COUNT(fields); i++)
            if (strncmp(p, fields[i].field, strlen(fields[i].field)) == 0)
                break;
        if (i < COUNT(fields)) {
            fputs(fields[i].value(), f);
            p += strlen(fields[i].field) - 1;
        } else {
            fputc(*p, f);
        }
    }
    fputc('\n', f);
}

const args_option args_common_options[] = {
    {OPT_HELP, "help", 'h', no_argument, NULL, "this help", NULL, NULL},
    {OPT_VERSION, "version", 'V', no_argument, NULL, "the version and what this build has", NULL,
     NULL},
    ARGS_OPT_END,
};

static void print_option(FILE *f, const args_option *o)
{
    enum { COLUMN = 24 };
    char left[64];
    int len;

    len =
        snprintf(left, sizeof(left), "  %c%c%s--%s%s%s", o->letter ? '-' : ' ',
                 o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
                 o->value && o->has_arg == required_argument ? " " : "", o->value ? o->value : "");
    if (len + 2 > COLUMN)
        fprintf(f, "%s\n%*s", left, COLUMN, "");
    else
        fprintf(f, "%-*s", COLUMN, left);
    put_help_text(f, o->help, COLUMN);
}

void args_print_help(const args_command *c, FILE *f)
{
    fprintf(f, "usage: %s %s %s\n%s\n", args_program, c->name, c->usage, c->about);
    for (const args_option *o = c->options; o->name; o++)
        if (o->help)
            print_option(f, o);
    for (const args_option *o = args_common_options; o->name; o++)
        print_option(f, o);
    if (c->epilogue)
        fprintf(f, "\n%s", c->epilogue);
}

const char *args_simd_names(int (*has)(int), char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int p = NQ_SIMD_SCALAR; p <= NQ_SIMD_AVX512; p++)
        if (has(p) && len < size)
            len +=
                (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", nq_simd_name(p));
    return buf;
}

void args_print_version(FILE *f)
{
    char built[64];

    fprintf(f, "%s %s\n", args_program, nq_version());
    fprintf(f, "git revision %s\n", NQ_GIT_REVISION);
    fprintf(f, "built with: hwloc %s, cuda %s, mpi %s; %s %s\n", NQ_BUILT_HWLOC ? "yes" : "no",
            NQ_BUILT_CUDA[0] ? NQ_BUILT_CUDA : "no", NQ_BUILT_MPI ? "yes (nqueens-mpi)" : "no",
            NQ_BUILD_COMPILER, NQ_BUILD_FLAGS);
    fprintf(f, "join vector paths: %s (auto here: %s)\n",
            args_simd_names(nq_simd_built, built, sizeof(built)), nq_simd_name(nq_simd_auto()));
    fputs("Copyright (c) 2026 the nqueens authors. MIT License.\n", f);
}
