/* The journal's record codec: CRC-32, the header and record encodings and the parse of a
 * whole journal image held in memory. No file I/O, so the fuzz target links this alone. */
#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stop.h"
#include "store/journal_codec.h"

static const unsigned char magic[8] = {'N', 'Q', 'J', 'O', 'U', 'R', 'N', 'L'};

/* ---- CRC-32 (IEEE 802.3, reflected), table built once ---------------------------- */

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

uint32_t journal_crc32_update(uint32_t crc, const void *buf, size_t len)
{
    const unsigned char *p = buf;
    uint32_t c = crc ^ 0xffffffffu;
    pthread_once(&crc_once, crc_init);
    for (size_t i = 0; i < len; i++)
        c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

uint32_t journal_crc32(const void *buf, size_t len)
{
    return journal_crc32_update(0, buf, len);
}

/* ---- little-endian fields --------------------------------------------------------- */

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

void journal_set_detail(nq_journal_info *info, const char *fmt, ...)
{
    va_list ap;
    if (!info)
        return;
    va_start(ap, fmt);
    vsnprintf(info->detail, sizeof(info->detail), fmt, ap);
    va_end(ap);
}

int journal_stopped(nq_journal_info *info)
{
    journal_set_detail(info, "stopped while reading");
    return NQ_ECANCELED;
}

/* ---- header ----------------------------------------------------------------------- */

enum {
    H_VERSION = 8,
    H_N = 12,
    H_TASKS = 16,
    H_ENGINE = 24,
    H_PARAMS = 48,
    H_ID = 120,
    H_SLICE_INDEX = 136,
    H_SLICE_COUNT = 140,
    H_FIRST = 144,
    H_END = 152,
    H_RESERVED = 160, /* 12 bytes */
    H_CRC = 172,
    V2_RESERVED = 136, /* version 2: no slice, CRC at byte 140 */
    V2_CRC = 140,
    V1_HEADER_SIZE = 128, /* version 1: no id, CRC at byte 124 */
    V1_CRC = 124,
};

/* Where a header of this version keeps its CRC (the bytes before it are checked). */
static size_t crc_offset(uint32_t version)
{
    return version == 2 ? V2_CRC : H_CRC;
}

size_t journal_header_size(const unsigned char *hdr)
{
    return get32(hdr + H_VERSION) == 2 ? JOURNAL_V2_HEADER_SIZE : JOURNAL_HEADER_SIZE;
}

void journal_encode_header(const nq_task_set *ts, const unsigned char id[JOURNAL_ID_SIZE],
                           unsigned char out[JOURNAL_HEADER_SIZE])
{
    memset(out, 0, JOURNAL_HEADER_SIZE);
    memcpy(out, magic, sizeof(magic));
    put32(out + H_VERSION, JOURNAL_VERSION);
    put32(out + H_N, (uint32_t)ts->n);
    put64(out + H_TASKS, ts->tasks);
    /* The last byte of each field stays NUL, whatever the caller's strings hold. */
    memcpy(out + H_ENGINE, ts->engine, strnlen(ts->engine, sizeof(ts->engine) - 1));
    memcpy(out + H_PARAMS, ts->params, strnlen(ts->params, sizeof(ts->params) - 1));
    memcpy(out + H_ID, id, JOURNAL_ID_SIZE);
    if (ts->slice_count) {
        put32(out + H_SLICE_INDEX, ts->slice_index);
        put32(out + H_SLICE_COUNT, ts->slice_count);
        put64(out + H_FIRST, ts->first_task);
        put64(out + H_END, ts->end_task);
    }
    put32(out + H_CRC, journal_crc32(out, H_CRC));
}

uint32_t journal_record_key(const unsigned char *hdr)
{
    /* Not over the CRC field too: a CRC-32 run over its own checksum gives the same
     * residue for every header. */
    return journal_crc32(hdr, crc_offset(get32(hdr + H_VERSION)));
}

/* A text field must be printable ASCII, NUL-terminated inside the field and zero after
 * the terminator, so that one task set has exactly one encoding. */
static int text_field_ok(const unsigned char *p, size_t size, int allow_empty)
{
    size_t len = 0;
    while (len < size && p[len])
        if (p[len] < 0x20 || p[len] > 0x7e)
            return 0;
        else
            len++;
    if (len == size || (len == 0 && !allow_empty))
        return 0;
    for (size_t i = len; i < size; i++)
        if (p[i])
            return 0;
    return 1;
}

/* The version field, once the magic is known to be there: a journal of another format
 * version is named as such (its checksum sits elsewhere), anything else is damage. */
static int check_version(const unsigned char *buf, size_t len, nq_journal_info *info)
{
    uint32_t version = len >= H_VERSION + 4 ? get32(buf + H_VERSION) : JOURNAL_VERSION;

    if (version == 1 && len >= V1_HEADER_SIZE &&
        get32(buf + V1_CRC) == journal_crc32(buf, V1_CRC)) {
        journal_set_detail(info,
                           "journal format version 1 (records not bound to their journal); "
                           "this build reads versions 2 and %d: finish it with the build "
                           "that started it, or remove it",
                           JOURNAL_VERSION);
        return NQ_EUNSUPPORTED;
    }
    if (version > JOURNAL_VERSION && version < 256) {
        journal_set_detail(info, "journal format version %u, this build reads version %d", version,
                           JOURNAL_VERSION);
        return NQ_EUNSUPPORTED;
    }
    return NQ_OK;
}

/* A slice that names part of a set of tasks: index below count, ids within the set;
 * no slice (count 0) has all four 0, so that one task set has one encoding. */
static int slice_ok(const unsigned char *buf, uint64_t tasks)
{
    uint32_t k = get32(buf + H_SLICE_INDEX), m = get32(buf + H_SLICE_COUNT);
    uint64_t first = get64(buf + H_FIRST), end = get64(buf + H_END);

    for (int i = H_RESERVED; i < H_CRC; i++)
        if (buf[i])
            return 0;
    if (m == 0)
        return k == 0 && first == 0 && end == 0;
    return m <= NQ_MAX_SLICES && k < m && first <= end && end <= tasks;
}

/* The fields every version has, and for version 3 the slice. */
static int fields_ok(const unsigned char *buf, uint32_t version, nq_task_set *ts)
{
    uint32_t n = get32(buf + H_N);

    if (n < 1 || n > NQ_MAX_N || get64(buf + H_TASKS) == 0 ||
        !text_field_ok(buf + H_ENGINE, sizeof(ts->engine), 0) ||
        !text_field_ok(buf + H_PARAMS, sizeof(ts->params), 1))
        return 0;
    if (version == 2 ? get32(buf + V2_RESERVED) != 0 : !slice_ok(buf, get64(buf + H_TASKS)))
        return 0;
    memset(ts, 0, sizeof(*ts));
    ts->n = (int)n;
    ts->tasks = get64(buf + H_TASKS);
    memcpy(ts->engine, buf + H_ENGINE, sizeof(ts->engine));
    memcpy(ts->params, buf + H_PARAMS, sizeof(ts->params));
    if (version == 3 && get32(buf + H_SLICE_COUNT)) {
        ts->slice_index = get32(buf + H_SLICE_INDEX);
        ts->slice_count = get32(buf + H_SLICE_COUNT);
        ts->first_task = get64(buf + H_FIRST);
        ts->end_task = get64(buf + H_END);
    }
    return 1;
}

int journal_decode_header(const unsigned char *buf, size_t len, nq_task_set *ts,
                          nq_journal_info *info)
{
    uint32_t version;
    size_t size;
    int rc;

    if (len < sizeof(magic) || memcmp(buf, magic, sizeof(magic)) != 0) {
        journal_set_detail(info, "not an nqueens journal (no NQJOURNL magic at the start)");
        return NQ_ECORRUPT;
    }
    rc = check_version(buf, len, info);
    if (rc != NQ_OK)
        return rc;
    version = len >= H_VERSION + 4 ? get32(buf + H_VERSION) : 0;
    size = version == 2 ? JOURNAL_V2_HEADER_SIZE : JOURNAL_HEADER_SIZE;
    if (len < size) {
        journal_set_detail(info, "header cut short: %zu of %zu bytes", len, size);
        return NQ_ECORRUPT;
    }
    if (get32(buf + crc_offset(version)) != journal_crc32(buf, crc_offset(version))) {
        journal_set_detail(info, "header checksum mismatch");
        return NQ_ECORRUPT;
    }
    if ((version != 2 && version != JOURNAL_VERSION) || !fields_ok(buf, version, ts)) {
        journal_set_detail(info, "header fields out of range");
        return NQ_ECORRUPT;
    }
    return NQ_OK;
}

/* ---- records ---------------------------------------------------------------------- */

void journal_encode_record(uint32_t key, uint64_t id, uint64_t subtotal,
                           unsigned char out[JOURNAL_RECORD_SIZE])
{
    put64(out, id);
    put64(out + 8, subtotal);
    put32(out + 16, JOURNAL_KIND_TASK);
    put32(out + 20, journal_crc32_update(key, out, 20));
}

static int record_crc_ok(uint32_t key, const unsigned char *p)
{
    return get32(p + 20) == journal_crc32_update(key, p, 20);
}

static int entry_cmp(const void *a, const void *b)
{
    const journal_entry *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

#ifndef NDEBUG
/* The table's invariant, which lookups (a binary search) rely on. */
static int table_sorted_unique(const journal_table *tab)
{
    for (size_t i = 1; i < tab->len; i++)
        if (tab->e[i - 1].id >= tab->e[i].id)
            return 0;
    return 1;
}
#endif

/* Record i at p (of the journal in buf, whose task set is ts) into *e: NQ_ECORRUPT, with
 * the reason in info, for a record no writer of ts can have made. */
static int record_read(const unsigned char *buf, const unsigned char *p, size_t i, uint32_t key,
                       const nq_task_set *ts, journal_entry *e, nq_journal_info *info)
{
    if (!record_crc_ok(key, p)) {
        journal_set_detail(info,
                           "record %zu (byte %zu) fails its checksum: damaged, or "
                           "copied from another journal",
                           i, (size_t)(p - buf));
        return NQ_ECORRUPT;
    }
    if (get32(p + 16) != JOURNAL_KIND_TASK) {
        journal_set_detail(info,
                           "record %zu (byte %zu) has the unknown kind %u (written by "
                           "a newer nqueens?)",
                           i, (size_t)(p - buf), get32(p + 16));
        return NQ_ECORRUPT;
    }
    e->id = get64(p);
    e->subtotal = get64(p + 8);
    if (e->id >= ts->tasks) {
        journal_set_detail(info, "record %zu names task %llu, but the task set has %llu tasks", i,
                           (unsigned long long)e->id, (unsigned long long)ts->tasks);
        return NQ_ECORRUPT;
    }
    if (ts->slice_count && (e->id < ts->first_task || e->id >= ts->end_task)) {
        journal_set_detail(info,
                           "record %zu names task %llu, outside the journal's slice "
                           "[%llu, %llu)",
                           i, (unsigned long long)e->id, (unsigned long long)ts->first_task,
                           (unsigned long long)ts->end_task);
        return NQ_ECORRUPT;
    }
    return NQ_OK;
}

/* Runs of this many entries are sorted by qsort, then merged: a step between two looks
 * at the stop of well under a millisecond. */
#define SORT_RUN 4096u

/* Merge the sorted a[lo, mid) and a[mid, hi) into out[lo, hi), polling stop. */
static int merge_runs(const journal_entry *a, size_t lo, size_t mid, size_t hi, journal_entry *out,
                      const atomic_int *stop)
{
    size_t i = lo, j = mid;

    for (size_t k = lo; k < hi; k++) {
        if (stop_poll(stop, k - lo + 1))
            return NQ_ECANCELED;
        out[k] = j >= hi || (i < mid && a[i].id <= a[j].id) ? a[i++] : a[j++];
    }
    return NQ_OK;
}

/* Sort e[0, n) by id, giving up on stop (NQ_ECANCELED): qsort alone takes seconds for
 * tens of millions of records and looks at nothing. Runs of SORT_RUN, then merge passes
 * through a second array (the one glibc's qsort would have taken). */
static int sort_entries(journal_entry *e, size_t n, const atomic_int *stop)
{
    journal_entry *tmp, *src = e, *dst;
    int rc = NQ_OK;

    for (size_t i = 0; i < n; i += SORT_RUN) {
        if (stop_seen(stop))
            return NQ_ECANCELED;
        qsort(e + i, n - i < SORT_RUN ? n - i : SORT_RUN, sizeof(*e), entry_cmp);
    }
    if (n <= SORT_RUN)
        return NQ_OK;
    if (!(tmp = malloc(n * sizeof(*tmp))))
        return NQ_ENOMEM;
    dst = tmp;
    for (size_t w = SORT_RUN; w < n && rc == NQ_OK; w *= 2) {
        for (size_t lo = 0; lo < n && rc == NQ_OK; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            rc = merge_runs(src, lo, mid, hi, dst, stop);
        }
        journal_entry *t = src;
        src = dst;
        dst = t;
    }
    if (rc == NQ_OK && src != e)
        memcpy(e, src, n * sizeof(*e));
    free(tmp);
    return rc;
}

/* Sort the n entries of tab, then fold duplicates: the same id twice with the same
 * subtotal is harmless (two writers agreeing); with different subtotals one of them is
 * wrong (NQ_ECORRUPT). Sets tab->len to the ids left. NQ_ECANCELED on stop. */
static int table_fold(journal_table *tab, size_t n, const atomic_int *stop, nq_journal_info *info)
{
    size_t out = 0;
    int rc = sort_entries(tab->e, n, stop);

    if (rc != NQ_OK)
        return rc == NQ_ECANCELED ? journal_stopped(info) : rc;
    for (size_t i = 0; i < n; i++) {
        if (out && tab->e[out - 1].id == tab->e[i].id) {
            if (tab->e[out - 1].subtotal != tab->e[i].subtotal) {
                journal_set_detail(info,
                                   "task %llu is recorded twice with different subtotals (%llu "
                                   "and %llu)",
                                   (unsigned long long)tab->e[i].id,
                                   (unsigned long long)tab->e[out - 1].subtotal,
                                   (unsigned long long)tab->e[i].subtotal);
                return NQ_ECORRUPT;
            }
            continue;
        }
        tab->e[out++] = tab->e[i];
    }
    tab->len = out;
    assert(table_sorted_unique(tab));
    return NQ_OK;
}

int journal_check_size(const unsigned char *hdr, size_t hlen, uint64_t len, nq_task_set *ts,
                       nq_journal_info *info)
{
    uint64_t tasks, hsize;
    int rc = journal_decode_header(hdr, hlen, ts, info);

    if (rc != NQ_OK)
        return rc;
    if (info)
        info->found = *ts;
    tasks = ts->slice_count ? ts->end_task - ts->first_task : ts->tasks;
    hsize = journal_header_size(hdr);
    /* whole records past the header at most tasks: a torn one (under a record) is fine;
     * written so that a forged task count cannot overflow */
    if (len <= hsize || (len - hsize) / JOURNAL_RECORD_SIZE <= tasks)
        return NQ_OK;
    journal_set_detail(info,
                       "the file is %llu bytes, more than its %llu tasks allow (a record each "
                       "and a torn one): not a journal this library wrote",
                       (unsigned long long)len, (unsigned long long)tasks);
    return NQ_ECORRUPT;
}

int journal_parse(const unsigned char *buf, size_t len, const atomic_int *stop, journal_table *tab,
                  size_t *keep, nq_journal_info *info)
{
    nq_task_set ts;
    size_t body, n_full, n_good, hsize;
    uint32_t key;
    int rc;

    tab->e = NULL;
    tab->len = 0;
    tab->header_size = 0;
    *keep = 0;
    rc = journal_check_size(buf, len, len, &ts, info);
    if (rc != NQ_OK)
        return rc;
    tab->header_size = journal_header_size(buf);
    hsize = tab->header_size;
    body = len - hsize;
    n_full = body / JOURNAL_RECORD_SIZE;
    /* Records are written one at a time at the end, so a crash can tear at most the last
     * one: either a fragment shorter than a record, or (no fragment) a last full record
     * whose checksum fails. Anything bad before that is damage, not a crash. */
    key = journal_record_key(buf);
    n_good = n_full;
    if (body % JOURNAL_RECORD_SIZE == 0 && n_full > 0 &&
        !record_crc_ok(key, buf + hsize + (n_full - 1) * JOURNAL_RECORD_SIZE))
        n_good = n_full - 1;
    if (n_good) {
        tab->e = malloc(n_good * sizeof(*tab->e));
        if (!tab->e)
            return NQ_ENOMEM;
    }
    for (size_t i = 0; i < n_good && rc == NQ_OK; i++) {
        const unsigned char *p = buf + hsize + i * JOURNAL_RECORD_SIZE;
        if (stop_poll(stop, i + 1)) {
            rc = journal_stopped(info);
            break;
        }
        rc = record_read(buf, p, i, key, &ts, &tab->e[i], info);
        if (rc != NQ_OK && info)
            info->offset = (uint64_t)(p - buf); /* where the damage starts */
    }
    if (rc == NQ_OK)
        rc = table_fold(tab, n_good, stop, info);
    if (rc != NQ_OK) {
        free(tab->e);
        tab->e = NULL;
        tab->len = 0;
        return rc;
    }
    *keep = hsize + n_good * JOURNAL_RECORD_SIZE;
    assert(*keep <= len && len - *keep < 2 * JOURNAL_RECORD_SIZE); /* at most the last one */
    if (info) {
        info->records = n_good;
        info->tasks_done = tab->len;
        info->torn_bytes = len - *keep;
    }
    return NQ_OK;
}

/* ---- Task sets ----------------------------------------------------------------- */

int nq_task_set_equal(const nq_task_set *a, const nq_task_set *b)
{
    return a && b && a->n == b->n && a->tasks == b->tasks &&
           strncmp(a->engine, b->engine, sizeof(a->engine)) == 0 &&
           strncmp(a->params, b->params, sizeof(a->params)) == 0 &&
           a->slice_index == b->slice_index && a->slice_count == b->slice_count &&
           a->first_task == b->first_task && a->end_task == b->end_task;
}
