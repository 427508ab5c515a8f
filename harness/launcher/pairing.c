#include <stdio.h>
#include <string.h>

#include "../results/folder_reader.h"
#include "../results/job_name.h"
#include "../results/schema.h"
#include "pairing.h"

#define WORKER_LABEL "process "

void part_pairing_init(struct part_pairing *p, const struct part_names *first, const struct name_index *jobs)
{
    p->first = *first;
    p->jobs = jobs;
    part_pairing_next_run(p);
}

void part_pairing_next_run(struct part_pairing *p)
{
    memset(p->taken, 0, sizeof p->taken);
}

static int first_run_index(const struct part_pairing *p, const char *label)
{
    for (size_t i = 0; i < p->first.n; ++i)
        if (strcmp(p->first.at[i].label, label) == 0)
            return (int)i;
    return -1;
}

/* How many of the jobs in t the first run has under the label. */
static int jobs_held(const struct part_pairing *p, const struct csv_table *t, int job_column, const char *label)
{
    char key[JOB_NAME_LEN + MERGE_PART_NAME_LEN];
    int held = 0;
    for (int row = 0; row < t->rows; ++row)
        held += name_index_find(p->jobs, merge_job_key(label, csv_table_text(t, row, job_column), key, sizeof key),
                                0) >= 0;
    return held;
}

/* The first run's worker not yet taken whose jobs hold the most of dir's, or -1 where none holds any. */
static int best_worker(const struct part_pairing *p, const char *dir, struct error *e)
{
    struct csv_table t;
    int present, job, best = -1, best_held = 0;
    if (results_read_optional(dir, &launches_csv, &t, &present, e) || !present)
        return -1;
    if (schema_column(&t, &launches_csv, LAUNCHES_JOB, &job, e) == 0)
        for (size_t i = 0; i < p->first.n; ++i) {
            const char *label = p->first.at[i].label;
            int held = p->taken[i] || strncmp(label, WORKER_LABEL, strlen(WORKER_LABEL)) != 0
                           ? 0
                           : jobs_held(p, &t, job, label);
            if (held > best_held) {
                best = (int)i;
                best_held = held;
            }
        }
    csv_table_free(&t);
    return best;
}

int part_pairing_label(struct part_pairing *p, const char *dir, const char *label, char *out, size_t len,
                       struct error *e)
{
    /* a worker by its jobs alone: its pid may be one the first run gave another worker */
    bool worker = strncmp(label, WORKER_LABEL, strlen(WORKER_LABEL)) == 0;
    int at = worker ? best_worker(p, dir, e) : first_run_index(p, label);
    if (at >= 0)
        p->taken[at] = true;
    snprintf(out, len, "%s", at >= 0 ? p->first.at[at].label : label);
    return e->code;
}
