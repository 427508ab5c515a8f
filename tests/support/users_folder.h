/* A user's folder, for the tests that check memscope keeps what it did not write (docs/command-line.md, "What
 * memscope writes"): a folder with notes.txt ("notes") in it. Include after cmocka.h and run_shell.h. */
#ifndef MEMSCOPE_USERS_FOLDER_H
#define MEMSCOPE_USERS_FOLDER_H

#include <stdio.h>

/* workdir/name, made with notes.txt in it; its path, good until four more calls. */
static inline const char *users_folder(const char *workdir, const char *name)
{
    static char path[4][300];
    static int next;
    static struct outcome o;
    char *dir = path[next++ % 4];
    snprintf(dir, sizeof path[0], "%s/%s", workdir, name);
    shell(&o, "mkdir -p %s && echo notes >%s/notes.txt", dir, dir);
    assert_int_equal(o.exit_code, 0);
    return dir;
}

/* The user's notes in dir, as they were written. */
static inline void expect_notes_kept(const char *dir)
{
    static struct outcome o;
    shell(&o, "cat %s/notes.txt", dir);
    assert_int_equal(o.exit_code, 0);
    assert_string_equal(o.output, "notes\n");
}

#endif
