/* Sizes of path buffers, the same everywhere: a path as given, and a path with a name joined to it. */
#ifndef MEMSCOPE_PATHS_H
#define MEMSCOPE_PATHS_H

#include <limits.h>

#define PATH_LEN PATH_MAX
/* Room for a path of len bytes, a slash and a file name: joining the two cannot be cut short. */
#define PATH_JOINED(len) ((len) + 1 + NAME_MAX + 1)
/* A file in a folder given as a path. */
#define PATH_IN_FOLDER_LEN PATH_JOINED(PATH_LEN)

#endif
