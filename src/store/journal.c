/* The checkpoint journal: an append-only file of checksummed per-task subtotals behind a
 * header that names the task set, so that a long count survives kill -9, a full disk or
 * a reboot and can never be resumed into a different run. */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "store/journal.h"

/* ---- the I/O the tests may replace -------------------------------------------------- */

static journal_pwrite_fn io_pwrite = pwrite;
static journal_fsync_fn io_fsync = fsync;

void journal_set_io(journal_pwrite_fn pwrite_fn, journal_fsync_fn fsync_fn)
{
    io_pwrite = pwrite_fn ? pwrite_fn : pwrite;
    io_fsync = fsync_fn ? fsync_fn : fsync;
}

/* Write all of buf at offset; 0 or an errno. */
static int write_all(int fd, const unsigned char *buf, size_t len, off_t offset)
{
    while (len) {
        ssize_t k = io_pwrite(fd, buf, len, offset);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? errno : ENOSPC; /* a zero-byte write can only mean no room */
        buf += k;
        len -= (size_t)k;
        offset += k;
    }
    return 0;
}

static int sync_fd(int fd)
{
    while (io_fsync(fd) != 0)
        if (errno != EINTR)
            return errno;
    return 0;
}

/* ---- the handle ------------------------------------------------------------------- */

/* Ownership: lock guards end, dirty, err, appended, last_sync and the file's tail; the
 * table is filled before the run and only read after, so lookups take no lock. */
struct nq_journal {
    int fd;
    pthread_mutex_t lock;
    journal_table tab;
    nq_task_set ts;
    double interval, last_sync;
    off_t end;
    int dirty, err;
    uint64_t appended;
};

static int io_fail(nq_journal_info *info, int err, const char *what)
{
    if (info)
        info->sys_errno = err;
    journal_set_detail(info, "%s: %s", what, strerror(err));
    return NQ_EIO;
}

static int lock_file(int fd, nq_journal_info *info)
{
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return NQ_OK;
    if (errno == EWOULDBLOCK) {
        if (info)
            info->sys_errno = errno;
        journal_set_detail(info, "in use by another running count");
        return NQ_EIO;
    }
    return io_fail(info, errno, "cannot lock");
}

/* Read the whole file into a fresh buffer. */
static int read_file(int fd, unsigned char **out, size_t *len, nq_journal_info *info)
{
    struct stat st;
    unsigned char *buf;
    size_t got = 0;

    if (fstat(fd, &st) != 0)
        return io_fail(info, errno, "cannot stat");
    *len = (size_t)st.st_size;
    buf = malloc(*len ? *len : 1);
    if (!buf)
        return NQ_ENOMEM;
    while (got < *len) {
        ssize_t k = pread(fd, buf + got, *len - got, (off_t)got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            free(buf);
            return io_fail(info, k < 0 ? errno : EIO, "cannot read");
        }
        got += (size_t)k;
    }
    *out = buf;
    return NQ_OK;
}

/* fsync the directory that holds path, so that a new name survives a power loss. */
static void sync_parent(const char *path)
{
    char *dir = strdup(path), *slash;
    int fd;
    if (!dir)
        return;
    slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd); /* best effort: some file systems refuse it for directories */
        close(fd);
    }
    free(dir);
}

/* A new journal is written as path.tmp and renamed into place once its header is on the
 * disk, so that path either does not exist or starts with a whole header. */
static int create_journal(nq_journal *j, const char *path, nq_journal_info *info)
{
    unsigned char hdr[JOURNAL_HEADER_SIZE];
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 5);
    int rc, e;

    if (!tmp)
        return NQ_ENOMEM;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", 5);
    j->fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (j->fd < 0) {
        rc = io_fail(info, errno, "cannot create");
        free(tmp);
        return rc;
    }
    rc = lock_file(j->fd, info);
    journal_encode_header(&j->ts, hdr);
    if (rc == NQ_OK &&
        ((e = write_all(j->fd, hdr, sizeof(hdr), 0)) != 0 || (e = sync_fd(j->fd)) != 0))
        rc = io_fail(info, e, "cannot write the header");
    if (rc == NQ_OK && rename(tmp, path) != 0)
        rc = io_fail(info, errno, "cannot rename the new journal into place");
    if (rc != NQ_OK) {
        unlink(tmp);
        close(j->fd);
        j->fd = -1;
    } else {
        sync_parent(path);
        j->end = JOURNAL_HEADER_SIZE;
    }
    free(tmp);
    return rc;
}

