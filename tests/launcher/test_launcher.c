/*
 * memscope-profile as a user meets it, with programs that need no GPU: the program's own end said in words and
 * never confused with our exit code (8 it failed, 9 it could not start, 3 it launched no kernel), the folder
 * committed only when the injection library marked every part complete, and what the program inherits. Where
 * CUDA would load the library, a shell script writes what the library would (its marks, its error file) into
 * $MEMSCOPE_PROFILE_DIR: the launcher's decisions are tested, not CUPTI. The binary comes from
 * MEMSCOPE_PROFILE (set by make test).
 */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/common/error.h"
#include "../../harness/inject/protocol.h"
#include "../../harness/results/launches_csv.h"
#include "../support/build_dir.h"
#include "../support/gpu_present.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

static char workdir[] = "/tmp/memscope-launcher-XXXXXX";
static char launcher[PATH_MAX];
static struct outcome o;

/* memscope-profile ARGS, run in the scratch folder. */
static void profile(const char *args)
{
    shell(&o, "cd %s && %s %s", workdir, launcher, args);
}

static void expect(int code, const char *text)
{
    if (o.exit_code != code || !strstr(o.output, text))
        fail_msg("expected exit %d and \"%s\"; got %d:\n%s", code, text, o.exit_code, o.output);
}

static int exists(const char *name)
{
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    return lstat(path, &st) == 0;
}

static void expect_no_folder(void)
{
    assert_false(exists("out"));
    assert_false(exists("out.partial"));
}

static void expect_left_partial(void)
{
    assert_false(exists("out"));
    assert_true(exists("out.partial"));
}

/* A script in the scratch folder, made executable unless told not to. */
static void write_script(const char *name, const char *body, int executable)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, executable ? 0755 : 0644), 0);
}

/* What the library writes first into the folder when CUDA starts in the program (a shell line ending in ;). */
#define STARTS_CUDA ": >\"$" INJECT_ENV_DIR "/" INJECT_STARTED_MARK "\"; "

static void a_program_not_found_exits_9_and_leaves_nothing(void **state)
{
    (void)state;
    profile("-o out -- memscope-no-such-program");
    expect(EXIT_PROGRAM_NOT_STARTED, "cannot start the program 'memscope-no-such-program'");
    expect(EXIT_PROGRAM_NOT_STARTED, "not found in PATH");
    expect_no_folder();
}

static void a_program_not_executable_exits_9(void **state)
{
    (void)state;
    write_script("plain.sh", "exit 0", 0);
    profile("-o out -- ./plain.sh");
    expect(EXIT_PROGRAM_NOT_STARTED, "not an executable file");
    expect_no_folder();
}

static void a_program_that_exits_3_exits_8_and_says_its_status(void **state)
{
    (void)state;
    write_script("exit3.sh", STARTS_CUDA "exit 3", 1);
    profile("-o out -- ./exit3.sh");
    expect(EXIT_PROGRAM_FAILED, "the program exited with status 3");
    expect(EXIT_PROGRAM_FAILED, "out.partial keeps what was collected");
    expect_left_partial();
}

static void a_program_killed_by_a_signal_exits_8_and_names_it(void **state)
{
    (void)state;
    profile("-o out -- sh -c '" STARTS_CUDA "kill -KILL $$'");
    expect(EXIT_PROGRAM_FAILED, "the program was killed by signal 9 (SIGKILL");
    expect_left_partial();
}

static void a_directory_given_as_the_program_is_called_one(void **state)
{
    (void)state;
    profile("-o out -- /tmp");
    expect(EXIT_PROGRAM_NOT_STARTED, "cannot start the program '/tmp': Permission denied (it is a directory, not a "
                                     "program)");
    expect_no_folder();
}

/* A script whose #! interpreter does not exist fails with ENOENT, as a missing file does: said as what it is. */
static void a_script_whose_interpreter_is_missing_is_called_one(void **state)
{
    (void)state;
    shell(&o, "printf '#!/memscope/no/such/interpreter\\necho hi\\n' >%s/badinterp && chmod +x %s/badinterp", workdir,
          workdir);
    assert_int_equal(o.exit_code, 0);
    profile("-o out -- ./badinterp");
    expect(EXIT_PROGRAM_NOT_STARTED, "cannot start the program './badinterp': No such file or directory (the file is "
                                     "there: the interpreter its #! line names, or its ELF loader, is not)");
    expect_no_folder();
}

/* Without -o, a run that leaves no folder leaves no memscope-results/ either, unless it was there before. */
static void a_run_without_out_that_leaves_nothing_removes_the_root_it_created(void **state)
{
    (void)state;
    profile("-- memscope-no-such-program");
    expect(EXIT_PROGRAM_NOT_STARTED, "not found in PATH");
    assert_false(exists("memscope-results"));
    profile("-- /bin/true");
    expect(EXIT_NO_GPU, "the program launched no kernel");
    assert_false(exists("memscope-results"));
    shell(&o, "mkdir %s/memscope-results", workdir);
    profile("-- /bin/true");
    expect(EXIT_NO_GPU, "the program launched no kernel");
    assert_true(exists("memscope-results"));
}

/* A failed program in which CUDA never started collected nothing: its folder is removed, and on a machine without
 * a GPU that is said as the reason, with memscope's exit code for it. */
static void a_failed_program_that_never_started_cuda_leaves_no_folder(void **state)
{
    (void)state;
    profile("-o out -- sh -c 'exit 5'");
    expect(gpu_present() ? EXIT_PROGRAM_FAILED : EXIT_NO_GPU,
           "the program exited with status 5 before CUDA started in it");
    expect(gpu_present() ? EXIT_PROGRAM_FAILED : EXIT_NO_GPU, "no results folder is left");
    expect_no_folder();
}

/* The CUDA program the GPU tests profile, here where there is no GPU: the driver's answer is the message. */
static void a_cuda_program_without_a_gpu_exits_3_says_so_and_leaves_nothing(void **state)
{
    (void)state;
    char program[PATH_MAX + 64];
    if (gpu_present())
        skip();
    if (!realpath(build_dir(), program))
        fail_msg("the build folder %s is missing", build_dir());
    strcat(program, "/tests/inject/program_increments");
    shell(&o, "cd %s && %s -o out -- %s", workdir, launcher, program);
    expect(EXIT_NO_GPU, "the program exited with status 2 before CUDA started in it; nothing was profiled");
    if (!strstr(o.output, "no NVIDIA driver on this machine") && !strstr(o.output, "the NVIDIA driver finds no"))
        fail_msg("expected the driver's reason; got:\n%s", o.output);
    expect_no_folder();
    shell(&o, "cd %s && %s -- %s", workdir, launcher, program);
    expect(EXIT_NO_GPU, "nothing was profiled and no results folder is left");
    assert_false(exists("memscope-results"));
}

static void a_program_that_never_starts_cuda_exits_3_and_leaves_no_folder(void **state)
{
    (void)state;
    profile("-o out -- /bin/true");
    expect(EXIT_NO_GPU, "the program launched no kernel: CUDA never started in it");
    expect_no_folder();
}

/* Everything after -- is the program's, options that are also ours included. */
static void the_programs_arguments_pass_untouched(void **state)
{
    (void)state;
    profile("-o out -- sh -c '" STARTS_CUDA "test \"$1\" = --help && test \"$2\" = -o && exit 4' sh --help -o");
    expect(EXIT_PROGRAM_FAILED, "the program exited with status 4");
}

