#define _GNU_SOURCE /* sigabbrev_np, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "program.h"

/* In the child: the signals we ignore are the program's again, our pid variable is set, and exec. On failure the
 * exec's errno goes back through the pipe (closed on a successful exec). */
static void become_program(char *const argv[], const char *pid_variable, int report_fd)
{
    char pid[32];
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    setenv(pid_variable, pid, 1);
    execvp(argv[0], argv);
    int failure = errno;
    ssize_t written = write(report_fd, &failure, sizeof failure);
    (void)written; /* nothing more can be done in the child */
    _exit(127);
}

static void wait_for(pid_t pid, struct program_end *end)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    end->exited = WIFEXITED(status);
    end->status = end->exited ? WEXITSTATUS(status) : 0;
    end->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

void program_run(char *const argv[], const char *pid_variable, struct program_end *end)
{
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    int report[2];
    *end = (struct program_end){0};
    if (pipe2(report, O_CLOEXEC) != 0) {
        end->not_started = errno;
        return;
    }
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    pid_t pid = fork();
    if (pid == 0)
        become_program(argv, pid_variable, report[1]);
    close(report[1]);
    if (pid < 0) {
        end->not_started = errno;
    } else {
        int failure = 0;
        ssize_t got;
        while ((got = read(report[0], &failure, sizeof failure)) < 0 && errno == EINTR)
            continue;
        wait_for(pid, end);
        end->not_started = got == (ssize_t)sizeof failure ? failure : 0;
    }
    close(report[0]);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
}

/* A path (not a name looked up in PATH) that names a directory: execvp says only EACCES of it. */
static bool is_directory(const char *name)
{
    struct stat st;
    return strchr(name, '/') && stat(name, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A path to a file that is there: ENOENT of it means its #! interpreter (or a library its loader needs) is not. */
static bool is_file_there(const char *name)
{
    struct stat st;
    return strchr(name, '/') && stat(name, &st) == 0 && S_ISREG(st.st_mode);
}

void program_describe(const char *name, const struct program_end *end, char *text, size_t len)
{
    const char *hint = "";
    if (end->not_started == ENOENT && is_file_there(name))
        hint = " (the file is there: the interpreter its #! line names, or its ELF loader, is not)";
    else if (end->not_started == ENOENT)
        hint = strchr(name, '/') ? " (no such file)" : " (not found in PATH)";
    else if (end->not_started == EACCES && is_directory(name))
        hint = " (it is a directory, not a program)";
    else if (end->not_started == EACCES)
        hint = " (not an executable file: chmod +x it, or name its interpreter)";
    if (end->not_started)
        snprintf(text, len, "cannot start the program '%s': %s%s", name, strerror(end->not_started), hint);
    else if (end->exited)
        snprintf(text, len, "the program exited with status %d", end->status);
    else
        snprintf(text, len, "the program was killed by signal %d (SIG%s: %s)", end->signal,
                 sigabbrev_np(end->signal) ? sigabbrev_np(end->signal) : "?", strsignal(end->signal));
}
