/* The subcommands of the nqueens tool; each takes argv starting at its own name. */
#ifndef NQ_CLI_COMMANDS_H
#define NQ_CLI_COMMANDS_H

int cmd_count(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