static int load_journal(nq_journal *j, unsigned char *buf, size_t len, nq_journal_info *info)
{
    size_t keep;
    int rc, e;

    rc = journal_parse(buf, len, &j->tab, &keep, info);
    if (rc != NQ_OK)
        return rc;
    if (!nq_task_set_equal(&info->found, &j->ts)) {
        const nq_task_set *f = &info->found;
        journal_set_detail(info, "journal is for n=%d engine %s %s (%llu tasks)", f->n, f->engine,
                           f->params, (unsigned long long)f->tasks);
        return NQ_EMISMATCH;
    }
    if (keep < len) {
        /* Cut the torn record off now, or the next append would land behind it. */
        if (ftruncate(j->fd, (off_t)keep) != 0 || (e = sync_fd(j->fd)) != 0)
            return io_fail(info, errno, "cannot cut off the torn last record");
        journal_set_detail(info, "cut off a torn last record (%llu bytes at byte %zu)",
                           (unsigned long long)(len - keep), keep);
    }
    j->end = (off_t)keep;
    return NQ_OK;
}

int nq_journal_open(nq_journal **out, const char *path, const nq_task_set *ts, double sync_interval,
                    nq_journal_info *info)
{
    nq_journal_info dummy;
    nq_journal *j;
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc;

    if (!info)
        info = &dummy;
    memset(info, 0, sizeof(*info));
    if (!out || !path || !*path || !ts || !(sync_interval >= 0) || ts->n < 1 || ts->n > NQ_MAX_N ||
        ts->tasks == 0)
        return NQ_EINVAL;
    *out = NULL;
    j = calloc(1, sizeof(*j));
    if (!j)
        return NQ_ENOMEM;
    /* Normalise through the header encoding so that comparisons are byte-exact. */
    {
        unsigned char hdr[JOURNAL_HEADER_SIZE];
        journal_encode_header(ts, hdr);
        if (journal_decode_header(hdr, sizeof(hdr), &j->ts, NULL) != NQ_OK) {
            free(j);
            return NQ_EINVAL;
        }
    }
    j->interval = sync_interval;
    j->fd = open(path, O_RDWR | O_CLOEXEC);
    if (j->fd < 0 && errno != ENOENT) {
        rc = io_fail(info, errno, "cannot open");
        goto fail;
    }
    if (j->fd >= 0) {
        rc = lock_file(j->fd, info);
        if (rc == NQ_OK)
            rc = read_file(j->fd, &buf, &len, info);
        if (rc != NQ_OK)
            goto fail;
        if (len == 0) {
            /* An empty file is a journal that was never started: give it a header. */
            unsigned char hdr[JOURNAL_HEADER_SIZE];
            int e;
            journal_encode_header(&j->ts, hdr);
            if ((e = write_all(j->fd, hdr, sizeof(hdr), 0)) != 0 || (e = sync_fd(j->fd)) != 0) {
                rc = io_fail(info, e, "cannot write the header");
                goto fail;
            }
            j->end = JOURNAL_HEADER_SIZE;
            info->found = j->ts;
        } else if ((rc = load_journal(j, buf, len, info)) != NQ_OK) {
            goto fail;
        }
    } else {
        rc = create_journal(j, path, info);
        if (rc != NQ_OK)
            goto fail;
        info->found = j->ts;
    }
    free(buf);
    if (pthread_mutex_init(&j->lock, NULL) != 0) {
        rc = NQ_ENOMEM;
        free(j->tab.e);
        close(j->fd);
        free(j);
        return rc;
    }
    j->last_sync = clock_seconds();
    *out = j;
    return NQ_OK;
fail:
    free(buf);
    free(j->tab.e);
    if (j->fd >= 0)
        close(j->fd);
    free(j);
    return rc;
}

