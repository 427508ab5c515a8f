/*
 * A saved capture: the configuration a counter data image was taken with
 * (chip, metric names, configuration image) and the image itself, plus
 * free-form tags from the caller. Like an ncu report file, it can be
 * evaluated again later, on a machine without a GPU.
 *
 * Format: a text header, then the raw images.
 *   memscope-capture 1
 *   chip GH100
 *   tag <key> <value>            (any number)
 *   metric <name>                (one per metric, in order)
 *   passes <n>                   (replay passes the configuration took)
 *   config_bytes <n>
 *   counter_data_bytes <n>
 *   end
 *   <config image><counter data image>
 */
#ifndef MEMSCOPE_CAPTURE_FILE_H
#define MEMSCOPE_CAPTURE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "metric_host.h"
#include "profiler_error.h"

#define CAPTURE_MAX_TAGS 256

struct prof_capture {
    struct prof_config config;
    uint8_t *counter_data;
    size_t counter_data_size;
    int n_tags;
    char tag_key[CAPTURE_MAX_TAGS][32];
    char tag_value[CAPTURE_MAX_TAGS][256];
};

int prof_capture_write(const char *path, const struct prof_capture *c, struct prof_error *e);
int prof_capture_read(const char *path, struct prof_capture *out, struct prof_error *e);
const char *prof_capture_tag(const struct prof_capture *c, const char *key);
/* Frees what prof_capture_read allocated. */
void prof_capture_free(struct prof_capture *c);

#endif