static void read_scratch_file(const char *name, char *text, size_t len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    text[fread(text, 1, len - 1, f)] = '\0';
    fclose(f);
}

static void expect_line(const char *text, const char *line)
{
    if (!strstr(text, line))
        fail_msg("expected the line \"%s\" in:\n%s", line, text);
}

/* The library beside the binary for CUDA and NVTX, the folder as an absolute path, the pid of the program itself,
 * and the selection. */
static void the_program_inherits_the_library_the_folder_and_the_selection(void **state)
{
    (void)state;
    char env[16384], pid[32], line[PATH_MAX + 64], library[PATH_MAX];
    snprintf(library, sizeof library, "%s", launcher);
    snprintf(strrchr(library, '/') + 1, sizeof library - (size_t)(strrchr(library, '/') + 1 - library), "%s",
             INJECT_LIBRARY);
    write_script("env.sh", "echo $$ >pid && env >env", 1);
    profile("-o out --kernel 'gemm|conv' --nvtx-include fwd --launch-skip 2 --launch-count 5 --wait-gpu 30 -- "
            "./env.sh");
    expect(EXIT_NO_GPU, "launched no kernel");
    read_scratch_file("env", env, sizeof env);
    read_scratch_file("pid", pid, sizeof pid);
    pid[strcspn(pid, "\n")] = '\0';
    snprintf(line, sizeof line, "\nCUDA_INJECTION64_PATH=%s\n", library);
    expect_line(env, line);
    snprintf(line, sizeof line, "\nNVTX_INJECTION64_PATH=%s\n", library);
    expect_line(env, line);
    snprintf(line, sizeof line, "\n" INJECT_ENV_DIR "=%s/out.partial\n", workdir);
    expect_line(env, line);
    snprintf(line, sizeof line, "\n" INJECT_ENV_ROOT_PID "=%s\n", pid);
    expect_line(env, line);
    expect_line(env, "\n" INJECT_ENV_KERNEL "=gemm|conv\n");
    expect_line(env, "\n" INJECT_ENV_NVTX_INCLUDE "=fwd\n");
    expect_line(env, "\n" INJECT_ENV_LAUNCH_SKIP "=2\n");
    expect_line(env, "\n" INJECT_ENV_LAUNCH_COUNT "=5\n");
    expect_line(env, "\n" INJECT_ENV_WAIT_GPU "=30\n");
}

/* Without a selection option, the first launch of each kernel in each process is selected (a training script's
 * every launch replayed would take as long per launch as the script per step); with one, or with
 * --launch-count-per-kernel 0, no bound per kernel, as Nsight Compute selects. */
static void without_a_selection_the_first_launch_of_each_kernel_is_selected(void **state)
{
    (void)state;
    static const struct {
        const char *options, *line;
        int set;
    } cases[] = {
        {"", "\n" INJECT_ENV_LAUNCH_COUNT_PER_KERNEL "=1\n", 1},
        {"--kernel gemm", INJECT_ENV_LAUNCH_COUNT_PER_KERNEL "=", 0},
        {"--launch-count-per-kernel 0", INJECT_ENV_LAUNCH_COUNT_PER_KERNEL "=", 0},
        {"--kernel gemm --launch-count-per-kernel 2", "\n" INJECT_ENV_LAUNCH_COUNT_PER_KERNEL "=2\n", 1},
    };
    char env[16384], args[256];
    write_script("env.sh", "env >env", 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(args, sizeof args, "-o out %s -- ./env.sh", cases[i].options);
        profile(args);
        read_scratch_file("env", env, sizeof env);
        if ((strstr(env, cases[i].line) != NULL) != cases[i].set)
            fail_msg("memscope-profile %s: expected %s\"%s\" in the program's environment", args,
                     cases[i].set ? "" : "no ", cases[i].line);
    }
}

/* ---- what the library left, written here by the program in its place ---- */

/* The shell lines that write a part's launches.csv into "$d" as the library would: two launches of kernel k, the
 * first profiled, lasting $1 and $2 ns; the run is the library's MEMSCOPE_PROFILE_RUN; and its environment.csv, where
 * the part has none yet. */
#define FAKE_LAUNCHES                                                                                                 \
    "launches() { r=${" INJECT_ENV_RUN ":-1}; { "                                                                  \
    "echo ordinal,kernel,mangled,nvtx_path,kernel_ordinal,grid_x,grid_y,grid_z,block_x,block_y,block_z,"           \
    "dynamic_smem_bytes,static_smem_bytes,registers_per_thread,duration_ns,selected,job,run; "                     \
    "echo \"0,k(),_Z1kv,step,0,1,1,1,128,1,1,0,0,32,$1,1,step/k() #0,$r\"; "                                       \
    "echo \"1,k(),_Z1kv,step,1,1,1,1,128,1,1,0,0,32,$2,0,step/k() #1,$r\"; } >\"$d/launches.csv\"; "             \
    "[ -e \"$d/environment.csv\" ] || { echo key,value; echo kind,program; echo command_line,its own; "             \
    "echo gpu_name,NVIDIA H100 80GB HBM3; } >\"$d/environment.csv\"; }; "

/* What memscope-profile prints after the counts where no selection option was given. */
#define DEFAULT_SELECTION_SAID "selected: the first launch of each kernel in each process"

static void a_complete_part_with_launches_is_committed(void **state)
{
    (void)state;
    write_script("done.sh",
                 FAKE_LAUNCHES "d=\"$" INJECT_ENV_DIR "\"; launches 1000 2000; "
                               "echo 'launches 7 selected 2' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out -- ./done.sh");
    expect(EXIT_OK, "7 kernel launches, 2 selected\n" DEFAULT_SELECTION_SAID);
    expect(EXIT_OK, "\nresults: out\n");
    assert_true(exists("out"));
    assert_false(exists("out.partial"));
}

/* With --repeat 3 the program runs three times: the later runs into run-<i>/, told their number and no metric
 * groups; every run's launches are samples of their jobs in summary.csv and samples.csv. */
static void repeated_runs_are_samples_of_the_first_runs_jobs(void **state)
{
    (void)state;
    char summary[4096], samples[4096], env[4096];
    write_script("repeat.sh",
                 FAKE_LAUNCHES "d=\"$" INJECT_ENV_DIR "\"; r=${" INJECT_ENV_RUN ":-1}; "
                               "launches $((1000 * r)) 500; "
                               "echo \"groups=$" INJECT_ENV_METRIC_GROUPS " run=$" INJECT_ENV_RUN "\" >\"$d/env.txt\"; "
                               "echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out --repeat 3 --launch-count-per-kernel 0 -- ./repeat.sh");
    expect(EXIT_OK, "2 kernel launches, 1 selected\nresults: out\n");
    read_scratch_file("out/run-3/env.txt", env, sizeof env);
    assert_string_equal(env, "groups=none run=3\n");
    read_scratch_file("out/samples.csv", samples, sizeof samples);
    expect_line(samples, "\nstep/k() #0,program,0,1,0.001,0,0,0\nstep/k() #0,program,0,2,0.002,0,0,0\n"
                         "step/k() #0,program,0,3,0.003,0,0,0\n"); /* a program's job: no product's shape */
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    expect_line(summary, "\nstep/k() #0,program,,0,timed,,0,,,,3,,0.001,0.0015,0.002,0.0025,0.003,0.002,");
}

