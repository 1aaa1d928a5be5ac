/* The files a run writes (the journal, the subtotals, bench's reports, estimate's sample,
 * standard output): told apart by what they are rather than by how they are spelled,
 * since two names for one file (./nj and nj, a hard link, /dev/stdout) would write each
 * over the other; and written the one way every output is, so that no stop, full disk or
 * concurrent run leaves a file empty, cut short or written through a link. */
#ifndef NQ_TOOLS_OUTPUT_FILES_H
#define NQ_TOOLS_OUTPUT_FILES_H

#include <stdint.h>
#include <stdio.h>

#include "nqueens/nqueens.h"

/* What an output is. A regular file is known by device and inode; a name not yet taken
 * by its folder's device and inode and the last part of the name (two spellings of one
 * new file must still meet); anything else (a FIFO, /dev/null) is never compared. */
enum { OUTPUT_NOT_COMPARED, OUTPUT_EXISTING, OUTPUT_NEW_NAME };

typedef struct output_file {
    const char *option; /* "--checkpoint", "--subtotals", "--out"; NULL: standard output */
    const char *path;
    int known; /* OUTPUT_NOT_COMPARED, _EXISTING (dev, ino: the file's) or
                  _NEW_NAME (dev, ino: its folder's) */
    uint64_t dev, ino;
    const char *base; /* OUTPUT_NEW_NAME: the last part of path */
} output_file;

/* Describe the output open on fd (path, as the user spelled it, for the message). */
void output_file_fd(output_file *f, const char *option, const char *path, int fd);
/* Describe the output at path as it is now, never following a link at its end. */
void output_file_path(output_file *f, const char *option, const char *path);
/* Describe the open journal j at path; with j NULL, the file at path now, if any. */
void output_file_journal(output_file *f, const char *path, const nq_journal *j);

/* Whether any two of the n outputs are one file: 0, or EXIT_USAGE after a one-line
 * message naming both. */
int output_files_distinct(const char *cmd, const output_file *f, int n);

/* An output being written. A regular file, or a name not yet taken, is written under a
 * temporary name in its folder (core/temp_name.h) and renamed over path once complete:
 * until then path keeps what it held, and a run that stops or fails removes only its
 * own temporary file, never a file another run wrote meanwhile. A FIFO that a process
 * reads or a character device (/dev/null, a terminal) is written in place, as a stream. */
typedef struct output_writer {
    const char *option, *path; /* for the messages */
    char *tmp;                 /* the temporary name, or NULL: written in place */
    FILE *f;                   /* NULL: not open */
} output_writer;

/* Before the work: make the file to write, so that a path that cannot be written fails
 * at once. Never follows a symbolic link at the end of path, never blocks (a FIFO that
 * no process reads is refused), refuses anything but a regular file, a FIFO or a
 * character device, and a regular file this user may not write. Returns 0 with w->f
 * open, or EXIT_RUN_FAILED after one line "cannot write OPTION PATH: why". */
int output_writer_open(output_writer *w, const char *cmd, const char *option, const char *path);
/* Write to fd (a copy of standard output, say) in place, as a stream; as _open. */
int output_writer_adopt(output_writer *w, const char *cmd, const char *option, const char *path,
                        int fd);
/* The output is complete: flush, sync and rename it into place. Returns 0, or
 * EXIT_RUN_FAILED after one line (a full disk, say), and then path keeps what it held. */
int output_writer_commit(output_writer *w, const char *cmd);
/* The run stopped or failed: close and remove the temporary file; path is untouched. */
void output_writer_abandon(output_writer *w);

#endif
