/* The files a run writes (the journal, the subtotals, bench's --out, standard output),
 * told apart by what they are rather than by how they are spelled: two names for one
 * file (./nj and nj, a hard link, /dev/stdout) would write each over the other. */
#ifndef NQ_TOOLS_OUTPUT_FILES_H
#define NQ_TOOLS_OUTPUT_FILES_H

#include <stdint.h>

#include "nqueens/nqueens.h"

typedef struct output_file {
    const char *option; /* "--checkpoint", "--subtotals", "--out"; NULL: standard output */
    const char *path;
    int known; /* a regular file whose identity was read; anything else is never compared */
    uint64_t dev, ino;
} output_file;

/* Describe the output open on fd (path, as the user spelled it, for the message). */
void output_file_fd(output_file *f, const char *option, const char *path, int fd);
/* Describe the open journal j at path; with j NULL, the file at path now, if any. */
void output_file_journal(output_file *f, const char *path, const nq_journal *j);

/* Whether any two of the n outputs are one file: 0, or EXIT_USAGE after a one-line
 * message naming both. */
int output_files_distinct(const char *cmd, const output_file *f, int n);

/* The check of nqueens count and nqueens-mpi: the journal j at checkpoint (NULL: no
 * journal), the subtotals on subtotals_fd (at subtotals, or NULL) and standard output,
 * where the result goes. Made once before the journal is opened (j NULL: by the file at
 * the path then, so that a refusal is the only message) and once after (j: by the file
 * it opened). */
int output_files_check_count(const char *cmd, const char *checkpoint, const nq_journal *j,
                             const char *subtotals, int subtotals_fd);

#endif