/* With the stalls group the first run collects the other groups, and one more run, into stall-sampling/, samples
 * the launches it selected, told the first run's folder (whose launches.csv has their durations); the folder's
 * stalls.csv keeps the rows of the first run's jobs, and the summary each job's samples and top reason: 20 of 30
 * samples long_scoreboard. */
#define FAKE_STALLS                                                                                                   \
    "stalls() { { echo variant,precision,width,kernel,file,line,source,reason,samples; "                            \
    "echo 'step/k() #0,program,0,k(),k.cu,7,x += y;,long_scoreboard,20'; "                                          \
    "echo 'step/k() #0,program,0,k(),k.cu,8,y *= 2;,selected,10'; "                                                 \
    "echo 'step/q() #0,program,0,q(),q.cu,3,z = 0;,wait,5'; } >\"$d/stalls.csv\"; }; "

static void the_stalls_group_samples_the_first_runs_selection_in_a_run_of_its_own(void **state)
{
    (void)state;
    char summary[4096], stalls[4096], env[4096];
    write_script("stalls.sh",
                 FAKE_LAUNCHES FAKE_STALLS "d=\"$" INJECT_ENV_DIR "\"; launches 1000 500; "
                 "echo \"groups=$" INJECT_ENV_METRIC_GROUPS " run=$" INJECT_ENV_RUN " first=${" INJECT_ENV_FIRST_RUN
                 "##*/}\" >\"$d/env.txt\"; "
                 "if [ \"$" INJECT_ENV_METRIC_GROUPS "\" = stalls ]; then stalls; fi; "
                 "echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out --metric-groups global,stalls --repeat 2 -- ./stalls.sh");
    expect(EXIT_OK, "1 rows of stall samples are of launches the first run did not make");
    read_scratch_file("out/env.txt", env, sizeof env);
    assert_string_equal(env, "groups=global run= first=\n");
    read_scratch_file("out/run-2/env.txt", env, sizeof env);
    assert_string_equal(env, "groups=none run=2 first=\n");
    read_scratch_file("out/stall-sampling/env.txt", env, sizeof env);
    assert_string_equal(env, "groups=stalls run=3 first=out.partial\n");
    read_scratch_file("out/stalls.csv", stalls, sizeof stalls);
    assert_string_equal(stalls, "variant,precision,width,kernel,file,line,source,reason,samples,rows,cols,inner\n"
                                "step/k() #0,program,0,k(),k.cu,7,x += y;,long_scoreboard,20,0,0,0\n"
                                "step/k() #0,program,0,k(),k.cu,8,y *= 2;,selected,10,0,0,0\n");
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    assert_non_null(strstr(summary, ",30,long_scoreboard,66.66666667,"));
}

/* With the source group, one more run, after the stall sampling's, into source-counting/: its lines.csv and
 * instructions.csv rows of the first run's jobs go into the folder's, a row of a launch the first run did not make
 * is left out and counted. */
#define INSTRUCTIONS_HEADER                                                                                           \
    "variant,precision,width,kernel,offset,file,line,opcode,inst_executed,shared_instructions,shared_ld_wavefronts,"  \
    "shared_st_wavefronts,shared_wavefronts,shared_wavefronts_ideal,shared_excess_wavefronts,global_ld_requests,"     \
    "global_st_requests,global_ld_sectors,global_st_sectors,global_sectors,global_sectors_ideal,"                    \
    "global_excess_sectors,thread_inst_executed,predicated_off_lanes,conversions"
#define FAKE_SOURCE                                                                                                   \
    "source() { { echo variant,precision,width,kernel,file,line,source,opcodes,metric,value; "                       \
    "echo 'step/k() #0,program,0,k(),k.cu,7,x[i * 32] = y;,STG.E,global_st_sectors,1048576'; "                      \
    "echo 'step/k() #0,program,0,k(),k.cu,7,x[i * 32] = y;,STG.E,global_excess_sectors,917504'; "                   \
    "echo 'step/q() #0,program,0,q(),q.cu,3,z = 0;,STG.E,global_st_sectors,4'; } >\"$d/lines.csv\"; "             \
    "{ echo " INSTRUCTIONS_HEADER "; "                                                                             \
    "echo 'step/k() #0,program,0,k(),112,k.cu,7,STG.E,32768,0,0,0,0,0,0,0,32768,0,1048576,1048576,131072,917504,"   \
    "1048576,0,0'; } >\"$d/instructions.csv\"; "                                                                    \
    "{ echo key,value; echo kind,program; echo patching_failures,1; "                                                \
    "echo first_patching_failure,no instruction recorded; } >\"$d/environment.csv\"; }; "

static void the_source_group_counts_the_first_runs_selection_in_a_run_of_its_own(void **state)
{
    (void)state;
    char lines[4096], instructions[4096], env[4096];
    write_script("source.sh",
                 FAKE_LAUNCHES FAKE_STALLS FAKE_SOURCE "d=\"$" INJECT_ENV_DIR "\"; launches 1000 500; "
                 "echo \"groups=$" INJECT_ENV_METRIC_GROUPS " run=$" INJECT_ENV_RUN " first=${" INJECT_ENV_FIRST_RUN
                 "##*/}\" >\"$d/env.txt\"; "
                 "if [ \"$" INJECT_ENV_METRIC_GROUPS "\" = stalls ]; then stalls; fi; "
                 "if [ \"$" INJECT_ENV_METRIC_GROUPS "\" = source ]; then source; fi; "
                 "echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out --metric-groups global,source,stalls -- ./source.sh");
    expect(EXIT_OK, "1 rows of lines and instructions are of launches the first run did not make");
    expect(EXIT_OK, "the source group could not count 1 selected launches, which have no lines and whose findings "
                    "name none (each part's environment.csv in source-counting/); the first: no instruction "
                    "recorded\n");
    read_scratch_file("out/env.txt", env, sizeof env);
    assert_string_equal(env, "groups=global run= first=\n");
    read_scratch_file("out/source-counting/env.txt", env, sizeof env);
    assert_string_equal(env, "groups=source run=3 first=\n");
    read_scratch_file("out/lines.csv", lines, sizeof lines);
    assert_string_equal(lines,
                        "variant,precision,width,kernel,file,line,source,opcodes,metric,value,rows,cols,inner\n"
                        "step/k() #0,program,0,k(),k.cu,7,x[i * 32] = y;,STG.E,global_st_sectors,1048576,0,0,0\n"
                        "step/k() #0,program,0,k(),k.cu,7,x[i * 32] = y;,STG.E,global_excess_sectors,917504,0,0,0\n");
    read_scratch_file("out/instructions.csv", instructions, sizeof instructions);
    expect_line(instructions, "\nstep/k() #0,program,0,k(),112,k.cu,7,STG.E,32768,0,0,0,0,0,0,0,32768,0,1048576,"
                              "1048576,131072,917504,1048576,0,0,0,0,0\n");
}

/* w PART NS KERNEL...: the part's one launch of each kernel (ordinals from 0), selected, NS ns long, its stall samples
 * (NS of them) and its line (NS sectors) in the runs of those groups; PART a folder's name in the run's folder. */