int nq_journal_peek(const char *path, nq_task_set *ts, nq_journal_info *info)
{
    nq_journal_info dummy;
    unsigned char hdr[JOURNAL_HEADER_SIZE];
    size_t got = 0;
    int fd, rc;

    if (!info)
        info = &dummy;
    memset(info, 0, sizeof(*info));
    if (!path || !ts)
        return NQ_EINVAL;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return io_fail(info, errno, "cannot open");
    while (got < sizeof(hdr)) {
        ssize_t k = read(fd, hdr + got, sizeof(hdr) - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rc = io_fail(info, errno, "cannot read");
            close(fd);
            return rc;
        }
        if (k == 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    if (got == 0)
        return io_fail(info, ENOENT, "empty file");
    rc = journal_decode_header(hdr, got, ts, info);
    if (rc == NQ_OK)
        info->found = *ts;
    return rc;
}

int nq_journal_lookup(const nq_journal *j, uint64_t id, uint64_t *subtotal)
{
    size_t lo = 0, hi;
    if (!j || !subtotal)
        return 0;
    hi = j->tab.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (j->tab.e[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < j->tab.len && j->tab.e[lo].id == id) {
        *subtotal = j->tab.e[lo].subtotal;
        return 1;
    }
    return 0;
}

/* Call with the lock held. */
static int sync_locked(nq_journal *j)
{
    int e;
    if (j->err)
        return NQ_EIO;
    if (!j->dirty)
        return NQ_OK;
    e = sync_fd(j->fd);
    if (e) {
        j->err = e;
        return NQ_EIO;
    }
    j->dirty = 0;
    j->last_sync = clock_seconds();
    return NQ_OK;
}

int nq_journal_append(nq_journal *j, uint64_t id, uint64_t subtotal)
{
    unsigned char rec[JOURNAL_RECORD_SIZE];
    int rc = NQ_OK, e;

    if (!j)
        return NQ_EINVAL;
    if (id >= j->ts.tasks)
        return NQ_EINVAL;
    journal_encode_record(id, subtotal, rec);
    pthread_mutex_lock(&j->lock);
    /* whole records after the header, so that a record never follows a torn one */
    assert(j->end >= JOURNAL_HEADER_SIZE &&
           (j->end - JOURNAL_HEADER_SIZE) % JOURNAL_RECORD_SIZE == 0);
    if (j->err) {
        rc = NQ_EIO;
    } else if ((e = write_all(j->fd, rec, sizeof(rec), j->end)) != 0) {
        j->err = e;
        /* Drop a partial record so that the file stays a valid journal on the disk. */
        if (ftruncate(j->fd, j->end) != 0) {
            /* Nothing more to do: a resume sees the fragment as a torn last record. */
        }
        rc = NQ_EIO;
    } else {
        j->end += (off_t)sizeof(rec);
        j->dirty = 1;
        j->appended++;
        if (clock_seconds() - j->last_sync >= j->interval)
            rc = sync_locked(j);
    }
    pthread_mutex_unlock(&j->lock);
    return rc;
}

int nq_journal_sync(nq_journal *j)
{
    int rc;
    if (!j)
        return NQ_EINVAL;
    pthread_mutex_lock(&j->lock);
    rc = sync_locked(j);
    pthread_mutex_unlock(&j->lock);
    return rc;
}

int nq_journal_tick(nq_journal *j)
{
    int rc = NQ_OK;
    if (!j)
        return NQ_EINVAL;
    pthread_mutex_lock(&j->lock);
    if (j->err)
        rc = NQ_EIO;
    else if (j->dirty && clock_seconds() - j->last_sync >= j->interval)
        rc = sync_locked(j);
    pthread_mutex_unlock(&j->lock);
    return rc;
}

static int hook_reuse(void *user, uint64_t id, uint64_t *subtotal)
{
    return nq_journal_lookup(user, id, subtotal);
}

static int hook_done(void *user, uint64_t id, uint64_t subtotal)
{
    return nq_journal_append(user, id, subtotal) != NQ_OK;
}

void nq_journal_hooks(nq_journal *j, nq_hooks *h)
{
    if (!h)
        return;
    h->user = j;
    h->reuse = hook_reuse;
    h->task_done = hook_done;
}

uint64_t nq_journal_appended(const nq_journal *j)
{
    uint64_t n;
    if (!j)
        return 0;
    pthread_mutex_lock((pthread_mutex_t *)&j->lock);
    n = j->appended;
    pthread_mutex_unlock((pthread_mutex_t *)&j->lock);
    return n;
}

int nq_journal_errno(const nq_journal *j)
{
    int e;
    if (!j)
        return 0;
    pthread_mutex_lock((pthread_mutex_t *)&j->lock);
    e = j->err;
    pthread_mutex_unlock((pthread_mutex_t *)&j->lock);
    return e;
}

int nq_journal_close(nq_journal **pj)
{
    nq_journal *j;
    int rc;
    if (!pj || !*pj)
        return NQ_EINVAL;
    j = *pj;
    rc = nq_journal_sync(j);
    close(j->fd); /* releases the flock */
    pthread_mutex_destroy(&j->lock);
    free(j->tab.e);
    free(j);
    *pj = NULL;
    return rc;
}
