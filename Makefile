# memscope: build, test, run.
#   make             build build/memscope and the tests (no GPU needed)
#   make test        run every test; GPU tests skip when no GPU is present
#   make run         run the suite on the GPU (RUN_ARGS passes options)
#   make report      run the suite and render the PDF (without a GPU: the committed
#                    reference run); make report RESULTS=<dir> renders that folder
#   make CUDA_ARCH=80  build for another GPU architecture (default: Hopper, 90)
#   make KERNEL_DEFS='-DLT_BM=128 ...'  override the ladder's tile parameters
#                    (kernels/ladder_tiles.h; scripts/tune-ladder sweeps them)

CUDA ?= /usr/local/cuda
CUDA_ARCH ?= 90
NVCC ?= $(CUDA)/bin/nvcc
CC := gcc
BUILD := build
# -D overrides of the FP32 ladder's tile parameters (kernels/ladder_tiles.h), for tuning.
# They reach the registry (C) and the kernels (CUDA) alike, so the grid matches the kernel.
KERNEL_DEFS ?=

# Both can be given on the command line where the tree is a copy without .git.
GIT_COMMIT ?= $(shell git rev-parse --verify -q HEAD 2>/dev/null || echo unknown)
GIT_DIRTY ?= $(shell if git rev-parse --git-dir >/dev/null 2>&1; then \
	test -n "$$(git status --porcelain)" && echo 1 || echo 0; else echo unknown; fi)