#define FAKE_WORKER                                                                                                   \
    "w() { r=${" INJECT_ENV_RUN ":-1}; g=$" INJECT_ENV_METRIC_GROUPS "; d=\"$" INJECT_ENV_DIR "/$1\"; ns=$2; "      \
    "shift 2; mkdir -p \"$d\" && echo ordinal,kernel,mangled,nvtx_path,kernel_ordinal,grid_x,grid_y,grid_z,block_x,"  \
    "block_y,block_z,dynamic_smem_bytes,static_smem_bytes,registers_per_thread,duration_ns,selected,job,run "        \
    ">\"$d/launches.csv\"; printf 'key,value\\ngpu_name,NVIDIA H200\\n' >\"$d/environment.csv\"; "             \
    "echo variant,precision,width,kernel,file,line,source,reason,samples >\"$d/stalls.csv\"; "                       \
    "echo variant,precision,width,kernel,file,line,source,opcodes,metric,value >\"$d/lines.csv\"; "                  \
    "echo " INSTRUCTIONS_HEADER " >\"$d/instructions.csv\"; o=0; for k in \"$@\"; do "                             \
    "echo \"$o,$k(),_Z1${k}v,step,0,1,1,1,128,1,1,0,0,32,$ns,1,step/$k() #0,$r\" >>\"$d/launches.csv\"; "           \
    "echo \"step/$k() #0,program,0,$k(),w.cu,7,x += y;,long_scoreboard,$ns\" >>\"$d/stalls.csv\"; "                \
    "echo \"step/$k() #0,program,0,$k(),w.cu,7,x += y;,STG.E,global_st_sectors,$ns\" >>\"$d/lines.csv\"; "          \
    "o=$((o + 1)); done; [ \"$g\" = stalls ] || rm \"$d/stalls.csv\"; "                                            \
    "[ \"$g\" = source ] || rm \"$d/lines.csv\" \"$d/instructions.csv\"; "                                         \
    "echo \"launches $# selected $#\" >\"$d/" INJECT_COMPLETE_MARK "\"; }; "

/* Two workers (a DataLoader's, a pool's) that launched kernels: each run gives them other pids, in another order
 * (a's 11, then 22 and 32, b's 12, then 21 and 31). A later run's worker is the first run's whose jobs it shares, not
 * the one of its pid or place: the second run's launches are samples of the first run's jobs, the stall samples and
 * the lines land on them, and nothing is left unmatched. */
static void a_workers_later_runs_are_read_as_the_first_runs_worker_of_the_same_jobs(void **state)
{
    (void)state;
    char samples[4096], stalls[4096], lines[4096];
    write_script("workers.sh",
                 FAKE_WORKER "r=${" INJECT_ENV_RUN ":-1}; if [ $r = 1 ]; then w process-11 1000 a; "
                 "w process-12 2000 b; else w process-$((10 * r + 2)) $((1000 + r)) a; "
                 "w process-$((10 * r + 1)) $((2000 + r)) b; fi",
                 1);
    profile("-o out --metric-groups global,stalls,source --repeat 2 -- ./workers.sh");
    expect(EXIT_OK, "2 kernel launches, 2 selected\n");
    if (strstr(o.output, "the first run did not make") || strstr(o.output, "were not made by the first run"))
        fail_msg("a later run's worker was not paired:\n%s", o.output);
    read_scratch_file("out/samples.csv", samples, sizeof samples);
    expect_line(samples, "\n[process 11]/step/a() #0,program,0,1,0.001,0,0,0\n"
                         "[process 11]/step/a() #0,program,0,2,0.001002,0,0,0\n");
    expect_line(samples, "\n[process 12]/step/b() #0,program,0,1,0.002,0,0,0\n"
                         "[process 12]/step/b() #0,program,0,2,0.002002,0,0,0\n");
    read_scratch_file("out/stalls.csv", stalls, sizeof stalls);
    expect_line(stalls, "\n[process 11]/step/a() #0,program,0,a(),w.cu,7,x += y;,long_scoreboard,1003,0,0,0\n");
    expect_line(stalls, "\n[process 12]/step/b() #0,program,0,b(),w.cu,7,x += y;,long_scoreboard,2003,0,0,0\n");
    read_scratch_file("out/lines.csv", lines, sizeof lines);
    expect_line(lines, "\n[process 11]/step/a() #0,program,0,a(),w.cu,7,x += y;,STG.E,global_st_sectors,1004,0,0,0\n");
    expect_line(lines, "\n[process 12]/step/b() #0,program,0,b(),w.cu,7,x += y;,STG.E,global_st_sectors,2004,0,0,0\n");
}

/* Workers that share jobs: in the first run 11 launched a and b, 12 a alone; in the second 21 launched a alone, 22 a
 * and b. Paired one at a time in folder order, 21 took 11 (each holds a) and left 22 the worse partner, and one
 * launch of the second run was left out; paired by the most jobs shared first, 22 is 11 and 21 is 12. */
static void workers_that_share_jobs_pair_by_the_most_shared(void **state)
{
    (void)state;
    char samples[4096];
    write_script("sharing.sh",
                 FAKE_WORKER "r=${" INJECT_ENV_RUN ":-1}; if [ $r = 1 ]; then w process-11 1000 a b; "
                 "w process-12 2000 a; else w process-21 1002 a; w process-22 3002 a b; fi",
                 1);
    profile("-o out --repeat 2 -- ./sharing.sh");
    expect(EXIT_OK, "3 kernel launches, 3 selected\n");
    if (strstr(o.output, "were not made by the first run"))
        fail_msg("a later run's worker was paired with the wrong one:\n%s", o.output);
    read_scratch_file("out/samples.csv", samples, sizeof samples);
    expect_line(samples, "\n[process 11]/step/a() #0,program,0,1,0.001,0,0,0\n"
                         "[process 11]/step/a() #0,program,0,2,0.003002,0,0,0\n");
    expect_line(samples, "\n[process 12]/step/a() #0,program,0,1,0.002,0,0,0\n"
                         "[process 12]/step/a() #0,program,0,2,0.001002,0,0,0\n");
}

/* The program's own part is the folder itself where nothing else launched kernels, and beside a worker's program/, or
 * rank-R where it had a rank: a run with a worker (a compile cache's cold start) and one without are one program's,
 * either way round. */
static void the_programs_own_part_is_itself_with_workers_or_without(void **state)
{
    (void)state;
    static const struct {
        const char *rank_line; /* what the program's environment.csv gains: its rank, or nothing */
        int worker_run;        /* the run in which a worker launched a kernel */
        const char *job;       /* the program's job in the folder's files */
    } cases[] = {
        {"", 1, "[program]/step/k() #0"},
        {"echo rank,0 >>\"$" INJECT_ENV_DIR "/environment.csv\"; ", 1, "[rank 0]/step/k() #0"},
        {"echo rank,0 >>\"$" INJECT_ENV_DIR "/environment.csv\"; ", 2, "step/k() #0"},
    };
    char script[2048], samples[4096], line[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(script, sizeof script,
                 FAKE_WORKER "r=${" INJECT_ENV_RUN ":-1}; w . $((500 * r)) k; %sif [ $r = %d ]; then "
                 "w process-11 1000 c; fi",
                 cases[i].rank_line, cases[i].worker_run);
        write_script("alone.sh", script, 1);
        shell(&o, "rm -rf %s/out", workdir);
        profile("-o out --repeat 2 -- ./alone.sh");
        expect(EXIT_OK, "kernel launches");
        read_scratch_file("out/samples.csv", samples, sizeof samples);
        snprintf(line, sizeof line, "\n%s,program,0,1,0.0005,0,0,0\n%s,program,0,2,0.001,0,0,0\n", cases[i].job,
                 cases[i].job);
        if (!strstr(samples, line))
            fail_msg("case %zu: the program's own part of the second run was not the first run's:\n%s\n%s", i,
                     samples, o.output);
    }
}

