/* The tools' one message format (one line on stderr, "nqueens[ cmd]: <message>") and
 * their exit codes: a usage error is 2, a run that failed 1. */
#ifndef NQ_TOOLS_ARGS_MESSAGES_H
#define NQ_TOOLS_ARGS_MESSAGES_H

enum { EXIT_RUN_FAILED = 1, EXIT_USAGE = 2 };

/* The program name that starts every message ("nqueens"; nqueens-mpi sets its own). */
extern const char *args_program;

/* Print "nqueens[ cmd]: <message>" on stderr as one line; returns EXIT_USAGE. Control
 * bytes and bytes that are not UTF-8 (from a file name or an argument) are written as
 * \xHH, so that a message never drives the terminal, and a %s argument over 240 bytes
 * (a long path) keeps its first and last bytes around "...", so that the reason after
 * it is never cut. */
int args_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same; returns EXIT_RUN_FAILED. */
int args_run_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same line for a message that is not an error (a warning, a resume hint). */
void args_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same line, with nothing shortened: a command for a person to paste. */
void args_hint(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s as one shell word that a POSIX shell reads back as s: as it is when it needs no
 * quotes, else in '...', or in $'...' with \n, \t and \xHH escapes when it holds a byte
 * that the messages would escape (control bytes, bytes that are not UTF-8 text), since
 * inside '...' the escape would name another file. malloc'd; NULL without memory. */
char *args_shell_word(const char *s);

#endif
