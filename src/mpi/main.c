/* nqueens-mpi: `nqueens count` spread over the ranks of an MPI job. Rank 0 reads the
 * arguments, tells every rank the plan, coordinates (coordinator.c) and prints; the
 * other ranks run batches of tasks (worker.c). Output and exit codes are nqueens's. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coordinator.h"
#include "core/clock.h"
#include "core/u128.h"
#include "tools/args_help.h"
#include "tools/args_messages.h"
#include "tools/args_parser.h"
#include "tools/checkpoint.h"
#include "tools/count_args.h"
#include "tools/count_job.h"
#include "tools/count_opts.h"
#include "tools/count_output.h"
#include "tools/devices.h"
#include "tools/progress.h"
#include "tools/signals.h"
#include "tools/subtotals.h"
#include "worker.h"

/* count's options and the one that only a job has. */
static const args_option mpi_count_options[] = {COUNT_ARGS_OPTIONS, COUNT_ARGS_OPT_WORKER_TIMEOUT,
                                                ARGS_OPT_END};

static const args_command count_command = {
    "count",
    "N [options]        (run it under mpirun or srun)",
    "Count the solutions of the N-queens problem (1 <= N <= 32) over every rank of the\n"
    "MPI job and print the total on rank 0, as 'nqueens count' does. Rank 0 hands out\n"
    "batches of tasks and computes too; --threads is per rank. Rank 0 keeps the\n"
    "checkpoint (nqueens count can resume it too), the progress and the subtotals.\n"
    "--json adds \"ranks\".\n",
    mpi_count_options,
    NULL,
};

/* What rank 0 read from the command line, broadcast as bytes: every rank runs the same
 * binary, so the layout is the same everywhere (the paths in it mean something on rank 0
 * only, which is the only rank that opens files). */
typedef struct mpi_args {
    int exit_code; /* -1: run; otherwise every rank exits with it */
    count_args c;
} mpi_args;

/* --list-values' lookup: nqueens-mpi has count alone. */
static const args_command *command_args(const char *name)
{
    return strcmp(name, "count") == 0 ? &count_command : NULL;
}

static void usage(void)
{
    fputs("usage: mpirun [-np P] nqueens-mpi count N [options]   (count --help for more)\n"
          "\n  -V, --version  the version and what this build has\n"
          "  -h, --help     this help\n",
          stdout);
}

static int parse_args(int argc, char **argv, mpi_args *a)
{
    int opt;

    if (argc < 2)
        return args_usage_error(NULL, "missing command: expected count (see "
                                      "'nqueens-mpi --help')");
    if (strcmp(argv[1], "help") == 0 && argc == 3 && strcmp(argv[2], "count") == 0)
        return count_args_parse(&a->c, &count_command, 2, (char *[]){"count", "--help", NULL});
    if (strcmp(argv[1], "help") == 0 && argc == 3 && strcmp(argv[2], "help") == 0) {
        usage();
        return 0;
    }
    opt = strcmp(argv[1], "help") == 0 ? OPT_HELP : args_top_option(argv[1], "nqueens-mpi --help");
    if (opt < 0)
        return EXIT_USAGE;
    if (opt == OPT_HELP) {
        if (argc > 2)
            return args_usage_error(NULL, "%s takes no arguments (see 'nqueens-mpi --help')",
                                    argv[1]);
        usage();
        return 0;
    }
    if (opt == OPT_VERSION) {
        if (argc > 2)
            return args_usage_error(NULL, "%s takes no arguments (got '%s')", argv[1], argv[2]);
        args_print_version(stdout);
        return 0;
    }
    if (strcmp(argv[1], "count") != 0)
        return args_usage_error(NULL,
                                "unknown command '%s': expected count (see 'nqueens-mpi "
                                "--help')",
                                argv[1]);
    return count_args_parse(&a->c, &count_command, argc - 1, argv + 1);
}

/* The ranks' members of the JSON object: how many, each one's workers (threads and
 * pinned_threads are rank 0's, as --threads is per rank) and the job's sums. */
static void rank_json(char *buf, size_t size, const mpi_outcome *m, const int *rank_threads,
                      int n_ranks)
{
    size_t len = (size_t)snprintf(buf, size, "\"ranks\": %d, \"rank_threads\": [", n_ranks);
    for (int r = 0; r < n_ranks && len < size; r++)
        len += (size_t)snprintf(buf + len, size - len, "%s%d", r ? ", " : "", rank_threads[r]);
    if (len < size)
        snprintf(buf + len, size - len, "], \"total_threads\": %d, \"total_pinned_threads\": %d",
                 m->threads, m->pinned);
}