/* The findings name the line the source group counted, in a program as in the suite: the first run's metrics are
 * those the H200 measured for the corpus's uncoalesced_stores case (reports/reference/validate/metrics.csv, made a
 * program's job here, with its shape's columns rows, cols and inner: 0, 0, 0, as the library writes them for a
 * program), the source run's lines.csv puts the excess store sectors on k.cu:21. */
static void the_findings_name_the_line_the_source_group_counted(void **state)
{
    (void)state;
    char script[PATH_MAX + 2048], cwd[PATH_MAX], findings[8192], summary[8192];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(script, sizeof script,
             FAKE_LAUNCHES "d=\"$" INJECT_ENV_DIR "\"; launches 1000 500; "
             "if [ \"$" INJECT_ENV_METRIC_GROUPS "\" = source ]; then "
             "{ echo variant,precision,width,kernel,file,line,source,opcodes,metric,value; "
             "echo 'step/k() #0,program,0,k(),k.cu,21,out[i * 32] = in[i];,STG.E,global_st_sectors,33554432'; "
             "echo 'step/k() #0,program,0,k(),k.cu,21,out[i * 32] = in[i];,STG.E,global_excess_sectors,29360128'; "
             "} >\"$d/lines.csv\"; echo " INSTRUCTIONS_HEADER " >\"$d/instructions.csv\"; "
             "else { echo variant,precision,width,kernel,metric,value,unit,rows,cols,inner; "
             "sed -n 's/^uncoalesced_stores,fp32,0,\"uncoalesced_stores_kernel(float const\\*, float\\*, int)\",/"
             "step\\/k() #0,program,0,k(),/p' %s/reports/reference/validate/metrics.csv; } >\"$d/metrics.csv\"; fi; "
             "echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"",
             cwd);
    write_script("lines.sh", script, 1);
    profile("-o out --metric-groups global,sol,source -- ./lines.sh");
    expect(EXIT_OK, "results: out\n");
    read_scratch_file("out/findings.csv", findings, sizeof findings);
    expect_line(findings, "\nstep/k() #0,program,0,k(),1,uncoalesced_global_stores,global,");
    if (!strstr(findings, ",k.cu:21,0,0,0\n"))
        fail_msg("the finding does not name k.cu:21:\n%s", findings);
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    assert_non_null(strstr(summary, ",uncoalesced_global_stores,"));
}

/* A metric CUPTI gave no finite value for (the library writes it empty, as the suite does) is a gap in one job's
 * figures, not a reason to lose the profile: the folder is committed and the job keeps its other metrics. */
static void a_metric_without_a_value_leaves_the_profile_whole(void **state)
{
    (void)state;
    char summary[4096], metrics[4096];
    write_script("gap.sh",
                 FAKE_LAUNCHES "d=\"$" INJECT_ENV_DIR "\"; launches 1000 500; "
                               "{ echo variant,precision,width,kernel,metric,value,unit; "
                               "echo 'step/k() #0,program,0,k(),dram__bytes_read.sum,4096,byte'; "
                               "echo 'step/k() #0,program,0,k(),lts__t_sector_hit_rate.pct,,%'; } >\"$d/metrics.csv\"; "
                               "echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out --launch-count-per-kernel 0 -- ./gap.sh");
    expect(EXIT_OK, "2 kernel launches, 1 selected\nresults: out\n");
    read_scratch_file("out/metrics.csv", metrics, sizeof metrics);
    expect_line(metrics, "\nstep/k() #0,program,0,k(),lts__t_sector_hit_rate.pct,,%\n");
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    expect_line(summary, "\nstep/k() #0,program,,0,profiled,");
}

static void a_complete_part_without_launches_exits_3_and_stays_partial(void **state)
{
    (void)state;
    write_script("none.sh", "echo 'launches 0 selected 0' >\"$" INJECT_ENV_DIR "/" INJECT_COMPLETE_MARK "\"", 1);
    profile("-o out -- ./none.sh");
    expect(EXIT_NO_GPU, "no process of the program launched a kernel: what CUDA recorded");
    expect_left_partial();
}

static void the_librarys_error_is_said_with_its_code(void **state)
{
    (void)state;
    write_script("error.sh", "echo '6 cannot record: CUPTI said no' >\"$" INJECT_ENV_DIR "/" INJECT_ERROR_FILE "\"",
                 1);
    profile("-o out -- ./error.sh");
    expect(EXIT_PROFILER, "cannot record: CUPTI said no");
    expect_left_partial();
}

static void a_part_started_but_never_written_stays_partial(void **state)
{
    (void)state;
    write_script("started.sh", ": >\"$" INJECT_ENV_DIR "/" INJECT_STARTED_MARK "\"", 1);
    profile("-o out -- ./started.sh");
    expect(EXIT_RUNTIME, "recording started but nothing was written at the process's exit");
    expect_left_partial();
}

/* A process the program started writes its own part; an unfinished one keeps the whole folder incomplete. */
static void an_unfinished_childs_part_keeps_the_folder_partial(void **state)
{
    (void)state;
    write_script("parent.sh",
                 FAKE_LAUNCHES "d=\"$" INJECT_ENV_DIR "\"; launches 10 20; "
                               "echo 'launches 1 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"; "
                 "mkdir \"$d/process-99\" && : >\"$d/process-99/" INJECT_STARTED_MARK "\"",
                 1);
    profile("-o out -- ./parent.sh");
    expect(EXIT_RUNTIME, "out.partial/process-99: recording started but nothing was written");
    expect_left_partial();
}

/* torchrun's shape: the program (a launcher) starts CUDA nowhere, its two ranks each leave a complete part, named by
 * rank; the profile is one: exit 0, every launch counted, the folder's summary.csv, samples.csv and metrics.csv hold
 * both ranks' jobs keyed "[rank R]/...", and environment.csv names both parts. */
#define FAKE_RANK                                                                                                     \
    FAKE_LAUNCHES "rank() { d=\"$" INJECT_ENV_DIR "/rank-$1\"; mkdir \"$d\" && launches $2 $3 && "                   \
                  "{ echo key,value; echo kind,program; echo rank,$1; echo gpu_uuids,GPU-$1; "                        \
                  "echo gpu_name,NVIDIA H100 80GB HBM3; "                                                              \
                  "echo kernel_launches,2; echo selected_launches,1; echo repeat,1; } >\"$d/environment.csv\" && "  \
                  "{ echo variant,precision,width,kernel,metric,value,unit; "                                         \
                  "echo \"step/k() #0,program,0,k(),dram__bytes_read.sum,$1,byte\"; } >\"$d/metrics.csv\" && "        \
                  "echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"; }; "

