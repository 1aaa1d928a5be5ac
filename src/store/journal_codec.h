/* The checkpoint journal's byte format: the on-disk layout and the codec and parser that
 * work on a buffer (shared by the file I/O in journal.c and the fuzz target). */
#ifndef NQ_JOURNAL_CODEC_H
#define NQ_JOURNAL_CODEC_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "nqueens/nqueens.h"

/* Layout (version 3; docs/journal.md), all integers little-endian:
 *   header (176 bytes): magic "NQJOURNL", u32 version, u32 n, u64 tasks, engine[24],
 *                       params[72], journal id[16] (random, one per journal),
 *                       u32 slice index, u32 slice count (0: the whole set),
 *                       u64 first task, u64 end task (the slice's ids; 0 and 0 without),
 *                       reserved[12] (0), u32 CRC-32 of bytes 0..171
 *   record (24 bytes):  u64 task id, u64 subtotal, u32 kind (1 = task done),
 *                       u32 CRC-32 of the header's bytes before its CRC, then record
 *                       bytes 0..19
 * Version 2 (144-byte header: no slice, reserved u32 at 136, CRC at 140) is still read
 * and resumed, its records keyed by its own header. Text fields are NUL-padded
 * printable ASCII, so equal task sets are equal bytes. A record's checksum covers its
 * journal's header, id included, so that records copied from another journal (another
 * run, or another n) fail their checksum here. */
enum {
    JOURNAL_VERSION = 3,
    JOURNAL_HEADER_SIZE = 176, /* this version's; the largest */
    JOURNAL_V2_HEADER_SIZE = 144,
    JOURNAL_RECORD_SIZE = 24,
    JOURNAL_ID_SIZE = 16,
    JOURNAL_KIND_TASK = 1,
};

typedef struct journal_entry {
    uint64_t id, subtotal;
} journal_entry;

/* The records of a journal, sorted by id, one per id, and the size of the header they
 * follow (the journal's version's). */
typedef struct journal_table {
    journal_entry *e;
    size_t len;
    size_t header_size;
} journal_table;

uint32_t journal_crc32(const void *buf, size_t len);
/* Continue a CRC-32: journal_crc32_update(journal_crc32(a), b) is the CRC-32 of a then b
 * (zlib's crc32(crc, buf, len)). */
uint32_t journal_crc32_update(uint32_t crc, const void *buf, size_t len);

/* Header <-> task set. id is the journal's random id. decode returns NQ_OK, NQ_ECORRUPT
 * or NQ_EUNSUPPORTED (another format version), with info->detail saying why. */
void journal_encode_header(const nq_task_set *ts, const unsigned char id[JOURNAL_ID_SIZE],
                           unsigned char out[JOURNAL_HEADER_SIZE]);
int journal_decode_header(const unsigned char *buf, size_t len, nq_task_set *ts,
                          nq_journal_info *info);

/* The key that binds records to a journal: the CRC-32 of its header's bytes before the
 * header's own CRC (0..171; 0..139 in version 2). hdr holds a whole header that
 * journal_decode_header accepted, or one journal_encode_header wrote. */
uint32_t journal_record_key(const unsigned char *hdr);
/* The size of the header that starts hdr (which journal_decode_header accepted). */
size_t journal_header_size(const unsigned char *hdr);

/* One task-done record of the journal whose record key is key. */
void journal_encode_record(uint32_t key, uint64_t id, uint64_t subtotal,
                           unsigned char out[JOURNAL_RECORD_SIZE]);

/* Write a printf-style reason into info->detail (nothing when info is NULL). */
void journal_set_detail(nq_journal_info *info, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A read given up on its stop: info's detail says so; NQ_ECANCELED. */
int journal_stopped(nq_journal_info *info);

/* Whether a file of len bytes that starts with hdr (its first hlen bytes) can be a
 * journal: its header decodes (into *ts and info->found) and len is at most the header, one
 * record per task of the set (of the slice, for a slice's journal) and a torn last
 * record, which is all the library ever writes. NQ_OK, or the header's status, or
 * NQ_ECORRUPT for a file too large, with info->detail saying why. The file is checked
 * with it before it is read. */
int journal_check_size(const unsigned char *hdr, size_t hlen, uint64_t len, nq_task_set *ts,
                       nq_journal_info *info);

/* Parse a whole journal image (checked with journal_check_size first). On NQ_OK, tab holds its
 * records (caller frees tab->e) and *keep is the length of the valid part: len - keep bytes are a
 * torn last record. Never reads outside buf, whatever it holds. Polls stop (core/stop.h; NULL:
 * none) as it checks and sorts the records: NQ_ECANCELED once it is set, with nothing to free. */
int journal_parse(const unsigned char *buf, size_t len, const atomic_int *stop, journal_table *tab,
                  size_t *keep, nq_journal_info *info);

#endif
