/*
 * The program memscope-profile runs: started as a shell starts it (PATH
 * lookup, a script without #! run by /bin/sh), waited for, and its end told in
 * words, apart from memscope-profile's own exit code.
 */
#ifndef MEMSCOPE_LAUNCHER_PROGRAM_H
#define MEMSCOPE_LAUNCHER_PROGRAM_H

#include <stddef.h>

struct program_end {
    int not_started; /* errno of the exec that failed; 0: it ran */
    int exited;      /* 1: it exited, with status; 0: a signal ended it */
    int status, signal;
};

/* Runs argv (NULL-terminated) with pid_variable set to its own pid in its environment, the rest of the
 * environment being ours. While it runs, ^C and ^\ reach it alone: their end is its to report. */
void program_run(char *const argv[], const char *pid_variable, struct program_end *end);
/* "the program exited with status 3", "the program was killed by signal 9 (SIGKILL: Killed)"; why it could not
 * be started. */
void program_describe(const char *name, const struct program_end *end, char *text, size_t len);

#endif
