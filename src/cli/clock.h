/* The two clocks the tool reports: wall time (monotonic) and this process's CPU time
 * (user + system, every thread), both in seconds. */
#ifndef NQ_CLI_CLOCK_H
#define NQ_CLI_CLOCK_H

double clock_wall(void);
double clock_cpu(void);

#endif
