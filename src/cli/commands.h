/* The subcommands of the nqueens tool; each takes argv starting at its own name. */
#ifndef NQ_CLI_COMMANDS_H
#define NQ_CLI_COMMANDS_H

#include "tools/args_parser.h"

int cmd_count(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* Each command's options and help, which the top level's --list-values reads too. */
extern const args_command count_command, verify_command, list_command, bench_command,
    estimate_command, merge_command;

#endif
