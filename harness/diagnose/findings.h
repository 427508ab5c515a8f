/*
 * Findings: the causes of a kernel's time, each named, with its evidence (figures), an ESTIMATED gain (the share of
 * the kernel's time that fixing it might save) and, where the source group ran, the line responsible; ranked by
 * estimated gain. Modelled on Nsight Compute's guided-analysis rules: a rule reads a few metrics, fires on a
 * condition, and estimates its gain as an inefficiency fraction times the busy share of the unit it wastes; the
 * finding is "global" when that unit is the one that bounds the kernel (the limiter, diagnosis.h), "local" otherwise.
 *
 * Two kinds of rule (FINDING_RULES in findings.c, one row each): cause rules (uncoalesced loads, bank conflicts,
 * spills, occupancy, ...) and bound rules (dram_bound, ..., latency_bound), of which only the limiter's fires. A bound
 * finding's gain is what the cause findings on its unit do not explain: the unit's busy share less their gains. A
 * bound finding ranks after every cause finding of at least FINDING_MATERIAL_GAIN_PCT on its unit (latency_bound:
 * after every such cause finding), since those say how to relieve it: a kernel whose stores use 12.5 % of their
 * sectors gets uncoalesced_global_stores first, l2_bound after it. Ties go to the rules' order, so the ranking is
 * deterministic. Host-only, the C library alone, like diagnosis.c.
 */
#ifndef MEMSCOPE_FINDINGS_H
#define MEMSCOPE_FINDINGS_H

#include <stdbool.h>

#include "diagnosis.h"
#include "occupancy.h"

/* A cause finding at least this large puts the bound finding of its unit after it. */
#define FINDING_MATERIAL_GAIN_PCT 5.0

#define FINDING_CAUSE_LEN 32
#define FINDING_EVIDENCE_LEN 224
#define FINDING_WHERE_LEN 96
/* Rules there are, and so findings a kernel may have (findings.c checks it). */
#define FINDING_MAX 26

struct finding {
    const char *cause; /* the rule's name: uncoalesced_global_stores, l2_bound, ... (static) */
    bool global;       /* its unit bounds the kernel */
    double gain_pct;   /* ESTIMATED share of the kernel's time fixing it saves, by the rule's formula */
    char evidence[FINDING_EVIDENCE_LEN];
    char where[FINDING_WHERE_LEN]; /* "file:line" of the line with the most of the waste; "" where not known */
};

/* One source line's counts from the source group (lines.csv's metrics of the same names), for naming lines. */
struct line_counts {
    const char *file;
    int line;
    double global_ld_sectors, global_st_sectors, global_excess_sectors;
    double shared_ld_wavefronts, shared_st_wavefronts, shared_excess_wavefronts;
    double predicated_off_lanes, conversions;
};

/* The line with the most excess of one kind, and the kernel's sum of that excess. */
struct worst_line {
    char where[FINDING_WHERE_LEN];
    double excess, total;
};

/* A kernel's lines, summed as finding_lines_add sees them: global excess sectors of loads and of stores, shared
 * excess wavefronts of loads and of stores, predicated-off lanes and conversions (thread instructions). A line that
 * both loads and stores has its excess shared between the two in proportion to their sectors (wavefronts): exact
 * for the usual line that does one or the other. */
struct finding_lines {
    bool any;    /* the source group counted the kernel's instructions */
    bool placed; /* and put some on a file and line (cuBLAS's carry no line table) */
    struct worst_line global_ld, global_st, shared_ld, shared_st, predicated_off, conversions;
};

void finding_lines_init(struct finding_lines *w);
void finding_lines_add(struct finding_lines *w, const struct line_counts *l);

/* The findings of a kernel, ranked, into out[] (at most max); returns how many. values and tensor_type as diagnose()
 * takes them; lines NULL, or without any, when the source group did not run: no line is named then. */
int diagnose_findings(const double values[DIAGNOSIS_INPUT_COUNT], const char *tensor_type,
                      const struct finding_lines *lines, struct finding out[], int max);

/* The inputs of a kernel's launch (IN_SM_COUNT, IN_SM_MAX_WARPS, IN_THREADS_PER_BLOCK, IN_REGISTERS and the blocks an
 * SM holds by each resource) from the SM's limits and count and the kernel's resources as launched (shared: static
 * and dynamic bytes per block); NAN where unknown. What a run knows at its launch and a results folder keeps
 * (summary.csv, environment.csv) alike. */
void findings_launch_inputs(const struct sm_limits *sm, double sm_count, double registers_per_thread,
                            double shared_per_block, double threads_per_block, double values[DIAGNOSIS_INPUT_COUNT]);

/* IN_SHARED_LD_EXCESS, IN_SHARED_ST_EXCESS and IN_SHARED_WAVEFRONTS: the source group's exact counts where it placed
 * lines (lines with any) and counted the wavefronts (exact_wavefronts not NAN), else the smaller of each kind's
 * kernel-total estimate and hardware count (diagnosis_shared_excess_bound) over all shared wavefronts. */
void findings_shared_inputs(const struct finding_lines *lines, double exact_wavefronts, const double estimate[2],
                            const double hardware[2], double wavefronts, double values[DIAGNOSIS_INPUT_COUNT]);

/* The rules left unjudged for want of what they read (an input they need is NAN: a counter a run before it did not
 * collect, or the SM's facts a profile did not store), their names joined by ", " into out; how many. */
int findings_unjudged(const double values[DIAGNOSIS_INPUT_COUNT], char *out, size_t len);

/* The rules, in order: name, the inputs it reads and what it finds and estimates, as docs/metrics.md gives them. */
int finding_rule_count(void);
const char *finding_rule_name(int i);
const char *finding_rule_reads(int i);
const char *finding_rule_doc(int i);

#endif
