/*
 * The architecture rules a machine can check, read from the source tree and
 * the built programs (tests run from the repository root):
 *   - kernels/ and cupti/ stand alone: neither includes the harness, nor the other;
 *   - harness/results/, which owns every on-disk format, includes only csv/, common/ and cupti's capture
 *     container, and no other room writes or reads a results folder's CSV;
 *   - no quoted include forms a cycle;
 *   - no folder grows past MAX_SOURCES_PER_FOLDER source files, but a room whose concept needs more;
 *   - each program's main is in its own room, and nowhere else;
 *   - the four readers link no CUDA runtime, cuBLAS or driver, so they run
 *     where there is no GPU; memscope itself does (which shows the check bites).
 * Each failure lists every offending file (and line) at once.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "../support/findings.h"
#include "../support/run_shell.h"

#define MAX_SOURCES_PER_FOLDER 15
/* Rooms whose one concept needs more files (a folder holds one concept, however many files that takes):
 * harness/results/ holds every on-disk format of a results folder, a header and a source per file family; run/ is
 * memscope's run from command line to trace; cupti/ wraps one CUPTI API per file pair; report/ is the report and
 * its pages, a file per page with tables of its own; kernels/ladder/ is the FP32 ladder and kernels/tensor_ladder/
 * the bf16 one, a file per rung. */
static const struct {
    const char *folder;
    int max;
} larger_rooms[] = {{"harness/inject", 20}, {"harness/results", 38}, {"harness/run", 24},          {"cupti", 24},
                    {"harness/report", 23}, {"kernels/ladder", 24},  {"kernels/tensor_ladder", 22}};
#define MAX_FILES 1024
#define MAX_INCLUDES 64
#define PATH_SIZE 512

static const char *const checked_roots[] = {"harness", "cupti", "kernels"};
static const char *const source_extensions[] = {".c", ".h", ".cu", ".cuh", ".cpp"};

/* ---- the source tree ---- */

static bool has_extension(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    return n > e && strcmp(name + n - e, ext) == 0;
}

static bool is_source(const char *name)
{
    for (size_t i = 0; i < sizeof source_extensions / sizeof source_extensions[0]; ++i)
        if (has_extension(name, source_extensions[i]))
            return true;
    return false;
}

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

struct file_list {
    int count;
    char path[MAX_FILES][PATH_SIZE];
};

/* Every source file under dir, at any depth, in no particular order. */
static void list_sources(const char *dir, struct file_list *out)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("%s: cannot open the folder (tests run from the repository root)", dir);
    for (struct dirent *entry; (entry = readdir(d));) {
        if (entry->d_name[0] == '.')
            continue;
        char path[PATH_SIZE];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (is_directory(path))
            list_sources(path, out);
        else if (is_source(entry->d_name) && out->count < MAX_FILES)
            snprintf(out->path[out->count++], PATH_SIZE, "%s", path);
    }
    closedir(d);
}

static void list_all_sources(struct file_list *out)
{
    out->count = 0;
    for (size_t r = 0; r < sizeof checked_roots / sizeof checked_roots[0]; ++r)
        list_sources(checked_roots[r], out);
}

/* ---- quoted includes ---- */

struct include {
    int line;
    char text[PATH_SIZE];     /* as written between the quotes */
    char resolved[PATH_SIZE]; /* relative to the repository root */
};

/* path with "." and ".." folded away: "harness/gpu/../../kernels/matmul.h" -> "kernels/matmul.h". */
static void normalize(const char *path, char *out, size_t size)
{
    char copy[2 * PATH_SIZE], *parts[64], *save;
    int n = 0, above_root = 0;
    snprintf(copy, sizeof copy, "%s", path);
    for (char *part = strtok_r(copy, "/", &save); part && n < 64; part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, ".") == 0)
            continue;
        if (strcmp(part, "..") != 0)
            parts[n++] = part;
        else if (n > 0)
            n--;
        else
            above_root++;
    }
    out[0] = '\0';
    for (int i = 0; i < above_root; ++i)
        strncat(out, "../", size - strlen(out) - 1);
    for (int i = 0; i < n; ++i) {
        strncat(out, parts[i], size - strlen(out) - 1);
        if (i + 1 < n)
            strncat(out, "/", size - strlen(out) - 1);
    }
}

/* The quoted name of an `#include "name"` line, or false for any other line. */
static bool quoted_include(const char *line, char *name, size_t size)
{
    line += strspn(line, " \t");
    if (*line++ != '#')
        return false;
    line += strspn(line, " \t");
    if (strncmp(line, "include", 7) != 0)
        return false;
    line += 7;
    line += strspn(line, " \t");
    if (*line++ != '"')
        return false;
    const char *end = strchr(line, '"');
    if (!end || (size_t)(end - line) >= size)
        return false;
    snprintf(name, size, "%.*s", (int)(end - line), line);
    return true;
}

