#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/paths.h"
#include "../results/job_name.h"
#include "../results/launches_csv.h"
#include "../results/schema.h"
#include "collectives.h"

/* One part's collectives in its call order. */
struct part_side {
    char label[COLLECTIVE_PART_LABEL_LEN];
    char **kernel;
    int64_t *start_ns;
    uint64_t *duration_ns;
    long *replays;
    size_t n;
    bool has_start; /* launches.csv has start_ns and environment.csv clock_offset_ns */
};

static void side_free(struct part_side *s)
{
    for (size_t i = 0; i < s->n; ++i)
        free(s->kernel[i]);
    free(s->kernel);
    free(s->start_ns);
    free(s->duration_ns);
    free(s->replays);
}

static int push(struct part_side *s, const char *kernel, int64_t start, uint64_t duration, long replays)
{
    if (grow_for_one_more((void **)&s->kernel, s->n, sizeof *s->kernel) ||
        grow_for_one_more((void **)&s->start_ns, s->n, sizeof *s->start_ns) ||
        grow_for_one_more((void **)&s->duration_ns, s->n, sizeof *s->duration_ns) ||
        grow_for_one_more((void **)&s->replays, s->n, sizeof *s->replays) || !(s->kernel[s->n] = strdup(kernel)))
        return -1;
    s->start_ns[s->n] = start;
    s->duration_ns[s->n] = duration;
    s->replays[s->n++] = replays;
    return 0;
}

/* What a part's environment.csv says of it: its clock_offset_ns (*known 0 where it has none: a part written before
 * issue 48) and whether its selected launches were replayed (metric_groups other than none: a run of the stalls
 * group or of none replays nothing). */
static int read_part_environment(const char *dir, int64_t *offset, bool *known, bool *replayed, struct error *e)
{
    struct csv_table t;
    int present;
    *known = *replayed = false;
    if (results_read_optional(dir, &environment_csv, &t, &present, e) || !present)
        return e->code;
    for (int row = 0; row < t.rows; ++row) {
        const char *key = csv_table_text(&t, row, ENVIRONMENT_KEY), *value = csv_table_text(&t, row, ENVIRONMENT_VALUE);
        char *end;
        if (strcmp(key, "clock_offset_ns") == 0) {
            *offset = strtoll(value, &end, 10);
            *known = *end == '\0' && end != value;
        } else if (strcmp(key, "metric_groups") == 0) {
            *replayed = *value && strcmp(value, "none") != 0 && strcmp(value, "stalls") != 0;
        }
    }
    csv_table_free(&t);
    return 0;
}

/* The kernels a part kept back from replay as collectives (not_replayed: NCCL's, or one --no-replay named): every
 * launch of them waits in itself, though only the selected ones say so. */
struct kept_kernels {
    const char **name; /* point into the part's launches.csv */
    size_t n;
};

static bool kept(const struct kept_kernels *k, const char *kernel)
{
    for (size_t i = 0; i < k->n; ++i)
        if (strcmp(k->name[i], kernel) == 0)
            return true;
    return false;
}

static int gather_kept(const struct csv_table *t, int kernel, int not_replayed, struct kept_kernels *k)
{
    for (int row = 0; not_replayed >= 0 && row < t->rows; ++row) {
        const char *name = csv_table_text(t, row, kernel);
        if (!not_replayed_is_collective(csv_table_text(t, row, not_replayed)) || kept(k, name))
            continue;
        if (grow_for_one_more((void **)&k->name, k->n, sizeof *k->name) != 0)
            return -1;
        k->name[k->n++] = name;
    }
    return 0;
}

/* A launch that waits in itself for its peers: NCCL's by name, or a kernel the part kept back from replay. */
static bool is_collective(const struct csv_table *t, int row, int kernel, const struct kept_kernels *k)
{
    return job_kernel_is_nccl(csv_table_text(t, row, kernel)) || kept(k, csv_table_text(t, row, kernel));
}

/* Where to mark a part's launches that ran beside its collectives: the profile's summary rows. */
struct beside_marks {
    const struct results_folder *r;
    bool *row;
};

static int by_start(const void *x, const void *y)
{
    const int64_t *a = x, *b = y; /* {start, end} */
    return (a[0] > b[0]) - (a[0] < b[0]);
}

/* The part's collectives as {start, end} pairs sorted by start, each end raised to the latest end before it, so that
 * one search tells whether any collective that started before a time had not ended by another. */
static int64_t (*collective_spans(const struct part_side *s))[2]
{
    int64_t(*span)[2] = malloc((s->n + 1) * sizeof *span);
    if (!span)
        return NULL;
    for (size_t i = 0; i < s->n; ++i) {
        span[i][0] = s->start_ns[i];
        span[i][1] = s->start_ns[i] + (int64_t)s->duration_ns[i];
    }
    qsort(span, s->n, sizeof *span, by_start);
    for (size_t i = 1; i < s->n; ++i)
        span[i][1] = span[i][1] > span[i - 1][1] ? span[i][1] : span[i - 1][1];
    return span;
}

