/* Argument parsing shared by the subcommands: getopt_long over each command's option
 * table, the help printed from the same table, and the messages. Everything a person
 * types is checked here in full (range, trailing garbage) before the library sees it. */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "args.h"
#include "build_info.h"
#include "build_vcs.h"
#include "config.h"
#include "devices.h"
#include "number.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *args_program = "nqueens";

/* ---- messages ----------------------------------------------------------------------- */

/* Length of the UTF-8 sequence at p that a terminal shows as text (not a C1 control),
 * or 0. */
static size_t utf8_text_len(const unsigned char *p)
{
    size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2;
    uint32_t cp = p[0] & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);

    if (p[0] < 0xc2 || p[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < 0xa0 || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* s with control bytes and bytes outside UTF-8 text written as \xHH. */
static void put_safe(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = *p >= 0x20 && *p < 0x7f ? 1 : *p >= 0x80 ? utf8_text_len(p) : 0;
        if (k == 0) {
            fprintf(f, "\\x%02x", *p++);
            continue;
        }
        fwrite(p, 1, k, f);
        p += k;
    }
}

/* The messages' own printf: every conversion as printf writes it, except that a string
 * longer than ARG_SHOWN bytes (a 5,000-character path, an argument pasted by mistake)
 * loses its middle to "...", so that a line stays readable and never loses its reason.
 * whole: no string is shortened (a command line to paste). The line is malloc'd. */
enum { ARG_SHOWN = 240, ARG_HEAD = 120 };

typedef struct msg_line {
    char *s;
    size_t len, cap;
    int failed;
} msg_line;

static void msg_put(msg_line *m, const char *p, size_t k)
{
    if (m->failed)
        return;
    if (m->len + k + 1 > m->cap) {
        size_t cap = (m->len + k + 1) * 2;
        char *s = realloc(m->s, cap);
        if (!s) {
            m->failed = 1;
            return;
        }
        m->s = s;
        m->cap = cap;
    }
    memcpy(m->s + m->len, p, k);
    m->len += k;
    m->s[m->len] = '\0';
}

/* s, or its first ARG_HEAD and its last bytes around "...", cut between characters. */
static void msg_put_string(msg_line *m, const char *s, int whole)
{
    size_t len = strlen(s), head = ARG_HEAD, tail = ARG_SHOWN - ARG_HEAD - 3;

    if (whole || len <= ARG_SHOWN) {
        msg_put(m, s, len);
        return;
    }
    while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
        head--; /* not inside a UTF-8 sequence */
    while (tail > 0 && ((unsigned char)s[len - tail] & 0xc0) == 0x80)
        tail--;
    msg_put(m, s, head);
    msg_put(m, "...", 3);
    msg_put(m, s + len - tail, tail);
}

/* A conversion's text, as printf's own format: the flags, width, precision and length of
 * the '%' at hand, and what they ask of the argument list. */
typedef struct msg_spec {
    char text[32];   /* "%" and the conversion, for snprintf */
    int star[2];     /* the '*' width and precision, taken from the arguments */
    int n_star, lng; /* how many '*'; how many 'l' */
    int size;        /* the other length letter (z, j, t, L), or 0 */
    char conv;       /* the conversion letter */
} msg_spec;

/* Read the conversion at fmt (after the '%') into *c, taking any '*' arguments from ap;
 * returns its last character. */
static const char *msg_spec_read(msg_spec *c, const char *fmt, va_list *ap)
{
    const char *p = fmt;
    size_t n;

    memset(c, 0, sizeof(*c));
    while (*p && strchr("-+ #0", *p))
        p++;
    for (int part = 0; part < 2; part++) { /* width, then precision */
        if (part == 1 && *p != '.')
            break;
        if (part == 1)
            p++;
        if (*p == '*') {
            c->star[c->n_star++] = va_arg(*ap, int);
            p++;
        }
        while (*p >= '0' && *p <= '9')
            p++;
    }
    for (; *p && strchr("hlzjtL", *p); p++) {
        c->lng += *p == 'l';
        if (*p != 'h' && *p != 'l')
            c->size = *p;
    }
    n = (size_t)(p - fmt) + 1;
    if (!*p || n + 2 > sizeof(c->text))
        abort(); /* a format the compiler checked cannot end here */
    c->text[0] = '%';
    memcpy(c->text + 1, fmt, n);
    c->text[n + 1] = '\0';
    c->conv = *p;
    return p;
}

/* The conversion c of the next argument in ap, into piece as snprintf writes it; returns
 * snprintf's length. The argument's type follows from the conversion and its length. */
static int msg_piece(const msg_spec *c, va_list *ap, char *piece, size_t size)
{
    int k = -1;
#define PIECE(type)                                                                                \
    do {                                                                                           \
        type v_ = va_arg(*ap, type);                                                               \
        k = c->n_star == 2   ? snprintf(piece, size, c->text, c->star[0], c->star[1], v_)          \
            : c->n_star == 1 ? snprintf(piece, size, c->text, c->star[0], v_)                      \
                             : snprintf(piece, size, c->text, v_);                                 \
    } while (0)
    switch (c->conv) {
    case 'd':
    case 'i':
        if (c->size == 'z')
            PIECE(ssize_t);
        else if (c->size == 'j')
            PIECE(intmax_t);
        else if (c->size == 't')
            PIECE(ptrdiff_t);
        else if (c->lng == 1)
            PIECE(long);
        else if (c->lng)
            PIECE(long long);
        else
            PIECE(int);
        break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
        if (c->size == 'z' || c->size == 't')
            PIECE(size_t);
        else if (c->size == 'j')
            PIECE(uintmax_t);
        else if (c->lng == 1)
            PIECE(unsigned long);
        else if (c->lng)
            PIECE(unsigned long long);
        else
            PIECE(unsigned);
        break;
    case 'c':
        PIECE(int);
        break;
    case 'e':
    case 'f':
    case 'g':
        if (c->size == 'L')
            PIECE(long double);
        else
            PIECE(double);
        break;
    case 's':
        PIECE(const char *); /* with a width or precision: as printf has it */
        break;
    case 'p':
        PIECE(void *);
        break;
    default:
        abort(); /* a conversion the messages do not use (%n, %ls) */
    }
#undef PIECE
    return k;
}

/* One conversion at fmt (after the '%'), its argument taken from ap; returns the end. */
static const char *msg_convert(msg_line *m, const char *fmt, va_list *ap, int whole)
{
    char piece[512];
    msg_spec c;
    const char *p = msg_spec_read(&c, fmt, ap);
    int k;

    if (c.conv == 's' && p == fmt) { /* a plain %s: shortened when long */
        const char *s = va_arg(*ap, const char *);
        msg_put_string(m, s ? s : "(null)", whole);
        return p + 1;
    }
    if (c.conv == '%') {
        msg_put(m, "%", 1);
        return p + 1;
    }
    k = msg_piece(&c, ap, piece, sizeof(piece));
    if (k > 0)
        msg_put(m, piece, (size_t)k < sizeof(piece) ? (size_t)k : sizeof(piece) - 1);
    return p + 1;
}

static char *msg_format(const char *fmt, va_list ap, int whole)
{
    msg_line m = {NULL, 0, 0, 0};
    va_list aq;

    va_copy(aq, ap);
    msg_put(&m, "", 0);
    while (*fmt) {
        size_t k = strcspn(fmt, "%");
        msg_put(&m, fmt, k);
        fmt += k;
        if (*fmt == '%')
            fmt = msg_convert(&m, fmt + 1, &aq, whole);
    }
    va_end(aq);
    if (m.failed) {
        free(m.s);
        return NULL;
    }
    return m.s;
}

static void vreport(const char *cmd, int whole, const char *fmt, va_list ap)
{
    char *line = msg_format(fmt, ap, whole);

    fprintf(stderr, "%s%s%s: ", args_program, cmd ? " " : "", cmd ? cmd : "");
    put_safe(stderr, line ? line : fmt); /* no memory: at least what went wrong */
    fputc('\n', stderr);
    fflush(stderr);
    free(line);
}

int args_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, 0, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int args_run_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, 0, fmt, ap);
    va_end(ap);
    return EXIT_RUN_FAILED;
}