/* The quoted includes of a file, each resolved against the file's own folder. */
static int read_includes(const char *path, struct include out[], int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot be read", path);
    char line[1024], dir[PATH_SIZE], joined[2 * PATH_SIZE];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    int n = 0;
    for (int number = 1; fgets(line, sizeof line, f) && n < max; ++number) {
        if (!quoted_include(line, out[n].text, sizeof out[n].text))
            continue;
        snprintf(joined, sizeof joined, "%s/%s", dir, out[n].text);
        normalize(joined, out[n].resolved, sizeof out[n].resolved);
        out[n++].line = number;
    }
    fclose(f);
    return n;
}

static bool under(const char *path, const char *folder)
{
    size_t n = strlen(folder);
    return strncmp(path, folder, n) == 0 && path[n] == '/';
}

/* Every quoted include of a file under room that lands in one of the forbidden folders. */
static void check_room_includes(const char *room, const char *const forbidden[], int n_forbidden)
{
    static struct file_list files;
    static struct findings found;
    static struct include inc[MAX_INCLUDES];
    files.count = 0;
    memset(&found, 0, sizeof found);
    list_sources(room, &files);
    for (int i = 0; i < files.count; ++i) {
        int n = read_includes(files.path[i], inc, MAX_INCLUDES);
        for (int k = 0; k < n; ++k)
            for (int b = 0; b < n_forbidden; ++b)
                if (under(inc[k].resolved, forbidden[b]))
                    note(&found, "%s:%d includes \"%s\" (%s)", files.path[i], inc[k].line, inc[k].text,
                         inc[k].resolved);
    }
    char rule[256];
    snprintf(rule, sizeof rule, "%s/ must include nothing from %s/%s%s/", room, forbidden[0],
             n_forbidden > 1 ? " or " : "", n_forbidden > 1 ? forbidden[1] : "");
    expect_none(&found, rule);
}

static void kernels_include_nothing_from_cupti_or_harness(void **state)
{
    (void)state;
    static const char *const forbidden[] = {"cupti", "harness"};
    check_room_includes("kernels", forbidden, 2);
}

static void cupti_includes_nothing_from_harness_or_kernels(void **state)
{
    (void)state;
    static const char *const forbidden[] = {"harness", "kernels"};
    check_room_includes("cupti", forbidden, 2);
}

/* Every quoted include of a file under room that lands outside the allowed folders and files. */
static void check_room_includes_only(const char *room, const char *const allowed[], int n_allowed)
{
    static struct file_list files;
    static struct findings found;
    static struct include inc[MAX_INCLUDES];
    files.count = 0;
    memset(&found, 0, sizeof found);
    list_sources(room, &files);
    for (int i = 0; i < files.count; ++i) {
        int n = read_includes(files.path[i], inc, MAX_INCLUDES);
        for (int k = 0; k < n; ++k) {
            bool ok = under(inc[k].resolved, room);
            for (int a = 0; a < n_allowed && !ok; ++a)
                ok = under(inc[k].resolved, allowed[a]) || strcmp(inc[k].resolved, allowed[a]) == 0;
            if (!ok)
                note(&found, "%s:%d includes \"%s\" (%s)", files.path[i], inc[k].line, inc[k].text, inc[k].resolved);
        }
    }
    char rule[512];
    int used = snprintf(rule, sizeof rule, "%s/ may include nothing but itself", room);
    for (int a = 0; a < n_allowed; ++a)
        used += snprintf(rule + used, sizeof rule - (size_t)used, "%s%s", a + 1 < n_allowed ? ", " : " and ",
                         allowed[a]);
    expect_none(&found, rule);
}

/* The formats' room sits below the collectors (profile/, source/, stalls/, validate/, run/, gpu/), which hand it
 * rows, and below the readers: an include of any of them would run back up. The .capture container is cupti's. */
static void results_includes_only_csv_common_and_the_capture_container(void **state)
{
    (void)state;
    static const char *const allowed[] = {"harness/csv", "harness/common", "cupti/capture_file.h"};
    check_room_includes_only("harness/results", allowed, 3);
}

/* ---- who writes a results folder ---- */

/* The CSV writer's calls (harness/csv/writer.h and the schema's), each as "name(". */
static const char *const csv_writer_calls[] = {
    "csv_create(", "csv_on_stream(", "schema_create(", "schema_on_stream(", "csv_text(",
    "csv_int(",    "csv_uint(",      "csv_real(",      "csv_empty(",        "csv_end_row(",
};

