/*
 * What memscope-profile writes of a profile once its summary is written: kernels.csv (its kernels, kernels.h) and,
 * for a program of several processes, collectives.csv (collectives.h), made from the folder's own files through
 * the same models the report and memscope-compare read it by.
 */
#ifndef MEMSCOPE_PROGRAM_FILES_H
#define MEMSCOPE_PROGRAM_FILES_H

#include "../common/error.h"

/* dir: the profile's folder, still being written (its .partial). */
int program_files_write(const char *dir, struct error *e);

#endif
