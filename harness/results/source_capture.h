/*
 * A source capture: the per-instruction counts of a batch of profiled calls,
 * each instruction already placed (function, PC offset, SASS opcode, file and
 * line) and the text of every line it names, so that memscope-decode rebuilds
 * lines.csv offline without the cubins, the disassembler or the sources.
 *
 * Format: text, one record per line, fields separated by tabs (tabs inside a
 * source line are written as spaces):
 *   memscope-source  1
 *   chip    GH100
 *   metric  <CUPTI SASS metric name>                 (one per metric, in order)
 *   call    <variant>  <precision>  <shape>  [<kernel>]     (kernel: as call.kernel says; shape: a square's width,
 *                                                         or rows x cols x inner as product_shape_text writes it)
 *   inst    <function>  <pc>  <opcode>  <file>  <line>  <value>...   (of the call before)
 *   text    <file>  <line>  <source text>
 *   end
 * The metrics are SASS_METRICS below, the counters the source group collects per instruction, in their order:
 * a capture holds them and nothing else. A capture written before the thread counts were collected names the first
 * SASS_METRICS_BEFORE_THREADS of them; it reads with those counts 0 and metrics_named saying so.
 */
#ifndef MEMSCOPE_SOURCE_CAPTURE_H
#define MEMSCOPE_SOURCE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "job_name.h"
#include "product_shape.h"

/* CUPTI SASS metric names, validated on GH100. */
#define SASS_METRICS(X)                                                                                               \
    X(SASS_INST_EXECUTED, "smsp__sass_inst_executed")                                                                 \
    X(SASS_SHARED_LD_INST, "smsp__sass_inst_executed_op_shared_ld")                                                   \
    X(SASS_SHARED_ST_INST, "smsp__sass_inst_executed_op_shared_st")                                                   \
    X(SASS_SHARED_WAVEFRONTS, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared")                                      \
    X(SASS_SHARED_WAVEFRONTS_IDEAL, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal")                          \
    X(SASS_GLOBAL_LD_INST, "smsp__sass_inst_executed_op_global_ld")                                                   \
    X(SASS_GLOBAL_ST_INST, "smsp__sass_inst_executed_op_global_st")                                                   \
    X(SASS_GLOBAL_SECTORS, "smsp__sass_sectors_mem_global")                                                           \
    X(SASS_GLOBAL_SECTORS_IDEAL, "smsp__sass_sectors_mem_global_ideal")                                               \
    X(SASS_THREAD_INST_EXECUTED, "smsp__sass_thread_inst_executed")                                                   \
    X(SASS_THREAD_INST_PRED_ON, "smsp__sass_thread_inst_executed_pred_on")

#define SASS_ID(id, name) id,
enum sass_metric { SASS_METRICS(SASS_ID) SASS_METRIC_COUNT };
#undef SASS_ID

#define SASS_METRICS_BEFORE_THREADS SASS_THREAD_INST_EXECUTED

const char *sass_metric_name(enum sass_metric id);

#define SOURCE_FUNCTION_LEN 256
#define SOURCE_FILE_LEN 256
#define SOURCE_TEXT_LEN 256
#define SOURCE_OPCODE_LEN 32

struct source_instruction {
    char function[SOURCE_FUNCTION_LEN]; /* mangled */
    uint32_t pc;
    char opcode[SOURCE_OPCODE_LEN]; /* "?" when no disassembler was found */
    char file[SOURCE_FILE_LEN];     /* "" and line 0 when the cubin has no line information */
    int line;
    uint64_t values[SASS_METRIC_COUNT];
};

struct source_call {
    char variant[JOB_NAME_LEN]; /* the suite's variant, or a program's job */
    char precision[16];
    struct product_shape shape;
    char kernel[JOB_NAME_LEN]; /* demangled and whole, where the caller knows it (a program's launch: its
                                  instructions' name may be cut short); "": the instructions' name, demangled */
    size_t n;
    struct source_instruction *instructions;
};

struct source_text {
    char file[SOURCE_FILE_LEN];
    int line;
    char text[SOURCE_TEXT_LEN];
};

struct source_capture {
    char chip[32];
    int metrics_named; /* SASS_METRIC_COUNT, or SASS_METRICS_BEFORE_THREADS in an older capture */
    int n_calls;
    struct source_call *calls; /* as many as were added: a program's part holds one per selected launch */
    size_t n_texts;
    struct source_text *texts;
};

/* Appends a zeroed call to the capture; the pointer stays valid until the next append. NULL: out of memory. */
struct source_call *source_add_call(struct source_capture *c, struct error *e);
/* Appends a zeroed instruction to the call; the pointer stays valid until the next append. NULL: out of memory. */
struct source_instruction *source_add_instruction(struct source_call *call, struct error *e);
/* The text of a file's line, or NULL when the capture has none; source_add_text adds it once. */
const struct source_text *source_find_text(const struct source_capture *c, const char *file, int line);
int source_add_text(struct source_capture *c, const char *file, int line, const char *text, struct error *e);

int source_capture_write(const char *path, const struct source_capture *c, struct error *e);
int source_capture_read(const char *path, struct source_capture *c, struct error *e);
void source_capture_free(struct source_capture *c);

#endif