void args_note(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, 0, fmt, ap);
    va_end(ap);
}

void args_hint(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, 1, fmt, ap);
    va_end(ap);
}

char *args_shell_word(const char *s)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789._/-+=:,@%";
    size_t len = strlen(s);
    int quote = !*s || strspn(s, plain) != len, dollar = 0;
    /* each byte at most 4 ("\\xHH", "'\\''"), and the quotes */
    char *buf = malloc(4 * len + 4), *w = buf;

    if (!buf)
        return NULL;
    /* A byte the messages would write as \xHH (a newline, a byte that is not UTF-8 text)
     * means another name inside '...': such a word is $'...', with escapes. */
    for (const unsigned char *p = (const unsigned char *)s; *p && !dollar;) {
        size_t k = *p >= 0x20 && *p < 0x7f ? 1 : *p >= 0x80 ? utf8_text_len(p) : 0;
        dollar = k == 0;
        p += k;
    }
    if (dollar)
        *w++ = '$';
    if (quote)
        *w++ = '\'';
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = *p >= 0x20 && *p < 0x7f ? 1 : *p >= 0x80 ? utf8_text_len(p) : 0;
        if (*p == '\'') {
            w += sprintf(w, dollar ? "\\'" : "'\\''");
        } else if (dollar && *p == '\\') {
            w += sprintf(w, "\\\\");
        } else if (k == 0) {
            w += *p == '\n'   ? sprintf(w, "\\n")
                 : *p == '\t' ? sprintf(w, "\\t")
                              : sprintf(w, "\\x%02x", *p);
            p++;
            continue;
        } else {
            memcpy(w, p, k);
            w += k;
            p += k;
            continue;
        }
        p++;
    }
    if (quote)
        *w++ = '\'';
    *w = '\0';
    return buf;
}

