/* Progress display and the journal's fsync timer, in one thread that wakes a few times
 * a second. It only reads a snapshot of the run (progress_read_fn), so it never slows
 * the workers; everything it prints goes to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "args_messages.h"
#include "core/clock.h"
#include "count_output.h"
#include "progress.h"

static const double tick_seconds = 0.25;
/* A run shorter than this draws no bar at all. */
static const double bar_delay_seconds = 1.0;

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

static double u128_double(nq_u128 v)
{
    return (double)v.hi * 18446744073709551616.0 + (double)v.lo;
}

/* The ETA (-1: unknown yet) and the share of the work done, in percent. The d4 tasks
 * are heaviest first, so the share of tasks lags the work; the share of the expected
 * total found so far follows it closely, where OEIS knows the total. Rates count only
 * this run's work, so that a resumed run's ETA is not flattered by the journal. */
static double estimate(const progress *p, const progress_snapshot *sn, double elapsed,
                       double *percent)
{
    double sol_rate = elapsed > 0 ? sn->solutions_computed / elapsed : 0;
    double task_rate = elapsed > 0 ? (double)sn->tasks_computed / elapsed : 0;
    double found = u128_double(sn->solutions), expected = 0;
    nq_u128 known;

    if (nq_known_total(p->n, &known) == NQ_OK)
        expected = u128_double(known);
    if (expected > 0 && found <= expected) {
        *percent = 100.0 * found / expected;
        return sol_rate > 0 ? (expected - found) / sol_rate : -1;
    }
    *percent = sn->tasks_total ? 100.0 * (double)sn->tasks_done / (double)sn->tasks_total : 0.0;
    if (task_rate > 0 && sn->tasks_total >= sn->tasks_done)
        return (double)(sn->tasks_total - sn->tasks_done) / task_rate;
    return -1;
}

/* The columns the bar may take: the terminal's width less one (the last column wraps
 * on some terminals), 80 when the terminal does not say. */
static size_t bar_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
        return ws.ws_col - 1u;
    return 79;
}

enum { N_FIELDS = 6, FIELD_SIZE = 64 };

/* The line in width columns: a bar of '#' and '.' and the fields that fit whole, in
 * their order (the most wanted first); a field that does not fit is left out, never cut. */
static void compose_bar(char *line, size_t size, size_t width, double pct,
                        char fields[N_FIELDS][FIELD_SIZE])
{
    size_t bar = width >= 30 ? width / 3 : 0, len = 0, start;

    if (bar > 30)
        bar = 30;
    if (bar) {
        size_t done = (size_t)(pct / 100.0 * (double)bar + 0.5);
        done = done > bar ? bar : done;
        line[len++] = '[';
        memset(line + len, '#', done);
        memset(line + len + done, '.', bar - done);
        len += bar;
        line[len++] = ']';
        line[len++] = ' ';
    }
    line[len] = '\0';
    start = len;
    for (int i = 0; i < N_FIELDS; i++) {
        size_t k = strlen(fields[i]), sep = len > start ? 2 : 0;
        if (len + sep + k > width || len + sep + k >= size)
            continue;
        len += (size_t)snprintf(line + len, size - len, "%s%s", sep ? "  " : "", fields[i]);
    }
}

/* On a terminal, redraw the line in place (where TERM is dumb without the erase escape,
 * padding over the last one); anywhere else (a file, a pipe) write it as a line of its
 * own, every field, no escape code. */
static void draw_bar(progress *p, double pct, char fields[N_FIELDS][FIELD_SIZE])
{
    char line[512];
    size_t len;

    if (!p->tty) {
        for (int i = 0; i < N_FIELDS; i++)
            fprintf(stderr, "%s%s", i ? "  " : "", fields[i]);
        fputc('\n', stderr);
        p->shown = 1;
        return;
    }
    compose_bar(line, sizeof(line), bar_width(), pct, fields);
    len = strlen(line);
    if (p->dumb)
        fprintf(stderr, "\r%s%*s", line, p->last_len > len ? (int)(p->last_len - len) : 0, "");
    else
        fprintf(stderr, "\r\033[K%s", line);
    p->last_len = len;
    p->shown = 1;
}

