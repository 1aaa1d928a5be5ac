/* The checkpoint journal as a library: round trips, resumption through nq_count, every
 * kind of damage (torn tail, flipped byte, foreign header, conflicting duplicate), a
 * full disk through a fake writer, and concurrent appends. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal_forge.h"
#include "nqueens/nqueens.h"
#include "oeis_data.h"
#include "scratch.h"
#include "store/journal.h"

static char path[SCRATCH_PATH];

/* The journal path of a test (its .init, or called where a test needs several). */
static void make_path(void)
{
    /* only the unique name is wanted: the journal creates the file */
    cr_assert_eq(scratch_name(path, sizeof(path), "journal"), 0);
}

static void cleanup(void)
{
    scratch_remove_journal(path);
    journal_set_io(NULL, NULL);
}

static nq_settings settings_for(int n, int rows, int threads)
{
    nq_settings s;
    nq_default_settings(&s);
    s.engine = NQ_ENGINE_PREFIX; /* these tests name prefix depths */
    s.n = n;
    s.prefix_rows = rows;
    s.n_threads = threads;
    s.pin_threads = 0;
    return s;
}

static nq_task_set task_set_for(int n, int rows)
{
    nq_settings s = settings_for(n, rows, 2);
    nq_task_set ts;
    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    return ts;
}

static off_t file_size(void)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    return st.st_size;
}

/* Overwrite (or with append, add) len bytes at offset of the journal file. */
static void poke(off_t offset, const void *bytes, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    cr_assert(fd >= 0);
    cr_assert_eq(pwrite(fd, bytes, len, offset), (ssize_t)len);
    close(fd);
}

static void flip_byte(off_t offset)
{
    unsigned char b;
    int fd = open(path, O_RDWR);
    cr_assert(fd >= 0);
    cr_assert_eq(pread(fd, &b, 1, offset), 1);
    b ^= 0x40;
    cr_assert_eq(pwrite(fd, &b, 1, offset), 1);
    close(fd);
}

/* A journal for ts holding records (id, id * 10 + 1) for ids 0..k-1. */
static void write_records(const nq_task_set *ts, uint64_t k)
{
    nq_journal *j;
    nq_journal_info info;
    cr_assert_eq(nq_journal_open(&j, path, ts, 5, &info), NQ_OK, "%s", info.detail);
    for (uint64_t i = 0; i < k; i++)
        cr_assert_eq(nq_journal_append(j, i, i * 10 + 1), NQ_OK);
    cr_assert_eq(nq_journal_appended(j), k);
    cr_assert_eq(nq_journal_close(&j), NQ_OK);
    cr_assert_null(j);
}

Test(unit, crc32_check_value, .fini = cleanup)
{
    /* The standard check value of CRC-32/IEEE. */
    cr_expect_eq(journal_crc32("123456789", 9), 0xcbf43926u);
}

Test(unit, task_set_describe_and_apply, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3), bad;
    nq_settings s = settings_for(9, 0, 7);

    cr_expect_str_eq(ts.engine, "prefix");
    cr_expect_str_eq(ts.params, "prefix_rows=3");
    cr_assert_eq(nq_task_set_apply(&ts, &s), NQ_OK);
    cr_expect_eq(s.n, 12);
    cr_expect_eq(s.prefix_rows, 3);
    cr_expect_eq(s.n_threads, 7, "the thread count is the caller's");
    /* Auto depth is resolved, never recorded as 0. */
    s = settings_for(14, 0, 3);
    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    cr_expect_null(strstr(ts.params, "=0"));
    const char *const params[] = {"prefix_rows=3x", "prefix_rows=99", "prefix_rows=", "rows=3", ""};
    for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
        bad = task_set_for(12, 3);
        snprintf(bad.params, sizeof(bad.params), "%s", params[i]);
        cr_expect_eq(nq_task_set_apply(&bad, &s), NQ_EINVAL, "params '%s'", params[i]);
    }
    bad = task_set_for(12, 3);
    bad.tasks++;
    cr_expect_eq(nq_task_set_apply(&bad, &s), NQ_EINVAL, "task count must match");
    bad = task_set_for(12, 3);
    strcpy(bad.engine, "nope");
    cr_expect_eq(nq_task_set_apply(&bad, &s), NQ_EINVAL);
}

Test(unit, round_trip_and_peek, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3), found;
    nq_journal *j;
    nq_journal_info info;
    uint64_t sub;

    cr_expect_eq(nq_journal_peek(path, &found, &info), NQ_EIO);
    cr_expect_eq(info.sys_errno, ENOENT);
    write_records(&ts, 20);
    cr_expect_eq(file_size(), JOURNAL_HEADER_SIZE + 20 * JOURNAL_RECORD_SIZE);
    cr_assert_eq(nq_journal_peek(path, &found, &info), NQ_OK);
    cr_expect(nq_task_set_equal(&found, &ts));
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.records, 20);
    cr_expect_eq(info.tasks_done, 20);
    cr_expect_eq(info.torn_bytes, 0);
    for (uint64_t i = 0; i < 20; i++) {
        cr_assert_eq(nq_journal_lookup(j, i, &sub), 1);
        cr_expect_eq(sub, i * 10 + 1);
    }
    cr_expect_eq(nq_journal_lookup(j, 20, &sub), 0);
    cr_expect_eq(nq_journal_append(j, ts.tasks, 1), NQ_EINVAL, "id out of range");
    cr_expect_eq(nq_journal_close(&j), NQ_OK);
}

