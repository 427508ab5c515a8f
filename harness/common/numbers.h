/* Reading numbers from text (command lines, CSV fields, capture tags): the whole text must be the number. */
#ifndef MEMSCOPE_NUMBERS_H
#define MEMSCOPE_NUMBERS_H

/* What a text held: a number in range (0, and *value is set), or why not. A number beyond what a long or a double
 * holds is still a number: too large (or too small, when negative), never malformed. */
enum number_reading {
    NUMBER_OK = 0,
    NUMBER_MALFORMED, /* not a number at all, or not the kind asked for (a fraction for a whole number) */
    NUMBER_TOO_SMALL, /* below lowest */
    NUMBER_TOO_LARGE, /* above highest */
};

/* A whole decimal number from lowest to highest. */
enum number_reading parse_long(const char *text, long lowest, long highest, long *value);
/* A finite number from lowest to highest; infinity and NaN are not (infinity reads as too large or too small). */
enum number_reading parse_real(const char *text, double lowest, double highest, double *value);

#endif