/* cpu_seconds: every rank's CPU time summed (< 0: unknown). */
static int print_result(const mpi_args *a, const mpi_outcome *m, const int *rank_threads,
                        int n_ranks, double cpu_seconds)
{
    nq_result r = m->r;
    size_t size = 96 + 12 * (size_t)n_ranks;
    char *ranks = malloc(size);
    int rc;

    if (!ranks)
        return args_run_error("count", "out of memory");
    r.setup_seconds = 0; /* seconds is the whole job's, from MPI_Init */
    r.n_threads = rank_threads[0];
    r.n_pinned = m->rank0_pinned;
    /* the journal's share was not counted by this job: the rate leaves it out */
    r.tasks_reused = m->reused;
    r.reused_total = u128_pack(u128_unpack(m->r.total) - u128_unpack(m->computed_total));
    rank_json(ranks, size, m, rank_threads, n_ranks);
    count_report c = {a->c.n, &r, cpu_seconds, ranks,
                      subtotals_to_stdout(a->c.r.subtotals) ? stderr : stdout};
    rc = count_output_print("count", &c, a->c.json, a->c.unique);
    free(ranks);
    return rc;
}

/* Rank 0: settings every rank shares (task ids resolved for all the job's workers, or
 * those of the journal being resumed), with the memory check for rank 0's own workers
 * (the other ranks' are the library's, on their machines), the task count and every
 * output file opened, so that none fails after the count; as nqueens count plans. */
static int plan_settings(const mpi_args *a, int total_threads, int rank0_threads, nq_settings *s,
                         count_job *job)
{
    count_job_use use = {a->c.unique, 0, rank0_threads, 1}; /* whole task sets */
    int rc;

    count_opts_settings(&a->c.o, a->c.n, s);
    s->n_threads = total_threads;
    if ((rc = count_job_begin(job, "count", &a->c.r, &a->c.o, &use, s)) == 0)
        *s = job->rs;
    return rc;
}

/* A rank sent nothing for --worker-timeout: say which, close the journal with what
 * finished and say how to resume. */
static int silent_rank(const mpi_args *a, const mpi_outcome *m, count_job *job)
{
    uint64_t done =
        job->journal ? job->done_before + nq_journal_appended(job->journal) : m->computed;

    args_note("count",
              "rank %d sent nothing for %ld s (stopped, hung or cut off): the run is stopped "
              "(--worker-timeout)",
              m->silent_rank, a->c.worker_timeout);
    if (job->journal)
        checkpoint_recorded(a->c.r.checkpoint, &job->journal, a->c.n, NULL, done, m->r.tasks);
    else
        args_note("count",
                  "%llu of %llu tasks were done; nothing was saved (--checkpoint FILE makes a "
                  "run resumable)",
                  (unsigned long long)done, (unsigned long long)m->r.tasks);
    return EXIT_RUN_FAILED;
}

/* Rank 0 after the coordinator: the journal closed, the subtotals written and the result
 * printed, or what stopped the run said. Returns the exit code every rank leaves with. */
static int finish(const mpi_args *a, int rc, mpi_outcome *m, count_job *job,
                  const int *rank_threads, int n_ranks, double cpu_seconds)
{
    count_end e = {rc, m->signal, &m->r, m->computed, m->sub, 0, 0};

    if (rc == NQ_ECANCELED && m->silent_rank)
        return silent_rank(a, m, job);
    if ((rc = count_job_end(job, "count", &a->c.r, &e)) != 0)
        return rc;
    if (m->reused < m->r.tasks) { /* no pool ran when the journal held every task */
        nq_result shown = {0};
        shown.n_threads = m->threads;
        shown.n_pinned = m->pinned;
        args_warn_unpinned(&a->c.o, &shown);
    }
    return print_result(a, m, rank_threads, n_ranks, cpu_seconds);
}

/* Only rank 0 reads the arguments, so that a mistake is reported once; every rank gets
 * what it read. */