Test(unit, empty_file_is_a_new_journal, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(10, 2);
    int fd = open(path, O_CREAT | O_WRONLY, 0644);
    close(fd);
    write_records(&ts, 3);
    cr_expect_eq(file_size(), JOURNAL_HEADER_SIZE + 3 * JOURNAL_RECORD_SIZE);
}

Test(unit, second_writer_is_refused, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(10, 2);
    nq_journal *a, *b;
    nq_journal_info info;
    cr_assert_eq(nq_journal_open(&a, path, &ts, 5, &info), NQ_OK);
    cr_expect_eq(nq_journal_open(&b, path, &ts, 5, &info), NQ_EIO);
    cr_expect_eq(info.sys_errno, EWOULDBLOCK);
    nq_journal_close(&a);
}

/* Run n with a journal; the task_done hook fails after stop_after records, as a crash
 * would, leaving a journal of finished tasks; returns nq_count's status. */
typedef struct failing {
    nq_journal *j;
    atomic_int left;
} failing;

static int failing_done(void *user, uint64_t id, uint64_t sub)
{
    failing *f = user;
    if (atomic_fetch_sub(&f->left, 1) <= 0)
        return 1;
    return nq_journal_append(f->j, id, sub) != NQ_OK;
}

static int failing_reuse(void *user, uint64_t id, uint64_t *sub)
{
    return nq_journal_lookup(((failing *)user)->j, id, sub);
}

static int run_with_journal(int n, int rows, int threads, int stop_after, nq_result *r)
{
    nq_settings s = settings_for(n, rows, threads);
    nq_task_set ts;
    nq_solver *sv;
    nq_journal_info info;
    failing f;
    nq_hooks h;
    int rc;

    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    cr_assert_eq(nq_journal_open(&f.j, path, &ts, 0, &info), NQ_OK, "%s", info.detail);
    atomic_init(&f.left, stop_after < 0 ? 1 << 30 : stop_after);
    h = (nq_hooks){&f, failing_reuse, failing_done};
    cr_assert_eq(nq_create_solver(&sv, &s), NQ_OK);
    rc = nq_count(sv, &h, r);
    nq_destroy_solver(&sv);
    /* After a failed write the journal stays failed, so only a good run must close clean. */
    if (nq_journal_close(&f.j) != NQ_OK)
        cr_assert_neq(rc, NQ_OK);
    return rc;
}

Test(unit, resume_gives_the_exact_total, .fini = cleanup)
{
    nq_result r;
    for (int n = 9; n <= 12; n++) {
        make_path();
        cr_assert_eq(run_with_journal(n, 3, 2, 25, &r), NQ_ECALLBACK);
        /* Resume with another thread count: the task ids are the journal's. */
        cr_assert_eq(run_with_journal(n, 3, 3, -1, &r), NQ_OK);
        cr_expect_eq(r.total.lo, oeis_value("A000170", n), "n=%d", n);
        cr_expect_eq(r.total.hi, 0);
        /* Everything recorded: a third run computes nothing and still agrees. */
        cr_assert_eq(run_with_journal(n, 3, 1, 0, &r), NQ_OK);
        cr_expect_eq(r.total.lo, oeis_value("A000170", n), "n=%d from the journal alone", n);
        cleanup();
    }
}

Test(unit, torn_tail_is_cut_off, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3);
    nq_journal *j;
    nq_journal_info info;
    const off_t whole = JOURNAL_HEADER_SIZE + 10 * JOURNAL_RECORD_SIZE;

    write_records(&ts, 10);
    /* A fragment shorter than a record. */
    poke(whole, "\x07\x00\x00\x00\x00\x00\x00\x00\x33", 9);
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.torn_bytes, 9);
    cr_expect_eq(info.tasks_done, 10);
    cr_expect_neq(strstr(info.detail, "torn"), NULL, "%s", info.detail);
    cr_expect_eq(file_size(), whole, "the fragment is gone from the file");
    cr_assert_eq(nq_journal_append(j, 10, 101), NQ_OK);
    nq_journal_close(&j);
    /* A whole last record with a bad checksum is a torn write too. */
    flip_byte(whole + 3);
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.torn_bytes, JOURNAL_RECORD_SIZE);
    cr_expect_eq(info.tasks_done, 10);
    nq_journal_close(&j);
    cr_expect_eq(file_size(), whole);
}

