#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "name_index.h"

/* FNV-1a over the name, the number mixed in last. */
static size_t hash(const char *name, int number)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; ++p)
        h = (h ^ *p) * 1099511628211ull;
    h = (h ^ (uint32_t)number) * 1099511628211ull;
    return (size_t)(h ^ (h >> 32));
}

static int allocate(struct name_index *x, size_t capacity)
{
    x->slots = malloc(capacity * sizeof *x->slots);
    if (!x->slots)
        return -1;
    for (size_t i = 0; i < capacity; ++i)
        x->slots[i].row = -1;
    x->capacity = capacity;
    x->used = 0;
    return 0;
}

int name_index_init(struct name_index *x, size_t expected)
{
    size_t capacity = 16;
    while (capacity < 2 * expected)
        capacity *= 2;
    *x = (struct name_index){0};
    return allocate(x, capacity);
}

/* The slot of (name, number), or the empty one where it would go: the table is never full (load at most 1/2). */
static struct name_index_slot *slot_of(const struct name_index *x, const char *name, int number)
{
    size_t mask = x->capacity - 1;
    for (size_t at = hash(name, number) & mask;; at = (at + 1) & mask) {
        struct name_index_slot *s = &x->slots[at];
        if (s->row < 0 || (s->number == number && strcmp(s->name, name) == 0))
            return s;
    }
}

static int grow(struct name_index *x)
{
    struct name_index old = *x;
    if (allocate(x, 2 * old.capacity) != 0) {
        *x = old;
        return -1;
    }
    for (size_t i = 0; i < old.capacity; ++i)
        if (old.slots[i].row >= 0) {
            *slot_of(x, old.slots[i].name, old.slots[i].number) = old.slots[i];
            ++x->used;
        }
    free(old.slots);
    return 0;
}

int name_index_add(struct name_index *x, const char *name, int number, int row)
{
    if (!x->slots || (2 * (x->used + 1) > x->capacity && grow(x) != 0))
        return -2;
    struct name_index_slot *s = slot_of(x, name, number);
    if (s->row >= 0)
        return s->row;
    *s = (struct name_index_slot){name, number, row};
    ++x->used;
    return row;
}

int name_index_find(const struct name_index *x, const char *name, int number)
{
    return x->slots ? slot_of(x, name, number)->row : -1;
}

void name_index_free(struct name_index *x)
{
    free(x->slots);
    *x = (struct name_index){0};
}
