/* A child process that stands for another program (a run holding the GPU, a rank of the program) and says through a
 * pipe when it is ready, so that the test goes on only then. Include after cmocka.h. */
#ifndef MEMSCOPE_READY_CHILD_H
#define MEMSCOPE_READY_CHILD_H

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Forks: the child runs body(ready_fd, arg), which writes one byte into ready_fd once ready and ends the child itself
 * (_exit). Returns the child's pid, the byte it wrote in *said. */
static inline pid_t start_ready_child(void (*body)(int ready_fd, const void *arg), const void *arg, char *said)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        body(ready[1], arg);
        _exit(1);
    }
    close(ready[1]);
    *said = 0;
    assert_int_equal(read(ready[0], said, 1), 1);
    close(ready[0]);
    return pid;
}

/* However the child ends, the kernel gives back what it held: its locks, its slot's process. */
static inline void stop_child(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

#endif