/* nq_journal_read, merge's way in: checked in full, but never written, cut or made. */
Test(unit, read_only_journal_changes_nothing, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3), other = task_set_for(12, 2);
    nq_journal *j, *w;
    nq_journal_info info;
    const off_t whole = JOURNAL_HEADER_SIZE + 10 * JOURNAL_RECORD_SIZE;
    uint64_t sub;

    cr_expect_eq(nq_journal_read(&j, path, &ts, &info), NQ_EIO);
    cr_expect_eq(info.sys_errno, ENOENT);
    cr_expect_eq(access(path, F_OK), -1, "no journal is made");
    poke(0, "", 0);
    cr_expect_eq(nq_journal_read(&j, path, NULL, &info), NQ_ECORRUPT);
    cr_expect_neq(strstr(info.detail, "empty"), NULL, "%s", info.detail);
    cr_expect_eq(file_size(), 0, "an empty file gets no header");
    unlink(path);
    write_records(&ts, 10);
    poke(whole, "abcd", 4);
    cr_assert_eq(nq_journal_read(&j, path, NULL, &info), NQ_OK, "%s", info.detail);
    cr_expect(nq_task_set_equal(&info.found, &ts));
    cr_expect_eq(info.torn_bytes, 4);
    cr_expect_eq(info.tasks_done, 10);
    cr_expect_neq(strstr(info.detail, "ignored a torn last record"), NULL, "%s", info.detail);
    cr_expect_eq(nq_journal_lookup(j, 9, &sub), 1);
    cr_expect_eq(sub, 91);
    cr_expect_eq(nq_journal_append(j, 10, 101), NQ_EINVAL);
    cr_expect_eq(nq_journal_read(&w, path, &ts, &info), NQ_OK, "readers share: %s", info.detail);
    nq_journal_close(&w);
    cr_expect_eq(nq_journal_open(&w, path, &ts, 5, &info), NQ_EIO, "a reader keeps writers out");
    cr_expect_eq(nq_journal_close(&j), NQ_OK);
    cr_expect_eq(file_size(), whole + 4, "the torn tail stays");
    cr_expect_eq(nq_journal_read(&j, path, &other, &info), NQ_EMISMATCH);
    cr_assert_eq(nq_journal_open(&w, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(nq_journal_read(&j, path, NULL, &info), NQ_EIO);
    cr_expect_eq(info.sys_errno, EWOULDBLOCK, "a writer keeps readers out");
    nq_journal_close(&w);
}

/* The temporary name of a new journal is short (".nq-" and 16 hex digits in the same
 * folder), so that a journal name of up to 255 bytes, the most a folder takes, can be
 * created; it used to be the name and ".tmp-" and 12 digits, too long from 239 bytes. */
Test(unit, journal_names_of_up_to_255_bytes, .fini = cleanup)
{
    nq_task_set ts = task_set_for(10, 2);
    char dir[SCRATCH_PATH], name[SCRATCH_PATH + 300];
    nq_journal *j;
    nq_journal_info info;

    cr_assert_not_null(scratch_mkdir(dir, sizeof(dir), "journal-long"));
    for (int len = 236; len <= 255; len++) {
        int at = snprintf(name, sizeof(name), "%s/", dir);
        memset(name + at, 'x', (size_t)len);
        name[at + len] = '\0';
        cr_expect_eq(nq_journal_open(&j, name, &ts, 5, &info), NQ_OK, "%d bytes: %s", len,
                     info.detail);
        if (j)
            nq_journal_close(&j);
        unlink(name);
    }
    cr_expect_eq(rmdir(dir), 0, "nothing left in the folder");
}

Test(unit, damage_before_the_tail_is_an_error, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3);
    nq_journal *j = NULL;
    nq_journal_info info;

    make_path();
    write_records(&ts, 10);
    flip_byte(JOURNAL_HEADER_SIZE + 4 * JOURNAL_RECORD_SIZE + 9);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT);
    cr_expect_null(j);
    cr_expect_eq(info.offset, JOURNAL_HEADER_SIZE + 4 * JOURNAL_RECORD_SIZE);
    cr_expect_neq(strstr(info.detail, "checksum"), NULL, "%s", info.detail);
    cr_expect_eq(file_size(), JOURNAL_HEADER_SIZE + 10 * JOURNAL_RECORD_SIZE,
                 "a damaged journal is left as it was");
    cleanup();

    /* A bad record followed by a fragment: the bad one is not the last write. */
    make_path();
    write_records(&ts, 10);
    flip_byte(JOURNAL_HEADER_SIZE + 9 * JOURNAL_RECORD_SIZE + 2);
    poke(JOURNAL_HEADER_SIZE + 10 * JOURNAL_RECORD_SIZE, "xx", 2);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT);
    cleanup();

    /* Header damage, and something that is not a journal at all. */
    make_path();
    write_records(&ts, 2);
    flip_byte(13);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT);
    cr_expect_neq(strstr(info.detail, "header"), NULL, "%s", info.detail);
    poke(0, "hello, world", 12);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT);
    cr_expect_neq(strstr(info.detail, "not an nqueens journal"), NULL, "%s", info.detail);
}

