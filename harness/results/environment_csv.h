/* environment.csv: the run's environment as key, value entries, filled by the probes (gpu/, ceilings/, run/) and
 * written here; its columns: schema.h. */
#ifndef MEMSCOPE_ENVIRONMENT_CSV_H
#define MEMSCOPE_ENVIRONMENT_CSV_H

#include "../common/error.h"
#include "../csv/writer.h"

#define ENV_MAX_ENTRIES 128

/* One row of environment.csv. */
struct environment_entry {
    char key[48];
    char value[512];
};

struct environment {
    int count;
    struct environment_entry entry[ENV_MAX_ENTRIES];
};

void env_add(struct environment *env, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The entries of from whose key starts with prefix appended to to; how many. */
int env_copy_prefixed(const struct environment *from, const char *prefix, struct environment *to);
/* The value recorded under key, or NULL. */
const char *env_value(const struct environment *env, const char *key);
/* The value under key as a finite number, or NAN where it is missing or is not one (env may be NULL). */
double env_number(const struct environment *env, const char *key);
int env_write(const struct environment *env, const char *dir, struct error *e);
/* dir/environment.csv back into env (replacing what it held): EXIT_USAGE naming the file when it is missing, is no
 * environment.csv, or holds more than ENV_MAX_ENTRIES entries. */
int env_read(const char *dir, struct environment *env, struct error *e);
/* environment.csv row by row, for a file of more rows than struct environment holds (a multi-process profile's,
 * merged from its parts). */
int environment_csv_create(struct csv *c, const char *dir, struct error *e);
void environment_csv_row(struct csv *c, const char *key, const char *value);

#endif
