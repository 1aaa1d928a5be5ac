/* The temporary file beside a file about to be written, for the journal and for every
 * output of the tools alike: written there in full, then renamed into place, so that a
 * stop, a full disk or a concurrent run never leaves a half-written file under the real
 * name. Header-only, so that the library and the tools share it across the API edge. */
#ifndef NQ_TEMP_NAME_H
#define NQ_TEMP_NAME_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* A fixed short prefix and 16 random hex digits, never the file's own name: a name of up
 * to 255 bytes, the most a folder takes, still has a temporary name beside it. The dot
 * keeps it out of a plain ls while it exists. */
#define TEMP_NAME_PREFIX ".nq-"
#define TEMP_NAME_LEN (sizeof(TEMP_NAME_PREFIX) - 1 + 16)

/* Random bits for the name; the clock and the process id where the kernel has none to
 * give, which still differ between two writers. */
static inline uint64_t temp_name_random(unsigned attempt)
{
    struct timespec ts;
    uint64_t r;

    if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
        return r;
    clock_gettime(CLOCK_REALTIME, &ts);
    r = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    return (r ^ ((uint64_t)getpid() << 32) ^ attempt) * 0x9e3779b97f4a7c15ull;
}

/* Create a fresh file in the folder of path, exclusively and never through a link
 * planted there (O_CREAT | O_EXCL | O_NOFOLLOW), opened with flags (O_RDWR or
 * O_WRONLY). Returns its descriptor and its name in *tmp (to free), or -1 with errno
 * set and *tmp NULL. Only the caller ever has the file, so it may unlink it freely. */
static inline int temp_name_create(const char *path, int flags, char **tmp)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0, size = dir + TEMP_NAME_LEN + 1;
    char *name = malloc(size);
    int fd = -1;

    *tmp = NULL;
    if (!name) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(name, path, dir);
    for (unsigned attempt = 0; attempt < 16; attempt++) {
        snprintf(name + dir, size - dir, "%s%016llx", TEMP_NAME_PREFIX,
                 (unsigned long long)temp_name_random(attempt));
        fd = open(name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(name);
        errno = e;
        return -1;
    }
    *tmp = name;
    return fd;
}

#endif
