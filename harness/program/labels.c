#include <stdio.h>
#include <string.h>

#include "../results/job_name.h"
#include "labels.h"

#define ELLIPSIS "…"
#define LABEL_WORK 4096 /* a kernel's name is cut here before it is shortened */

/* Where the name that ends at out[n] begins: after the last separator outside its own template arguments. */
static size_t name_start(const char *out, size_t n)
{
    int depth = 0;
    while (n > 0) {
        char c = out[n - 1];
        depth += (c == '>') - (c == '<');
        if (depth < 0 || (depth == 0 && strchr(" ,(*&", c)))
            break;
        --n;
    }
    return n;
}

/* Drops every "(anonymous namespace)::" and every namespace or class before "::" (kept: the last name). */
static void drop_qualifiers(const char *in, char *out, size_t size)
{
    static const char anonymous[] = "(anonymous namespace)::";
    size_t n = 0;
    for (const char *p = in; *p && n + 1 < size;) {
        if (strncmp(p, anonymous, sizeof anonymous - 1) == 0)
            p += sizeof anonymous - 1;
        else if (p[0] == ':' && p[1] == ':') {
            p += 2;
            n = name_start(out, n);
        } else
            out[n++] = *p++;
    }
    out[n] = '\0';
}

/* Cuts the parameter list, the last parenthesised group at depth 0, and the return type, the words before the
 * last space at depth 0. */
static void drop_signature(char *name)
{
    int depth = 0;
    char *open = NULL, *space = NULL;
    for (char *p = name; *p; ++p) {
        depth += (*p == '<' || *p == '(') - (*p == '>' || *p == ')');
        if (depth == 1 && *p == '(')
            open = p;
        if (depth == 0 && *p == ' ' && !open)
            space = p;
    }
    if (open)
        *open = '\0';
    if (space)
        memmove(name, space + 1, strlen(space + 1) + 1);
}

/* Template arguments deeper than depth replaced by an ellipsis. */
static void collapse(const char *name, int depth, char *out, size_t size)
{
    size_t n = 0;
    int at = 0; /* the '<' open before *p */
    for (const char *p = name; *p && n + sizeof ELLIPSIS < size; ++p) {
        at -= *p == '>';
        if (at <= depth)
            out[n++] = *p;
        else if (at == depth + 1 && p[-1] == '<') {
            memcpy(out + n, ELLIPSIS, strlen(ELLIPSIS));
            n += strlen(ELLIPSIS);
        }
        at += *p == '<';
    }
    out[n] = '\0';
}

/* Characters, not bytes: the ellipsis is one. */
static size_t characters(const char *text)
{
    size_t n = 0;
    for (; *text; ++text)
        n += (*text & 0xC0) != 0x80;
    return n;
}

static int deepest(const char *name)
{
    int depth = 0, most = 0;
    for (const char *p = name; *p; ++p) {
        depth += (*p == '<') - (*p == '>');
        most = depth > most ? depth : most;
    }
    return most;
}

/* name cut to max characters, the last an ellipsis (name holds JOB_LABEL_LEN bytes at least). */
static void cut(char *name, size_t max)
{
    size_t keep = 0, kept = 0;
    if (characters(name) <= max)
        return;
    while (kept + 1 < max) /* the bytes of max - 1 characters */
        kept += (name[++keep] & 0xC0) != 0x80;
    snprintf(name + keep, strlen(ELLIPSIS) + 1, "%s", ELLIPSIS);
}

/* The byte where name's character-th character starts (an ellipsis is one character of three bytes). */
static size_t byte_of(const char *name, size_t character)
{
    size_t b = 0;
    for (size_t c = 0; name[b] && c < character; ++c)
        while ((name[++b] & 0xC0) == 0x80)
            ;
    return b;
}

/* A name without template arguments (a Triton kernel's: triton_per_fused_..._backward_5) cut in its middle instead:
 * the kernels Inductor generates differ at their end. A name cut in its middle before is cut there again. */
#define KEPT_END 12
static void cut_middle(char *name, size_t max)
{
    size_t count = characters(name);
    if (count <= max || max < KEPT_END + 2 || strchr(name, '<'))
        return;
    size_t head = byte_of(name, max - 1 - KEPT_END), tail = byte_of(name, count - KEPT_END);
    memmove(name + head + strlen(ELLIPSIS), name + tail, strlen(name + tail) + 1);
    memcpy(name + head, ELLIPSIS, strlen(ELLIPSIS));
}

void program_label_shorten(char *name, size_t max)
{
    cut_middle(name, max);
    cut(name, max);
}

void program_kernel_label(const char *kernel, size_t max, char *out, size_t size)
{
    char plain[LABEL_WORK], shorter[LABEL_WORK];
    drop_qualifiers(kernel, plain, sizeof plain);
    drop_signature(plain);
    /* The first template arguments are kept, cut at the end if they must be: kernels that differ there (PyTorch's
     * multi_tensor_apply_kernel<TensorListMetadata<1>, BinaryOpScalarFunctor<...>...> and ...<3>, ...) would read
     * alike as "multi_tensor_apply_kernel<…>". */
    int least = deepest(plain) > 0 ? 1 : 0;
    for (int depth = deepest(plain); depth >= least && characters(plain) > max; --depth) {
        collapse(plain, depth, shorter, sizeof shorter);
        if (characters(shorter) <= max || depth == least)
            snprintf(plain, sizeof plain, "%s", shorter);
    }
    program_label_shorten(plain, max);
    snprintf(out, size, "%s", plain);
}

void program_job_label(const char *job, const char *kernel, size_t max, char *out, size_t size)
{
    struct job_parts parts;
    char label[JOB_LABEL_LEN];
    if (job_name_split(job, kernel, &parts) != 0) {
        snprintf(label, sizeof label, "%s", job);
        cut(label, max);
        snprintf(out, size, "%s", label);
        return;
    }
    program_kernel_label(kernel, max, label, sizeof label);
    if (parts.path_len)
        snprintf(out, size, "%s #%ld (%.*s)", label, parts.ordinal, (int)parts.path_len, parts.path);
    else
        snprintf(out, size, "%s #%ld", label, parts.ordinal);
}

void program_kernel_name(const struct program_kernels *k, const struct program_kernel *kernel, size_t max, char *out,
                         size_t size)
{
    char label[JOB_LABEL_LEN];
    if (k->grouping == GROUP_BY_LAUNCH) {
        program_job_label(kernel->key, kernel->kernel, max, out, size);
        return;
    }
    program_kernel_label(kernel->kernel, max, label, sizeof label);
    if (*kernel->nvtx_range)
        snprintf(out, size, "%s (%s)", label, kernel->nvtx_range);
    else
        snprintf(out, size, "%s", label);
}
