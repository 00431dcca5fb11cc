## Fuzzing, included by Makefile.am.
# make fuzz: build libFuzzer targets (clang, with ASan and UBSan) for the
# option parser and the readers of user files, and run each for
# FUZZ_SECONDS from the seeds in tests/fuzz/corpus.  New inputs go to
# fuzz/corpus-*, findings to fuzz/artifacts-*.  Fuzzing goes on past a
# finding (-fork=1 -ignore_crashes=1); tests/fuzz/triage.sh then fails the
# target for any finding in heatsim's own code.  A huge
# malloc returns NULL, as it does outside ASan (libhdf5 asks for one when
# a damaged header says so, and copes with the NULL).
FUZZ_SECONDS = 60
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined $(OPENMP_CFLAGS) $(MPI_CFLAGS) \
	$(PNG_CFLAGS) $(HDF5_CFLAGS) -I$(top_builddir) -I$(srcdir)/src
fuzz_targets = fuzz/fuzz_options fuzz/fuzz_h5 fuzz/fuzz_png
EXTRA_DIST += tests/fuzz/fuzz_options.c tests/fuzz/fuzz_files.c \
	tests/fuzz/lsan.supp tests/fuzz/triage.sh tests/fuzz/corpus \
	tests/fuzz/regressions tests/fuzz/hangs

# The fuzzers are host-only builds; kernels.c still names the device-memory
# API when configure embedded device code, so link its library.
fuzz_libs = -L$(OMP_LIBDIR) -lomptarget
# fuzz_link TARGET-SOURCE EXTRA-FLAGS: one instrumented program from the
# target and every source of heatsim but main.c, with the host kernels'
# libraries as make builds them (one per host path, not instrumented).
fuzz_link = srcs=; for f in $(heatsim_c_sources); do srcs="$$srcs $(srcdir)/$$f"; \
	done; $(MKDIR_P) fuzz && $(CC) $(FUZZ_CFLAGS)

fuzz/fuzz_options: $(srcdir)/tests/fuzz/fuzz_options.c $(src_libheatsim_a_SOURCES) \
	  $(host_isa_libs)
	$(fuzz_link) -o $@ $(srcdir)/tests/fuzz/fuzz_options.c $$srcs \
	  $(host_isa_libs) $(OMP_RPATH_LDFLAGS) $(fuzz_libs) $(PNG_LIBS) $(HDF5_LIBS) $(MPI_LIBS) $(LIBS)
fuzz/fuzz_h5: $(srcdir)/tests/fuzz/fuzz_files.c $(src_libheatsim_a_SOURCES) \
	  $(host_isa_libs)
	$(fuzz_link) -DFUZZ_HDF5 -o $@ $(srcdir)/tests/fuzz/fuzz_files.c $$srcs \
	  $(host_isa_libs) $(OMP_RPATH_LDFLAGS) $(fuzz_libs) $(PNG_LIBS) $(HDF5_LIBS) $(MPI_LIBS) $(LIBS)
fuzz/fuzz_png: $(srcdir)/tests/fuzz/fuzz_files.c $(src_libheatsim_a_SOURCES) \
	  $(host_isa_libs)
	$(fuzz_link) -o $@ $(srcdir)/tests/fuzz/fuzz_files.c $$srcs \
	  $(host_isa_libs) $(OMP_RPATH_LDFLAGS) $(fuzz_libs) $(PNG_LIBS) $(HDF5_LIBS) $(MPI_LIBS) $(LIBS)

fuzz: $(fuzz_targets)
	@for t in options h5 png; do \
	  $(MKDIR_P) fuzz/corpus-$$t fuzz/artifacts-$$t || exit 1; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  OMP_NUM_THREADS=1 \
	  LSAN_OPTIONS=suppressions=$(srcdir)/tests/fuzz/lsan.supp \
	  ASAN_OPTIONS=allocator_may_return_null=1 \
	    fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -fork=1 \
	    -ignore_crashes=1 -ignore_ooms=1 -artifact_prefix=fuzz/artifacts-$$t/ \
	    fuzz/corpus-$$t $(srcdir)/tests/fuzz/corpus/$$t \
	    >fuzz/fuzz_$$t.log 2>&1; \
	  grep -E '^#[0-9]+: cov' fuzz/fuzz_$$t.log | tail -n 1; \
	  $(srcdir)/tests/fuzz/triage.sh fuzz/fuzz_$$t fuzz/artifacts-$$t \
	    || exit 1; \
	done

