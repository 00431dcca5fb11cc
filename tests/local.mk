## The test suite, included by Makefile.am: unit programs linked with the
## library, helpers that read or write files independently of heatsim,
## and shell tests that drive the heatsim binary.
check_PROGRAMS = tests/unit_options tests/unit_field tests/unit_pattern \
	tests/unit_multigrid tests/unit_legend tests/unit_seal tests/unit_probes \
	tests/unit_boxmg tests/unit_operator tests/mms_reference tests/png_probe \
	tests/h5_fixtures tests/unit_material tests/unit_schedule
tests_unit_material_LDADD = $(heatsim_ldadd)
tests_unit_schedule_LDADD = $(heatsim_ldadd)
tests_unit_options_LDADD = $(heatsim_ldadd)
tests_unit_field_LDADD = $(heatsim_ldadd)
tests_unit_pattern_LDADD = $(heatsim_ldadd)
tests_unit_multigrid_LDADD = $(heatsim_ldadd)
tests_unit_legend_LDADD = $(heatsim_ldadd)
tests_unit_seal_LDADD = $(heatsim_ldadd)
tests_unit_probes_LDADD = $(heatsim_ldadd)
tests_unit_boxmg_LDADD = $(heatsim_ldadd)
tests_unit_operator_LDADD = $(heatsim_ldadd)
# An independent reference: plain C, no OpenMP, nothing of heatsim's.
tests_mms_reference_SOURCES = tests/mms_reference.c
tests_mms_reference_CFLAGS = $(WARN_CFLAGS)
tests_png_probe_CFLAGS = $(WARN_CFLAGS) $(PNG_CFLAGS)
tests_png_probe_LDADD = $(PNG_LIBS)
tests_h5_fixtures_CFLAGS = $(WARN_CFLAGS) $(HDF5_CFLAGS)
tests_h5_fixtures_LDADD = $(HDF5_LIBS)
# failwrite.so, an LD_PRELOAD shim that makes writes fail at the Nth call
# (tests/file-faults.sh): a shared object built as a check program, so
# that no libtool is needed.
check_PROGRAMS += tests/failwrite.so
tests_failwrite_so_SOURCES = tests/failwrite.c
tests_failwrite_so_CFLAGS = $(WARN_CFLAGS) -fPIC
tests_failwrite_so_LDFLAGS = -shared
tests_failwrite_so_LDADD = -ldl
# killrename.so, an LD_PRELOAD shim that kills heatsim at the rename of
# a chosen file and logs renames and flushes (tests/monitor-kill.sh).
check_PROGRAMS += tests/killrename.so
tests_killrename_so_SOURCES = tests/killrename.c
tests_killrename_so_CFLAGS = $(WARN_CFLAGS) -fPIC
tests_killrename_so_LDFLAGS = -shared
tests_killrename_so_LDADD = -ldl
EXTRA_DIST += tests/testlib.sh tests/png_legend.py tests/gray_png.py tests/png_file.py tests/README tests/steady_reference.py tests/openmpi.supp \
	tests/omptarget.supp tests/ldso.supp tools/make-bundle.sh \
	tests/data/checkpoint-v1.h5
noinst_HEADERS = tests/unit.h

cli_tests = \
	tests/include-graph.sh \
	tests/cli-errors.sh \
	tests/memory-check.sh \
	tests/case-files.sh \
	tests/cli-info.sh \
	tests/strategies-agree.sh \
	tests/host-isa.sh \
	tests/device-memory.sh \
	tests/offload-images.sh \
	tests/uniform-source.sh \
	tests/mms-error.sh \
	tests/mms-convergence.sh \
	tests/tutorial-case.sh \
	tests/boundaries.sh \
	tests/steady.sh \
	tests/multigrid-steady.sh \
	tests/hypre-reference.sh \
	tests/implicit-schemes.sh \
	tests/edge-order.sh \
	tests/numeric-faults.sh \
	tests/png-output.sh \
	tests/png-legend.sh \
	tests/png-movie.sh \
	tests/checkpoint.sh \
	tests/series.sh \
	tests/init-checkpoint.sh \
	tests/units.sh \
	tests/paraview.sh \
	tests/checkpoint-damage.sh \
	tests/xarray.sh \
	tests/hostile-inputs.sh \
	tests/input-identity.sh \
	tests/file-faults.sh \
	tests/sample-data.sh \
	tests/faults.sh \
	tests/fuzz-regressions.sh \
	tests/valgrind.sh \
	tests/bundle.sh \
	tests/bench.sh \
	tests/mpi.sh \
	tests/man-help.sh \
	tests/json-status.sh \
	tests/json-keys.sh \
	tests/readme-sweep.sh \
	tests/readme-examples.sh \
	tests/monitor.sh \
	tests/probes.sh \
	tests/heat-rates.sh \
	tests/heat-balance.sh \
	tests/heat-overflow.sh \
	tests/imbalance-noise.sh \
	tests/monitor-kill.sh \
	tests/restart-rows.sh \
	tests/materials-explicit.sh \
	tests/materials-input.sh \
	tests/png-palette.sh \
	tests/input-kinds.sh \
	tests/material-keys.sh \
	tests/h5-storage.sh \
	tests/materials-steady.sh \
	tests/source-geometric.sh \
	tests/materials-stability.sh \
	tests/periodic-material.sh \
	tests/edge-explicit.sh \
	tests/temporal-blocking.sh \
	tests/bc-options.sh \
	tests/edge-steady.sh \
	tests/bash-completion.sh \
	tests/overflow-messages.sh \
	tests/field-magnitude.sh
dist_check_SCRIPTS = $(cli_tests)
TESTS = tests/unit_options tests/unit_field tests/unit_pattern \
	tests/unit_multigrid tests/unit_legend tests/unit_seal \
	tests/unit_probes tests/unit_boxmg tests/unit_operator tests/unit_material \
	tests/unit_schedule $(cli_tests)
# Tests run side by side under make -j, two threads each: threads that
# spin while they wait (OpenMP's default, 200 ms in LLVM's runtime) take
# the cores the other tests need.  Waiting passively, the default build's
# suite took 181 s at -j2 on two cores instead of 347 s (bench/RESULTS.md,
# 2026-12-07).
AM_TESTS_ENVIRONMENT = \
	HEATSIM=$(abs_top_builddir)/src/heatsim; export HEATSIM; \
	MMS_REFERENCE=$(abs_top_builddir)/tests/mms_reference; \
	PNG_PROBE=$(abs_top_builddir)/tests/png_probe; \
	H5_FIXTURES=$(abs_top_builddir)/tests/h5_fixtures; \
	FAILWRITE=$(abs_top_builddir)/tests/failwrite.so; \
	KILLRENAME=$(abs_top_builddir)/tests/killrename.so; \
	H5DUMP='$(H5DUMP)'; MPIEXEC='$(MPIEXEC)'; \
	CONTRAST_MAPS=$(abs_top_builddir)/bench/contrast_maps; \
	HYPRE_BENCH='$(hypre_bench_path)'; \
	export MMS_REFERENCE PNG_PROBE H5_FIXTURES FAILWRITE KILLRENAME H5DUMP \
	  MPIEXEC CONTRAST_MAPS HYPRE_BENCH; \
	srcdir=$(srcdir); export srcdir; \
	OMP_NUM_THREADS=$${OMP_NUM_THREADS:-2}; export OMP_NUM_THREADS; \
	OMP_WAIT_POLICY=$${OMP_WAIT_POLICY:-passive}; export OMP_WAIT_POLICY;

