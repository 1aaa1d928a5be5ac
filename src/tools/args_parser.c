/* The parser of every command: getopt_long over the command's option table (and the
 * options every command takes), with this tool's messages for what it refuses: an
 * unknown option with the near miss it may be, a missing value, a misplaced word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args_help.h"
#include "args_messages.h"
#include "args_parser.h"
#include "nqueens/nqueens.h"
#include "number.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

void args_begin(args_parser *p, const args_command *c, int argc, char **argv)
{
    const args_option *const tables[] = {c->options, args_common_options};
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

const char *args_word_at(const char *const *words, int i, const char **about)
{
    if (about)
        *about = NULL;
    for (int k = 0; words[k]; k++)
        if (k == i)
            return words[k];
    return NULL;
}

const char *args_row_word(const void *rows, size_t size, size_t count, int i, const char **about)
{
    const args_word_row *row;

    if (i < 0 || (size_t)i >= count)
        return NULL;
    row = (const args_word_row *)((const char *)rows + (size_t)i * size);
    if (about)
        *about = row->about;
    return row->name;
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
    const char *w;

    if (!o || o->has_arg != optional_argument || p->last_inline || p->value || !o->words)
        return 0;
    for (int i = 0; (w = o->words(i, NULL)); i++)
        if (strcmp(arg, w) == 0) {
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

int args_next_n(args_parser *p, const char **n_arg)
{
    int id;

    while ((id = args_next(p)) == ARG_POSITIONAL) {
        if (*n_arg)
            return exit_with(p, args_usage_error(p->cmd->name,
                                                 "unexpected argument '%s': %s takes one N",
                                                 p->value, p->cmd->name));
        *n_arg = p->value;
    }
    return id;
}

int args_parse_n(const char *cmd, const char *s, int *n)
{
    long v;

    if (!s)
        return args_usage_error(cmd, "missing board size N (1..%d)", NQ_MAX_N);
    if (number_parse_long(s, 1, NQ_MAX_N, &v) != 0)
        return args_usage_error(cmd, "invalid board size '%s': expected an integer 1..%d", s,
                                NQ_MAX_N);
    *n = (int)v;
    return 0;
}
