/* Test helper: write journal records behind the library's back, with checksums bound to
 * the file's own header, as a writer that knows the format (or a forger) would. */
#ifndef NQ_TEST_JOURNAL_FORGE_H
#define NQ_TEST_JOURNAL_FORGE_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/journal_codec.h"

/* Record bytes for (id, sub, kind), bound to the header of the journal at path. */
static inline void forge_record(const char *path, uint64_t id, uint64_t sub, uint32_t kind,
                                unsigned char rec[JOURNAL_RECORD_SIZE])
{
    unsigned char hdr[JOURNAL_HEADER_SIZE];
    uint32_t key, crc;
    int fd = open(path, O_RDONLY);

    cr_assert(fd >= 0, "cannot open %s", path);
    cr_assert_eq(pread(fd, hdr, sizeof(hdr), 0), (ssize_t)sizeof(hdr));
    close(fd);
    key = journal_record_key(hdr);
    journal_encode_record(key, id, sub, rec);
    for (int i = 0; i < 4; i++)
        rec[16 + i] = (unsigned char)(kind >> (8 * i));
    crc = journal_crc32_update(key, rec, 20);
    for (int i = 0; i < 4; i++)
        rec[20 + i] = (unsigned char)(crc >> (8 * i));
}

/* Write the record at offset (-1: at the end of the file). */
static inline void forge_write(const char *path, off_t offset, uint64_t id, uint64_t sub,
                               uint32_t kind)
{
    unsigned char rec[JOURNAL_RECORD_SIZE];
    struct stat st;
    int fd;

    forge_record(path, id, sub, kind, rec);
    cr_assert_eq(stat(path, &st), 0);
    fd = open(path, O_WRONLY);
    cr_assert(fd >= 0);
    cr_assert_eq(pwrite(fd, rec, sizeof(rec), offset < 0 ? st.st_size : offset),
                 (ssize_t)sizeof(rec));
    close(fd);
}

/* Change the subtotal of the record at index k by delta and recompute its checksum: a
 * deliberate edit that every checksum accepts. */
static inline void forge_edit_subtotal(const char *path, size_t k, int64_t delta)
{
    unsigned char rec[JOURNAL_RECORD_SIZE];
    off_t at = JOURNAL_HEADER_SIZE + (off_t)k * JOURNAL_RECORD_SIZE;
    uint64_t id = 0, sub = 0;
    int fd = open(path, O_RDONLY);

    cr_assert(fd >= 0);
    cr_assert_eq(pread(fd, rec, sizeof(rec), at), (ssize_t)sizeof(rec));
    close(fd);
    for (int i = 7; i >= 0; i--) {
        id = (id << 8) | rec[i];
        sub = (sub << 8) | rec[8 + i];
    }
    forge_write(path, at, id, sub + (uint64_t)delta, JOURNAL_KIND_TASK);
}

#endif