/* ---- engines, help and version ------------------------------------------------------ */

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

/* Help text with the {engines} and {default_engine} fields filled in, each line after
 * the first indented to column indent. */
static void put_help_text(FILE *f, const char *text, int indent)
{
    static const struct {
        const char *field;
        const char *(*value)(void);
    } fields[] = {{"{engines}", built_engine_names}, {"{default_engine}", default_engine_name}};

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

static const args_option common_options[] = {
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
    for (const args_option *o = common_options; o->name; o++)
        print_option(f, o);
    if (c->epilogue)
        fprintf(f, "\n%s", c->epilogue);
}

/* The vector paths for which has() says 1, narrowest first: "scalar, avx2". */
static const char *simd_names(int (*has)(int), char *buf, size_t size)
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
            simd_names(nq_simd_built, built, sizeof(built)), nq_simd_name(nq_simd_auto()));
    fputs("Copyright (c) 2026 the nqueens authors. MIT License.\n", f);
}

/* ---- the parser --------------------------------------------------------------------- */

void args_begin(args_parser *p, const args_command *c, int argc, char **argv)
{
    const args_option *const tables[] = {c->options, common_options};
    char *s;

    memset(p, 0, sizeof(*p));
    p->cmd = c;
    p->argc = argc;
    p->argv = argv;
    p->last_index = -1;
    /* '-': positionals come back in order (code 1); ':': a missing value is ':'. */
    s = p->shortopts;
    *s++ = '-';
    *s++ = ':';
    for (size_t t = 0; t < COUNT(tables); t++)
        for (const args_option *o = tables[t]; o->name; o++) {
            int i = p->n_options++;
            if (i >= ARGS_MAX_OPTIONS)
                abort(); /* a table grew past the parser: a build-time mistake */
            p->options[i] = o;
            /* val is the letter, or 256 + the index: either maps back to the entry */
            p->longopts[i] =
                (struct option){o->name, o->has_arg, NULL, o->letter ? o->letter : 256 + i};
            if (o->letter) {
                *s++ = (char)o->letter;
                if (o->has_arg != no_argument)
                    *s++ = ':';
                if (o->has_arg == optional_argument)
                    *s++ = ':';
            }
        }
    *s = '\0';
    optind = 0; /* glibc: start afresh, even if another table was parsed before */
    opterr = 0; /* the messages are ours */
}

static int find_val(const args_parser *p, int val)
{
    for (int i = 0; i < p->n_options; i++)
        if (p->longopts[i].val == val)
            return i;
    return -1;
}

/* Edit distance with adjacent transpositions, capped: small typos only. */
static int distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b);
    int d[48][48];

    if (la >= 48 || lb >= 48)
        return 99;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* An unknown "--name[=value]": ambiguous among several, a near miss of one, or unknown. */
