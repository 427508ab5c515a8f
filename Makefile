# memscope. make: the programs; make test [SANITIZE=1]; make fuzz; make run; make report [RESULTS=dir]; make compare;
# make history; make figures. KERNEL_DEFS: -D overrides of kernel parameters (scripts/tune-ladder), for the registry and the kernels.
# Each folder of harness/ is a room, built into its own archive; a new file in a room needs no edit here.
.DEFAULT_GOAL := all
# The README's two commands build on every core unless make was given -j (a fresh clone's first make report compiled
# some fifty CUDA files one at a time). JOBS is read when a recipe runs: only then does MAKEFLAGS hold a -j given.
# The setup has run before the sub-make, which is told so.
JOBS = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(shell nproc))
SUB_MAKE = $(MAKE) --no-print-directory $(JOBS) SETUP_DONE=1
CUDA ?= /usr/local/cuda
CUDA_ARCH ?= 90
NVCC ?= $(CUDA)/bin/nvcc
# SANITIZE=1: host code under AddressSanitizer and UndefinedBehaviorSanitizer, in build-sanitize/ (kernels are not).
# FUZZ=1 (set by make fuzz): the readers compiled by clang for libFuzzer, in build-fuzz/.
BUILD ?= $(if $(FUZZ),build-fuzz,$(if $(SANITIZE),build-sanitize,build))
FUZZ_SECONDS ?= 180
HISTORY ?= memscope-results/history.db
REFERENCE_HISTORY := reports/history-h100.sql
GIT_COMMIT ?= $(shell git rev-parse --verify -q HEAD 2>/dev/null || echo unknown)
GIT_DIRTY ?= $(shell git rev-parse --git-dir >/dev/null 2>&1 && { test -n "$$(git status --porcelain)" && echo 1 || echo 0; } || echo unknown)

CC := $(if $(FUZZ),clang,gcc)
CXX := $(if $(FUZZ),clang++,g++)
SANITIZERS := $(if $(FUZZ)$(SANITIZE),-fsanitize=address -fsanitize=undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer) $(if $(FUZZ),-fsanitize=fuzzer-no-link)
comma := ,
GENCODE := -gencode arch=compute_$(CUDA_ARCH),code=sm_$(CUDA_ARCH)
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -D_DEFAULT_SOURCE -I$(CUDA)/include -I$(BUILD) -MMD -MP $(if $(CMOCKA),-I$(CMOCKA)/usr/include) \
	$(KERNEL_DEFS) $(SANITIZERS)
# The disassembler that names the source group's instructions ($$NVDISASM overrides it at run time).
$(BUILD)/harness/source/disassembly.o: CFLAGS += -DMEMSCOPE_NVDISASM='"$(CUDA)/bin/nvdisasm"'
CXXFLAGS := -std=c++20 -O2 -g -Wall -Wextra -fno-exceptions -I$(CUDA)/include -MMD -MP $(SANITIZERS)
NVCCFLAGS := -O3 -g -lineinfo -std=c++17 $(GENCODE) -Xcompiler -Wall,-Wextra -I$(CUDA)/include -MMD -MP $(KERNEL_DEFS)
# wgmma and setmaxnreg (the tensor ceilings, the tensor ladder's rungs from tma_wgmma on, the corpus's
# scheduled_wgmma_gemm) need the sm_90a target: the files named in SM90A are built for it alone where the build is
# for 9.0, and told so (MEMSCOPE_SM90A); elsewhere they build empty kernels for CUDA_ARCH and their launchers return
# why not.
TENSOR_SM90A := tma_wgmma warp_specialized persistent tma_store cluster_multicast even_waves chosen_tiles taller_tiles wider_tiles \
	overlapped_stores fitted_tiles square_tiles short_tiles
SM90A := kernels/ceilings/ceiling_tensor kernels/pathology/pathology_tensor \
	$(TENSOR_SM90A:%=kernels/tensor_ladder/matmul_%)
$(SM90A:%=$(BUILD)/%.o): NVCCFLAGS := $(subst $(GENCODE),$(if $(filter 90,$(CUDA_ARCH)),\
	-gencode=arch=compute_90a$(comma)code=sm_90a -DMEMSCOPE_SM90A,$(GENCODE)),$(NVCCFLAGS))