/* Whether [start, end) overlaps a collective: the latest end of those that started before end is past start. */
static bool overlaps(int64_t (*span)[2], size_t n, int64_t start, int64_t end)
{
    size_t low = 0, high = n; /* the collectives that started before end: span[0, low) */
    while (low < high) {
        size_t middle = (low + high) / 2;
        if (span[middle][0] < end)
            low = middle + 1;
        else
            high = middle;
    }
    return low > 0 && span[low - 1][1] > start;
}

/* Each launch of the part (t: its launches.csv) that is no collective and overlapped one, marked at its job's row. */
static int mark_beside(const struct csv_table *t, int kernel, int duration, int start_column, int64_t offset,
                       const struct part_side *s, const struct kept_kernels *k, struct beside_marks *m)
{
    int job = schema_column_or_none(t, &launches_csv, LAUNCHES_JOB);
    int64_t(*span)[2] = collective_spans(s);
    char key[JOB_NAME_LEN + COLLECTIVE_PART_LABEL_LEN];
    if (!span)
        return -1;
    for (int row = 0; row < t->rows && job >= 0; ++row) {
        double ns;
        struct error ignored = {0};
        if (is_collective(t, row, kernel, k) || csv_table_real(t, row, duration, &ns, &ignored) || isnan(ns))
            continue;
        int64_t start = (int64_t)strtoull(csv_table_text(t, row, start_column), NULL, 10) + offset;
        if (!overlaps(span, s->n, start, start + (int64_t)ns) ||
            job_name_with_part(key, sizeof key, s->label, csv_table_text(t, row, job)) != 0)
            continue;
        int at = results_summary_row(m->r, key, PRODUCT_SHAPE_NONE);
        if (at >= 0)
            m->row[at] = true;
    }
    free(span);
    return 0;
}

/* Each collective of the part, with the launches replayed since the one before (where its run replayed any). */
static int read_launches(const char *dir, int64_t offset, bool replayed, struct part_side *s, struct beside_marks *m,
                         struct error *e)
{
    struct csv_table t;
    struct kept_kernels k = {0};
    int present, kernel, duration, selected, start;
    long replays = 0;
    if (results_read_optional(dir, &launches_csv, &t, &present, e) || !present)
        return e->code;
    start = schema_column_or_none(&t, &launches_csv, LAUNCHES_START_NS);
    s->has_start = s->has_start && start >= 0;
    if (!schema_column(&t, &launches_csv, LAUNCHES_KERNEL, &kernel, e) &&
        !schema_column(&t, &launches_csv, LAUNCHES_DURATION_NS, &duration, e) &&
        !schema_column(&t, &launches_csv, LAUNCHES_SELECTED, &selected, e) &&
        gather_kept(&t, kernel, schema_column_or_none(&t, &launches_csv, LAUNCHES_NOT_REPLAYED), &k) != 0)
        error_set(e, EXIT_RUNTIME, "out of memory for the collectives of %s", dir);
    for (int row = 0; row < t.rows && !e->code; ++row) {
        if (!is_collective(&t, row, kernel, &k)) {
            replays += replayed && strcmp(csv_table_text(&t, row, selected), "1") == 0;
            continue;
        }
        double ns = 0;
        int64_t at = start >= 0 ? (int64_t)strtoull(csv_table_text(&t, row, start), NULL, 10) + offset : 0;
        if (csv_table_required_real(&t, row, duration, &ns, e) == 0 &&
            push(s, csv_table_text(&t, row, kernel), at, (uint64_t)ns, replays) != 0)
            error_set(e, EXIT_RUNTIME, "out of memory for the collectives of %s", dir);
        replays = 0;
    }
    if (!e->code && s->has_start && s->n && m->row && mark_beside(&t, kernel, duration, start, offset, s, &k, m))
        error_set(e, EXIT_RUNTIME, "out of memory for the launches of %s", dir);
    free(k.name);
    csv_table_free(&t);
    return e->code;
}

/* Each part the profile's environment.csv names (part_<dir>: its label) with its collectives; those without any are
 * not kept. */
static int read_sides(const struct results_folder *r, struct part_side **sides, size_t *n, struct beside_marks *m,
                      struct error *e)
{
    const struct csv_table *env = &r->environment;
    for (int row = 0; row < env->rows && !e->code; ++row) {
        const char *key = csv_table_text(env, row, ENVIRONMENT_KEY);
        if (strncmp(key, "part_", 5) != 0 || strchr(key + 5, '_'))
            continue;
        char dir[PATH_JOINED(PATH_IN_FOLDER_LEN)];
        struct part_side s = {.has_start = true};
        int64_t offset = 0;
        bool known, replayed;
        snprintf(s.label, sizeof s.label, "%s", csv_table_text(env, row, ENVIRONMENT_VALUE));
        snprintf(dir, sizeof dir, "%s/%s", r->dir, key + 5);
        if (read_part_environment(dir, &offset, &known, &replayed, e) == 0)
            s.has_start = known;
        if (e->code || read_launches(dir, offset, replayed, &s, m, e)) {
            side_free(&s);
            break;
        }
        if (s.n == 0)
            side_free(&s);
        else if (grow_for_one_more((void **)sides, *n, sizeof **sides) != 0) {
            side_free(&s);
            error_set(e, EXIT_RUNTIME, "out of memory");
        } else
            (*sides)[(*n)++] = s;
    }
    return e->code;
}

