/*
 * The tags a batch's capture carries, written by the live run (profile/collect.c
 * hands its calls here) and read by memscope-decode, here in one place; the
 * capture's container, CUPTI's images and the tags as text, is cupti/capture_file.c:
 *   "calls"     how many calls the batch profiled;
 *   "call<i>"   "precision shape first_range ranges variant", the variant last (shape as
 *               product_shape_text writes it: "4096", "8192x3072x1024"),
 *               since a ground-truth case's name holds spaces;
 *   "range<r>"  the kernel name of each range that belongs to a call (the L2
 *               sweeps between calls have none, so a call cannot claim them);
 *   "summed", "summed<i>"  how many counts, and which, the run left out of the
 *               passes and summed from the batch's source capture instead
 *               (profile/summed_counts.h); absent where it summed none.
 */
#ifndef MEMSCOPE_CAPTURE_TAGS_H
#define MEMSCOPE_CAPTURE_TAGS_H

#include <stddef.h>

#include "../../cupti/capture_file.h"
#include "../common/error.h"
#include "product_shape.h"

/* The kernels of one call a capture can name (profile.h's MAX_PROFILED_KERNELS). */
#define TAGGED_CALL_MAX_KERNELS 8

struct tagged_call {
    char precision[16];
    char variant[200];
    struct product_shape shape;
    size_t first_range, ranges;
    const char *kernels[TAGGED_CALL_MAX_KERNELS]; /* range first_range + k is kernels[k] */
};

/* Adds the tags of n calls; -1 when the capture has no room left for them. */
int capture_tags_write(struct prof_capture *c, const struct tagged_call *calls, int n);
/* Adds them, and the summed counts' tags (capture_tags_write_summed), and writes the capture to path. */
int capture_tags_save(const char *path, struct prof_capture *c, const struct tagged_call *calls, int n,
                      const char *const *summed, int n_summed, struct error *e);
/* Adds the summed counts' tags (none for n 0); -1 when the capture has no room left for them. */
int capture_tags_write_summed(struct prof_capture *c, const char *const *names, int n);
/* The summed counts' names (pointing into the capture), at most max; 0 where the run summed none, -1 when a tag is
 * malformed or missing. */
int capture_tags_summed(const struct prof_capture *c, const char **names, int max);
/* The number of calls, from 1 to max; -1 when the tag is missing or out of range. */
int capture_tags_calls(const struct prof_capture *c, int max);
enum tagged_call_status { TAGGED_CALL_OK, TAGGED_CALL_MALFORMED, TAGGED_CALL_NO_RANGE };
/* Call i read back; otherwise which tag (named in bad_tag) is malformed or missing. */
enum tagged_call_status capture_tags_call(const struct prof_capture *c, int i, struct tagged_call *out,
                                          char *bad_tag, size_t len);

#endif