Test(unit, foreign_header_is_refused, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3), other = task_set_for(12, 2);
    nq_journal *j = NULL;
    nq_journal_info info;

    write_records(&ts, 4);
    cr_expect_eq(nq_journal_open(&j, path, &other, 5, &info), NQ_EMISMATCH);
    cr_expect(nq_task_set_equal(&info.found, &ts));
    other = task_set_for(13, 3);
    cr_expect_eq(nq_journal_open(&j, path, &other, 5, &info), NQ_EMISMATCH);
    cr_expect_null(j);
}

Test(unit, newer_version_is_unsupported, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3);
    unsigned char hdr[JOURNAL_HEADER_SIZE];
    nq_journal *j;
    nq_journal_info info;
    uint32_t crc;

    journal_encode_header(&ts, (const unsigned char *)"0123456789abcdef", hdr);
    hdr[8] = JOURNAL_VERSION + 1;
    crc = journal_crc32(hdr, JOURNAL_HEADER_SIZE - 4);
    for (int i = 0; i < 4; i++)
        hdr[JOURNAL_HEADER_SIZE - 4 + i] = (unsigned char)(crc >> (8 * i));
    poke(0, hdr, sizeof(hdr));
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_EUNSUPPORTED);
}

/* A journal of format version 1 (no id, records not bound) is named as such. */
Test(unit, version_1_is_named, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3), found;
    unsigned char hdr[128] = "NQJOURNL";
    nq_journal *j = NULL;
    nq_journal_info info;
    uint32_t crc;

    hdr[8] = 1;
    hdr[12] = 12;
    hdr[16] = (unsigned char)ts.tasks;
    hdr[17] = (unsigned char)(ts.tasks >> 8);
    memcpy(hdr + 24, ts.engine, strlen(ts.engine));
    memcpy(hdr + 48, ts.params, strlen(ts.params));
    crc = journal_crc32(hdr, 124);
    for (int i = 0; i < 4; i++)
        hdr[124 + i] = (unsigned char)(crc >> (8 * i));
    poke(0, hdr, sizeof(hdr));
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_EUNSUPPORTED);
    cr_expect_neq(strstr(info.detail, "version 1"), NULL, "%s", info.detail);
    cr_expect_eq(nq_journal_peek(path, &found, &info), NQ_EUNSUPPORTED);
}

/* The bytes of the journal file at path (at most size), and their length. */
static size_t slurp(unsigned char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    ssize_t k;
    cr_assert(fd >= 0);
    k = read(fd, buf, size);
    close(fd);
    cr_assert(k >= 0);
    return (size_t)k;
}

static void append_bound(uint64_t id, uint64_t sub, uint32_t kind)
{
    forge_write(path, -1, id, sub, kind);
}

Test(unit, duplicate_records, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3);
    nq_journal *j;
    nq_journal_info info;

    /* The same subtotal twice is harmless, counted once and written once (so that a
     * journal never holds more records than tasks: its size is bounded). */
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK);
    cr_assert_eq(nq_journal_append(j, 3, 50), NQ_OK);
    cr_assert_eq(nq_journal_append(j, 4, 60), NQ_OK);
    cr_assert_eq(nq_journal_append(j, 3, 50), NQ_OK);
    nq_journal_close(&j);
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.records, 2);
    cr_expect_eq(info.tasks_done, 2);
    nq_journal_close(&j);
    append_bound(3, 50, JOURNAL_KIND_TASK); /* one an older build wrote: still read */
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.records, 3);
    nq_journal_close(&j);
    /* A different one (written behind the library's back) is a contradiction that no
     * total may be built on. */
    append_bound(4, 61, JOURNAL_KIND_TASK);
    append_bound(5, 70, JOURNAL_KIND_TASK);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT);
    cr_expect_neq(strstr(info.detail, "task 4"), NULL, "%s", info.detail);
}

/* Records in a scattered order, past the runs the reader sorts apart and then merges
 * (4096 each): every id found with its subtotal, a repeat folded across runs. */
Test(unit, scattered_records_are_sorted_and_found, .fini = cleanup)
{
    nq_task_set ts = task_set_for(14, 5);
    uint64_t k = ts.tasks - 1, step = 7919, sub; /* one short: room for the repeat */
    nq_journal *j;
    nq_journal_info info;

    cr_assert_gt(ts.tasks, 3 * 4096);
    while (ts.tasks % step == 0)
        step += 2;
    make_path();
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK);
    for (uint64_t i = 0; i < k; i++)
        cr_assert_eq(nq_journal_append(j, i * step % ts.tasks, i), NQ_OK);
    nq_journal_close(&j);
    append_bound(0, 0, JOURNAL_KIND_TASK); /* id 0 again, as the first record had it */
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.records, k + 1);
    cr_expect_eq(info.tasks_done, k);
    for (uint64_t i = 0; i < k; i++) {
        cr_assert(nq_journal_lookup(j, i * step % ts.tasks, &sub), "record %llu",
                  (unsigned long long)i);
        cr_assert_eq(sub, i);
    }
    cr_expect_not(nq_journal_lookup(j, k * step % ts.tasks, &sub));
    nq_journal_close(&j);
}