CUDA_LINK := $(NVCC) $(GENCODE) -L$(CUDA)/lib64 -Xlinker -rpath=$(CUDA)/lib64 $(addprefix -Xcompiler ,$(SANITIZERS))
HOST_LINK := $(CXX) -L$(CUDA)/lib64 -Wl,-rpath=$(CUDA)/lib64 $(SANITIZERS)
# CMOCKA=<folder>: a machine where nothing is installed, with cmocka and libsqlite3 unpacked under <folder>/usr
# (dpkg -x): every link that takes one of them finds it there, at link time and at run time.
UNPACKED_LIBS := $(if $(CMOCKA),-L$(abspath $(CMOCKA))/usr/lib/x86_64-linux-gnu -Xlinker -rpath=$(abspath $(CMOCKA))/usr/lib/x86_64-linux-gnu)

# A room's objects: every source file in the folder but the program's main.c.
objects = $(patsubst %,$(BUILD)/%.o,$(basename $(filter-out %/main.c,$(wildcard $(1)/*.c $(1)/*.cpp $(1)/*.cu))))
ROOMS := cupti $(patsubst %/,%,$(sort $(dir $(wildcard harness/*/*.c))))
$(foreach r,$(ROOMS),$(eval $(BUILD)/lib/$(notdir $(r)).a: $(call objects,$(r))))
# The kernels are one archive over their folders: the registry, lessons/, ladder/, truth/, pathology/, ceilings/.
$(BUILD)/lib/kernels.a: $(call objects,kernels) $(foreach d,$(wildcard kernels/*/),$(call objects,$(d:/=)))
lib = $(patsubst %,$(BUILD)/lib/%.a,$(1))
# The readers link no CUDA runtime, cuBLAS or kernel code: they run where there is no GPU (tests/layout checks it).
# All but memscope-decode (CUPTI's host library) build without the CUDA toolkit too: of profile/ and ceilings/,
# rooms that also hold GPU code, they link only the host-only object they need.
READER_LIBS := $(call lib,results csv common)
METRIC_CATALOG := $(BUILD)/harness/profile/metric_catalog.o
ALL_LIBS := $(call lib,run check validate ceilings gpu diagnose stalls results source profile cupti kernels csv common)
PROGRAMS := memscope memscope-decode memscope-report-data memscope-compare memscope-history memscope-profile
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/*/test_*.c))
# Programs the tests start (tests/<room>/program_*.c): plain C, no cmocka, no CUDA.
TEST_PROGRAMS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/*/program_*.c))
# CUDA programs the GPU tests start (tests/<room>/program_*.cu): programs they profile, each checking what it
# computed, and one that holds GPU memory.
CUDA_TEST_PROGRAMS := $(patsubst tests/%.cu,$(BUILD)/tests/%,$(wildcard tests/*/program_*.cu))
# Under the sanitizers every program and test also links tests/support/sanitize_dlopen.c (CUPTI's RTLD_DEEPBIND).
SANITIZE_DLOPEN := $(if $(SANITIZE),$(BUILD)/tests/support/sanitize_dlopen.o)
TEST_HELPERS := $(patsubst %.cu,$(BUILD)/%.o,$(wildcard tests/support/*.cu)) $(SANITIZE_DLOPEN)
# Named only by the test binaries' pattern rule, they would be intermediate: deleted after each build (an
# "rm ..." below make test's total line) and compiled again at every relink (tests/common/test_make).
.SECONDARY: $(TEST_HELPERS)
FUZZERS := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: all test test-build fuzz fuzzers run report compare history history-add figures clean FORCE test-setup report-setup history-setup
all: $(PROGRAMS:%=$(BUILD)/%) $(BUILD)/libmemscope-inject.so

$(BUILD)/version.h: FORCE
	@mkdir -p $(@D) && printf '#define MEMSCOPE_GIT_COMMIT "%s"\n#define MEMSCOPE_GIT_DIRTY "%s"\n#define MEMSCOPE_NVCC_VERSION "%s"\n#define MEMSCOPE_CUDA_ARCH "sm_%s"\n' \
		'$(GIT_COMMIT)' '$(GIT_DIRTY)' "$$($(NVCC) --version 2>/dev/null | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')" '$(CUDA_ARCH)' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BUILD)/%.o: %.c | $(BUILD)/version.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -c $< -o $@
$(BUILD)/%.o: %.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@
$(BUILD)/lib/%.a:
	@mkdir -p $(@D) && rm -f $@ && ar rcs $@ $^

$(BUILD)/memscope: $(BUILD)/harness/run/main.o $(SANITIZE_DLOPEN) $(ALL_LIBS)
	$(CUDA_LINK) -o $@ $(filter %.o,$^) -Xlinker --start-group $(ALL_LIBS) -Xlinker --end-group -lcublas -lcupti -ldl
$(BUILD)/memscope-%: $(SANITIZE_DLOPEN) $(READER_LIBS)
	$(HOST_LINK) -o $@ $(filter %.o,$^) -Wl,--start-group $(filter %.a,$^) -Wl,--end-group $(READER_LDLIBS) -lm $(LINK_DATABASES)
$(BUILD)/memscope-decode: READER_LDLIBS := -lcupti
$(BUILD)/memscope-decode: $(BUILD)/harness/decode/main.o $(call lib,source diagnose profile cupti)
# The report takes the datasheet figures from ceilings/rates.c, host-only: measure.c, the GPU side, is never built;
# and the diagnosis rules from diagnose/ (host-only), to apply them to the run's figures, with the metrics derived
# again from the counters it stored (profile/metric_set.c, host-only).
$(BUILD)/memscope-report-data: $(BUILD)/harness/report/main.o $(call lib,report program diagnose) \
	$(BUILD)/harness/ceilings/rates.o $(BUILD)/harness/profile/metric_set.o $(METRIC_CATALOG)
$(BUILD)/memscope-compare: $(BUILD)/harness/compare/main.o $(call lib,compare program) $(METRIC_CATALOG)
$(BUILD)/memscope-history: $(BUILD)/harness/history/main.o $(call lib,history) $(METRIC_CATALOG)
# The history's engines (harness/history/store_*.c): libsqlite3, linked, its development package from scripts/setup
# history before the first history object is compiled; libpq, loaded (dlopen) on the first PostgreSQL connection.
HISTORY_DATABASES := -lsqlite3
$(BUILD)/memscope-history: LINK_DATABASES := $(UNPACKED_LIBS) $(HISTORY_DATABASES) -ldl
$(call objects,harness/history) $(BUILD)/harness/history/main.o: | history-setup
# memscope-profile links no CUDA and no CUPTI: it starts a program with the injection library beside it (and asks
# the driver, loaded by dlopen, whether there is a GPU only once a program failed without starting CUDA).
# Its summary's roof shares read the datasheet-free half of ceilings/rates.c (host-only), as the report does.
$(BUILD)/memscope-profile: $(BUILD)/harness/launcher/main.o $(call lib,launcher program profile diagnose results csv common) \
	$(BUILD)/harness/ceilings/rates.o
	$(CC) $(SANITIZERS) -o $@ $(filter %.o,$^) -Wl,--start-group $(filter %.a,$^) -Wl,--end-group -lm -ldl

# The injection library (harness/inject/) is loaded into any CUDA program: position-independent objects, built
# apart in $(BUILD)/pic/ (the room archives are not PIC) from only the sources it links; only its two entry points
# are visible outside it, so that nothing of ours takes the place of the program's own functions or theirs of ours.
INJECT_SOURCES := $(wildcard harness/inject/*.c) cupti/activity.c cupti/profiler_error.c cupti/metric_host.cpp \
	cupti/subscriber.c cupti/stream_capture.c cupti/range_profiler.c cupti/counter_data_info.c \
	harness/profile/metric_set.c \
	harness/profile/metric_catalog.c harness/profile/evaluate.c harness/profile/metric_rows.c \
	harness/results/metrics_csv.c harness/results/job_name.c \
	harness/common/error.c harness/common/grow.c harness/common/numbers.c harness/common/args.c harness/csv/writer.c harness/csv/reader.c harness/csv/name_index.c \
	harness/results/schema.c harness/results/trace.c harness/results/launches_csv.c harness/results/environment_csv.c \
	harness/gpu/gpu_lock.c harness/gpu/peers.c harness/common/host_clock.c cupti/pc_sampling.c cupti/source_line.c \
	harness/stalls/stall_lines.c harness/stalls/stall_rows.c harness/stalls/sampling_period.c \
	harness/source/locate.c harness/results/stalls_csv.c cupti/sass_metrics.c harness/source/placement.c \
	harness/source/disassembly.c harness/source/source_lines.c harness/source/source_metrics.c \
	harness/source/source_rows.c harness/results/source_capture.c \
	harness/results/lines_csv.c harness/results/instructions_csv.c harness/results/product_shape.c \
	harness/diagnose/findings.c harness/diagnose/diagnosis.c harness/diagnose/occupancy.c
PIC_FLAGS := -fPIC -fvisibility=hidden
$(BUILD)/pic/%.o: %.c | $(BUILD)/version.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PIC_FLAGS) -c $< -o $@
$(BUILD)/pic/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(PIC_FLAGS) -c $< -o $@
# -z defs: a symbol left to be found in the program at run time would be a bug, found here instead.
$(BUILD)/libmemscope-inject.so: $(patsubst %,$(BUILD)/pic/%.o,$(basename $(INJECT_SOURCES)))
	$(HOST_LINK) -shared -Wl,-z,defs -o $@ $^ -lcupti -ldl -lm

$(TESTS:%=%.o): | test-setup
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_HELPERS) $(ALL_LIBS) $(call lib,report compare history inject launcher program)
	$(CUDA_LINK) -o $@ $< $(TEST_HELPERS) -Xlinker --start-group $(filter %.a,$^) -Xlinker --end-group -lcublas -lcupti -ldl \
		$(UNPACKED_LIBS) $(HISTORY_DATABASES) -lcmocka
$(TEST_PROGRAMS): $(BUILD)/tests/%: $(BUILD)/tests/%.o
	$(CC) $(SANITIZERS) -o $@ $< -ldl -lpthread
$(CUDA_TEST_PROGRAMS): $(BUILD)/tests/%: $(BUILD)/tests/%.o
	$(CUDA_LINK) -o $@ $<
test-setup:
	@$(if $(SETUP_DONE),:,scripts/setup test $(CMOCKA)$(if $(SANITIZE), && scripts/setup sanitize))
report-setup:
	@$(if $(SETUP_DONE),:,scripts/setup report)
history-setup:
	@scripts/setup history $(CMOCKA)
test-build: all $(TESTS) $(TEST_PROGRAMS) $(CUDA_TEST_PROGRAMS)
test: test-setup
	@$(SUB_MAKE) test-build
	@MEMSCOPE_BUILD=$(BUILD) $(if $(SANITIZE),MEMSCOPE_SANITIZE=1) tests/run-all $(TESTS)

# Each tests/fuzz/fuzz_*.c is one libFuzzer target over the readers (no CUDA kernels, no CUPTI call); scripts/fuzz
# runs each for FUZZ_SECONDS and leaves what it finds in build-fuzz/findings/<target>/.
fuzz:
	@scripts/setup fuzz && $(MAKE) --no-print-directory FUZZ=1 BUILD=build-fuzz fuzzers && scripts/fuzz $(FUZZ_SECONDS) $(FUZZERS)
fuzzers: $(FUZZERS)
build-fuzz/fuzz_%: build-fuzz/tests/fuzz/fuzz_%.o build-fuzz/tests/fuzz/no_kernels.o build-fuzz/kernels/matmul_registry.o \
		$(call lib,run history diagnose results source profile cupti csv common)
	$(CXX) -fsanitize=fuzzer,address,undefined -o $@ $(filter %.o,$^) -Wl,--start-group $(filter %.a,$^) -Wl,--end-group \
		-L$(CUDA)/lib64 -Wl,-rpath=$(CUDA)/lib64 -lcupti -lm $(UNPACKED_LIBS) $(HISTORY_DATABASES) -ldl

# RUN_ARGS is memscope's options, shell words by design: make run RUN_ARGS="-v naive -o 'my run'".
run: $(BUILD)/memscope
	$< $(RUN_ARGS)
# The paths and revisions a user gives these targets (RESULTS='a b', HISTORY="it's.db") reach their recipes through
# the environment, each quoted there as one word, never pasted into the shell's command line, where a space or a
# quote would change what the command says (tests/common/test_make checks each).
USER_PATH_TARGETS := report compare history history-add
$(USER_PATH_TARGETS): export user_results = $(RESULTS)
$(USER_PATH_TARGETS): export user_compare = $(COMPARE)
$(USER_PATH_TARGETS): export user_history = $(HISTORY)
$(USER_PATH_TARGETS): export user_base = $(BASE)
$(USER_PATH_TARGETS): export user_head = $(HEAD)
$(USER_PATH_TARGETS): export user_base_results = $(BASE_RESULTS)
$(USER_PATH_TARGETS): export user_head_results = $(HEAD_RESULTS)
$(USER_PATH_TARGETS): export user_rounds = $(ROUNDS)
$(USER_PATH_TARGETS): export user_group_by = $(GROUP_BY)
# RESULTS=<dir> renders that folder (GROUP_BY=nvtx or launch: a program's profile read so, not by kernel); otherwise
# scripts/report-run runs the suite (no GPU: renders the reference run).
report: report-setup
	@$(SUB_MAKE) all
	@if [ -n "$$user_results" ]; then scripts/report-render $${user_compare:+--compare "$$user_compare"} \
		$${user_group_by:+--group-by "$$user_group_by"} "$$user_results" \
		"reports/$$(basename "$$(realpath -m -- "$$user_results")")-report"; \
	else HISTORY="$$user_history" scripts/report-run $(RUN_ARGS); fi
# BASE=<rev> [HEAD=<rev>]: both built and run here, interleaved; or BASE_RESULTS=<dir> HEAD_RESULTS=<dir>.
# A convenience only: make turns the scripts' status (1 a regression, 2 to 6 a broken gate) into its own 2; CI calls them.
compare: report-setup $(BUILD)/memscope-compare $(BUILD)/memscope-report-data
	@if [ -n "$$user_base_results" ]; then scripts/compare-results "$$user_base_results" $${user_head_results:+"$$user_head_results"}; \
	elif [ -n "$$user_base" ]; then scripts/compare-revisions $${user_rounds:+--rounds "$$user_rounds"} "$$user_base" \
		$${user_head:+"$$user_head"}; \
	else echo "make compare: give BASE=<rev> (or BASE_RESULTS and HEAD_RESULTS)"; exit 2; fi
history-add: $(BUILD)/memscope-history
	@test -n "$$user_results" || { echo "make history-add: give RESULTS=<dir>"; exit 2; }; \
	$< add --db "$$user_history" "$$user_results"
# Where no history was recorded yet (a fresh clone) and none is named, the committed H100 history is drawn, and said so.
history: report-setup $(BUILD)/memscope-history
	@if [ -f "$$user_history" ] || [ "$(origin HISTORY)" != file ]; then scripts/history-render "$$user_history" reports/history; \
	else echo "make history: no $$user_history yet (make history-add RESULTS=<dir> records a run); drawing the committed" \
			"H100 history ($(REFERENCE_HISTORY))"; scripts/history-render $(REFERENCE_HISTORY) reports/history-h100; fi
# The README's figures drawn again from the reference run, so that none predates it: each line of FIGURES names a
# figure and the report page it is (tests/report checks that the README links no other). A figure is replaced only
# by a page that rendered; a page the report lacks stops it (exit 2).
FIGURES := reports/figures/figures.txt
figures: report-setup $(BUILD)/memscope-report-data
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && scripts/report-render reports/reference "$$tmp/report" >/dev/null && \
	grep -v '^#' $(FIGURES) | while read -r figure page; do \
		[ -n "$$figure" ] || continue; \
		png=$$(ls "$$tmp"/report/[0-9][0-9]-"$$page".png 2>/dev/null) || \
			{ echo "make figures: the reference report has no page $$page ($(FIGURES))" >&2; exit 2; }; \
		cp "$$png" "reports/figures/$$figure.partial" && mv "reports/figures/$$figure.partial" "reports/figures/$$figure" || exit 4; \
		echo "reports/figures/$$figure: page $$page of reports/reference"; \
	done
clean:
	rm -rf $(BUILD) build-sanitize build-fuzz
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
