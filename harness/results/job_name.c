#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_name.h"

int job_name_format(char *out, size_t size, const char *nvtx_path, const char *kernel, long ordinal)
{
    int n = snprintf(out, size, "%s%s%s #%ld", nvtx_path, *nvtx_path ? "/" : "", kernel, ordinal);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* From the end: " #K", then the kernel, then "/" and the path or nothing (a kernel's name may hold '/' and '#'). */
int job_name_split(const char *job, const char *kernel, struct job_parts *p)
{
    const char *mark = strrchr(job, '#');
    size_t kernel_len = strlen(kernel);
    char *end;
    if (!mark || mark == job || mark[-1] != ' ' || !mark[1])
        return -1;
    p->ordinal = strtol(mark + 1, &end, 10);
    size_t before = (size_t)(mark - 1 - job); /* the path and the kernel */
    if (*end || p->ordinal < 0 || before < kernel_len || strncmp(job + before - kernel_len, kernel, kernel_len))
        return -1;
    p->path = job;
    p->path_len = before - kernel_len;
    if (p->path_len == 0)
        return 0;
    if (job[p->path_len - 1] != '/' || p->path_len == 1)
        return -1;
    --p->path_len;
    return 0;
}

static int begins(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

int job_kernel_is_nccl(const char *kernel)
{
    const char *name = begins(kernel, "void ") ? kernel + strlen("void ") : kernel; /* a template's return type */
    return begins(name, "ncclKernel") || begins(name, "ncclDevKernel");
}

int job_name_with_part(char *out, size_t size, const char *label, const char *job)
{
    int n = snprintf(out, size, JOB_PART_OPEN "%s" JOB_PART_CLOSE "%s", label, job);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

void job_name_part(const char *job, const char **label, size_t *label_len, const char **rest)
{
    const char *close = strstr(job, JOB_PART_CLOSE);
    *label = job;
    *label_len = 0;
    *rest = job;
    if (strncmp(job, JOB_PART_OPEN, strlen(JOB_PART_OPEN)) != 0 || !close)
        return;
    *label = job + strlen(JOB_PART_OPEN);
    *label_len = (size_t)(close - *label);
    *rest = close + strlen(JOB_PART_CLOSE);
}