NVCC_VERSION := $(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')

CFLAGS := -std=c11 -O2 -g -Wall -Wextra -D_DEFAULT_SOURCE -I$(CUDA)/include -I$(BUILD) -MMD -MP
CXXFLAGS := -std=c++20 -O2 -g -Wall -Wextra -fno-exceptions -I$(CUDA)/include -MMD -MP
NVCCFLAGS := -O3 -g -std=c++17 -gencode arch=compute_$(CUDA_ARCH),code=sm_$(CUDA_ARCH) \
	-Xcompiler -Wall,-Wextra -I$(CUDA)/include -MMD -MP $(KERNEL_DEFS)
CFLAGS += $(KERNEL_DEFS)
# nvcc links the CUDA runtime statically; cuBLAS is found through the rpath.
LDFLAGS := -L$(CUDA)/lib64 -Xlinker -rpath=$(CUDA)/lib64
LDLIBS := -lcublas -lcupti -ldl

# cmocka from the system, or unpacked under CMOCKA (a machine where nothing can be installed).
CMOCKA ?=
ifneq ($(CMOCKA),)
CFLAGS += -I$(CMOCKA)/usr/include
TEST_LDFLAGS := -L$(CMOCKA)/usr/lib/x86_64-linux-gnu -Xlinker -rpath=$(abspath $(CMOCKA))/usr/lib/x86_64-linux-gnu
endif

KERNEL_CU := $(wildcard kernels/*.cu)
KERNEL_C := $(wildcard kernels/*.c)
CUPTI_C := $(wildcard cupti/*.c)
CUPTI_CPP := $(wildcard cupti/*.cpp)
HARNESS_C := $(filter-out harness/%_main.c harness/main.c,$(wildcard harness/*.c))
LIB_OBJS := $(KERNEL_CU:%.cu=$(BUILD)/%.o) $(KERNEL_C:%.c=$(BUILD)/%.o) $(CUPTI_C:%.c=$(BUILD)/%.o) \
	$(CUPTI_CPP:%.cpp=$(BUILD)/%.o) $(HARNESS_C:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libmemscope.a
BIN := $(BUILD)/memscope
DECODE_BIN := $(BUILD)/memscope-decode
REPORT_DATA_BIN := $(BUILD)/memscope-report-data
COMPARE_BIN := $(BUILD)/memscope-compare
HISTORY_BIN := $(BUILD)/memscope-history
HISTORY ?= memscope-results/history.csv
REFERENCE_RUN := reports/reference

TEST_NAMES := $(basename $(notdir $(wildcard tests/test_*.c)))
TEST_BINS := $(TEST_NAMES:%=$(BUILD)/tests/%)
TEST_CU_OBJS := $(patsubst %.cu,$(BUILD)/%.o,$(wildcard tests/*.cu))

.PHONY: all test run report compare history history-add clean FORCE
# Keep intermediate objects, so a second make rebuilds nothing.
.SECONDARY:
TOOLS := $(BIN) $(DECODE_BIN) $(REPORT_DATA_BIN) $(COMPARE_BIN) $(HISTORY_BIN)
all: $(TOOLS) $(TEST_BINS)

$(BUILD)/version.h: FORCE
	@mkdir -p $(@D)
	@printf '#define MEMSCOPE_GIT_COMMIT "%s"\n#define MEMSCOPE_GIT_DIRTY "%s"\n#define MEMSCOPE_NVCC_VERSION "%s"\n#define MEMSCOPE_CUDA_ARCH "sm_%s"\n' \
		'$(GIT_COMMIT)' '$(GIT_DIRTY)' '$(NVCC_VERSION)' '$(CUDA_ARCH)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/%.o: %.c | $(BUILD)/version.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

# The one C++ file: CUPTI's host header needs C++ (see cupti/metric_host.cpp).
$(BUILD)/%.o: %.cpp
	@mkdir -p $(@D)
	g++ $(CXXFLAGS) -c $< -o $@

$(BUILD)/%.o: %.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	ar rcs $@ $^

$(BIN): $(BUILD)/harness/main.o $(LIB)
	$(NVCC) -gencode arch=compute_$(CUDA_ARCH),code=sm_$(CUDA_ARCH) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The tools beside memscope: each one main file over the same library.
$(DECODE_BIN): $(BUILD)/harness/decode_main.o
$(REPORT_DATA_BIN): $(BUILD)/harness/report_data_main.o
$(COMPARE_BIN): $(BUILD)/harness/compare_main.o
$(HISTORY_BIN): $(BUILD)/harness/history_main.o
$(DECODE_BIN) $(REPORT_DATA_BIN) $(COMPARE_BIN) $(HISTORY_BIN): $(LIB)
	$(NVCC) -gencode arch=compute_$(CUDA_ARCH),code=sm_$(CUDA_ARCH) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_CU_OBJS) $(LIB)
	$(NVCC) -gencode arch=compute_$(CUDA_ARCH),code=sm_$(CUDA_ARCH) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

test: $(TOOLS) $(TEST_BINS)
	@failed=0; for t in $(TEST_BINS); do MEMSCOPE_BIN=$(BIN) MEMSCOPE_DECODE_BIN=$(DECODE_BIN) \
		MEMSCOPE_REPORT_DATA=$(REPORT_DATA_BIN) MEMSCOPE_COMPARE=$(COMPARE_BIN) MEMSCOPE_HISTORY=$(HISTORY_BIN) \
		$$t || failed=1; done; \
	if [ $$failed -ne 0 ]; then echo "make test: some tests failed"; exit 1; fi

run: $(BIN)
	$(BIN) $(RUN_ARGS)

# With RESULTS, renders that folder. Otherwise, on a GPU, runs the suite and
# the ground-truth check and renders them; without one, renders the reference run.
# A run in which a variant or a ground-truth check failed still renders, then exits 1.
report: $(REPORT_DATA_BIN) $(HISTORY_BIN) $(if $(RESULTS),,$(BIN))
ifneq ($(RESULTS),)
	@scripts/report-render $(if $(COMPARE),--compare $(COMPARE)) $(RESULTS) reports/$(notdir $(abspath $(RESULTS)))-report
else
	@if nvidia-smi -L >/dev/null 2>&1; then \
		dir=memscope-results/$$(date -u +%Y%m%dT%H%M%SZ); \
		$(BIN) -o $$dir $(RUN_ARGS); rc=$$?; [ $$rc -le 1 ] || exit $$rc; \
		$(BIN) --validate -o $$dir/validate; v=$$?; [ $$v -le 1 ] || exit $$v; \
		$(HISTORY_BIN) add $(HISTORY) $$dir || exit $$?; \
		scripts/report-render $$dir reports/$$(basename $$dir)-report || exit $$?; exit $$(( rc ? rc : v )); \
	else \
		echo "make report: no GPU on this machine; rendering the committed reference run ($(REFERENCE_RUN))"; \
		scripts/report-render --note "Committed reference run ($(REFERENCE_RUN)), rendered on a machine without a GPU" \
			$(REFERENCE_RUN) reports/reference-report; \
	fi
endif

# make compare BASE=<rev> [HEAD=<rev>]: both built and run here, interleaved.
# make compare BASE_RESULTS=<dir> HEAD_RESULTS=<dir>: two existing results.
compare: $(COMPARE_BIN)
ifneq ($(BASE_RESULTS),)
	@out=memscope-results/compare-$$(date -u +%Y%m%dT%H%M%SZ); rc=0; \
	$(COMPARE_BIN) -o $$out $(COMPARE_ARGS) $(BASE_RESULTS) $(HEAD_RESULTS) || rc=$$?; \
	[ $$rc -gt 1 ] || scripts/compare-chart $$out; exit $$rc
else
	@test -n "$(BASE)" || { echo "make compare: give BASE=<rev> (or BASE_RESULTS and HEAD_RESULTS)"; exit 2; }
	@scripts/compare-revisions $(if $(ROUNDS),--rounds $(ROUNDS)) $(BASE) $(HEAD)
endif

# Records a results folder in the history; make history draws it.
history-add: $(HISTORY_BIN)
	@test -n "$(RESULTS)" || { echo "make history-add: give RESULTS=<dir>"; exit 2; }
	@$(HISTORY_BIN) add $(HISTORY) $(RESULTS)

history: $(HISTORY_BIN)
	@scripts/history-render $(HISTORY) reports/history

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
