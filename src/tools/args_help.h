/* The help of a command and the version of the tool, printed from the option tables
 * (args_parser.h) with what this build has: its engines, vector paths and optional parts. */
#ifndef NQ_TOOLS_ARGS_HELP_H
#define NQ_TOOLS_ARGS_HELP_H

#include <stddef.h>
#include <stdio.h>

#include "args_parser.h"

/* The options every command takes besides its table's: -h/--help and -V/--version. */
extern const args_option args_common_options[];

/* Print c's help: the usage line, about, the options as a table and the epilogue. */
void args_print_help(const args_command *c, FILE *f);
/* Print the version, the git revision and the optional parts built in. */
void args_print_version(FILE *f);
/* "prefix, d4, cuda": every engine the library names, from nq_engine_name, with the
 * ones this build leaves out marked (the help lists only the built ones). */
const char *args_engine_names(void);
/* The args_words of --engine: auto and the engines this build has. */
const char *args_engine_word(int i, const char **about);
/* The args_words of --simd: auto and the vector paths this build has. */
const char *args_simd_word(int i, const char **about);
/* words as a list for a message or the help: "a, b or c", into buf. */
const char *args_words_text(args_words *words, char *buf, size_t size);
/* TOOL --list-values COMMAND OPTION (argv[1..3]): the words OPTION ("--format" or "-f")
 * of COMMAND takes, one a line on stdout, that the shell completions offer; nothing for
 * an option without a fixed set. find gives a command's table by its name (NULL: no
 * such command). 0, or EXIT_USAGE after a one-line message. */
int args_list_values(int argc, char **argv, const args_command *(*find)(const char *name));
/* The vector paths for which has() says 1, narrowest first: "scalar, avx2", into buf. */
const char *args_simd_names(int (*has)(int), char *buf, size_t size);

#endif
