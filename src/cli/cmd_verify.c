/* nqueens verify: count a range of board sizes and check each against OEIS A000170 and,
 * with an engine that counts symmetry classes, A002562. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "count_output.h"

static const char verify_help[] =
    "usage: nqueens verify [FROM [TO]] [options]\n"
    "Count every N in FROM..TO (default 1..16, at most 27, the last published value) and\n"
    "check each total against OEIS A000170 and, with the d4 engine, each unique count\n"
    "against OEIS A002562. Exit status 1 on any mismatch.\n"
    "\n" COUNT_OPTS_HELP "  -h, --help         this help\n";

int cmd_verify(int argc, char **argv)
{
    static const char *const cmd = "verify";
    count_opts o;
    args_iter it;
    const char *arg, *pos[2] = {NULL, NULL};
    int n_pos = 0, kind, rc, from = 1, to = 16, failed = 0, passed = 0;
    long v;

    count_opts_default(&o);
    args_iter_init(&it, argc, argv);
    while ((kind = args_next(&it, &arg)) != ARG_END) {
        if (kind == ARG_POSITIONAL) {
            if (strcmp(arg, "-h") == 0) {
                fputs(verify_help, stdout);
                return 0;
            }
            if (n_pos == 2)
                return args_usage_error(cmd, "unexpected argument '%s': verify takes FROM TO", arg);
            pos[n_pos++] = arg;
            continue;
        }
        if (strcmp(it.name, "help") == 0) {
            fputs(verify_help, stdout);
            return 0;
        }
        rc = count_opts_take(&o, cmd, &it);
        if (rc == EXIT_USAGE)
            return rc;
        if (rc == 1)
            continue;
        return args_usage_error(cmd, "unknown option '%s' (see 'nqueens verify --help')", arg);
    }
    if (count_output_check(cmd, &o, 0) != 0)
        return EXIT_USAGE;
    for (int i = 0; i < n_pos; i++) {
        if (args_parse_long(pos[i], 1, 27, &v) != 0)
            return args_usage_error(cmd,
                                    "invalid %s '%s': expected an integer 1..27 (the "
                                    "published values)",
                                    i ? "TO" : "FROM", pos[i]);
        if (i == 0)
            from = to = (int)v;
        else
            to = (int)v;
    }
    if (n_pos == 1 && from < 16)
        to = 16; /* "verify 10" checks 10..16, the default end, unless FROM is past it */
    if (from > to)
        return args_usage_error(cmd, "FROM %d is greater than TO %d", from, to);

    for (int n = from; n <= to; n++) {
        nq_settings s;
        nq_solver *sv;
        nq_result r;
        nq_u128 want, want_u;
        char got_s[40], want_s[40], ugot_s[40] = "-", uwant_s[40] = "-";
        int ok;

        count_opts_settings(&o, n, &s);
        rc = nq_create_solver(&sv, &s);
        if (rc != NQ_OK)
            return args_run_error(cmd, "cannot create solver: %s", nq_strerror(rc));
        rc = nq_count(sv, NULL, &r);
        nq_destroy_solver(&sv);
        if (rc != NQ_OK)
            return args_run_error(cmd, "count of n=%d failed: %s", n, nq_strerror(rc));
        args_warn_unpinned(&o, &r);
        nq_known_total(n, &want);
        ok = want.lo == r.total.lo && want.hi == r.total.hi;
        if (r.has_unique) {
            nq_known_unique(n, &want_u);
            ok &= want_u.lo == r.unique.lo && want_u.hi == r.unique.hi;
            nq_u128_to_string(r.unique, ugot_s, sizeof(ugot_s));
            nq_u128_to_string(want_u, uwant_s, sizeof(uwant_s));
        }
        ok ? passed++ : failed++;
        printf("%s n=%-2d total=%-20s expected=%-20s unique=%-18s expected=%-18s %10.3f s "
               "%14.0f sol/s\n",
               ok ? "PASS" : "FAIL", n, nq_u128_to_string(r.total, got_s, sizeof(got_s)),
               nq_u128_to_string(want, want_s, sizeof(want_s)), ugot_s, uwant_s, r.seconds,
               r.seconds > 0 ? (double)r.total.lo / r.seconds : 0.0);
        fflush(stdout);
    }
    printf("verify: %d passed, %d failed\n", passed, failed);
    return failed ? EXIT_RUN_FAILED : 0;
}
