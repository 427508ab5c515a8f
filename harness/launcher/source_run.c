#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../results/environment_csv.h"
#include "../results/folder_reader.h"
#include "../results/instructions_csv.h"
#include "../results/job_name.h"
#include "../results/lines_csv.h"
#include "../results/schema.h"
#include "merge.h"
#include "parts.h"
#include "source_run.h"

/* The folder's files, written as the parts are read. */
struct merged {
    struct csv lines, instructions;
    struct part_pairing *pairing; /* the first run's parts and jobs */
    struct source_run_outcome *out;
};

/* A part's row's job as the folder keys it, or NULL where the first run made no such launch. */
static const char *job_of(const struct merged *m, const char *label, const char *job, char *key, size_t len)
{
    const char *name = merge_job_key(label, job, key, len);
    if (name_index_find(m->pairing->jobs, name, 0) >= 0)
        return name;
    ++m->out->unmatched;
    return NULL;
}

static int copy_line(struct merged *m, const struct csv_table *t, const int *col, int row, const char *job,
                     struct error *e)
{
    int line;
    double value;
    if (csv_table_int(t, row, col[LINES_LINE], &line, e) ||
        csv_table_required_real(t, row, col[LINES_VALUE], &value, e))
        return e->code;
    lines_csv_row(&m->lines,
                  &(struct line_row){job, csv_table_text(t, row, col[LINES_PRECISION]), PRODUCT_SHAPE_NONE,
                                     csv_table_text(t, row, col[LINES_KERNEL]), csv_table_text(t, row, col[LINES_FILE]),
                                     line, csv_table_text(t, row, col[LINES_SOURCE]),
                                     csv_table_text(t, row, col[LINES_OPCODES]),
                                     csv_table_text(t, row, col[LINES_METRIC]), value});
    return 0;
}

static int copy_instruction(struct merged *m, const struct csv_table *t, const int *col, int row, const char *job,
                            struct error *e)
{
    int line;
    double offset, values[INSTRUCTIONS_ROWS - INSTRUCTIONS_INST_EXECUTED];
    if (csv_table_int(t, row, col[INSTRUCTIONS_LINE], &line, e) ||
        csv_table_required_real(t, row, col[INSTRUCTIONS_OFFSET], &offset, e))
        return e->code;
    for (int v = INSTRUCTIONS_INST_EXECUTED; v < INSTRUCTIONS_ROWS; ++v)
        if (csv_table_required_real(t, row, col[v], &values[v - INSTRUCTIONS_INST_EXECUTED], e))
            return e->code;
    instructions_csv_row(&m->instructions,
                         &(struct instruction_row){job, csv_table_text(t, row, col[INSTRUCTIONS_PRECISION]),
                                                   PRODUCT_SHAPE_NONE, csv_table_text(t, row, col[INSTRUCTIONS_KERNEL]),
                                                   (uint64_t)offset, csv_table_text(t, row, col[INSTRUCTIONS_FILE]),
                                                   line, csv_table_text(t, row, col[INSTRUCTIONS_OPCODE]), values});
    return 0;
}

/* One of the part's two files (dir/<s's file>), every row of a job of the first run's copied. */
static int copy_file(struct merged *m, const char *dir, const char *label, const struct csv_schema *s,
                     struct error *e)
{
    int col[(int)INSTRUCTIONS_COLUMNS > (int)LINES_COLUMNS ? (int)INSTRUCTIONS_COLUMNS : (int)LINES_COLUMNS], present;
    char key[JOB_NAME_LEN + MERGE_PART_NAME_LEN];
    struct csv_table t;
    if (results_read_optional(dir, s, &t, &present, e))
        return e->code;
    if (!present)
        return error_set(e, EXIT_RUNTIME, "%s/%s is missing, though the part is marked complete", dir, s->file);
    /* a program's job has no product's shape: the columns before it */
    schema_columns_before(&t, s, s == &lines_csv ? LINES_ROWS : INSTRUCTIONS_ROWS, col, e);
    for (int row = 0; row < t.rows && !e->code; ++row) {
        const char *job = job_of(m, label, csv_table_text(&t, row, col[0]), key, sizeof key);
        if (job)
            (s == &lines_csv ? copy_line : copy_instruction)(m, &t, col, row, job, e);
    }
    csv_table_free(&t);
    return e->code;
}

/* The part's launches it could not count, from its environment.csv. */
static int count_failures(struct merged *m, const char *dir, struct error *e)
{
    static struct environment env;
    if (env_read(dir, &env, e))
        return e->code;
    double failed = env_number(&env, "patching_failures");
    const char *first = env_value(&env, "first_patching_failure");
    if (failed > 0 && m->out->failed == 0 && first)
        snprintf(m->out->first_failure, sizeof m->out->first_failure, "%s", first);
    m->out->failed += failed > 0 ? (size_t)failed : 0;
    return 0;
}

int source_run_merge(const char *folder, struct part_pairing *pairing, struct source_run_outcome *out,
                     struct error *e)
{
    static struct part_names parts;
    char dir[PATH_LEN + 32], part[PATH_LEN + 32 + MERGE_PART_NAME_LEN];
    struct merged m = {.pairing = pairing, .out = out};
    struct error closing = {0};
    snprintf(dir, sizeof dir, "%s/%s", folder, PROFILE_SOURCE_RUN);
    if (parts_open_run(dir, &parts, pairing, e) || lines_csv_create(&m.lines, folder, e))
        return e->code;
    if (instructions_csv_create(&m.instructions, folder, e) == 0) {
        for (size_t i = 0; i < parts.n && !e->code; ++i) {
            const char *label = part_pairing_label(pairing, &parts, i);
            snprintf(part, sizeof part, "%s/%s", dir, parts.at[i].dir);
            if (copy_file(&m, part, label, &lines_csv, e) == 0 && copy_file(&m, part, label, &instructions_csv, e) == 0)
                count_failures(&m, part, e);
        }
        csv_close(&m.instructions, &closing);
    }
    csv_close(&m.lines, e->code ? &closing : e);
    return e->code ? e->code : closing.code ? (*e = closing).code : 0;
}