/* A journal holds at most one record per task of its set (or of its slice) and a torn
 * tail: one larger is refused from its size alone, before it is read into memory (a
 * 3 GiB file once took 3.1 GB and half a minute before it was refused). The largest
 * valid one still opens. */
Test(unit, oversized_journal_is_refused_from_its_size, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3);
    unsigned char torn[JOURNAL_RECORD_SIZE - 1] = {0};
    nq_journal *j;
    nq_journal_info info;
    off_t full;

    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK);
    for (uint64_t id = 0; id < ts.tasks; id++)
        cr_assert_eq(nq_journal_append(j, id, id + 1), NQ_OK);
    nq_journal_close(&j);
    full = file_size();
    cr_assert_eq(full, JOURNAL_HEADER_SIZE + (off_t)ts.tasks * JOURNAL_RECORD_SIZE);
    poke(full, torn, sizeof(torn)); /* the largest a valid journal gets: a torn tail */
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.torn_bytes, sizeof(torn));
    nq_journal_close(&j);
    /* one whole record more than its tasks, though a valid repeat */
    append_bound(0, 1, JOURNAL_KIND_TASK);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT);
    cr_expect_not_null(strstr(info.detail, "more than its"), "%s", info.detail);
    /* a quarter GiB of nothing after the records */
    cr_assert_eq(truncate(path, (off_t)1 << 28), 0);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT);
    cr_expect_not_null(strstr(info.detail, "268435456 bytes"), "%s", info.detail);
}

/* The library itself never writes such a contradiction: the append is refused, the
 * journal untouched, and it opens again. */
Test(unit, append_refuses_a_contradiction, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3);
    nq_journal *j;
    nq_journal_info info;
    uint64_t sub;

    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK);
    cr_assert_eq(nq_journal_append(j, 4, 60), NQ_OK);
    cr_expect_eq(nq_journal_append(j, 4, 61), NQ_ECORRUPT, "a second subtotal for task 4");
    cr_expect_eq(nq_journal_append(j, 4, 60), NQ_OK, "the same one again is harmless");
    for (uint64_t i = 5; i < 300; i++) /* enough ids to grow the table a few times */
        cr_assert_eq(nq_journal_append(j, i, i), NQ_OK);
    cr_expect_eq(nq_journal_append(j, 299, 1), NQ_ECORRUPT);
    cr_expect_eq(nq_journal_append(j, 7, 8), NQ_ECORRUPT);
    cr_expect_eq(nq_journal_errno(j), 0, "a refused record is no write error");
    cr_assert_eq(nq_journal_close(&j), NQ_OK);
    /* Across a reopen: the recorded subtotal comes from the file. */
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.tasks_done, 296);
    cr_expect_eq(nq_journal_append(j, 4, 61), NQ_ECORRUPT);
    cr_expect_eq(nq_journal_append(j, 4, 60), NQ_OK);
    cr_assert_eq(nq_journal_close(&j), NQ_OK);
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect(nq_journal_lookup(j, 4, &sub) == 1 && sub == 60);
    nq_journal_close(&j);
}

/* Records are bound to their journal: the body of another journal, of the same task set
 * or another, behind this header fails its checksums. */
Test(unit, records_of_another_journal_are_refused, .fini = cleanup)
{
    static unsigned char a[8192], b[8192];
    nq_task_set ts = task_set_for(12, 3), other = task_set_for(13, 3);
    nq_journal *j = NULL;
    nq_journal_info info;
    size_t la, lb;

    for (int k = 0; k < 2; k++) {
        make_path();
        write_records(&ts, 10);
        la = slurp(a, sizeof(a));
        unlink(path);
        write_records(k == 0 ? &ts : &other, 10);
        lb = slurp(b, sizeof(b));
        unlink(path);
        /* a's header, b's records */
        poke(0, a, JOURNAL_HEADER_SIZE);
        poke(JOURNAL_HEADER_SIZE, b + JOURNAL_HEADER_SIZE, lb - JOURNAL_HEADER_SIZE);
        cr_assert_eq(la, lb);
        cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT, "case %d", k);
        cr_expect_null(j);
        cr_expect_neq(strstr(info.detail, "another journal"), NULL, "%s", info.detail);
        cleanup();
    }
}

/* A record whose checksum holds but whose kind this build does not know is named as
 * such, wherever it is, never taken for a torn write. */
Test(unit, unknown_kind_is_named, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3);
    nq_journal *j = NULL;
    nq_journal_info info;

    for (int last = 0; last < 2; last++) {
        make_path();
        write_records(&ts, 3);
        append_bound(5, 1, 7);
        if (!last)
            append_bound(6, 1, JOURNAL_KIND_TASK);
        cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT, "last %d", last);
        cr_expect_neq(strstr(info.detail, "unknown kind 7"), NULL, "%s", info.detail);
        cr_expect_null(strstr(info.detail, "checksum"), "%s", info.detail);
        cleanup();
    }
}

/* ---- the file itself: temporary name, links, FIFOs, two writers at once ------------- */

