/* The --subtotals CSV (see subtotals.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "core/u128.h"
#include "subtotals.h"

/* What may take the CSV: a regular file (replaced), or a stream that is written and
 * never replaced, a FIFO or a character device (/dev/null, a terminal); not a block
 * device, a directory or a socket. */
static int stream_or_regular(mode_t m)
{
    return S_ISREG(m) || S_ISFIFO(m) || S_ISCHR(m);
}

int subtotals_to_stdout(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

int subtotals_open(const char *cmd, const char *path, subtotals_file *sf)
{
    struct stat st;
    int fd, e;

    sf->fd = -1;
    sf->created = 0;
    sf->path = path;
    if (subtotals_to_stdout(path)) {
        /* A copy of standard output, which is written and never cut (a file the shell
         * opened for appending keeps what it held) or removed. */
        sf->regular = 0;
        sf->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
        if (sf->fd < 0)
            return args_run_error(cmd, "cannot write --subtotals - (standard output): %s",
                                  strerror(errno));
        return 0;
    }
    /* O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of waiting;
     * O_NOFOLLOW: a symbolic link would have its target replaced. */
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0)
        sf->created = 1;
    else if (errno == EEXIST)
        fd = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        e = errno;
        return args_run_error(cmd, "cannot write --subtotals %s: %s", path,
                              e == ENXIO   ? "a FIFO that no process reads"
                              : e == ELOOP ? "a symbolic link (name the file itself)"
                                           : strerror(e));
    }
    if (fstat(fd, &st) != 0 || fcntl(fd, F_SETFL, 0) != 0) {
        e = errno;
        close(fd);
        return args_run_error(cmd, "cannot write --subtotals %s: %s", path, strerror(e));
    }
    if (!stream_or_regular(st.st_mode)) {
        close(fd);
        return args_run_error(cmd,
                              "cannot write --subtotals %s: not a regular file, a FIFO or a "
                              "character device",
                              path);
    }
    sf->regular = S_ISREG(st.st_mode);
    sf->fd = fd;
    return 0;
}

void subtotals_abandon(subtotals_file *sf)
{
    if (sf->fd < 0)
        return;
    close(sf->fd);
    sf->fd = -1;
    if (sf->created)
        unlink(sf->path);
}

int subtotals_write(const char *cmd, subtotals_file *sf, const nq_task_set *ts,
                    const uint64_t *subs)
{
    uint8_t *w = malloc(ts->tasks ? ts->tasks : 1);
    FILE *f;
    int ok, e;

    if (!w || nq_task_set_weights(ts, w) != NQ_OK) {
        free(w);
        subtotals_abandon(sf);
        return args_run_error(cmd, "cannot write --subtotals %s: no weights for the task set",
                              sf->path);
    }
    if (sf->regular && ftruncate(sf->fd, 0) != 0) {
        e = errno;
        free(w);
        subtotals_abandon(sf);
        return args_run_error(cmd, "cannot write --subtotals %s: %s", sf->path, strerror(e));
    }
    f = fdopen(sf->fd, "w");
    if (!f) {
        e = errno;
        free(w);
        subtotals_abandon(sf);
        return args_run_error(cmd, "cannot write --subtotals %s: %s", sf->path, strerror(e));
    }
    sf->fd = -1; /* f owns it now */
    fputs("task,subtotal,weight,weighted\n", f);
    for (uint64_t i = 0; i < ts->tasks; i++) {
        char weighted[40];
        nq_u128 v = u128_pack((u128)subs[i] * w[i]);
        fprintf(f, "%llu,%llu,%u,%s\n", (unsigned long long)i, (unsigned long long)subs[i],
                (unsigned)w[i], nq_u128_to_string(v, weighted, sizeof(weighted)));
    }
    free(w);
    ok = !ferror(f);
    e = errno;
    if (fclose(f) != 0) {
        ok = 0;
        e = errno;
    }
    if (!ok)
        return args_run_error(cmd, "cannot write --subtotals %s: %s", sf->path, strerror(e));
    return 0;
}