/* harness/results/ writes every file of a results folder; harness/csv/ is the writer; compare/ and history/ write
 * their own outputs (memscope-compare's -o folder, the history CSV), which are not results folders. */
static const char *const csv_writer_rooms[] = {"harness/results", "harness/csv", "harness/compare", "harness/history"};

static bool may_write_csv(const char *path)
{
    for (size_t i = 0; i < sizeof csv_writer_rooms / sizeof csv_writer_rooms[0]; ++i)
        if (under(path, csv_writer_rooms[i]))
            return true;
    return false;
}

/* A call of name in line: name not preceded by a letter, digit or underscore. */
static bool calls(const char *line, const char *name)
{
    for (const char *at = line; (at = strstr(at, name)); at += strlen(name))
        if (at == line || !(at[-1] == '_' || (at[-1] >= 'a' && at[-1] <= 'z') || (at[-1] >= 'A' && at[-1] <= 'Z') ||
                            (at[-1] >= '0' && at[-1] <= '9')))
            return true;
    return false;
}

/* One finding per file that calls any of names (what: the library they belong to): how often, and where first. */
static void find_calls(const char *path, const char *const names[], size_t n, const char *what,
                       struct findings *found)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot be read", path);
    char line[1024];
    const char *first = NULL;
    int first_line = 0, lines = 0;
    for (int number = 1; fgets(line, sizeof line, f); ++number)
        for (size_t i = 0; i < n; ++i)
            if (calls(line, names[i])) {
                if (lines++ == 0)
                    first = names[i], first_line = number;
                break;
            }
    fclose(f);
    if (lines)
        note(found, "%s:%d calls %.*s (%d line(s) of the file call the %s)", path, first_line,
             (int)strlen(first) - 1, first, lines, what);
}

static void only_results_writes_a_results_folder_csv(void **state)
{
    (void)state;
    static struct file_list files;
    static struct findings found;
    memset(&found, 0, sizeof found);
    files.count = 0;
    list_sources("harness", &files);
    for (int i = 0; i < files.count; ++i)
        if (!may_write_csv(files.path[i]))
            find_calls(files.path[i], csv_writer_calls, sizeof csv_writer_calls / sizeof csv_writer_calls[0],
                       "CSV writer", &found);
    expect_none(&found, "only harness/results/ writes a results folder's CSV files (the collectors hand it rows; "
                        "harness/compare/ and harness/history/ write their own outputs)");
}

/* ---- who reads a results folder ---- */

/* harness/results/ reads every file of a results folder (and checks the compare.csv the report draws); harness/csv/
 * is the reader; history/ reads the history CSV, its own output, which no other room reads. */
static const char *const csv_reader_rooms[] = {"harness/results", "harness/csv", "harness/history"};

static void only_results_reads_a_results_folder_csv(void **state)
{
    (void)state;
    static const char *const reader_calls[] = {"csv_table_read("};
    static struct file_list files;
    static struct findings found;
    memset(&found, 0, sizeof found);
    files.count = 0;
    list_sources("harness", &files);
    for (int i = 0; i < files.count; ++i) {
        bool allowed = false;
        for (size_t r = 0; r < sizeof csv_reader_rooms / sizeof csv_reader_rooms[0]; ++r)
            allowed |= under(files.path[i], csv_reader_rooms[r]);
        if (!allowed)
            find_calls(files.path[i], reader_calls, 1, "CSV reader", &found);
    }
    expect_none(&found, "only harness/results/ reads a results folder's CSV files (results_folder_open, "
                        "results_read_optional); harness/history/ reads its own history CSV");
}

/* ---- include cycles ---- */

struct node {
    int edges;
    int to[MAX_INCLUDES];
    int line[MAX_INCLUDES];
};

struct graph {
    struct file_list files;
    struct node node[MAX_FILES];
};

static int find_file(const struct file_list *files, const char *path)
{
    for (int i = 0; i < files->count; ++i)
        if (strcmp(files->path[i], path) == 0)
            return i;
    return -1;
}

/* One edge per quoted include that names a file of the graph (generated headers such as version.h are not). */
static void build_graph(struct graph *g)
{
    static struct include inc[MAX_INCLUDES];
    list_all_sources(&g->files);
    for (int i = 0; i < g->files.count; ++i) {
        struct node *n = &g->node[i];
        n->edges = 0;
        int count = read_includes(g->files.path[i], inc, MAX_INCLUDES);
        for (int k = 0; k < count; ++k) {
            int target = is_file(inc[k].resolved) ? find_file(&g->files, inc[k].resolved) : -1;
            if (target >= 0) {
                n->to[n->edges] = target;
                n->line[n->edges++] = inc[k].line;
            }
        }
    }
}

