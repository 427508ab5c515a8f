/*
 * The command line of every memscope program, parsed one way: a table of
 * options (getopt_long underneath), numbers checked against their range, and
 * one message per mistake. Options may come before or after the positional
 * arguments.
 */
#ifndef MEMSCOPE_ARGS_H
#define MEMSCOPE_ARGS_H

#include <stdbool.h>

#include "error.h"

enum arg_type {
    ARG_FLAG, /* value: bool *, set to true */
    ARG_TEXT, /* value: const char **, the argument as given */
    ARG_LONG, /* value: long *, a whole number from lowest to highest */
    ARG_REAL, /* value: double *, a number from lowest to highest */
};

struct arg_option {
    const char *name; /* the long name, without "--" */
    char short_name;  /* 0: none */
    enum arg_type type;
    void *value;
    double lowest, highest; /* ARG_LONG and ARG_REAL */
    /* ARG_REAL: how a value that is no number or is below the range is described ("a positive number");
     * NULL: by the range. */
    const char *kind;
};

#define ARGS_MAX_OPTIONS 32

/* Parses argv[1..argc-1]. Positional arguments land in positional[] in order; more than max_positional is a
 * usage error, as are an unknown option, a missing value and a value out of range (EXIT_USAGE). */
int args_parse(int argc, char **argv, const struct arg_option *options, int n_options, const char **positional,
               int max_positional, int *n_positional, struct error *e);

/* A whole number from lowest to highest, for an option (or an item of its list: option names it, "--sizes").
 * A refusal names option and text and says what is wrong: not a whole number, or too small or too large with
 * the limit, and why_highest after the highest where given. */
int args_whole_number(const char *option, const char *text, long lowest, long highest, const char *why_highest,
                      long *value, struct error *e);

/* argv (NULL-terminated) as one line into buf: its words joined by spaces, each holding a space or a quote in single
 * quotes, as a profile names the command it ran. */
void args_join(const char *const argv[], char *buf, size_t len);

#endif