static void a_program_whose_ranks_alone_used_cuda_is_one_profile_of_both(void **state)
{
    (void)state;
    char summary[4096], samples[4096], metrics[4096], env[4096];
    write_script("torchrun.sh", FAKE_RANK "rank 0 1000 500 & rank 1 3000 500 & wait", 1);
    profile("-o out -- ./torchrun.sh");
    expect(EXIT_OK, "4 kernel launches, 2 selected\n" DEFAULT_SELECTION_SAID);
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    expect_line(summary, "\n[rank 0]/step/k() #0,program,,0,profiled,");
    expect_line(summary, "\n[rank 1]/step/k() #0,program,,0,profiled,");
    expect_line(summary, "\n[rank 1]/step/k() #1,program,,0,timed,");
    read_scratch_file("out/samples.csv", samples, sizeof samples);
    expect_line(samples, "\n[rank 1]/step/k() #0,program,0,1,0.003,0,0,0\n");
    read_scratch_file("out/metrics.csv", metrics, sizeof metrics);
    expect_line(metrics, "\n[rank 1]/step/k() #0,program,0,k(),dram__bytes_read.sum,1,byte,0,0,0\n");
    read_scratch_file("out/environment.csv", env, sizeof env);
    expect_line(env, "\nkernel_launches,4\n");
    expect_line(env, "\nparts,2\npart_rank-0,rank 0\n");
    expect_line(env, "\npart_rank-1_gpu_uuids,GPU-1\n");
    expect_line(env, "\ngpu_name,NVIDIA H100 80GB HBM3\n"); /* one GPU name for the report, where each part has its own */
    expect_line(env, "\ncommand_line,./torchrun.sh\n");      /* the command the user ran, not a rank's */
}

/* gpu/peers.h's shape: the ranks shared the run's file while they ran; rank 1's selected launch was timed only
 * because a collective was running (its mark's timed_only), rank 0's is NCCL's, kept back as a collective: the
 * launcher says how many on stderr, removes the file (not part of the results), and calls rank 0's job "not
 * replayed" (a collective), rank 1's "kept back" (not a collective: the readers time it as any kernel). */
#define KEPT_BACK(reason)                                                                                            \
    "{ echo ordinal,kernel,mangled,nvtx_path,kernel_ordinal,grid_x,grid_y,grid_z,block_x,block_y,block_z,"          \
    "dynamic_smem_bytes,static_smem_bytes,registers_per_thread,duration_ns,selected,job,run,not_replayed; "          \
    "echo \"0,k(),_Z1kv,step,0,1,1,1,128,1,1,0,0,32,1000,1,step/k() #0,1," reason "\"; "                            \
    "echo \"1,k(),_Z1kv,step,1,1,1,1,128,1,1,0,0,32,500,0,step/k() #1,1,\"; } >\"$d/launches.csv\"; "              \
    "echo variant,precision,width,kernel,metric,value,unit >\"$d/metrics.csv\"; "

static void launches_kept_from_replay_beside_a_collective_are_counted_and_the_shared_file_removed(void **state)
{
    (void)state;
    char summary[4096], env[4096];
    write_script("peers.sh",
                 FAKE_RANK "top=\"$" INJECT_ENV_DIR "\"; : >\"$top/" INJECT_PEERS_FILE "\"; "
                 "rank 0 1000 500 && " KEPT_BACK(NOT_REPLAYED_NCCL) "rank 1 1000 500 && "
                 KEPT_BACK(NOT_REPLAYED_COLLECTIVE_RUNNING) "for r in 0 1; do "
                 "echo 'launches 2 selected 1 timed_only '$r >\"$top/rank-$r/" INJECT_COMPLETE_MARK "\"; "
                 "printf 'not_replayed_collective_running,%s\\nnot_replayed_capturing,%s\\nreplay_wait_ms,%s\\n' "
                 "$r $r 1$r >>\"$top/rank-$r/environment.csv\"; done",
                 1);
    profile("-o out -- ./peers.sh");
    expect(EXIT_OK, "memscope-profile: 1 selected launches were timed only, not replayed: a collective of the program "
                    "was running on this host");
    assert_true(exists("out"));
    assert_false(exists("out/" INJECT_PEERS_FILE));
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    expect_line(summary, "\n[rank 0]/step/k() #0,program,,0,not replayed,");
    expect_line(summary, "\n[rank 1]/step/k() #0,program,,0,kept back,");
    read_scratch_file("out/environment.csv", env, sizeof env);
    expect_line(env, "\nnot_replayed_collective_running,1\n"); /* the parts' summed */
    expect_line(env, "\npart_rank-1_not_replayed_collective_running,1\n");
    expect_line(env, "\nnot_replayed_capturing,1\n"); /* summed, and per part */
    expect_line(env, "\npart_rank-1_not_replayed_capturing,1\n");
    expect_line(env, "\nreplay_wait_ms,21\n"); /* 10 + 11 */
    expect_line(env, "\npart_rank-1_replay_wait_ms,11\n");
}

/* A launch kept back during a graph's capture (the mark's capturing): its job "kept back in a capture", and
 * memscope-profile says how many and why; its part's count summed. */
static void launches_kept_from_replay_during_a_capture_are_counted_and_said(void **state)
{
    (void)state;
    char summary[4096], env[4096];
    write_script("capture.sh",
                 "d=\"$" INJECT_ENV_DIR "\"; " KEPT_BACK(NOT_REPLAYED_CAPTURING)
                 "{ echo key,value; echo kind,program; echo gpu_name,NVIDIA H100 80GB HBM3; "
                 "echo not_replayed_capturing,1; } >\"$d/environment.csv\"; "
                 "echo 'launches 2 selected 1 timed_only 0 graph 0 capturing 1' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out -- ./capture.sh");
    expect(EXIT_OK, "memscope-profile: 1 selected launches were timed only, not replayed: the program was capturing "
                    "a CUDA graph, which a replay's calls would have ended with an error");
    if (strstr(o.output, "a collective of the program was running"))
        fail_msg("a launch kept back during a capture is said to be kept back beside a collective:\n%s", o.output);
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    expect_line(summary, "\nstep/k() #0,program,,0,kept back in a capture,");
    read_scratch_file("out/environment.csv", env, sizeof env);
    expect_line(env, "\nnot_replayed_capturing,1\n");
}

/* A CUDA graph's kernels (launches.csv's graph, not 0): never selected, their jobs "in a graph", and memscope-profile
 * says how many launches ran in graphs and what to do for a kernel launched only there. */
static void kernels_a_cuda_graph_ran_are_timed_in_a_graph(void **state)
{
    (void)state;
    char summary[4096], kernels[4096];
    write_script("graph.sh",
                 "d=\"$" INJECT_ENV_DIR "\"; { echo ordinal,kernel,mangled,nvtx_path,kernel_ordinal,grid_x,grid_y,"
                 "grid_z,block_x,block_y,block_z,dynamic_smem_bytes,static_smem_bytes,registers_per_thread,"
                 "duration_ns,selected,job,run,not_replayed,start_ns,graph; "
                 "echo '0,k(),_Z1kv,,0,1,1,1,128,1,1,0,0,32,1000,1,k() #0,1,,10,0'; "
                 "echo '1,g(),_Z1gv,,0,1,1,1,128,1,1,0,0,32,500,0,g() #0,1,,20,7'; "
                 "echo '2,g(),_Z1gv,,1,1,1,1,128,1,1,0,0,32,500,0,g() #1,1,,30,7'; } >\"$d/launches.csv\"; "
                 "{ echo key,value; echo kind,program; echo gpu_name,NVIDIA H100 80GB HBM3; echo graph_launches,2; } "
                 ">\"$d/environment.csv\"; "
                 "echo 'launches 3 selected 1 timed_only 0 graph 2' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out -- ./graph.sh");
    expect(EXIT_OK, "memscope-profile: 2 of the kernel launches ran inside CUDA graphs and were timed only");
    expect(EXIT_OK, "a kernel launched only inside graphs has no metrics: run the work once outside a graph");
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    expect_line(summary, "\nk() #0,program,,0,timed,");
    expect_line(summary, "\ng() #0,program,,0,in a graph,");
    expect_line(summary, "\ng() #1,program,,0,in a graph,");
    read_scratch_file("out/kernels.csv", kernels, sizeof kernels);
    expect_line(kernels, ",1,,in a graph,0,0\n");
}

