/* Reading numbers from text (command lines, CSV fields, capture tags): the whole text must be the number. */
#ifndef MEMSCOPE_NUMBERS_H
#define MEMSCOPE_NUMBERS_H

/* A whole decimal number from lowest to highest; -1 for anything else. */
int parse_long(const char *text, long lowest, long highest, long *value);
/* A finite number from lowest to highest; -1 for anything else. */
int parse_real(const char *text, double lowest, double highest, double *value);

#endif
