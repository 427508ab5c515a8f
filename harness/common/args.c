#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "numbers.h"

int args_whole_number(const char *option, const char *text, long lowest, long highest, const char *why_highest,
                      long *value, struct error *e)
{
    switch (parse_long(text, lowest, highest, value)) {
    case NUMBER_OK:
        return 0;
    case NUMBER_MALFORMED:
        return error_set(e, EXIT_USAGE, "%s: '%s' is not a whole number from %ld to %ld", option, text, lowest,
                         highest);
    case NUMBER_TOO_SMALL:
        return error_set(e, EXIT_USAGE, "%s: '%s' is too small (at least %ld)", option, text, lowest);
    case NUMBER_TOO_LARGE:
        break;
    }
    return error_set(e, EXIT_USAGE, "%s: '%s' is too large (at most %ld%s%s)", option, text, highest,
                     why_highest ? ", " : "", why_highest ? why_highest : "");
}

/* kind, where given, describes the values allowed ("a positive number") better than the lowest one does. */
static int real_number(const char *option, const char *text, double lowest, double highest, const char *kind,
                       double *value, struct error *e)
{
    switch (parse_real(text, lowest, highest, value)) {
    case NUMBER_OK:
        return 0;
    case NUMBER_MALFORMED:
        return kind ? error_set(e, EXIT_USAGE, "%s: '%s' is not %s", option, text, kind)
                    : error_set(e, EXIT_USAGE, "%s: '%s' is not a number from %g to %g", option, text, lowest, highest);
    case NUMBER_TOO_SMALL:
        return kind ? error_set(e, EXIT_USAGE, "%s: '%s' is not %s", option, text, kind)
                    : error_set(e, EXIT_USAGE, "%s: '%s' is too small (at least %g)", option, text, lowest);
    case NUMBER_TOO_LARGE:
        break;
    }
    return error_set(e, EXIT_USAGE, "%s: '%s' is too large (at most %g)", option, text, highest);
}

static int store_value(const struct arg_option *o, const char *text, struct error *e)
{
    char option[64];
    snprintf(option, sizeof option, "--%s", o->name);
    switch (o->type) {
    case ARG_FLAG:
        *(bool *)o->value = true;
        return 0;
    case ARG_TEXT:
        *(const char **)o->value = text;
        return 0;
    case ARG_LONG: {
        /* (double)LONG_MAX rounds up past LONG_MAX: converting it back would overflow. */
        long lowest = (long)o->lowest, highest = o->highest >= (double)LONG_MAX ? LONG_MAX : (long)o->highest;
        return args_whole_number(option, text, lowest, highest, NULL, (long *)o->value, e);
    }
    case ARG_REAL:
        return real_number(option, text, o->lowest, o->highest, o->kind, (double *)o->value, e);
    }
    return error_set(e, EXIT_USAGE, "%s: unknown option type", option);
}

/* getopt_long's tables, built from ours: a short option returns its letter, a long-only one 256 + its index. */
static void build_tables(const struct arg_option *options, int n, struct option *longs, char *shorts)
{
    /* '+': stop at each positional argument, which args_parse collects before going on; ':': report a missing
     * value apart from an unknown option. */
    size_t used = 0;
    shorts[used++] = '+';
    shorts[used++] = ':';
    for (int i = 0; i < n; ++i) {
        int takes = options[i].type != ARG_FLAG;
        longs[i] = (struct option){options[i].name, takes ? required_argument : no_argument, NULL,
                                   options[i].short_name ? options[i].short_name : 256 + i};
        if (options[i].short_name) {
            shorts[used++] = options[i].short_name;
            if (takes)
                shorts[used++] = ':';
        }
    }
    longs[n] = (struct option){NULL, 0, NULL, 0};
    shorts[used] = '\0';
}

static const struct arg_option *find(const struct arg_option *options, int n, int opt)
{
    for (int i = 0; i < n; ++i)
        if (opt == (options[i].short_name ? options[i].short_name : 256 + i))
            return &options[i];
    return NULL;
}

/* A long option is the argument getopt just passed; a short one is named from optopt, since inside a cluster
 * ("-Zh") argv[optind - 1] can still be the argument before it. */
static int refuse(int opt, const char *last_argument, struct error *e)
{
    char option[3] = {'-', (char)optopt, '\0'};
    bool is_long = last_argument[0] == '-' && last_argument[1] == '-';
    const char *named = !is_long && optopt > 0 && optopt < 128 ? option : last_argument;
    if (opt == ':')
        return error_set(e, EXIT_USAGE, "option '%s' needs a value (see --help)", named);
    return error_set(e, EXIT_USAGE, "unknown option '%s' (see --help)", named);
}

int args_parse(int argc, char **argv, const struct arg_option *options, int n_options, const char **positional,
               int max_positional, int *n_positional, struct error *e)
{
    struct option longs[ARGS_MAX_OPTIONS + 1];
    char shorts[3 * ARGS_MAX_OPTIONS + 3];
    if (n_options > ARGS_MAX_OPTIONS)
        return error_set(e, EXIT_USAGE, "internal: more than %d options", ARGS_MAX_OPTIONS);
    build_tables(options, n_options, longs, shorts);
    *n_positional = 0;
    optind = 0; /* glibc: full re-initialisation, so a parser can run more than once */
    opterr = 0;
    for (;;) {
        int opt = getopt_long(argc, argv, shorts, longs, NULL);
        if (opt == -1 && optind < argc) { /* a positional argument: take it, go on past it */
            if (*n_positional == max_positional)
                return error_set(e, EXIT_USAGE, "unexpected argument '%s' (see --help)", argv[optind]);
            positional[(*n_positional)++] = argv[optind++];
            continue;
        }
        if (opt == -1)
            return 0;
        if (opt == '?' || opt == ':')
            return refuse(opt, argv[optind - 1], e);
        if (store_value(find(options, n_options, opt), optarg, e))
            return e->code;
    }
}

void args_join(const char *const argv[], char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; argv[i] && used < len; ++i) {
        const char *quote = strpbrk(argv[i], " \t'\"") ? "'" : "";
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", i ? " " : "", quote, argv[i], quote);
    }
}
