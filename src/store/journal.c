/* The checkpoint journal: an append-only file of checksummed per-task subtotals behind a
 * header that names the task set, so that a long count survives kill -9, a full disk or
 * a reboot and can never be resumed into a different run. */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/stop.h"
#include "core/temp_name.h"
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

/* ---- the ids of the records appended through a handle ------------------------------ */

/* Open addressing, keyed by id + 1 (0 marks a free slot), so that an append can tell a
 * repeat of a recorded task from a contradiction without reading the file back. */
typedef struct id_map {
    uint64_t *keys, *vals;
    size_t cap, len; /* cap is 0 or a power of two */
} id_map;

static size_t map_slot(const id_map *m, uint64_t id)
{
    size_t i = (size_t)((id * 0x9e3779b97f4a7c15ull) >> 17) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != id + 1)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int map_find(const id_map *m, uint64_t id, uint64_t *val)
{
    size_t i;
    if (!m->cap)
        return 0;
    i = map_slot(m, id);
    if (!m->keys[i])
        return 0;
    *val = m->vals[i];
    return 1;
}

static int map_put(id_map *m, uint64_t id, uint64_t val)
{
    size_t i;
    if (2 * (m->len + 1) > m->cap) {
        id_map g = {NULL, NULL, m->cap ? 2 * m->cap : 64, 0};
        g.keys = calloc(g.cap, sizeof(*g.keys));
        g.vals = malloc(g.cap * sizeof(*g.vals));
        if (!g.keys || !g.vals) {
            free(g.keys);
            free(g.vals);
            return NQ_ENOMEM;
        }
        for (size_t k = 0; k < m->cap; k++)
            if (m->keys[k]) {
                size_t at = map_slot(&g, m->keys[k] - 1);
                g.keys[at] = m->keys[k];
                g.vals[at] = m->vals[k];
                g.len++;
            }
        free(m->keys);
        free(m->vals);
        *m = g;
    }
    i = map_slot(m, id);
    if (!m->keys[i]) {
        m->keys[i] = id + 1;
        m->len++;
    }
    m->vals[i] = val;
    return NQ_OK;
}

/* ---- the handle ------------------------------------------------------------------- */

/* Ownership: lock guards end, dirty, err, appended, last_sync, added and the file's tail;
 * the table is filled before the run and only read after, so lookups take no lock. */
struct nq_journal {
    int fd;
    pthread_mutex_t lock;
    journal_table tab;
    id_map added; /* ids appended through this handle */
    nq_task_set ts;
    uint32_t key;       /* journal_record_key of the file's header */
    size_t header_size; /* that header's (an older version's may be smaller) */
    double interval, last_sync;
    off_t end;
    int dirty, err;
    int readonly;           /* from nq_journal_read(_stoppable): never written, cut or created */
    const atomic_int *stop; /* polled while an existing file is read (NULL: none) */
    uint64_t appended;
};

static int io_fail(nq_journal_info *info, int err, const char *what)
{
    if (info)
        info->sys_errno = err;
    journal_set_detail(info, "%s: %s", what, strerror(err));
    return NQ_EIO;
}

/* how: LOCK_EX for a writer; LOCK_SH for a reader (merge), which a writer's lock keeps
 * out, as it keeps out a second writer. */
static int lock_file(int fd, int how, nq_journal_info *info)
{
    if (flock(fd, how | LOCK_NB) == 0)
        return NQ_OK;
    if (errno == EWOULDBLOCK) {
        if (info)
            info->sys_errno = errno;
        journal_set_detail(info, "in use by another running count");
        return NQ_EIO;
    }
    return io_fail(info, errno, "cannot lock");
}

/* Bytes read between two looks at the stop: a few milliseconds from the page cache. */
#define READ_CHUNK ((size_t)4 << 20)