/* torch.compile's shape: the program launches kernels, and a worker process it started loaded CUDA and launched
 * none (Inductor's compile worker, a DataLoader worker): the worker adds no part (its folder removed), so the profile
 * is the program's own, keyed without a part, named by the command the user ran; kernels.csv reads it by kernel. */
static void a_worker_that_launched_no_kernel_adds_no_part(void **state)
{
    (void)state;
    char summary[4096], env[4096], kernels[4096];
    write_script("compiled.sh",
                 FAKE_LAUNCHES "w=\"$" INJECT_ENV_DIR "/process-99\"; mkdir \"$w\" && { echo key,value; "
                 "echo kind,program; echo command_line,compile_worker; } >\"$w/environment.csv\" && "
                 "echo 'launches 0 selected 0' >\"$w/" INJECT_COMPLETE_MARK "\"; "
                 "d=\"$" INJECT_ENV_DIR "\"; launches 1000 3000; echo 'launches 2 selected 1' >\"$d/"
                 INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out -- ./compiled.sh --epochs 1");
    expect(EXIT_OK, "2 kernel launches, 1 selected\n");
    assert_false(exists("out/process-99"));
    assert_false(exists("out/program"));
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    expect_line(summary, "\nstep/k() #0,program,,0,timed,"); /* no metrics.csv: timed */
    read_scratch_file("out/environment.csv", env, sizeof env);
    expect_line(env, "\ncommand_line,./compiled.sh --epochs 1\n");
    read_scratch_file("out/kernels.csv", kernels, sizeof kernels);
    expect_line(kernels, "kernel,nvtx_range,launches,share_pct,total_ms,mean_ms,median_ms,min_ms,max_ms,stdev_ms,"
                         "processes,profiled_job,status,autotuning_launches,autotuning_ms\n"
                         "k(),,2,100,0.004,0.002,0.002,0.001,0.003,");
    expect_line(kernels, ",1,,timed,0,0\n"); /* no autotuner timed it */
}

/* A worker's folder that holds a file memscope did not write (a user's notes) is not memscope's to remove: the part
 * stays whole, a part of the profile beside the program's, and the file survives. */
static void a_folder_holding_a_users_file_is_never_dropped(void **state)
{
    (void)state;
    char notes[64];
    write_script("noted.sh",
                 FAKE_LAUNCHES "w=\"$" INJECT_ENV_DIR "/process-99\"; mkdir \"$w\" && d=\"$w\" && launches 0 0 && "
                 "sed -i 3d \"$w/launches.csv\" && sed -i 2d \"$w/launches.csv\" && echo mine >\"$w/notes.txt\" && "
                 "echo 'launches 0 selected 0' >\"$w/" INJECT_COMPLETE_MARK "\"; "
                 "d=\"$" INJECT_ENV_DIR "\"; launches 1000 3000; echo 'launches 2 selected 1' >\"$d/"
                 INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out -- ./noted.sh");
    expect(EXIT_OK, "2 kernel launches, 1 selected\n");
    read_scratch_file("out/process-99/notes.txt", notes, sizeof notes);
    assert_string_equal(notes, "mine\n");
    assert_true(exists("out/process-99/launches.csv"));
    assert_true(exists("out/program/launches.csv")); /* two parts: the program's and the worker's, kept */
}

/* The program's own part launched kernels and a worker too: the program's part first, whatever the worker's pid,
 * so the folder's environment is the program's. */
static void the_programs_part_comes_before_its_workers(void **state)
{
    (void)state;
    char env[8192];
    write_script("pool.sh",
                 FAKE_LAUNCHES "d=\"$" INJECT_ENV_DIR "/process-12\"; mkdir \"$d\" && { echo key,value; "
                 "echo kind,program; echo command_line,worker; echo gpu_name,NVIDIA H100 80GB HBM3; "
                 "echo host,worker-part; } >\"$d/environment.csv\" && launches 500 500 && "
                 "echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"; "
                 "d=\"$" INJECT_ENV_DIR "\"; { echo key,value; echo kind,program; echo command_line,its own; "
                 "echo gpu_name,NVIDIA H100 80GB HBM3; echo host,program-part; } >\"$d/environment.csv\"; "
                 "launches 1000 3000; echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out -- ./pool.sh");
    expect(EXIT_OK, "4 kernel launches, 2 selected\n");
    read_scratch_file("out/environment.csv", env, sizeof env);
    expect_line(env, "\nhost,program-part\n");
    expect_line(env, "\nparts,2\npart_program,program\n");
}

/* The program's own part beside a rank's: moved into its own folder (program/), the folder's files the merge. */
static void the_programs_own_part_beside_a_ranks_is_moved_into_its_own_folder(void **state)
{
    (void)state;
    char summary[4096];
    write_script("mixed.sh",
                 FAKE_RANK "rank 3 1000 500; d=\"$" INJECT_ENV_DIR "\"; launches 7000 500; "
                 "echo 'launches 2 selected 1' >\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out -- ./mixed.sh");
    expect(EXIT_OK, "4 kernel launches, 2 selected\n");
    assert_true(exists("out/program/launches.csv"));
    assert_true(exists("out/rank-3/launches.csv"));
    read_scratch_file("out/summary.csv", summary, sizeof summary);
    expect_line(summary, "\n[rank 3]/step/k() #0,program,,0,");
    expect_line(summary, "\n[program]/step/k() #0,program,,0,timed,,0,,,,1,,0.007,");
}

/* torchrun's shape with the stalls group: its own process launched nothing, its rank did. The stall sampling's run
 * reads the first run's launches of each process (the library's INJECT_ENV_FIRST_RUN): the idle process's files are
 * dropped only once every run is over, so its run finds them (the script fails, exit 8, where it would not). */
static void idle_parts_are_dropped_after_the_stall_sampling_has_read_them(void **state)
{
    (void)state;
    write_script("ranks.sh",
                 FAKE_RANK FAKE_STALLS "first=\"$" INJECT_ENV_FIRST_RUN "\"; "
                 "if [ -n \"$first\" ] && ! [ -e \"$first/launches.csv\" ]; then exit 1; fi; "
                 "d=\"$" INJECT_ENV_DIR "\"; : >\"$d/" INJECT_STARTED_MARK "\"; { echo ordinal,kernel,mangled,nvtx_path,"
                 "kernel_ordinal,grid_x,grid_y,grid_z,block_x,block_y,block_z,dynamic_smem_bytes,static_smem_bytes,"
                 "registers_per_thread,duration_ns,selected,job,run; } >\"$d/launches.csv\"; "
                 "echo 'launches 0 selected 0' >\"$d/" INJECT_COMPLETE_MARK "\"; rank 0 1000 500; "
                 "if [ \"$" INJECT_ENV_METRIC_GROUPS "\" = stalls ]; then d=\"$" INJECT_ENV_DIR "/rank-0\"; stalls; fi",
                 1);
    profile("-o out --metric-groups global,stalls -- ./ranks.sh");
    expect(EXIT_OK, "2 kernel launches, 1 selected\n");
    assert_false(exists("out/launches.csv")); /* torchrun's own, idle: dropped */
    assert_false(exists("out/program"));
    assert_true(exists("out/rank-0/launches.csv"));
}

/* No process launched a kernel: exit 3 stays. */
static void ranks_that_launched_no_kernel_exit_3(void **state)
{
    (void)state;
    write_script("idle.sh",
                 "d=\"$" INJECT_ENV_DIR "/rank-0\"; mkdir \"$d\" && echo 'launches 0 selected 0' "
                 ">\"$d/" INJECT_COMPLETE_MARK "\"",
                 1);
    profile("-o out -- ./idle.sh");
    expect(EXIT_NO_GPU, "no process of the program launched a kernel");
    expect_left_partial();
}

/* ---- the command line ---- */

static void bad_usage_exits_2_before_anything_starts(void **state)
{
    (void)state;
    static const struct {
        const char *args, *text;
    } cases[] = {
        {"-o out /bin/true", "give the program to profile after --"},
        {"-o out --", "give the program to profile after --"},
        {"-o out --bogus -- /bin/true", "unknown option '--bogus'"},
        {"-o out --kernel '(' -- /bin/true", "--kernel: '(' is no extended regular expression"},
        {"-o out --launch-count 0 -- /bin/true", "--launch-count: '0' is too small (at least 1)"},
        {"-o out --launch-skip -1 -- /bin/true", "--launch-skip: '-1' is too small (at least 0)"},
        {"-o out --wait-gpu -1 -- /bin/true", "--wait-gpu: '-1' is too small (at least 0)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        profile(cases[i].args);
        expect(EXIT_USAGE, cases[i].text);
        expect_no_folder();
    }
}

static void an_existing_folder_is_refused_with_4(void **state)
{
    (void)state;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/out", workdir);
    assert_int_equal(mkdir(path, 0755), 0);
    profile("-o out -- /bin/true");
    expect(EXIT_OUTPUT, "already exists");
}

/* The library is found beside the binary, nowhere else: a copy of the binary alone cannot profile. */
static void a_binary_without_its_library_beside_it_exits_3_before_starting_anything(void **state)
{
    (void)state;
    write_script("never.sh", ": >ran", 1);
    shell(&o, "cd %s && cp %s ./memscope-profile && ./memscope-profile -o out -- ./never.sh", workdir, launcher);
    expect(EXIT_NO_GPU, "/libmemscope-inject.so is missing");
    assert_false(exists("ran"));
    expect_no_folder();
}

static void help_documents_the_exit_codes(void **state)
{
    (void)state;
    profile("--help");
    expect(EXIT_OK, "usage: memscope-profile [options] -- PROGRAM [ARGS...]");
    expect(EXIT_OK, "7 another memscope run kept the GPU past");
    expect(EXIT_OK, "8 the program failed");
    expect(EXIT_OK, "9 the program could not be started");
}

static int setup(void **state)
{
    (void)state;
    const char *path = getenv("MEMSCOPE_PROFILE");
    if (!realpath(path && *path ? path : "build/memscope-profile", launcher))
        return -1;
    snprintf(workdir, sizeof workdir, "/tmp/memscope-launcher-XXXXXX");
    return mkdtemp(workdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_program_not_found_exits_9_and_leaves_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(a_program_not_executable_exits_9, setup, teardown),
        cmocka_unit_test_setup_teardown(a_program_that_exits_3_exits_8_and_says_its_status, setup, teardown),
        cmocka_unit_test_setup_teardown(a_program_killed_by_a_signal_exits_8_and_names_it, setup, teardown),
        cmocka_unit_test_setup_teardown(a_directory_given_as_the_program_is_called_one, setup, teardown),
        cmocka_unit_test_setup_teardown(a_script_whose_interpreter_is_missing_is_called_one, setup, teardown),
        cmocka_unit_test_setup_teardown(a_run_without_out_that_leaves_nothing_removes_the_root_it_created, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_failed_program_that_never_started_cuda_leaves_no_folder, setup, teardown),
        cmocka_unit_test_setup_teardown(a_cuda_program_without_a_gpu_exits_3_says_so_and_leaves_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_program_that_never_starts_cuda_exits_3_and_leaves_no_folder, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_programs_arguments_pass_untouched, setup, teardown),
        cmocka_unit_test_setup_teardown(the_program_inherits_the_library_the_folder_and_the_selection, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(without_a_selection_the_first_launch_of_each_kernel_is_selected, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_complete_part_with_launches_is_committed, setup, teardown),
        cmocka_unit_test_setup_teardown(repeated_runs_are_samples_of_the_first_runs_jobs, setup, teardown),
        cmocka_unit_test_setup_teardown(a_workers_later_runs_are_read_as_the_first_runs_worker_of_the_same_jobs, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(workers_that_share_jobs_pair_by_the_most_shared, setup, teardown),
        cmocka_unit_test_setup_teardown(the_programs_own_part_is_itself_with_workers_or_without, setup, teardown),
        cmocka_unit_test_setup_teardown(the_stalls_group_samples_the_first_runs_selection_in_a_run_of_its_own, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_source_group_counts_the_first_runs_selection_in_a_run_of_its_own, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_findings_name_the_line_the_source_group_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(a_metric_without_a_value_leaves_the_profile_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(a_complete_part_without_launches_exits_3_and_stays_partial, setup, teardown),
        cmocka_unit_test_setup_teardown(the_librarys_error_is_said_with_its_code, setup, teardown),
        cmocka_unit_test_setup_teardown(a_part_started_but_never_written_stays_partial, setup, teardown),
        cmocka_unit_test_setup_teardown(an_unfinished_childs_part_keeps_the_folder_partial, setup, teardown),
        cmocka_unit_test_setup_teardown(
            launches_kept_from_replay_beside_a_collective_are_counted_and_the_shared_file_removed, setup, teardown),
        cmocka_unit_test_setup_teardown(a_program_whose_ranks_alone_used_cuda_is_one_profile_of_both, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_programs_own_part_beside_a_ranks_is_moved_into_its_own_folder, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(launches_kept_from_replay_during_a_capture_are_counted_and_said, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(kernels_a_cuda_graph_ran_are_timed_in_a_graph, setup, teardown),
        cmocka_unit_test_setup_teardown(a_worker_that_launched_no_kernel_adds_no_part, setup, teardown),
        cmocka_unit_test_setup_teardown(idle_parts_are_dropped_after_the_stall_sampling_has_read_them, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_programs_part_comes_before_its_workers, setup, teardown),
        cmocka_unit_test_setup_teardown(a_folder_holding_a_users_file_is_never_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(ranks_that_launched_no_kernel_exit_3, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_usage_exits_2_before_anything_starts, setup, teardown),
        cmocka_unit_test_setup_teardown(an_existing_folder_is_refused_with_4, setup, teardown),
        cmocka_unit_test_setup_teardown(a_binary_without_its_library_beside_it_exits_3_before_starting_anything, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(help_documents_the_exit_codes, setup, teardown),
    };
    return cmocka_run_group_tests_name("launcher", tests, NULL, NULL);
}
