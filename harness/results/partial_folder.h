/*
 * The results folder is filled under "<dir>.partial" and renamed to "<dir>"
 * only when every file in it is complete: an interrupted or failed run leaves a
 * folder whose name says it is incomplete, never one that looks finished.
 * A single output file (memscope-decode -o) follows the same rule: written as
 * "<file>.partial", renamed once complete. Both are C's half of the output rule
 * of docs/command-line.md ("What memscope writes"), shared with
 * scripts/output-folder.sh and scripts/memscope_output.py: memscope never
 * removes or replaces what it did not write, so an existing <dir>, <file> or
 * .partial is refused (EXIT_OUTPUT, naming it) and left as it was.
 */
#ifndef MEMSCOPE_RESULTS_DIR_H
#define MEMSCOPE_RESULTS_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../common/paths.h"
#include "../common/error.h"

#define DEFAULT_RESULTS_ROOT "memscope-results"

struct results_dir {
    char final_path[PATH_LEN];
    char partial_path[PATH_IN_FOLDER_LEN];
    bool in_default_root; /* DEFAULT_RESULTS_ROOT is created on demand */
};

/* A path given for output, refused when empty (EXIT_USAGE, naming the option or argument): "" would write into the
 * current folder as ".partial", or, with a file name joined to it, into the root. */
int output_path_given(const char *what, const char *path, struct error *e);

/* Chooses and validates the paths without creating anything (NULL: a fresh timestamped folder). */
int results_dir_plan(struct results_dir *r, const char *requested, struct error *e);
int results_dir_create(const struct results_dir *r, struct error *e);
int results_dir_commit(const struct results_dir *r, struct error *e);

/* One output file on its way: stream writes final_path's .partial, which this run created and alone may remove. */
struct partial_file {
    char final_path[PATH_LEN];
    char partial_path[PATH_IN_FOLDER_LEN];
    FILE *stream;
};

/* Refuses an existing path or path.partial (EXIT_OUTPUT, naming it), else creates path.partial and opens it. */
int partial_file_open(struct partial_file *f, const char *path, struct error *e);
/* After the stream is closed: renames the .partial to the final path, which must still not exist; on failure
 * (given in e, or its own), removes the .partial, so a failed writer leaves nothing that looks complete. */
int partial_file_finish(const struct partial_file *f, struct error *e);

#endif
