/*
 * A program with NVTX ranges and no CUDA, for tests/inject/test_nvtx_hook: with NVTX_INJECTION64_PATH naming
 * libmemscope-inject.so, its ranges reach the library. It prints "main <pid>" and "worker <thread id>" so that
 * the test knows which thread pushed what, and leaves two ranges open at exit:
 *
 *   main:   push "outer", push "inner" (PushEx), pop; domain "lib": push "domain range"; push "inner 2";
 *           pop in "lib" (which must close "domain range", not "inner 2": each domain has its own stack)
 *   worker: push "worker", pop
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>

static nvtxEventAttributes_t named(const char *message)
{
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    return a;
}

static void *worker(void *unused)
{
    (void)unused;
    nvtxRangePushA("worker");
    printf("worker %ld\n", (long)syscall(SYS_gettid));
    nvtxRangePop();
    return NULL;
}

int main(void)
{
    pthread_t thread;
    printf("main %ld\n", (long)getpid());
    nvtxRangePushA("outer");
    nvtxEventAttributes_t inner = named("inner");
    nvtxRangePushEx(&inner);
    nvtxRangePop();
    if (pthread_create(&thread, NULL, worker, NULL) != 0 || pthread_join(thread, NULL) != 0)
        return 1;
    nvtxDomainHandle_t lib = nvtxDomainCreateA("lib");
    nvtxEventAttributes_t in_domain = named("domain range");
    nvtxDomainRangePushEx(lib, &in_domain);
    nvtxRangePushA("inner 2");
    nvtxDomainRangePop(lib);
    return 0;
}
