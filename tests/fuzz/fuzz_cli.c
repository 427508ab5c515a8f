/* memscope's command-line parser (cli_parse over common/args.c): argv is the input split at NUL bytes, after the
 * program's name. */
#include "fuzz_support.h"

#include "../../harness/run/cli.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char program[] = "memscope";
    char *argv[MAX_ARGS + 2] = {program};
    int argc = 1;
    const uint8_t *rest = data, *end = data + size, *piece;
    size_t piece_size;
    while (argc <= MAX_ARGS && (piece = fuzz_piece(&rest, end, 0, &piece_size))) {
        if (!(argv[argc] = malloc(piece_size + 1)))
            abort();
        memcpy(argv[argc], piece, piece_size);
        argv[argc++][piece_size] = '\0';
    }
    argv[argc] = NULL;
    struct options o;
    struct error e = {0};
    cli_parse(argc, argv, &o, &e);
    for (int i = 1; i < argc; ++i)
        free(argv[i]);
    return 0;
}