/* The run is over: a terminal's bar goes, so that what follows starts on a clean line. */
static void clear_bar(progress *p)
{
    if (p->dumb)
        fprintf(stderr, "\r%*s\r", (int)p->last_len, "");
    else
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

static void print_progress(progress *p, int final)
{
    progress_snapshot sn;
    char total[40], el[32], eta[32], rate_s[32], fields[N_FIELDS][FIELD_SIZE];
    double elapsed = clock_seconds() - p->t0, pct, sol_rate = 0, task_rate = 0, eta_s = -1;

    memset(&sn, 0, sizeof(sn));
    p->read(p->user, &sn);
    nq_u128_to_string(sn.solutions, total, sizeof(total));
    if (elapsed > 0) {
        sol_rate = sn.solutions_computed / elapsed;
        task_rate = (double)sn.tasks_computed / elapsed;
    }
    eta_s = estimate(p, &sn, elapsed, &pct);
    if (final && sn.tasks_total && sn.tasks_done == sn.tasks_total)
        pct = 100.0, eta_s = 0;
    format_duration(elapsed, el, sizeof(el));
    if (p->mode == PROGRESS_JSON) {
        char eta_j[32] = "null";
        if (eta_s >= 0)
            snprintf(eta_j, sizeof(eta_j), "%.1f", eta_s);
        fprintf(stderr,
                "{\"progress\": {\"schema\": %d, \"tasks_done\": %llu, \"tasks_total\": %llu, "
                "\"percent\": %.2f, \"solutions_so_far\": %s, \"solutions_per_second\": %.0f, "
                "\"tasks_per_second\": %.2f, \"seconds\": %.1f, \"eta_seconds\": %s, "
                "\"final\": %s}}\n",
                NQ_JSON_SCHEMA, (unsigned long long)sn.tasks_done,
                (unsigned long long)sn.tasks_total, pct, total, sol_rate, task_rate, elapsed, eta_j,
                final ? "true" : "false");
    } else {
        if (eta_s >= 0)
            format_duration(eta_s, eta, sizeof(eta));
        else
            strcpy(eta, "?");
        format_rate(sol_rate, rate_s, sizeof(rate_s));
        snprintf(fields[0], FIELD_SIZE, "%.1f%%", pct);
        snprintf(fields[1], FIELD_SIZE, "ETA %s", eta);
        snprintf(fields[2], FIELD_SIZE, "elapsed %s", el);
        snprintf(fields[3], FIELD_SIZE, "%s sol/s", rate_s);
        snprintf(fields[4], FIELD_SIZE, "%llu/%llu tasks", (unsigned long long)sn.tasks_done,
                 (unsigned long long)sn.tasks_total);
        snprintf(fields[5], FIELD_SIZE, "%s solutions", total);
        draw_bar(p, pct, fields);
    }
    fflush(stderr);
    p->last_print = clock_seconds();
}

static void *progress_main(void *arg)
{
    progress *p = arg;
    /* a terminal's bar is redrawn twice a second; lines into a file, once a second */
    double period = p->mode == PROGRESS_BAR && p->tty ? 0.5 : 1.0;

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
        if (p->mode != PROGRESS_OFF && clock_seconds() - p->last_print >= period &&
            (p->mode != PROGRESS_BAR || clock_seconds() - p->t0 >= bar_delay_seconds))
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

int progress_term_dumb(void)
{
    const char *term = getenv("TERM");
    return !term || !*term || strcmp(term, "dumb") == 0;
}

int progress_start(progress *p, int mode, int n, progress_read_fn read, void *user,
                   nq_journal *journal)
{
    memset(p, 0, sizeof(*p));
    p->mode = mode;
    p->n = n;
    p->dumb = progress_term_dumb();
    p->tty = isatty(STDERR_FILENO);
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
    if (p->mode == PROGRESS_BAR && p->shown && p->tty)
        clear_bar(p);
    else if (p->mode == PROGRESS_JSON || (p->mode == PROGRESS_BAR && p->shown))
        print_progress(p, 1); /* a log's last line says how it ended */
}

const char *progress_word(int i, const char **about)
{
    static const char *const words[] = {"bar", "json", NULL};
    return args_word_at(words, i, about);
}

int progress_take(int *mode, const char *cmd, int id, const char *value)
{
    if (id == OPT_NO_PROGRESS) {
        *mode = PROGRESS_OFF;
        return 1;
    }
    if (id != OPT_PROGRESS)
        return 0;
    /* Only the --progress=KIND form takes a value, so "--progress 15" stays N. */
    if (!value || strcmp(value, "bar") == 0)
        *mode = PROGRESS_BAR;
    else if (strcmp(value, "json") == 0)
        *mode = PROGRESS_JSON;
    else
        return args_usage_error(cmd, "invalid --progress '%s': expected bar or json", value);
    return 1;
}