static void read_args(int rank, int argc, char **argv, mpi_args *a)
{
    memset(a, 0, sizeof(*a));
    if (rank == 0) {
        a->exit_code = parse_args(argc, argv, a);
        /* the help or the version lost on a full disk is a failure, as in nqueens */
        if (a->exit_code == 0 && (fflush(stdout) != 0 || ferror(stdout)))
            a->exit_code = args_run_error(NULL, "cannot write the output");
    }
    MPI_Bcast(a, sizeof(*a), MPI_BYTE, 0, MPI_COMM_WORLD);
}

/* Every rank's worker count to rank 0 (into *rank_threads there), which plans the
 * settings for all of them and opens the files; every rank gets the plan in *s and
 * the verdict, 0 or the exit code. */
static int plan_job(int rank, int n_ranks, int mine, const mpi_args *a, nq_settings *s,
                    count_job *job, int **rank_threads)
{
    int rc = 0;

    if (rank == 0) {
        *rank_threads = calloc((size_t)n_ranks, sizeof(int));
        if (!*rank_threads)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(&mine, 1, MPI_INT, *rank_threads, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        int total = 0;
        for (int r = 0; r < n_ranks; r++)
            total += (*rank_threads)[r];
        rc = plan_settings(a, total, mine, s, job);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(s, sizeof(*s), MPI_BYTE, 0, MPI_COMM_WORLD);
    return rc;
}

/* Rank 0's part of the count: coordinate, then finish (t0 and cpu0: when the job
 * started). Returns the exit code every rank leaves with. */
static int run_rank0(const mpi_args *a, const nq_settings *s, const int *rank_threads, int n_ranks,
                     count_job *job, double t0, double cpu0)
{
    coordinator_opts opts = {job->journal, job->ts.tasks, progress_mode(a->c.r.progress),
                             a->c.r.subtotals != NULL, (double)a->c.worker_timeout};
    mpi_outcome m;
    double cpu_sum = -1.0;
    int rc = coordinator_run(s, rank_threads, n_ranks, &opts, &m);

    m.r.seconds = MPI_Wtime() - t0;
    /* every rank's CPU time, each from the job's start to its end; not from ranks that
     * were left busy */
    if (!m.abandoned)
        cpu_sum = clock_cpu() - cpu0 + m.workers_cpu;
    rc = finish(a, rc, &m, job, rank_threads, n_ranks, cpu_sum);
    count_job_close(job); /* the journal closed before any MPI_Abort */
    free(m.sub);
    if (m.abandoned) {
        /* Some rank is still inside a task: end it with the job. */
        fflush(NULL);
        MPI_Abort(MPI_COMM_WORLD, rc);
    }
    return rc;
}

int main(int argc, char **argv)
{
    mpi_args a;
    nq_settings s;
    int provided, rank, n_ranks, mine, rc;
    int *rank_threads = NULL;
    count_job job = {0};
    double t0, cpu0;

    args_program = "nqueens-mpi";
    /* the completions' query, answered without MPI (its start alone takes half a second) */
    if (argc > 1 && strcmp(argv[1], "--list-values") == 0)
        return args_list_values(argc, argv, command_args);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    cpu0 = clock_cpu();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    t0 = MPI_Wtime();
    /* On every rank, before anything runs: a signal that comes early stops the run as
     * soon as it starts. mpirun turns a SIGINT or SIGTERM it receives into SIGTERM to
     * every rank. */
    signals_install();
    signals_file_limit_fails_writes();

    read_args(rank, argc, argv, &a);
    if (a.exit_code >= 0) {
        MPI_Finalize();
        return a.exit_code;
    }
    mine = nq_resolve_threads(a.c.o.threads);
    rc = plan_job(rank, n_ranks, mine, &a, &s, &job, &rank_threads);
    if (rc != 0) {
        count_job_close(&job);
        free(rank_threads);
        MPI_Finalize();
        return rc;
    }
    s.n_threads = mine;
    s.pin_threads = a.c.o.pin;
    devices_env(&s.gpu); /* each rank's own environment, as for its threads */

    if (rank == 0) {
        rc = run_rank0(&a, &s, rank_threads, n_ranks, &job, t0, cpu0);
    } else {
        worker_run(&s, cpu0); /* a failure here reached rank 0, which reports it */
    }
    signals_restore();
    /* Every rank leaves with rank 0's verdict, so mpirun's exit code is the tool's. */
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(rank_threads);
    MPI_Finalize();
    return rc;
}
