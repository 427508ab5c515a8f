/* The corpus's table, from its one list (pathology.h). */
#include "pathology.h"

const struct pathology_case pathology_cases[PATHOLOGY_CASE_COUNT] = {
#define PATHOLOGY_ROW(name, expected, sibling, launcher) {#name, expected, sibling, launcher},
    PATHOLOGY_CASES(PATHOLOGY_ROW)
#undef PATHOLOGY_ROW
};
