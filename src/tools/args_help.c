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

/* Engine e as the library names it: 1 built, 0 left out of this build (its name
 * answers NQ_EUNSUPPORTED), -1 past the table (NQ_EINVAL). */
static int engine_state(int e)
{
    int back = nq_engine_from_name(nq_engine_name(e));
    return back == e ? 1 : back == NQ_EUNSUPPORTED ? 0 : -1;
}

/* Every engine the library names; all: the ones this build leaves out too, marked. */
static const char *engine_names(int all, char *names, size_t size)
{
    size_t len = (size_t)snprintf(names, size, "%s", nq_engine_name(NQ_ENGINE_AUTO));

    for (int e = 0, st; (st = engine_state(e)) >= 0; e++) {
        int k;
        if (!st && !all)
            continue;
        k = snprintf(names + len, size - len, "%s%s%s", len ? ", " : "", nq_engine_name(e),
                     st ? "" : " (not in this build)");
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

/* A vector path as engine_state says an engine: 1 built, 0 not, -1 past the last. */
static int simd_state(int p)
{
    return p > NQ_SIMD_AVX512 ? -1 : p > NQ_SIMD_AUTO && nq_simd_built(p);
}

/* The args_words of auto (id) and then, from id 0 up, each id state says is built. */
static const char *built_word(int i, const char **about, int auto_id, int (*state)(int),
                              const char *(*name)(int))
{
    if (about)
        *about = NULL;
    if (i == 0)
        return name(auto_id);
    for (int id = 0, st; (st = state(id)) >= 0; id++)
        if (st && --i == 0)
            return name(id);
    return NULL;
}

const char *args_engine_word(int i, const char **about)
{
    return built_word(i, about, NQ_ENGINE_AUTO, engine_state, nq_engine_name);
}

const char *args_simd_word(int i, const char **about)
{
    return built_word(i, about, NQ_SIMD_AUTO, simd_state, nq_simd_name);
}

const char *args_words_text(args_words *words, char *buf, size_t size)
{
    size_t len = 0;
    const char *w;

    buf[0] = '\0';
    for (int i = 0; (w = words(i, NULL)) && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                i == 0               ? ""
                                : words(i + 1, NULL) ? ", "
                                                     : " or ",
                                w);
    return buf;
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

/* The "{words}" field: each word on a line of its own with what it means, that text's
 * own lines indented two more; words that say nothing more run on as "a, b or c". */
static void put_words(FILE *f, args_words *words, int indent)
{
    const char *w, *about;
    char text[512];

    if (words(0, &about) && !about) {
        fputs(args_words_text(words, text, sizeof(text)), f);
        return;
    }
    for (int i = 0; (w = words(i, &about)); i++) {
        fprintf(f, "\n%*s%s%s", indent, "", w, about ? ": " : "");
        for (const char *p = about; p && *p; p++)
            if (*p == '\n')
                fprintf(f, "\n%*s", indent + 2, "");
            else
                fputc(*p, f);
    }
}

/* o's help text with the {engines}, {default_engine}, {max_threads} and {words} fields
 * filled in, each line after the first indented to column indent. */
static void put_help_text(FILE *f, const args_option *o, int indent)
{
    static const struct {
        const char *field;
        const char *(*value)(void);
    } fields[] = {{"{engines}", built_engine_names},
                  {"{default_engine}", default_engine_name},
                  {"{max_threads}", max_threads}};

    for (const char *p = o->help; *p; p++) {
        size_t i;
        if (*p == '\n') {
            fprintf(f, "\n%*s", indent, "");
            continue;
        }
        if (o->words && strncmp(p, "{words}", 7) == 0) {
            put_words(f, o->words, indent);
            p += 6;
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
    put_help_text(f, o, COLUMN);
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

/* The option of c that name is ("--format" or "-f"), the help and the version too;
 * NULL for none (an option c refuses included). */
static const args_option *find_option(const args_command *c, const char *name)
{
    const args_option *tables[] = {c->options, args_common_options};

    for (size_t t = 0; t < COUNT(tables); t++)
        for (const args_option *o = tables[t]; o->name; o++) {
            int is = name[0] == '-' && name[1] == '-'
                         ? strcmp(name + 2, o->name) == 0
                         : name[0] == '-' && o->letter && name[1] == o->letter && !name[2];
            if (is)
                return o->id == OPT_REFUSED ? NULL : o;
        }
    return NULL;
}

int args_list_values(int argc, char **argv, const args_command *(*find)(const char *name))
{
    const args_command *c;
    const args_option *o;
    const char *w;

    if (argc != 4)
        return args_usage_error(NULL,
                                "--list-values takes a command and one of its options: %s "
                                "--list-values list --format",
                                args_program);
    if (!(c = find(argv[2])))
        return args_usage_error(NULL, "--list-values: unknown command '%s' (see '%s --help')",
                                argv[2], args_program);
    if (!(o = find_option(c, argv[3])))
        return args_usage_error(c->name, "--list-values: no option '%s' (see '%s %s --help')",
                                argv[3], args_program, c->name);
    for (int i = 0; o->words && (w = o->words(i, NULL)); i++)
        printf("%s\n", w);
    return 0;
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
