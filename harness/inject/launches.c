#include <stdlib.h>
#include <string.h>

#include "../../cupti/metric_host.h"
#include "../common/grow.h"
#include "launches.h"

/* ---- each op's call: the earliest call of its correlation id (a runtime call before the driver call inside it) */

static int by_correlation_then_start(const void *a, const void *b)
{
    const struct prof_api_call *x = a, *y = b;
    if (x->correlation != y->correlation)
        return x->correlation < y->correlation ? -1 : 1;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static const struct prof_api_call *call_of(const struct prof_api_call *sorted, size_t n, uint32_t correlation)
{
    size_t low = 0, high = n; /* the first call whose correlation is not below correlation */
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (sorted[middle].correlation < correlation)
            low = middle + 1;
        else
            high = middle;
    }
    return low < n && sorted[low].correlation == correlation ? &sorted[low] : NULL;
}

/* ---- the sweep: per thread, in time order, the ranges open at each call ---- */

/* At one time a range that begins holds a call, one that ends does not. */
enum event_kind { RANGE_BEGINS, RANGE_ENDS, CALL };

struct event {
    uint32_t thread;
    uint64_t time;
    enum event_kind kind;
    size_t index; /* a range, or an op; among ranges, push order */
};

static int by_thread_then_time(const void *a, const void *b)
{
    const struct event *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Every range's two ends and every placed op's call, sorted; *n_events of them. */
static struct event *list_events(const struct prof_gpu_op *ops, size_t n_ops, const struct prof_api_call *calls,
                                 size_t n_calls, const struct kept_range *ranges, size_t n_ranges,
                                 struct placement *p, size_t *n_events)
{
    struct event *events = malloc((2 * n_ranges + n_ops + 1) * sizeof *events);
    size_t n = 0;
    if (!events)
        return NULL;
    for (size_t r = 0; r < n_ranges; ++r) {
        uint64_t end = ranges[r].end_ns ? ranges[r].end_ns : UINT64_MAX; /* open at exit: open to the end */
        events[n++] = (struct event){ranges[r].thread, ranges[r].start_ns, RANGE_BEGINS, r};
        events[n++] = (struct event){ranges[r].thread, end, RANGE_ENDS, r};
    }
    for (size_t i = 0; i < n_ops; ++i) {
        const struct prof_api_call *call = call_of(calls, n_calls, ops[i].correlation);
        p->path[i] = 0;
        p->thread[i] = call ? call->thread : 0;
        if (call)
            events[n++] = (struct event){call->thread, call->start_ns, CALL, i};
        else
            p->unplaced++;
    }
    qsort(events, n, sizeof *events, by_thread_then_time);
    *n_events = n;
    return events;
}

/* The open ranges' names joined outer to inner: "outer/inner". */
static char *join_names(const struct kept_range *ranges, const size_t *open, size_t n_open)
{
    size_t length = 1;
    for (size_t i = 0; i < n_open; ++i)
        length += strlen(ranges[open[i]].name) + 1;
    char *path = malloc(length);
    if (!path)
        return NULL;
    path[0] = '\0';
    for (size_t i = 0; i < n_open; ++i) {
        if (i)
            strcat(path, "/");
        strcat(path, ranges[open[i]].name);
    }
    return path;
}

static int add_path(struct placement *p, char *path)
{
    if (!path || grow_for_one_more((void **)&p->paths, p->n_paths, sizeof *p->paths) != 0) {
        free(path);
        return -1;
    }
    p->paths[p->n_paths++] = path;
    return 0;
}

static void close_range(size_t *open, size_t *n_open, size_t range)
{
    for (size_t i = *n_open; i-- > 0;)
        if (open[i] == range) {
            memmove(&open[i], &open[i + 1], (*n_open - i - 1) * sizeof *open);
            --*n_open;
            return;
        }
}

/* Walks the events: the open ranges change only at a range's ends, so a path is built once per change that a
 * call sees (duplicates are merged afterwards). */
static int sweep(const struct event *events, size_t n_events, const struct kept_range *ranges, size_t n_ranges,
                 struct placement *p)
{
    size_t *open = malloc((n_ranges + 1) * sizeof *open), n_open = 0, current = 0; /* current 0: none built */
    if (!open)
        return -1;
    for (size_t i = 0; i < n_events; ++i) {
        const struct event *ev = &events[i];
        if (ev->kind == RANGE_BEGINS)
            open[n_open++] = ev->index;
        else if (ev->kind == RANGE_ENDS)
            close_range(open, &n_open, ev->index);
        if (ev->kind != CALL) {
            current = 0;
            continue;
        }
        if (n_open && !current) {
            if (add_path(p, join_names(ranges, open, n_open)) != 0) {
                free(open);
                return -1;
            }
            current = p->n_paths - 1;
        }
        p->path[ev->index] = n_open ? current : 0;
    }
    free(open);
    return 0;
}

/* ---- merging equal paths: each distinct path once, "" first ---- */

struct text_key {
    const char *text;
    size_t index;
};

static int by_text_then_index(const void *a, const void *b)
{
    const struct text_key *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* For each of n texts the index of the first equal one, in *first (NULL: out of memory). */
static size_t *first_equal(char *const *texts, size_t n)
{
    struct text_key *keys = malloc((n + 1) * sizeof *keys);
    size_t *first = malloc((n + 1) * sizeof *first);
    if (!keys || !first) {
        free(keys);
        free(first);
        return NULL;
    }
    for (size_t i = 0; i < n; ++i)
        keys[i] = (struct text_key){texts[i], i};
    qsort(keys, n, sizeof *keys, by_text_then_index);
    for (size_t i = 0; i < n; ++i)
        first[keys[i].index] = i > 0 && strcmp(keys[i].text, keys[i - 1].text) == 0 ? first[keys[i - 1].index]
                                                                                     : keys[i].index;
    free(keys);
    return first;
}

static int merge_equal_paths(struct placement *p, size_t n_ops)
{
    size_t *first = first_equal(p->paths, p->n_paths), kept = 0;
    if (!first)
        return -1;
    for (size_t i = 0; i < p->n_paths; ++i) { /* first[i] <= i: its new index is known by now */
        if (first[i] == i) {
            p->paths[kept] = p->paths[i];
            first[i] = kept++;
        } else {
            free(p->paths[i]);
            first[i] = first[first[i]];
        }
    }
    p->n_paths = kept;
    for (size_t i = 0; i < n_ops; ++i)
        p->path[i] = first[p->path[i]];
    free(first);
    return 0;
}

int place_ops(const struct prof_gpu_op *ops, size_t n_ops, const struct prof_api_call *calls, size_t n_calls,
              const struct kept_range *ranges, size_t n_ranges, struct placement *out, struct error *e)
{
    struct prof_api_call *sorted = malloc((n_calls + 1) * sizeof *sorted);
    struct event *events = NULL;
    size_t n_events = 0;
    *out = (struct placement){calloc(n_ops + 1, sizeof *out->thread), calloc(n_ops + 1, sizeof *out->path), NULL, 0,
                              0};
    int failed = !sorted || !out->thread || !out->path || add_path(out, calloc(1, 1)) != 0;
    if (!failed) {
        memcpy(sorted, calls, n_calls * sizeof *sorted);
        qsort(sorted, n_calls, sizeof *sorted, by_correlation_then_start);
        events = list_events(ops, n_ops, sorted, n_calls, ranges, n_ranges, out, &n_events);
        failed = !events || sweep(events, n_events, ranges, n_ranges, out) != 0 ||
                 merge_equal_paths(out, n_ops) != 0;
    }
    free(sorted);
    free(events);
    if (failed) {
        placement_free(out);
        return error_set(e, EXIT_RUNTIME, "out of host memory placing %zu GPU records in %zu NVTX ranges", n_ops,
                         n_ranges);
    }
    return 0;
}

void placement_free(struct placement *p)
{
    for (size_t i = 0; i < p->n_paths; ++i)
        free(p->paths[i]);
    free(p->paths);
    free(p->thread);
    free(p->path);
    *p = (struct placement){0};
}

/* ---- launches: numbered, named, selected ---- */

struct launch_key {
    uint32_t correlation;
    uint64_t start_ns;
    size_t op;
};

static int by_call_order(const void *a, const void *b)
{
    const struct launch_key *x = a, *y = b;
    if (x->correlation != y->correlation) /* a graph's kernels share their launch's id */
        return x->correlation < y->correlation ? -1 : 1;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return (x->op > y->op) - (x->op < y->op);
}

/* The kernel records in launch order, as rows with only op and ordinal set. */
static int order_launches(const struct prof_gpu_op *ops, size_t n_ops, struct launches *l)
{
    struct launch_key *keys = malloc((n_ops + 1) * sizeof *keys);
    l->rows = calloc(n_ops + 1, sizeof *l->rows);
    if (!keys || !l->rows) {
        free(keys);
        return -1;
    }
    for (size_t i = 0; i < n_ops; ++i)
        if (ops[i].kind == PROF_OP_KERNEL)
            keys[l->n++] = (struct launch_key){ops[i].correlation, ops[i].start_ns, i};
    qsort(keys, l->n, sizeof *keys, by_call_order);
    for (size_t i = 0; i < l->n; ++i)
        l->rows[i] = (struct launch){.op = keys[i].op, .ordinal = (long)i};
    free(keys);
    return 0;
}

/* Each distinct symbol demangled once: kernels[] and every row's kernel. */
static int name_kernels(const struct prof_gpu_op *ops, struct launches *l)
{
    char **symbols = malloc((l->n + 1) * sizeof *symbols), demangled[PROF_OP_NAME_LEN];
    size_t *first = NULL;
    if (!symbols)
        return -1;
    for (size_t i = 0; i < l->n; ++i)
        symbols[i] = (char *)ops[l->rows[i].op].name;
    first = first_equal(symbols, l->n);
    l->kernels = malloc((l->n + 1) * sizeof *l->kernels);
    int failed = !first || !l->kernels;
    for (size_t i = 0; !failed && i < l->n; ++i) {
        if (first[i] != i) {
            l->rows[i].kernel = l->rows[first[i]].kernel;
            continue;
        }
        prof_demangle(symbols[i], demangled, sizeof demangled);
        l->rows[i].kernel = l->n_kernels;
        failed = !(l->kernels[l->n_kernels++] = strdup(demangled));
    }
    free(symbols);
    free(first);
    return failed ? -1 : 0;
}

struct group_key {
    size_t kernel, path;
    size_t row;
};

static int by_kernel_path_then_row(const void *a, const void *b)
{
    const struct group_key *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    if (x->path != y->path)
        return x->path < y->path ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

static int number_per_kernel_and_path(const struct placement *p, struct launches *l)
{
    struct group_key *keys = malloc((l->n + 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (size_t i = 0; i < l->n; ++i)
        keys[i] = (struct group_key){l->rows[i].kernel, p->path[l->rows[i].op], i};
    qsort(keys, l->n, sizeof *keys, by_kernel_path_then_row);
    for (size_t i = 0; i < l->n; ++i) {
        int same_group = i > 0 && keys[i].kernel == keys[i - 1].kernel && keys[i].path == keys[i - 1].path;
        l->rows[keys[i].row].kernel_ordinal = same_group ? l->rows[keys[i - 1].row].kernel_ordinal + 1 : 0;
    }
    free(keys);
    return 0;
}

/* Room to count kernel's launches taken; 0, or -1 when out of memory. */
static int count_kernel(struct selection_count *count, size_t kernel)
{
    if (kernel < count->n_kernels)
        return 0;
    size_t n = kernel + 16;
    long *grown = realloc(count->taken_of_kernel, n * sizeof *grown);
    if (!grown)
        return -1;
    memset(grown + count->n_kernels, 0, (n - count->n_kernels) * sizeof *grown);
    count->taken_of_kernel = grown;
    count->n_kernels = n;
    return 0;
}

int selection_takes(const struct selection *s, struct selection_count *count, size_t kernel, int name_matches,
                    const char *path)
{
    if (!name_matches || (s->nvtx_include && !strstr(path, s->nvtx_include)))
        return 0;
    if (s->per_kernel > 0 && count_kernel(count, kernel) != 0)
        return -1;
    int takes = count->matched++ >= s->skip && (s->count < 0 || count->taken < s->count) &&
                (s->per_kernel <= 0 || count->taken_of_kernel[kernel] < s->per_kernel);
    count->taken += takes;
    if (takes && s->per_kernel > 0)
        count->taken_of_kernel[kernel]++;
    return takes;
}

void selection_count_free(struct selection_count *count)
{
    free(count->taken_of_kernel);
    *count = (struct selection_count){0};
}

int kernel_number(struct kernel_numbers *k, const char *name, size_t *number)
{
    for (size_t i = 0; i < k->n; ++i)
        if (strcmp(k->names[i], name) == 0) {
            *number = i;
            return 0;
        }
    char *copy = strdup(name);
    if (!copy || grow_for_one_more((void **)&k->names, k->n, sizeof *k->names) != 0) {
        free(copy);
        return -1;
    }
    k->names[k->n] = copy;
    *number = k->n++;
    return 0;
}

void kernel_numbers_free(struct kernel_numbers *k)
{
    for (size_t i = 0; i < k->n; ++i)
        free(k->names[i]);
    free(k->names);
    *k = (struct kernel_numbers){0};
}

int selection_name_matches(const struct selection *s, const char *kernel)
{
    return !s->kernel || regexec(s->kernel, kernel, 0, NULL, 0) == 0;
}

/* The name is matched once per kernel, not per launch. */
/* The selection's rule applied to the records, as replay.c applies it to the launches as they are made: a kernel a
 * CUDA graph ran was not launched on its own, so the rule neither takes nor counts it. */
static int select_launches(const struct prof_gpu_op *ops, const struct placement *p, const struct selection *s,
                           struct launches *l)
{
    int *name_matches = malloc((l->n_kernels + 1) * sizeof *name_matches);
    struct selection_count count = {0};
    if (!name_matches)
        return -1;
    for (size_t k = 0; k < l->n_kernels; ++k)
        name_matches[k] = selection_name_matches(s, l->kernels[k]);
    int failed = 0;
    for (size_t i = 0; i < l->n && !failed; ++i) {
        struct launch *row = &l->rows[i];
        if (ops[row->op].graph != 0)
            continue;
        row->selected = selection_takes(s, &count, row->kernel, name_matches[row->kernel], p->paths[p->path[row->op]]);
        failed = row->selected < 0;
    }
    l->n_selected = (size_t)count.taken;
    selection_count_free(&count);
    free(name_matches);
    return failed ? -1 : 0;
}

int launches_build(const struct prof_gpu_op *ops, size_t n_ops, const struct placement *p, const struct selection *s,
                   struct launches *out, struct error *e)
{
    *out = (struct launches){0};
    if (order_launches(ops, n_ops, out) != 0 || name_kernels(ops, out) != 0 ||
        number_per_kernel_and_path(p, out) != 0 || select_launches(ops, p, s, out) != 0) {
        launches_free(out);
        return error_set(e, EXIT_RUNTIME, "out of host memory numbering %zu kernel launches", n_ops);
    }
    return 0;
}

void launches_free(struct launches *l)
{
    for (size_t i = 0; i < l->n_kernels; ++i)
        free(l->kernels[i]);
    free(l->kernels);
    free(l->rows);
    *l = (struct launches){0};
}