/* A link planted where a careless writer would put its temporary file: its target must
 * stay as it was, and nothing is left behind besides the journal. */
Test(unit, planted_link_is_never_followed, .init = make_path, .fini = cleanup)
{
    char victim[SCRATCH_PATH_LONGER], link_path[SCRATCH_PATH_LONGER];
    unsigned char buf[16];
    nq_task_set ts = task_set_for(10, 2);
    int fd;

    snprintf(victim, sizeof(victim), "%s.victim", path);
    fd = open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, "precious", 8), 8);
    close(fd);
    snprintf(link_path, sizeof(link_path), "%s.tmp", path);
    cr_assert_eq(symlink(victim, link_path), 0);
    write_records(&ts, 2);
    fd = open(victim, O_RDONLY);
    cr_assert(fd >= 0);
    cr_expect_eq(read(fd, buf, sizeof(buf)), 8, "the link's target was written through");
    close(fd);
    cr_expect_eq(memcmp(buf, "precious", 8), 0);
    unlink(link_path);
    unlink(victim);
}

/* The journal's own path a symbolic link (to an empty file, which would otherwise be
 * taken as a new journal, or to nothing): refused, never written through (issue 22). */
Test(unit, journal_path_that_is_a_link_is_refused, .init = make_path, .fini = cleanup)
{
    char target[SCRATCH_PATH_LONGER];
    nq_task_set ts = task_set_for(10, 2), found;
    nq_journal *j = NULL;
    nq_journal_info info;
    int fd;

    snprintf(target, sizeof(target), "%s.target", path);
    fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0);
    close(fd);
    for (int dangling = 0; dangling < 2; dangling++) {
        if (dangling)
            unlink(target);
        cr_assert_eq(symlink(target, path), 0);
        cr_expect_eq(nq_journal_peek(path, &found, &info), NQ_EIO);
        cr_expect_eq(info.sys_errno, ELOOP);
        cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_EIO, "dangling %d", dangling);
        cr_expect_eq(info.sys_errno, ELOOP);
        cr_expect_neq(strstr(info.detail, "symbolic link"), NULL, "%s", info.detail);
        cr_expect_null(j);
        struct stat st;
        cr_expect_eq(stat(target, &st) == 0 ? st.st_size : -1, dangling ? -1 : 0,
                     "nothing written through the link (dangling %d)", dangling);
        unlink(path);
    }
    unlink(target);
}

Test(unit, fifo_is_refused_at_once, .init = make_path, .fini = cleanup, .timeout = 20)
{
    nq_task_set ts = task_set_for(10, 2), found;
    nq_journal *j = NULL;
    nq_journal_info info;

    cr_assert_eq(mkfifo(path, 0644), 0);
    cr_expect_eq(nq_journal_peek(path, &found, &info), NQ_EIO);
    cr_expect_neq(strstr(info.detail, "not a regular file"), NULL, "%s", info.detail);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_EIO);
    cr_expect_neq(strstr(info.detail, "not a regular file"), NULL, "%s", info.detail);
    cr_expect_null(j);
}

/* Many openers of one new journal at once, each keeping what it got until all have
 * tried: exactly one has it, every other is told that it is in use. */
enum { OPENERS = 12 };
static pthread_barrier_t openers_ready;
static nq_task_set openers_ts;

static void *opener(void *arg)
{
    nq_journal **jp = arg;
    nq_journal_info info;
    int rc;
    pthread_barrier_wait(&openers_ready);
    rc = nq_journal_open(jp, path, &openers_ts, 5, &info);
    cr_expect(rc == NQ_OK || (rc == NQ_EIO && strstr(info.detail, "in use by another")),
              "status %d: %s", rc, info.detail);
    pthread_barrier_wait(&openers_ready);
    return NULL;
}

Test(unit, concurrent_creators_one_wins, .fini = cleanup)
{
    pthread_t t[OPENERS];
    nq_journal *j[OPENERS];
    openers_ts = task_set_for(12, 3);

    for (int round = 0; round < 30; round++) {
        int won = 0;
        make_path();
        pthread_barrier_init(&openers_ready, NULL, OPENERS);
        for (int i = 0; i < OPENERS; i++) {
            j[i] = NULL;
            pthread_create(&t[i], NULL, opener, &j[i]);
        }
        for (int i = 0; i < OPENERS; i++)
            pthread_join(t[i], NULL);
        pthread_barrier_destroy(&openers_ready);
        for (int i = 0; i < OPENERS; i++)
            if (j[i]) {
                won++;
                cr_expect_eq(nq_journal_append(j[i], 1, 2), NQ_OK);
                nq_journal_close(&j[i]);
            }
        cr_expect_eq(won, 1, "round %d: %d openers got the journal", round, won);
        cleanup();
    }
}

/* ---- a full disk and a failing fsync, through the write hook ------------------------ */

static atomic_long room; /* bytes the fake disk still takes */