/* Read len bytes at the start of the file into buf, in chunks, giving up on stop. */
static int read_start(int fd, unsigned char *buf, size_t len, const atomic_int *stop,
                      nq_journal_info *info)
{
    size_t got = 0;

    while (got < len) {
        size_t want = len - got < READ_CHUNK ? len - got : READ_CHUNK;
        ssize_t k;
        if (stop_seen(stop))
            return journal_stopped(info);
        k = pread(fd, buf + got, want, (off_t)got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return io_fail(info, k < 0 ? errno : EIO, "cannot read");
        got += (size_t)k;
    }
    return NQ_OK;
}

/* Read the whole file into a fresh buffer, once its header has said that its size is
 * one a journal can have: a file larger than its task set allows is refused before it
 * takes its size in memory and time (a 3 GiB one once took 3.1 GB and half a minute). */
static int read_file(int fd, unsigned char **out, size_t *len, const atomic_int *stop,
                     nq_journal_info *info)
{
    unsigned char hdr[JOURNAL_HEADER_SIZE];
    struct stat st;
    nq_task_set ts;
    size_t hlen;
    int rc;

    if (fstat(fd, &st) != 0)
        return io_fail(info, errno, "cannot stat");
    *len = (size_t)st.st_size;
    hlen = *len < sizeof(hdr) ? *len : sizeof(hdr);
    if (*len && ((rc = read_start(fd, hdr, hlen, NULL, info)) != NQ_OK ||
                 (rc = journal_check_size(hdr, hlen, (uint64_t)st.st_size, &ts, info)) != NQ_OK))
        return rc;
    *out = malloc(*len ? *len : 1);
    if (!*out)
        return NQ_ENOMEM;
    if ((rc = read_start(fd, *out, *len, stop, info)) != NQ_OK) {
        free(*out);
        *out = NULL;
    }
    return rc;
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

/* Open an existing journal without ever blocking: O_NONBLOCK keeps a FIFO from waiting
 * for a peer, and anything but a regular file is refused before it is read. Nor is a
 * symbolic link followed (O_NOFOLLOW): the records would land in whatever it points to
 * (/dev/stdout, someone else's file). -1 with errno ENOENT when there is no such file;
 * otherwise -1 after io_fail. */
static int open_regular(const char *path, int flags, nq_journal_info *info, int *rc)
{
    struct stat st;
    int fd = open(path, flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC), e;

    if (fd < 0) {
        e = errno;
        *rc = io_fail(info, e, "cannot open");
        if (e == ELOOP)
            journal_set_detail(info, "a symbolic link (a journal must be a regular file: name "
                                     "the file itself)");
        errno = e;
        return -1;
    }
    if (fstat(fd, &st) != 0 || fcntl(fd, F_SETFL, 0) != 0) { /* back to blocking I/O */
        e = errno;
        close(fd);
        *rc = io_fail(info, e, "cannot open");
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        *rc = io_fail(info, EINVAL, "cannot open");
        journal_set_detail(info, "not a regular file (a journal must be one)");
        errno = EINVAL;
        return -1;
    }
    return fd;
}

/* Random bytes for a new journal's id; the clock and the process id where the kernel
 * has none to give, which still tells two journals apart. */
static void make_id(unsigned char id[JOURNAL_ID_SIZE])
{
    static atomic_uint serial;
    struct timespec ts;
    uint64_t a, b;

    if (getrandom(id, JOURNAL_ID_SIZE, GRND_NONBLOCK) == JOURNAL_ID_SIZE)
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    a = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    b = ((uint64_t)getpid() << 32) ^ atomic_fetch_add(&serial, 1) ^ (uint64_t)(uintptr_t)id;
    for (int i = 0; i < 8; i++) {
        id[i] = (unsigned char)(a >> (8 * i));
        id[8 + i] = (unsigned char)(b >> (8 * i));
    }
}

/* Write a fresh header for j->ts at the start of j->fd and remember its record key. */
static int write_header(nq_journal *j, nq_journal_info *info)
{
    unsigned char hdr[JOURNAL_HEADER_SIZE], id[JOURNAL_ID_SIZE];
    int e;

    make_id(id);
    journal_encode_header(&j->ts, id, hdr);
    if ((e = write_all(j->fd, hdr, sizeof(hdr), 0)) != 0 || (e = sync_fd(j->fd)) != 0)
        return io_fail(info, e, "cannot write the header");
    j->key = journal_record_key(hdr);
    j->header_size = JOURNAL_HEADER_SIZE;
    j->end = JOURNAL_HEADER_SIZE;
    return NQ_OK;
}

/* Give tmp the name path, unless path exists: 0, or an errno (EEXIST: someone else's
 * journal got there first). */
static int publish(const char *tmp, const char *path)
{
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return errno;
    /* A file system without RENAME_NOREPLACE: link(2) also refuses an existing name. */
    if (link(tmp, path) != 0)
        return errno;
    unlink(tmp);
    return 0;
}

/* A new journal is written under a unique temporary name in the same folder, created
 * exclusively (never through a link planted there), locked, given its header, and only
 * then named path, unless path appeared meanwhile: so path either does not exist or
 * starts with a whole header and is locked by its writer from its first moment.
 * *raced is set when another process created path first (nothing is left behind). */
static int create_journal(nq_journal *j, const char *path, nq_journal_info *info, int *raced)
{
    char *tmp;
    int rc, e;

    *raced = 0;
    j->fd = temp_name_create(path, O_RDWR, &tmp);
    if (j->fd < 0)
        return errno == ENOMEM ? NQ_ENOMEM : io_fail(info, errno, "cannot create");
    rc = lock_file(j->fd, LOCK_EX, info);
    if (rc == NQ_OK)
        rc = write_header(j, info);
    if (rc == NQ_OK && (e = publish(tmp, path)) != 0) {
        if (e == EEXIST)
            *raced = 1;
        rc = io_fail(info, e, "cannot rename the new journal into place");
    }
    if (rc != NQ_OK) {
        unlink(tmp); /* ours alone: it was created exclusively */
        close(j->fd);
        j->fd = -1;
    } else {
        sync_parent(path);
    }
    free(tmp);
    return rc;
}

static int load_journal(nq_journal *j, unsigned char *buf, size_t len, nq_journal_info *info)
{
    size_t keep;
    int rc, e;

    rc = journal_parse(buf, len, j->stop, &j->tab, &keep, info);
    if (rc != NQ_OK)
        return rc;
    if (!j->ts.n) /* a reader that takes whichever task set the file names */
        j->ts = info->found;
    if (!nq_task_set_equal(&info->found, &j->ts)) {
        const nq_task_set *f = &info->found;
        journal_set_detail(info, "journal is for n=%d engine %s %s (%llu tasks)", f->n, f->engine,
                           f->params, (unsigned long long)f->tasks);
        return NQ_EMISMATCH;
    }
    if (keep < len && j->readonly) {
        journal_set_detail(info, "ignored a torn last record (%llu bytes at byte %zu)",
                           (unsigned long long)(len - keep), keep);
    } else if (keep < len) {
        /* Cut the torn record off now, or the next append would land behind it. */
        if (ftruncate(j->fd, (off_t)keep) != 0)
            return io_fail(info, errno, "cannot cut off the torn last record");
        if ((e = sync_fd(j->fd)) != 0)
            return io_fail(info, e, "cannot cut off the torn last record");
        journal_set_detail(info, "cut off a torn last record (%llu bytes at byte %zu)",
                           (unsigned long long)(len - keep), keep);
    }
    j->key = journal_record_key(buf);
    j->header_size = j->tab.header_size;
    j->end = (off_t)keep;
    return NQ_OK;
}

/* Open, lock and read the journal at path if it exists (*absent = 1 if it does not). */
static int open_existing(nq_journal *j, const char *path, nq_journal_info *info, int *absent)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc = NQ_OK;

    *absent = 0;
    j->fd = open_regular(path, j->readonly ? O_RDONLY : O_RDWR, info, &rc);
    if (j->fd < 0) {
        if (errno == ENOENT) {
            *absent = 1;
            memset(info, 0, sizeof(*info));
        }
        return rc;
    }
    rc = lock_file(j->fd, j->readonly ? LOCK_SH : LOCK_EX, info);
    if (rc == NQ_OK)
        rc = read_file(j->fd, &buf, &len, j->stop, info);
    if (rc == NQ_OK && len == 0 && j->readonly) {
        journal_set_detail(info, "empty (a journal no count has written to)");
        rc = NQ_ECORRUPT;
    } else if (rc == NQ_OK && len == 0) {
        /* An empty file is a journal that was never started: give it a header. */
        rc = write_header(j, info);
        info->found = j->ts;
    } else if (rc == NQ_OK) {
        rc = load_journal(j, buf, len, info);
    }
    free(buf);
    if (rc != NQ_OK) {
        close(j->fd);
        j->fd = -1;
    }
    return rc;
}

/* A handle for ts (NULL: the file's own task set), its task set normalised through the
 * header encoding so that comparisons are byte-exact. */
static nq_journal *new_handle(const nq_task_set *ts, double sync_interval, int readonly)
{
    static const unsigned char no_id[JOURNAL_ID_SIZE];
    unsigned char hdr[JOURNAL_HEADER_SIZE];
    nq_journal *j = calloc(1, sizeof(*j));

    if (!j)
        return NULL;
    j->fd = -1;
    j->interval = sync_interval;
    j->readonly = readonly;
    if (ts) {
        journal_encode_header(ts, no_id, hdr);
        if (journal_decode_header(hdr, sizeof(hdr), &j->ts, NULL) != NQ_OK)
            j->ts.n = -1; /* not a task set: refused by the caller */
    }
    return j;
}

/* Hand j out through *out if rc is NQ_OK; free it otherwise. */
static int finish_open(nq_journal **out, nq_journal *j, int rc)
{
    if (rc == NQ_OK && pthread_mutex_init(&j->lock, NULL) != 0)
        rc = NQ_ENOMEM;
    if (rc != NQ_OK) {
        free(j->tab.e);
        if (j->fd >= 0)
            close(j->fd);
        free(j);
        return rc;
    }
    j->last_sync = clock_seconds();
    *out = j;
    return NQ_OK;
}

int nq_journal_open(nq_journal **out, const char *path, const nq_task_set *ts, double sync_interval,
                    nq_journal_info *info)
{
    return nq_journal_open_stoppable(out, path, ts, sync_interval, NULL, info);
}

int nq_journal_open_stoppable(nq_journal **out, const char *path, const nq_task_set *ts,
                              double sync_interval, const nq_stop *stop, nq_journal_info *info)
{
    nq_journal_info dummy;
    nq_journal *j;
    int rc = NQ_EINVAL, absent = 0, raced = 0;

    if (!info)
        info = &dummy;
    memset(info, 0, sizeof(*info));
    if (!out || !path || !*path || !ts || !(sync_interval >= 0) || ts->n < 1 || ts->n > NQ_MAX_N ||
        ts->tasks == 0)
        return NQ_EINVAL;
    *out = NULL;
    if (!(j = new_handle(ts, sync_interval, 0)))
        return NQ_ENOMEM;
    j->stop = stop_flag(stop);
    /* Two counts starting on a new journal at once: one creates it, the other finds it
     * when its own name is refused, and then finds it locked. */
    for (int tries = 0; j->ts.n > 0 && tries < 8; tries++) {
        rc = open_existing(j, path, info, &absent);
        if (!absent)
            break;
        rc = create_journal(j, path, info, &raced);
        if (rc == NQ_OK)
            info->found = j->ts;
        if (!raced)
            break;
    }
    return finish_open(out, j, rc);
}

int nq_journal_read(nq_journal **out, const char *path, const nq_task_set *ts,
                    nq_journal_info *info)
{
    return nq_journal_read_stoppable(out, path, ts, NULL, info);
}

int nq_journal_read_stoppable(nq_journal **out, const char *path, const nq_task_set *ts,
                              const nq_stop *stop, nq_journal_info *info)
{
    nq_journal_info dummy;
    nq_journal *j;
    int rc = NQ_EINVAL, absent = 0;

    if (!info)
        info = &dummy;
    memset(info, 0, sizeof(*info));
    if (!out || !path || !*path || (ts && (ts->n < 1 || ts->n > NQ_MAX_N || ts->tasks == 0)))
        return NQ_EINVAL;
    *out = NULL;
    if (!(j = new_handle(ts, 0, 1)))
        return NQ_ENOMEM;
    j->stop = stop_flag(stop);
    if (j->ts.n >= 0)
        rc = open_existing(j, path, info, &absent);
    if (absent) {
        info->sys_errno = ENOENT;
        journal_set_detail(info, "no such file");
        rc = NQ_EIO;
    }
    return finish_open(out, j, rc);
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
    fd = open_regular(path, O_RDONLY, info, &rc);
    if (fd < 0)
        return rc;
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
    uint64_t before;
    int rc = NQ_OK, e, repeat = 0;

    if (!j)
        return NQ_EINVAL;
    if (id >= j->ts.tasks || (j->ts.slice_count && (id < j->ts.first_task || id >= j->ts.end_task)))
        return NQ_EINVAL;
    journal_encode_record(j->key, id, subtotal, rec);
    pthread_mutex_lock(&j->lock);
    /* whole records after the header, so that a record never follows a torn one */
    assert((size_t)j->end >= j->header_size &&
           ((size_t)j->end - j->header_size) % JOURNAL_RECORD_SIZE == 0);
    if (j->readonly) {
        rc = NQ_EINVAL;
    } else if (j->err) {
        rc = NQ_EIO;
    } else if (nq_journal_lookup(j, id, &before) || map_find(&j->added, id, &before)) {
        /* Recorded already: the same subtotal again is harmless (two writers agreeing)
         * and not written again, so that a journal never holds more records than tasks
         * (journal_check_size); another one would make the journal contradict itself. */
        rc = before == subtotal ? NQ_OK : NQ_ECORRUPT;
        repeat = 1;
    } else {
        rc = map_put(&j->added, id, subtotal);
    }
    if (rc != NQ_OK || repeat) {
        /* nothing written */
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

int nq_journal_file_id(const nq_journal *j, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    if (!j || !dev || !ino)
        return NQ_EINVAL;
    if (fstat(j->fd, &st) != 0)
        return NQ_EIO;
    *dev = (uint64_t)st.st_dev;
    *ino = (uint64_t)st.st_ino;
    return NQ_OK;
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
    free(j->added.keys);
    free(j->added.vals);
    free(j);
    *pj = NULL;
    return rc;
}
