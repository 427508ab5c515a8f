/*
 * Rows found by name: a hash table from a name and a number (a variant and its width, a job and 0) to the first row
 * added under them, so that a reader of a program's profile, whose summary holds a row per kernel launch (100,000
 * in a training script's), finds each in constant time instead of by a scan. The names are the caller's: they must
 * outlive the index.
 */
#ifndef MEMSCOPE_CSV_NAME_INDEX_H
#define MEMSCOPE_CSV_NAME_INDEX_H

#include <stddef.h>

struct name_index_slot {
    const char *name;
    int number;
    int row; /* -1: an empty slot */
};

struct name_index {
    struct name_index_slot *slots;
    size_t capacity, used;
};

/* 0, or -1 when memory runs out (the index is then empty). */
int name_index_init(struct name_index *x, size_t expected);
/* The row of (name, number) if one is there already, else row, added; -2 when memory runs out. */
int name_index_add(struct name_index *x, const char *name, int number, int row);
/* The first row added under (name, number), or -1. */
int name_index_find(const struct name_index *x, const char *name, int number);
void name_index_free(struct name_index *x);

#endif