enum visit { UNSEEN, ON_PATH, DONE };

struct search {
    const struct graph *g;
    enum visit state[MAX_FILES];
    int path[MAX_FILES], line[MAX_FILES], depth;
    struct findings found;
};

/* The cycle that closes at target: "a.h:5 -> b.h:7 -> a.h". */
static void note_cycle(struct search *s, int target)
{
    char text[2048] = "";
    int start = s->depth - 1;
    while (start > 0 && s->path[start] != target)
        start--;
    for (int i = start; i < s->depth; ++i) {
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s:%d -> ", s->g->files.path[s->path[i]], s->line[i]);
    }
    size_t used = strlen(text);
    snprintf(text + used, sizeof text - used, "%s", s->g->files.path[target]);
    note(&s->found, "%s", text);
}

static void visit(struct search *s, int at)
{
    s->state[at] = ON_PATH;
    s->path[s->depth++] = at;
    const struct node *n = &s->g->node[at];
    for (int e = 0; e < n->edges; ++e) {
        s->line[s->depth - 1] = n->line[e];
        if (s->state[n->to[e]] == ON_PATH)
            note_cycle(s, n->to[e]);
        else if (s->state[n->to[e]] == UNSEEN)
            visit(s, n->to[e]);
    }
    s->depth--;
    s->state[at] = DONE;
}

static void no_source_file_is_part_of_an_include_cycle(void **state)
{
    (void)state;
    static struct graph g;
    static struct search s;
    build_graph(&g);
    memset(&s, 0, sizeof s);
    s.g = &g;
    for (int i = 0; i < g.files.count; ++i)
        if (s.state[i] == UNSEEN)
            visit(&s, i);
    expect_none(&s.found, "quoted includes under harness/, cupti/ and kernels/ must form no cycle");
}

/* ---- folder size ---- */

/* Source files directly in dir; each subfolder is checked on its own. */
static void check_folder_size(const char *dir, struct findings *found)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("%s: cannot open the folder (tests run from the repository root)", dir);
    int sources = 0;
    for (struct dirent *entry; (entry = readdir(d));) {
        char path[PATH_SIZE];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (entry->d_name[0] == '.')
            continue;
        if (is_directory(path))
            check_folder_size(path, found);
        else if (is_source(entry->d_name))
            sources++;
    }
    closedir(d);
    int max = MAX_SOURCES_PER_FOLDER;
    for (size_t i = 0; i < sizeof larger_rooms / sizeof larger_rooms[0]; ++i)
        if (strcmp(dir, larger_rooms[i].folder) == 0)
            max = larger_rooms[i].max;
    if (sources > max)
        note(found, "%s/ holds %d source files, more than its %d", dir, sources, max);
}

static void no_folder_holds_more_than_15_source_files(void **state)
{
    (void)state;
    static struct findings found;
    memset(&found, 0, sizeof found);
    for (size_t r = 0; r < sizeof checked_roots / sizeof checked_roots[0]; ++r)
        check_folder_size(checked_roots[r], &found);
    char rule[160];
    snprintf(rule, sizeof rule,
             "a folder may hold at most %d source files (.c .h .cu .cuh .cpp), a room in larger_rooms its own number; "
             "split it into rooms",
             MAX_SOURCES_PER_FOLDER);
    expect_none(&found, rule);
}

/* ---- where each main lives ---- */

static const char *const program_mains[] = {
    "harness/run/main.c",     "harness/decode/main.c",  "harness/report/main.c",
    "harness/compare/main.c", "harness/history/main.c", "harness/launcher/main.c",
};

static bool is_program_main(const char *path)
{
    for (size_t i = 0; i < sizeof program_mains / sizeof program_mains[0]; ++i)
        if (strcmp(path, program_mains[i]) == 0)
            return true;
    return false;
}

/* Every line of path that starts a definition of int main(. */
static void find_main_definitions(const char *path, struct findings *found)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot be read", path);
    char line[1024];
    for (int number = 1; fgets(line, sizeof line, f); ++number)
        if (strncmp(line + strspn(line, " \t"), "int main(", 9) == 0)
            note(found, "%s:%d defines int main( outside a program's room", path, number);
    fclose(f);
}