static ssize_t full_disk_pwrite(int fd, const void *buf, size_t len, off_t offset)
{
    long left = atomic_load(&room);
    if (left <= 0) {
        errno = ENOSPC;
        return -1;
    }
    if ((long)len > left)
        len = (size_t)left; /* a short write first, as a real disk filling up does */
    atomic_fetch_sub(&room, (long)len);
    return pwrite(fd, buf, len, offset);
}

static int failing_fsync(int fd)
{
    (void)fd;
    errno = EIO;
    return -1;
}

Test(unit, full_disk_stops_the_run_and_resume_recovers, .init = make_path, .fini = cleanup)
{
    nq_result r;
    nq_journal *j;
    nq_task_set ts = task_set_for(12, 3);
    nq_journal_info info;

    atomic_store(&room, JOURNAL_HEADER_SIZE + 30 * JOURNAL_RECORD_SIZE + 5);
    journal_set_io(full_disk_pwrite, NULL);
    cr_assert_eq(run_with_journal(12, 3, 2, -1, &r), NQ_ECALLBACK);
    journal_set_io(NULL, NULL);
    /* The partial record was taken back: the file is a clean journal of 30 tasks. */
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.tasks_done, 30);
    cr_expect_eq(info.torn_bytes, 0);
    nq_journal_close(&j);
    cr_assert_eq(run_with_journal(12, 3, 2, -1, &r), NQ_OK);
    cr_expect_eq(r.total.lo, oeis_value("A000170", 12));
}

Test(unit, write_error_sticks, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3);
    nq_journal *j;
    nq_journal_info info;

    make_path();
    atomic_store(&room, JOURNAL_HEADER_SIZE + JOURNAL_RECORD_SIZE);
    journal_set_io(full_disk_pwrite, NULL);
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK);
    cr_expect_eq(nq_journal_append(j, 0, 1), NQ_OK);
    cr_expect_eq(nq_journal_append(j, 1, 1), NQ_EIO);
    cr_expect_eq(nq_journal_errno(j), ENOSPC);
    atomic_store(&room, 1000);
    cr_expect_eq(nq_journal_append(j, 2, 1), NQ_EIO, "no record after a failed one");
    cr_expect_eq(nq_journal_close(&j), NQ_EIO);
    cleanup();

    /* The header itself cannot be written: nothing is left behind. */
    make_path();
    atomic_store(&room, 10);
    journal_set_io(full_disk_pwrite, NULL);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_EIO);
    cr_expect_eq(info.sys_errno, ENOSPC);
    cr_expect_eq(access(path, F_OK), -1);
    cleanup();

    /* fsync reports EIO: with interval 0 the append that needed it fails. */
    make_path();
    cr_assert_eq(nq_journal_open(&j, path, &ts, 0, &info), NQ_OK);
    journal_set_io(NULL, failing_fsync);
    cr_expect_eq(nq_journal_append(j, 0, 1), NQ_EIO);
    cr_expect_eq(nq_journal_errno(j), EIO);
    cr_expect_eq(nq_journal_close(&j), NQ_EIO);
}

/* ---- concurrent appends -------------------------------------------------------------- */

enum { WRITERS = 4, PER_WRITER = 500 };
static nq_journal *shared_j;

static void *writer(void *arg)
{
    uint64_t base = (uint64_t)(uintptr_t)arg * PER_WRITER;
    for (uint64_t i = 0; i < PER_WRITER; i++) {
        cr_assert_eq(nq_journal_append(shared_j, base + i, (base + i) * 3), NQ_OK);
        if (i % 97 == 0)
            nq_journal_tick(shared_j);
    }
    return NULL;
}

