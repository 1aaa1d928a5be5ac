/* Progress display and the journal's fsync timer, in one thread that wakes a few times
 * a second. It only reads a snapshot of the run (progress_read_fn), so it never slows
 * the workers; everything it prints goes to stderr. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "progress.h"

static const double tick_seconds = 0.25;

static void format_duration(double s, char *buf, size_t size)
{
    unsigned long long t = s > 0 ? (unsigned long long)(s + 0.5) : 0;
    if (t >= 86400)
        snprintf(buf, size, "%llud%02lluh%02llum", t / 86400, t / 3600 % 24, t / 60 % 60);
    else if (t >= 3600)
        snprintf(buf, size, "%llu:%02llu:%02llu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%llu:%02llu", t / 60, t % 60);
}

static void format_rate(double r, char *buf, size_t size)
{
    static const char *const unit[] = {"", "k", "M", "G", "T", "P"};
    int u = 0;
    while (r >= 1000 && u < 5) {
        r /= 1000;
        u++;
    }
    snprintf(buf, size, "%.*f%s", u ? 1 : 0, r, unit[u]);
}

static void print_progress(progress *p, int final)
{
    progress_snapshot sn;
    char total[40], el[32], eta[32], rate_s[32];
    double elapsed = clock_seconds() - p->t0, pct, sol_rate = 0, task_rate = 0, eta_s = -1;

    memset(&sn, 0, sizeof(sn));
    p->read(p->user, &sn);
    nq_u128_to_string(sn.solutions, total, sizeof(total));
    pct = sn.tasks_total ? 100.0 * (double)sn.tasks_done / (double)sn.tasks_total : 0.0;
    /* Rates count only this run's work, so that a resumed run's ETA is not flattered by
     * what the journal held. */
    if (elapsed > 0) {
        sol_rate = sn.solutions_computed / elapsed;
        task_rate = (double)sn.tasks_computed / elapsed;
    }
    if (task_rate > 0 && sn.tasks_total >= sn.tasks_done)
        eta_s = (double)(sn.tasks_total - sn.tasks_done) / task_rate;
    format_duration(elapsed, el, sizeof(el));
    if (p->mode == PROGRESS_JSON) {
        char eta_j[32] = "null";
        if (eta_s >= 0)
            snprintf(eta_j, sizeof(eta_j), "%.1f", eta_s);
        fprintf(stderr,
                "{\"progress\": {\"tasks_done\": %llu, \"tasks_total\": %llu, \"percent\": %.2f, "
                "\"solutions\": %s, \"solutions_per_second\": %.0f, \"tasks_per_second\": %.2f, "
                "\"elapsed\": %.1f, \"eta\": %s, \"final\": %s}}\n",
                (unsigned long long)sn.tasks_done, (unsigned long long)sn.tasks_total, pct, total,
                sol_rate, task_rate, elapsed, eta_j, final ? "true" : "false");
    } else {
        if (eta_s >= 0)
            format_duration(eta_s, eta, sizeof(eta));
        else
            strcpy(eta, "?");
        format_rate(sol_rate, rate_s, sizeof(rate_s));
        /* \r and erase-to-end redraw one line in place on a terminal. */
        fprintf(stderr,
                "\r\033[K%llu/%llu tasks %5.1f%%  %s solutions  %s sol/s  elapsed %s  ETA %s%s",
                (unsigned long long)sn.tasks_done, (unsigned long long)sn.tasks_total, pct, total,
                rate_s, el, eta, final ? "\n" : "");
    }
    fflush(stderr);
    p->last_print = clock_seconds();
}

static void *progress_main(void *arg)
{
    progress *p = arg;
    double period = p->mode == PROGRESS_JSON ? 1.0 : 0.5;

    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec until = clock_after(CLOCK_REALTIME, (long)(tick_seconds * 1e9));
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (p->stop)
            break;
        pthread_mutex_unlock(&p->lock);
        /* A failed fsync is remembered by the journal; the next append reports it and
         * stops the run, so there is nothing more to do here. */
        if (p->journal)
            nq_journal_tick(p->journal);
        if (p->mode != PROGRESS_OFF && clock_seconds() - p->last_print >= period)
            print_progress(p, 0);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void progress_read_solver(void *user, progress_snapshot *out)
{
    nq_progress np;

    nq_solver_progress(user, &np);
    out->tasks_done = np.tasks_done;
    out->tasks_total = np.tasks_total;
    out->solutions = np.partial_total;
    out->tasks_computed = np.tasks_done;
    out->solutions_computed =
        (double)np.partial_total.hi * 18446744073709551616.0 + (double)np.partial_total.lo;
}

int progress_mode(int requested)
{
    if (requested != PROGRESS_AUTO)
        return requested;
    return isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_OFF;
}

int progress_start(progress *p, int mode, progress_read_fn read, void *user, nq_journal *journal)
{
    memset(p, 0, sizeof(*p));
    p->mode = mode;
    p->read = read;
    p->user = user;
    p->journal = journal;
    p->t0 = clock_seconds();
    p->last_print = p->t0;
    if (mode == PROGRESS_OFF && !journal)
        return 0;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        return -1;
    }
    p->started = 1;
    return 0;
}

void progress_stop(progress *p)
{
    if (p->started) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->thread, NULL);
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        p->started = 0;
    }
    if (p->mode != PROGRESS_OFF)
        print_progress(p, 1);
}

int progress_take(int *mode, const char *cmd, args_iter *it)
{
    const char *v;

    if (strcmp(it->name, "no-progress") == 0) {
        if (args_has_inline_value(it))
            return args_usage_error(cmd, "--no-progress takes no value");
        *mode = PROGRESS_OFF;
        return 1;
    }
    if (strcmp(it->name, "progress") != 0)
        return 0;
    /* Only the --progress=KIND form takes a value, so "--progress 15" stays N. */
    v = it->inline_value;
    if (!v || strcmp(v, "bar") == 0)
        *mode = PROGRESS_BAR;
    else if (strcmp(v, "json") == 0)
        *mode = PROGRESS_JSON;
    else
        return args_usage_error(cmd, "invalid --progress '%s': expected bar or json", v);
    return 1;
}
