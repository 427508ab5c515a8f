/*
 * Arrays that grow by one element at a time: room doubles when the count reaches a power of two, so appends
 * cost O(1) on average and no capacity needs keeping beside the count.
 */
#ifndef MEMSCOPE_GROW_H
#define MEMSCOPE_GROW_H

#include <stddef.h>

/* Makes room in *items (count elements of size bytes) for one more; -1 when memory runs out (*items kept). */
int grow_for_one_more(void **items, size_t count, size_t size);

#endif
