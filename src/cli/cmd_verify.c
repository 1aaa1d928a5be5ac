/* nqueens verify: count a range of board sizes and check each against OEIS A000170 and,
 * with an engine that counts symmetry classes, A002562. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tools/args_messages.h"
#include "tools/args_parser.h"
#include "tools/count_opts.h"
#include "tools/count_output.h"
#include "tools/number.h"

/* The default TO, and where FROM alone runs to: one number, in the code and the help. */
#define VERIFY_END 16
#define VERIFY_STR(x) #x
#define VERIFY_XSTR(x) VERIFY_STR(x)

static const args_option verify_options[] = {
    COUNT_OPTS_OPTIONS,
    {OPT_JSON, "json", 'j', no_argument, NULL,
     "one JSON object per n (count's, with expected_total\nand expected_unique), no summary", NULL,
     NULL},
    ARGS_OPT_END,
};

const args_command verify_command = {
    "verify",
    "[FROM [TO]] [options]",
    "Count every N in FROM..TO (default 1.." VERIFY_XSTR(
        VERIFY_END) ", at most 27, the last "
                    "published value)\n"
                    "and check each total against OEIS A000170 and, with an engine that counts\n"
                    "symmetry classes (join, d4, cuda), each unique count against OEIS A002562.\n"
                    "FROM alone runs to " VERIFY_XSTR(VERIFY_END) " when it is below " VERIFY_XSTR(
                        VERIFY_END) ", else it is the one size checked:\n"
                                    "'verify 10' checks 10.." VERIFY_XSTR(
                                        VERIFY_END) ", 'verify 20' checks only 20.\n"
                                                    "Exit status 1 on any mismatch.\n",
    verify_options,
    NULL,
};

/* FROM and TO from the positionals; 0 or EXIT_USAGE (reported). */
static int verify_range(const char *const *pos, int n_pos, int *from, int *to)
{
    long v;

    for (int i = 0; i < n_pos; i++) {
        if (number_parse_long(pos[i], 1, 27, &v) != 0)
            return args_usage_error("verify",
                                    "invalid %s '%s': expected an integer 1..27 (the "
                                    "published values)",
                                    i ? "TO" : "FROM", pos[i]);
        if (i == 0)
            *from = *to = (int)v;
        else
            *to = (int)v;
    }
    if (n_pos == 1 && *from < VERIFY_END)
        *to = VERIFY_END; /* "verify 10" checks 10..16, the default end, unless FROM is past it */
    if (*from > *to)
        return args_usage_error("verify", "FROM %d is greater than TO %d", *from, *to);
    return 0;
}

/* Count board n and print its line or object; 1 if it passed, 0 if not, or -1 after a
 * run or write failure (reported). */
static int verify_failed(const char *fmt, int n, int rc)
{
    args_run_error("verify", fmt, n, nq_strerror(rc));
    return -1;
}

static int verify_one(const count_opts *o, int n, int json)
{
    nq_settings s;
    nq_solver *sv;
    nq_result r;
    nq_u128 want;
    char extra[128], want_s[40], unique_s[40] = "null";
    int rc;

    count_opts_settings(o, n, &s);
    rc = nq_create_solver(&sv, &s);
    if (rc != NQ_OK)
        return verify_failed("cannot create a solver for n=%d: %s", n, rc);
    rc = nq_count(sv, NULL, &r);
    nq_destroy_solver(&sv);
    if (rc != NQ_OK)
        return verify_failed("count of n=%d failed: %s", n, rc);
    args_warn_unpinned(o, &r);
    if (json) {
        count_report c = {n, &r, r.user_seconds + r.system_seconds, extra, NULL};
        if (r.has_unique && nq_known_unique(n, &want) == NQ_OK)
            nq_u128_to_string(want, unique_s, sizeof(unique_s));
        nq_known_total(n, &want);
        snprintf(extra, sizeof(extra), "\"expected_total\": %s, \"expected_unique\": %s",
                 nq_u128_to_string(want, want_s, sizeof(want_s)), unique_s);
        count_output_json(stdout, &c);
    } else {
        count_output_verify_line(stdout, n, &r);
    }
    /* Each line as it comes: a run of many n is watched; a lost line is a failure. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        args_run_error("verify", "cannot write the line of n=%d: %s", n,
                       strerror(errno ? errno : EIO));
        return -1;
    }
    return count_output_verified(n, &r) == 1;
}

int cmd_verify(int argc, char **argv)
{
    static const char *const cmd = "verify";
    count_opts o;
    args_parser p;
    const char *pos[2] = {NULL, NULL};
    int n_pos = 0, id, json = 0, from = 1, to = VERIFY_END, failed = 0, passed = 0;

    count_opts_default(&o);
    args_begin(&p, &verify_command, argc, argv);
    while ((id = args_next(&p)) != ARG_END) {
        if (id == ARG_EXIT)
            return p.exit_code;
        if (id == ARG_POSITIONAL) {
            if (n_pos == 2)
                return args_usage_error(cmd, "unexpected argument '%s': verify takes FROM TO",
                                        p.value);
            pos[n_pos++] = p.value;
        } else if (id == OPT_JSON) {
            json = 1;
        } else if (count_opts_take(&o, cmd, id, p.value) != 1) {
            return EXIT_USAGE;
        }
    }
    if (count_opts_check(cmd, &o, 0) != 0 || verify_range(pos, n_pos, &from, &to) != 0)
        return EXIT_USAGE;
    for (int n = from; n <= to; n++) /* every board, before the first count */
        if (count_opts_check_n(cmd, &o, o.engine, n) != 0)
            return EXIT_USAGE;

    for (int n = from; n <= to; n++) {
        int ok = verify_one(&o, n, json);
        if (ok < 0)
            return EXIT_RUN_FAILED;
        ok ? passed++ : failed++;
    }
    if (!json)
        printf("verify: %d passed, %d failed\n", passed, failed);
    return failed ? EXIT_RUN_FAILED : 0;
}
