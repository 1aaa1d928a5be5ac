/* The checkpoint journal's internals: the byte format (journal_codec.h) and a write hook
 * for tests. */
#ifndef NQ_JOURNAL_H
#define NQ_JOURNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "store/journal_codec.h"

/* Tests replace the calls that write to the disk to simulate a full disk or an I/O
 * error; NULL restores the real ones. Not thread-safe: set before opening a journal. */
typedef ssize_t (*journal_pwrite_fn)(int fd, const void *buf, size_t len, off_t offset);
typedef int (*journal_fsync_fn)(int fd);
void journal_set_io(journal_pwrite_fn pwrite_fn, journal_fsync_fn fsync_fn);

#endif