static void every_program_has_its_main_in_its_own_room(void **state)
{
    (void)state;
    static struct file_list files;
    static struct findings found;
    memset(&found, 0, sizeof found);
    for (size_t i = 0; i < sizeof program_mains / sizeof program_mains[0]; ++i)
        if (!is_file(program_mains[i]))
            note(&found, "%s is missing", program_mains[i]);
    files.count = 0;
    list_sources("harness", &files);
    for (int i = 0; i < files.count; ++i)
        if (!is_program_main(files.path[i]))
            find_main_definitions(files.path[i], &found);
    expect_none(&found, "each program's main is harness/<room>/main.c, and no other file under harness/ defines one");
}

/* ---- what the programs link ---- */

static const char *binary(const char *variable, const char *fallback)
{
    const char *path = getenv(variable);
    return path && *path ? path : fallback;
}

/* The CUDA a binary carries: NEEDED libcudart, libcublas or libcuda, and defined cuda* symbols. */
static void find_linked_cuda(const char *path, struct findings *found)
{
    static struct outcome o;
    if (!is_file(path)) {
        note(found, "%s: missing (build it with make all)", path);
        return;
    }
    shell(&o, "readelf -d '%s' | grep NEEDED | grep -E 'lib(cudart|cublas|cuda)[.]'", path);
    if (o.exit_code == 0)
        note(found, "%s: readelf -d lists\n%s", path, o.output);
    shell(&o, "nm --defined-only '%s' | awk '$3 ~ /^cuda/ {print; if (++n == 3) exit}'", path);
    if (o.output[0])
        note(found, "%s: nm shows CUDA runtime symbols defined, e.g.\n%s", path, o.output);
}

static void the_readers_link_no_cuda(void **state)
{
    (void)state;
    static struct findings found;
    memset(&found, 0, sizeof found);
    find_linked_cuda(binary("MEMSCOPE_DECODE_BIN", "build/memscope-decode"), &found);
    find_linked_cuda(binary("MEMSCOPE_REPORT_DATA", "build/memscope-report-data"), &found);
    find_linked_cuda(binary("MEMSCOPE_COMPARE", "build/memscope-compare"), &found);
    find_linked_cuda(binary("MEMSCOPE_HISTORY", "build/memscope-history"), &found);
    expect_none(&found, "the readers must link no CUDA runtime, cuBLAS or driver: they run where there is no GPU");
}

/* memscope-profile starts anywhere; its injection library is loaded into programs that bring their own CUDA
 * runtime, so it must bring none (CUPTI it needs, and libcupti is none of those). */
static void the_launcher_and_the_injection_library_link_no_cuda(void **state)
{
    (void)state;
    static struct findings found;
    char library[PATH_SIZE];
    const char *launcher = binary("MEMSCOPE_PROFILE", "build/memscope-profile");
    memset(&found, 0, sizeof found);
    snprintf(library, sizeof library, "%.*s/libmemscope-inject.so", (int)(strrchr(launcher, '/') - launcher),
             launcher);
    find_linked_cuda(launcher, &found);
    find_linked_cuda(library, &found);
    expect_none(&found, "memscope-profile and libmemscope-inject.so must link no CUDA runtime, cuBLAS or driver");
}

/* The same check on memscope, which needs cuBLAS: proof that the readers' check can fail. */
static void memscope_itself_links_cublas_so_the_check_can_fail(void **state)
{
    (void)state;
    static struct findings found;
    memset(&found, 0, sizeof found);
    const char *path = binary("MEMSCOPE_BIN", "build/memscope");
    if (!is_file(path))
        fail_msg("%s: missing (build it with make all)", path);
    find_linked_cuda(path, &found);
    if (!strstr(found.text, "libcublas"))
        fail_msg("%s: expected readelf -d to list libcublas; the check found:\n%s", path, found.text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_include_nothing_from_cupti_or_harness),
        cmocka_unit_test(cupti_includes_nothing_from_harness_or_kernels),
        cmocka_unit_test(results_includes_only_csv_common_and_the_capture_container),
        cmocka_unit_test(only_results_writes_a_results_folder_csv),
        cmocka_unit_test(only_results_reads_a_results_folder_csv),
        cmocka_unit_test(no_source_file_is_part_of_an_include_cycle),
        cmocka_unit_test(no_folder_holds_more_than_15_source_files),
        cmocka_unit_test(every_program_has_its_main_in_its_own_room),
        cmocka_unit_test(the_readers_link_no_cuda),
        cmocka_unit_test(the_launcher_and_the_injection_library_link_no_cuda),
        cmocka_unit_test(memscope_itself_links_cublas_so_the_check_can_fail),
    };
    return cmocka_run_group_tests_name("layout", tests, NULL, NULL);
}