static int unknown_long(const args_parser *p, const char *arg)
{
    const char *name = arg + 2, *cmd = p->cmd->name;
    size_t len = strcspn(name, "=");
    char matches[256] = "";
    int n_matches = 0, best = -1, best_d = 99;

    for (int i = 0; i < p->n_options; i++) {
        const char *o = p->longopts[i].name;
        int d;
        if (len && strncmp(o, name, len) == 0) {
            size_t k = strlen(matches);
            snprintf(matches + k, sizeof(matches) - k, "%s--%s", n_matches++ ? ", " : "", o);
        }
        d = distance(name, len, o);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    if (n_matches > 1)
        return args_usage_error(cmd, "ambiguous option '%.*s': %s", (int)len + 2, arg, matches);
    if (best >= 0 && best_d <= (len > 5 ? 2 : 1))
        return args_usage_error(cmd, "unknown option '%s': did you mean --%s? (see '%s %s --help')",
                                arg, p->longopts[best].name, args_program, cmd);
    return args_usage_error(cmd, "unknown option '%s' (see '%s %s --help')", arg, args_program,
                            cmd);
}

int args_top_option(const char *a, const char *see)
{
    static const char *const names[] = {"help", "version"};
    static const int ids[] = {OPT_HELP, OPT_VERSION};
    size_t len;
    int best = -1, best_d = 99;

    if (a[0] != '-' || !a[1])
        return 0;
    len = strcspn(a + 2, "=");
    if (strcmp(a, "-h") == 0 || strcmp(a, "-V") == 0)
        return a[1] == 'h' ? OPT_HELP : OPT_VERSION;
    if (strcmp(a, "-H") == 0 || strcmp(a, "-v") == 0) {
        args_usage_error(NULL, "unknown option '%s': did you mean -%c (--%s)?", a,
                         a[1] == 'H' ? 'h' : 'V', a[1] == 'H' ? "help" : "version");
        return -1;
    }
    /* --name: any prefix of --help or --version, as getopt_long takes it after a command */
    for (size_t i = 0; a[1] == '-' && i < COUNT(names); i++) {
        int d = distance(a + 2, len, names[i]);
        if (len && strncmp(a + 2, names[i], len) == 0) {
            if (a[2 + len] != '=')
                return ids[i];
            args_usage_error(NULL, "--%s takes no value", names[i]);
            return -1;
        }
        if (d < best_d) {
            best_d = d;
            best = (int)i;
        }
    }
    if (best >= 0 && best_d <= (len > 5 ? 2 : 1))
        args_usage_error(NULL, "unknown option '%s': did you mean --%s? (see '%s')", a, names[best],
                         see);
    else
        args_usage_error(NULL, "unknown option '%s': a command comes first (see '%s')", a, see);
    return -1;
}

static int exit_with(args_parser *p, int code)
{
    p->exit_code = code;
    return ARG_EXIT;
}

/* The option at index i was given (its value in optarg). */
static int take_option(args_parser *p, int i, const char *arg)
{
    const args_option *o = p->options[i];

    p->value = optarg;
    p->last_index = i;
    p->last_inline = arg && arg[0] == '-' && arg[1] == '-' && strchr(arg, '=') != NULL;
    switch (o->id) {
    case OPT_HELP:
        args_print_help(p->cmd, stdout);
        return exit_with(p, 0);
    case OPT_VERSION:
        args_print_version(stdout);
        return exit_with(p, 0);
    case OPT_REFUSED:
        return exit_with(p, args_usage_error(p->cmd->name, "--%s: %s", o->name, o->refusal));
    default:
        return o->id;
    }
}

/* A positional right after an optional-argument option without '=' that is one of its
 * words ("--progress json"): getopt gives the word to the positionals; say how to write it. */
static int misplaced_word(args_parser *p, const char *arg)
{
    const args_option *o = p->last_index >= 0 ? p->options[p->last_index] : NULL;

    if (!o || o->has_arg != optional_argument || p->last_inline || p->value || !o->words)
        return 0;
    for (const char *const *w = o->words; *w; w++)
        if (strcmp(arg, *w) == 0) {
            args_usage_error(p->cmd->name,
                             "'%s' after --%s is not its value: write --%s=%s (with '=')", arg,
                             o->name, o->name, arg);
            return 1;
        }
    return 0;
}

int args_next(args_parser *p)
{
    const char *cmd = p->cmd->name;
    int c, i, before;

    if (p->rest) {
        if (p->rest >= p->argc)
            return ARG_END;
        p->value = p->argv[p->rest++];
        return ARG_POSITIONAL;
    }
    before = optind ? optind : 1;
    c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
    switch (c) {
    case -1: /* the end, or "--": the rest is positional */
        p->rest = optind;
        return args_next(p);
    case 1:
        if (misplaced_word(p, optarg))
            return exit_with(p, EXIT_USAGE);
        p->value = optarg;
        p->last_index = -1;
        return ARG_POSITIONAL;
    case ':':
        i = find_val(p, optopt);
        return exit_with(p, args_usage_error(cmd, "--%s needs a value (see '%s %s --help')",
                                             p->options[i]->name, args_program, cmd));
    case '?': {
        const char *arg = optind > before ? p->argv[optind - 1] : p->argv[before];
        i = optopt ? find_val(p, optopt) : -1;
        if (i >= 0) /* a known option that takes no value, given one with '=' */
            return exit_with(p, args_usage_error(cmd, "--%s takes no value", p->options[i]->name));
        if (arg[0] == '-' && arg[1] == '-')
            return exit_with(p, unknown_long(p, arg));
        if (optopt >= '0' && optopt <= '9')
            return exit_with(p, args_usage_error(cmd,
                                                 "unknown option '%s': numbers here are not "
                                                 "negative (see '%s %s --help')",
                                                 arg, args_program, cmd));
        i = find_val(p, optopt >= 'a' && optopt <= 'z'   ? optopt - 'a' + 'A'
                        : optopt >= 'A' && optopt <= 'Z' ? optopt - 'A' + 'a'
                                                         : -1);
        if (i >= 0) /* -v for -V: the letter in the other case */
            return exit_with(p, args_usage_error(cmd,
                                                 "unknown option '-%c': did you mean -%c "
                                                 "(--%s)? (see '%s %s --help')",
                                                 optopt, p->options[i]->letter, p->options[i]->name,
                                                 args_program, cmd));
        return exit_with(p, args_usage_error(cmd, "unknown option '-%c' (see '%s %s --help')",
                                             optopt, args_program, cmd));
    }
    default:
        i = find_val(p, c);
        if (i < 0)
            abort(); /* getopt returned a val that is not in the table */
        return take_option(p, i, p->argv[optind - 1]);
    }
}

/* ---- the counting options ----------------------------------------------------------- */

void count_opts_default(count_opts *o)
{
    nq_settings s;
    nq_default_settings(&s);
    memset(o, 0, sizeof(*o));
    o->threads = s.n_threads;
    o->engine = s.engine;
    o->prefix_rows = s.prefix_rows;
    o->pin = s.pin_threads;
    o->devices = s.devices;
    o->simd = s.simd;
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
                                simd_names(nq_simd_usable, usable, sizeof(usable)));
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
        if (number_parse_long(value, 1, 4096, &v) != 0)
            return args_usage_error(cmd,
                                    "invalid --threads '%s': expected 1..4096, or 'max' for "
                                    "every CPU this process may use",
                                    value);
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

/* The first engine that has the capability (the one a message points to), or "" */
static const char *engine_with(int devices)
{
    nq_engine_info info;

    for (int e = 0; nq_engine_describe(e, &info) == NQ_OK; e++)
        if (devices ? info.takes_devices : info.has_simd)
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
                                nq_engine_name(engine), engine_with(1));
    if (o->simd != NQ_SIMD_AUTO && !info.has_simd)
        return args_usage_error(cmd,
                                "--simd does not apply to --engine %s, which has no vector "
                                "paths (--simd picks the %s engine's)",
                                nq_engine_name(engine), engine_with(0));
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
    s->slice_index = o->slice_index;
    s->slice_count = o->slice_count;
    devices_env(&s->gpu);
}

int args_parse_n(const char *cmd, const char *s, int *n)
{
    long v;
    if (number_parse_long(s, 1, NQ_MAX_N, &v) != 0)
        return args_usage_error(cmd, "invalid board size '%s': expected an integer 1..%d", s,
                                NQ_MAX_N);
    *n = (int)v;
    return 0;
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
