#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_tags.h"

static void call_key(char *key, size_t len, int call)
{
    snprintf(key, len, "call%d", call);
}

static void range_key(char *key, size_t len, size_t range)
{
    snprintf(key, len, "range%zu", range);
}

/* Returns non-zero when the capture has no room left for the tag. */
static int add_tag(struct prof_capture *c, const char *key, const char *value)
{
    if (c->n_tags == CAPTURE_MAX_TAGS)
        return -1;
    snprintf(c->tag_key[c->n_tags], sizeof c->tag_key[0], "%s", key);
    snprintf(c->tag_value[c->n_tags++], sizeof c->tag_value[0], "%s", value);
    return 0;
}

int capture_tags_write(struct prof_capture *c, const struct tagged_call *calls, int n)
{
    char key[32], value[256];
    snprintf(value, sizeof value, "%d", n);
    int full = add_tag(c, "calls", value);
    for (int i = 0; i < n && !full; ++i) {
        call_key(key, sizeof key, i);
        char shape[PRODUCT_SHAPE_LEN];
        snprintf(value, sizeof value, "%s %s %zu %zu %s", calls[i].precision, product_shape_text(calls[i].shape, shape),
                 calls[i].first_range, calls[i].ranges, calls[i].variant);
        full = add_tag(c, key, value);
        for (size_t k = 0; k < calls[i].ranges && !full; ++k) {
            range_key(key, sizeof key, calls[i].first_range + k);
            full = add_tag(c, key, calls[i].kernels[k]);
        }
    }
    return full ? -1 : 0;
}

int capture_tags_write_summed(struct prof_capture *c, const char *const *names, int n)
{
    char key[32], value[32];
    snprintf(value, sizeof value, "%d", n);
    int full = n > 0 && add_tag(c, "summed", value);
    for (int i = 0; i < n && !full; ++i) {
        snprintf(key, sizeof key, "summed%d", i);
        full = add_tag(c, key, names[i]);
    }
    return full ? -1 : 0;
}

int capture_tags_save(const char *path, struct prof_capture *c, const struct tagged_call *calls, int n,
                      const char *const *summed, int n_summed, struct error *e)
{
    struct prof_error pe = {0};
    if (capture_tags_write(c, calls, n) || capture_tags_write_summed(c, summed, n_summed))
        return error_set(e, EXIT_OUTPUT, "%s: more than %d capture tags", path, CAPTURE_MAX_TAGS);
    prof_capture_write(path, c, &pe);
    return pe.status ? error_set(e, EXIT_OUTPUT, "%s", pe.message) : 0;
}

/* A whole decimal number from lowest to highest, and nothing else. */
static int parse_count(const char *text, long lowest, long highest, long *value)
{
    char *end;
    if (!text)
        return -1;
    errno = 0;
    *value = strtol(text, &end, 10);
    return errno || end == text || *end != '\0' || *value < lowest || *value > highest ? -1 : 0;
}

int capture_tags_summed(const struct prof_capture *c, const char **names, int max)
{
    long n;
    char key[32];
    if (!prof_capture_tag(c, "summed"))
        return 0;
    if (parse_count(prof_capture_tag(c, "summed"), 1, max, &n))
        return -1;
    for (long i = 0; i < n; ++i) {
        snprintf(key, sizeof key, "summed%ld", i);
        if (!(names[i] = prof_capture_tag(c, key)) || !*names[i])
            return -1;
    }
    return (int)n;
}

int capture_tags_calls(const struct prof_capture *c, int max)
{
    long calls;
    return parse_count(prof_capture_tag(c, "calls"), 1, max, &calls) ? -1 : (int)calls;
}

/* The word at *p (up to a space or the end) into out, *p left after it; -1 when it is empty or too long. */
static int take_word(const char **p, char *out, size_t len)
{
    size_t n = strcspn(*p, " ");
    if (n == 0 || n >= len)
        return -1;
    memcpy(out, *p, n);
    out[n] = '\0';
    *p += n;
    return 0;
}

/* " <number>" at *p, a whole number from 0 to INT_MAX, *p left after it. */
static int take_number(const char **p, long *value)
{
    char word[24];
    if (**p != ' ')
        return -1;
    ++*p;
    return take_word(p, word, sizeof word) || parse_count(word, 0, INT_MAX, value) ? -1 : 0;
}

/* "precision shape first_range ranges variant": a shape and two numbers, none negative or out of range, between
 * words; the variant is the rest of the line. */
static int parse_call(const char *tag, struct tagged_call *out)
{
    char shape[PRODUCT_SHAPE_LEN];
    long first_range, ranges;
    const char *p = tag;
    if (!p || take_word(&p, out->precision, sizeof out->precision) || *p++ != ' ' ||
        take_word(&p, shape, sizeof shape) || product_shape_parse(shape, INT_MAX, &out->shape) ||
        take_number(&p, &first_range) || take_number(&p, &ranges))
        return -1;
    if (*p != ' ' || !p[1] || strlen(p + 1) >= sizeof out->variant)
        return -1;
    strcpy(out->variant, p + 1);
    out->first_range = (size_t)first_range;
    out->ranges = (size_t)ranges;
    return out->ranges >= 1 && out->ranges <= TAGGED_CALL_MAX_KERNELS ? 0 : -1;
}

enum tagged_call_status capture_tags_call(const struct prof_capture *c, int i, struct tagged_call *out,
                                          char *bad_tag, size_t len)
{
    call_key(bad_tag, len, i);
    if (parse_call(prof_capture_tag(c, bad_tag), out))
        return TAGGED_CALL_MALFORMED;
    for (size_t k = 0; k < out->ranges; ++k) {
        range_key(bad_tag, len, out->first_range + k);
        if (!(out->kernels[k] = prof_capture_tag(c, bad_tag)))
            return TAGGED_CALL_NO_RANGE;
    }
    return TAGGED_CALL_OK;
}