/* How many collectives every side has, in the same order, by kernel; c->unmatched says where that stops short. */
static size_t matched(const struct part_side *sides, size_t n, struct program_collectives *c)
{
    size_t least = sides[0].n, most = 0;
    for (size_t p = 0; p < n; ++p) {
        least = sides[p].n < least ? sides[p].n : least;
        most = sides[p].n > most ? sides[p].n : most;
    }
    for (size_t i = 0; i < least; ++i)
        for (size_t p = 1; p < n; ++p)
            if (strcmp(sides[p].kernel[i], sides[0].kernel[i]) != 0) {
                snprintf(c->unmatched, sizeof c->unmatched, "collective %zu is %.160s in %s but %.160s in %s: "
                         "matched up to it", i, sides[0].kernel[i], sides[0].label, sides[p].kernel[i], sides[p].label);
                return i;
            }
    if (most > least)
        snprintf(c->unmatched, sizeof c->unmatched, "the parts ran %zu to %zu collectives: the first %zu are matched",
                 least, most, least);
    return least;
}

/* Collective i on every side: the last arrival, and each side's wait for it and transfer after it. */
static void split(const struct part_side *sides, struct program_collectives *c, size_t i)
{
    int last = 0;
    for (size_t p = 1; p < c->n_parts; ++p)
        if (sides[p].start_ns[i] > sides[last].start_ns[i])
            last = (int)p;
    c->last[i] = last;
    for (size_t p = 0; p < c->n_parts; ++p) {
        uint64_t duration = sides[p].duration_ns[i];
        int64_t early = sides[last].start_ns[i] - sides[p].start_ns[i];
        /* A rank done before the last arrived did not wait for it (a broadcast's root whose data fit NCCL's
         * buffers): its whole time is its own. */
        uint64_t wait = early <= 0 || (uint64_t)early > duration ? 0 : (uint64_t)early;
        c->arrival[i * c->n_parts + p] = (struct collective_arrival){sides[p].start_ns[i], duration, wait,
                                                                     duration - wait, sides[p].replays[i]};
        /* the earliest start of any: a part's GPU may start its collectives out of its call order (streams) */
        if ((i == 0 && p == 0) || sides[p].start_ns[i] < c->first_start_ns)
            c->first_start_ns = sides[p].start_ns[i];
    }
}

static int fill(const struct part_side *sides, size_t n, struct program_collectives *c, struct error *e)
{
    size_t count = matched(sides, n, c);
    c->n_parts = n;
    c->part = calloc(n, sizeof *c->part);
    c->kernel = calloc(count + 1, sizeof *c->kernel);
    c->arrival = calloc(count * n + 1, sizeof *c->arrival);
    c->last = calloc(count + 1, sizeof *c->last);
    if (!c->part || !c->kernel || !c->arrival || !c->last)
        return error_set(e, EXIT_RUNTIME, "out of memory for %zu collectives", count);
    for (size_t p = 0; p < n; ++p)
        memcpy(c->part[p], sides[p].label, sizeof c->part[p]);
    for (; c->n < count; ++c->n) {
        if (!(c->kernel[c->n] = strdup(sides[0].kernel[c->n])))
            return error_set(e, EXIT_RUNTIME, "out of memory for %zu collectives", count);
        split(sides, c, c->n);
    }
    return 0;
}

/* Why the sides cannot be split, or NULL. */
static const char *unsplittable(const struct part_side *sides, size_t n)
{
    if (n < 2)
        return "fewer than two processes ran collectives";
    for (size_t p = 0; p < n; ++p)
        if (!sides[p].has_start)
            return "the parts' launches have no start time on a common clock (a profile written before issue 48)";
    return NULL;
}

int program_collectives_build(const struct results_folder *r, struct program_collectives *c, struct error *e)
{
    struct part_side *sides = NULL;
    size_t n = 0;
    *c = (struct program_collectives){.beside_row = calloc((size_t)r->summary.rows + 1, sizeof *c->beside_row)};
    struct beside_marks marks = {r, c->beside_row};
    if (!c->beside_row)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    if (read_sides(r, &sides, &n, &marks, e) == 0) {
        const char *why = unsplittable(sides, n);
        if (why)
            snprintf(c->not_split, sizeof c->not_split, "%s", why);
        else
            fill(sides, n, c, e);
    }
    for (size_t p = 0; p < n; ++p)
        side_free(&sides[p]);
    free(sides);
    if (e->code)
        program_collectives_free(c);
    return e->code;
}

void program_collectives_free(struct program_collectives *c)
{
    for (size_t i = 0; c->kernel && i < c->n; ++i)
        free(c->kernel[i]);
    free(c->kernel);
    free(c->part);
    free(c->arrival);
    free(c->last);
    free(c->beside_row);
    *c = (struct program_collectives){0};
}