Test(unit, concurrent_appends_are_all_kept, .fini = cleanup)
{
    nq_task_set ts = task_set_for(16, 4);
    nq_journal_info info;
    pthread_t t[WRITERS];
    uint64_t sub;

    cr_assert_geq(ts.tasks, (uint64_t)WRITERS * PER_WRITER);
    make_path();
    cr_assert_eq(nq_journal_open(&shared_j, path, &ts, 0.001, &info), NQ_OK);
    for (uintptr_t i = 0; i < WRITERS; i++)
        pthread_create(&t[i], NULL, writer, (void *)i);
    for (int i = 0; i < WRITERS; i++)
        pthread_join(t[i], NULL);
    cr_assert_eq(nq_journal_close(&shared_j), NQ_OK);
    cr_assert_eq(nq_journal_open(&shared_j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.tasks_done, WRITERS * PER_WRITER);
    for (uint64_t i = 0; i < WRITERS * PER_WRITER; i++)
        cr_expect(nq_journal_lookup(shared_j, i, &sub) == 1 && sub == i * 3, "id %llu",
                  (unsigned long long)i);
    nq_journal_close(&shared_j);
}

/* ---- version 3: the slice; version 2 still read ------------------------------------ */

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A version 2 journal (144-byte header, no slice) of ts with records (id, id + 7) for
 * ids 0..k-1, bound to that header. */
static void write_v2(const nq_task_set *ts, uint64_t k)
{
    unsigned char hdr[JOURNAL_V2_HEADER_SIZE] = "NQJOURNL", rec[JOURNAL_RECORD_SIZE];

    put_le(hdr + 8, 2, 4);
    put_le(hdr + 12, (uint64_t)ts->n, 4);
    put_le(hdr + 16, ts->tasks, 8);
    memcpy(hdr + 24, ts->engine, strlen(ts->engine));
    memcpy(hdr + 48, ts->params, strlen(ts->params));
    memcpy(hdr + 120, "version-2 id 16b", 16);
    put_le(hdr + 140, journal_crc32(hdr, 140), 4);
    poke(0, hdr, sizeof(hdr));
    for (uint64_t i = 0; i < k; i++) {
        journal_encode_record(journal_record_key(hdr), i, i + 7, rec);
        poke((off_t)(sizeof(hdr) + i * sizeof(rec)), rec, sizeof(rec));
    }
}

Test(unit, version_2_is_read_and_resumed, .init = make_path, .fini = cleanup)
{
    nq_task_set ts = task_set_for(12, 3), found;
    nq_journal *j;
    nq_journal_info info;
    uint64_t sub;

    write_v2(&ts, 5);
    cr_assert_eq(nq_journal_peek(path, &found, &info), NQ_OK, "%s", info.detail);
    cr_expect(nq_task_set_equal(&found, &ts));
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.tasks_done, 5);
    cr_expect(nq_journal_lookup(j, 4, &sub) && sub == 11);
    cr_expect_eq(nq_journal_append(j, 5, 12), NQ_OK);
    cr_expect_eq(nq_journal_close(&j), NQ_OK);
    /* the record appended to it is bound to its own, version 2 header */
    cr_expect_eq(file_size(), JOURNAL_V2_HEADER_SIZE + 6 * JOURNAL_RECORD_SIZE);
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(info.tasks_done, 6);
    cr_expect_eq(info.torn_bytes, 0);
    nq_journal_close(&j);
}

static nq_task_set slice_set(int k, int m)
{
    nq_settings s = settings_for(12, 3, 2);
    nq_task_set ts;
    s.slice_index = k;
    s.slice_count = m;
    cr_assert_eq(nq_task_set_describe(&s, &ts), NQ_OK);
    return ts;
}

Test(unit, slice_is_recorded_and_bounds_the_records, .fini = cleanup)
{
    nq_task_set ts = slice_set(1, 3), other = slice_set(2, 3), found;
    nq_journal *j;
    nq_journal_info info;

    cr_assert(ts.slice_count == 3 && ts.slice_index == 1 && ts.first_task > 0);
    cr_assert(ts.first_task < ts.end_task && ts.end_task <= ts.tasks);
    cr_expect_eq(other.first_task, ts.end_task, "slices are contiguous");
    make_path();
    cr_assert_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_OK, "%s", info.detail);
    cr_expect_eq(nq_journal_append(j, ts.first_task, 3), NQ_OK);
    cr_expect_eq(nq_journal_append(j, ts.first_task - 1, 3), NQ_EINVAL, "before the slice");
    cr_expect_eq(nq_journal_append(j, ts.end_task, 3), NQ_EINVAL, "after the slice");
    nq_journal_close(&j);
    cr_expect_eq(file_size(), JOURNAL_HEADER_SIZE + JOURNAL_RECORD_SIZE);
    cr_assert_eq(nq_journal_peek(path, &found, &info), NQ_OK, "%s", info.detail);
    cr_expect(nq_task_set_equal(&found, &ts));
    /* another slice of the same set is another run */
    cr_expect_eq(nq_journal_open(&j, path, &other, 5, &info), NQ_EMISMATCH);
    /* a record outside the slice, checksum and all, followed by a good one */
    forge_write(path, -1, ts.end_task, 1, JOURNAL_KIND_TASK);
    forge_write(path, -1, ts.first_task + 1, 1, JOURNAL_KIND_TASK);
    cr_expect_eq(nq_journal_open(&j, path, &ts, 5, &info), NQ_ECORRUPT);
    cr_expect_not_null(strstr(info.detail, "outside the journal's slice"), "%s", info.detail);
}

Test(unit, slice_fields_out_of_range_are_damage, .fini = cleanup)
{
    nq_task_set ts = slice_set(1, 3);
    unsigned char hdr[JOURNAL_HEADER_SIZE];
    static const struct {
        int at, bytes;
        uint64_t v;
    } bad[] = {{136, 4, 3}, {144, 8, 1ull << 40}, {152, 8, 1ull << 40}, {165, 1, 1}, {140, 4, 0}};
    nq_journal_info info;
    nq_task_set found;

    make_path();
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        journal_encode_header(&ts, (const unsigned char *)"0123456789abcdef", hdr);
        put_le(hdr + bad[i].at, bad[i].v, bad[i].bytes);
        put_le(hdr + 172, journal_crc32(hdr, 172), 4);
        poke(0, hdr, sizeof(hdr));
        cr_expect_eq(nq_journal_peek(path, &found, &info), NQ_ECORRUPT, "case %zu", i);
        cr_expect_not_null(strstr(info.detail, "out of range"), "%s", info.detail);
    }
}
