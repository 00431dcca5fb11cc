/* Unit tests of output file-name patterns: which patterns are accepted,
   and the names they expand to, including the edges of the buffer.  */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "pattern.h"
#include "unit.h"

static void
test_valid_patterns (void)
{
  static const char *const good[] = {
    "heatsim-%06d.png", "%d", "%0d", "%20d", "%020d", "step%d.h5",
    "a%%b%d", "%d%%", "100%% done %03d", "%00006d",
    "frame-%06f.png", "%f", "%20f", "a%%b%f",
  };
  for (size_t k = 0; k < sizeof good / sizeof *good; ++k)
    {
      const bool ok = pattern_ok (good[k]);
      CHECK (ok);
      if (!ok)
        fprintf (stderr, "  refused: '%s'\n", good[k]);
    }
}

static void
test_invalid_patterns (void)
{
  static const char *const bad[] = {
    "", "plain.png", "%d%d", "%d-%06d", "%21d", "%021d", "%s", "%x",
    "%ld", "%-6d", "%+d", "% d", "%", "%5", "a%", "%%d", "%%", "dir/%d",
    "%d/x", "/%d", "%.3d", "%*d",
    /* one number per name: step and frame index do not mix */
    "%d-%f", "%f-%06d", "%f%f", "%21f", "%.2f", "%lf", "%-6f", "%%f",
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k)
    {
      const bool ok = pattern_ok (bad[k]);
      CHECK (!ok);
      if (ok)
        fprintf (stderr, "  accepted: '%s'\n", bad[k]);
    }
}

/* name expands pattern for step in dir to want.  */
static void
expect_name (const char *dir, const char *pattern, size_t step,
             const char *want)
{
  char buf[256];
  const bool ok = pattern_name (buf, sizeof buf, dir, pattern, step);
  CHECK (ok);
  CHECK (ok && strcmp (buf, want) == 0);
  if (ok && strcmp (buf, want) != 0)
    fprintf (stderr, "  '%s' step %zu: got '%s', want '%s'\n", pattern,
             step, buf, want);
}

static void
test_names (void)
{
  expect_name ("out", "heatsim-%06d.png", 42, "out/heatsim-000042.png");
  expect_name (".", "heatsim-%06d.h5", 0, "./heatsim-000000.h5");
  expect_name ("d", "%d", 1234567, "d/1234567");
  expect_name ("d", "%03d", 1234567, "d/1234567");   /* no truncation */
  expect_name ("d", "a%%b%d", 7, "d/a%b7");
  expect_name ("d", "%d%%", 7, "d/7%");
  expect_name ("d", "100%% done %03d", 5, "d/100% done 005");
  expect_name ("a/b", "s%020d", 1, "a/b/s00000000000000000001");
  expect_name ("d", "%d", SIZE_MAX, SIZE_MAX == UINT64_MAX
               ? "d/18446744073709551615" : "d/4294967295");
  expect_name ("out", "frame-%06f.png", 0, "out/frame-000000.png");
  expect_name ("out", "frame-%f.png", 12, "out/frame-12.png");
  expect_name ("d", "%02f%%", 7, "d/07%");
  /* A width without a 0 pads with zeros all the same, as ffmpeg's image
     sequences read %4d: printf's spaces have no place in file names.  */
  expect_name ("d", "f-%5d.png", 42, "d/f-00042.png");
  expect_name ("d", "f-%4f.png", 7, "d/f-0007.png");
  expect_name ("d", "%2d", 123, "d/123");             /* no truncation */
}

/* Which number a pattern holds.  */
static void
test_kinds (void)
{
  CHECK (pattern_kind ("heatsim-%06d.png") == PATTERN_STEP);
  CHECK (pattern_kind ("frame-%06f.png") == PATTERN_FRAME);
  CHECK (pattern_kind ("%%f-%d") == PATTERN_STEP);
  CHECK (pattern_kind ("%%d-%f") == PATTERN_FRAME);
  CHECK (pattern_kind ("%d-%f") == PATTERN_INVALID);
  CHECK (pattern_kind ("plain") == PATTERN_INVALID);
}

/* Frame patterns collide like step patterns: only the digits count.  */
static void
test_overlap_and_match (void)
{
  CHECK (pattern_overlap ("x-%06f.png", "x-%d.png"));
  CHECK (pattern_overlap ("x-%f.png", "x-%03f.png"));
  CHECK (!pattern_overlap ("frame-%06f.png", "heatsim-%06d.h5"));
  CHECK (!pattern_overlap ("x-%f.png", "x-%d.h5"));
  size_t n = 99;
  CHECK (pattern_match ("frame-%06f.png", "frame-000042.png", &n) && n == 42);
  CHECK (!pattern_match ("frame-%06f.png", "frame-42.png", &n));
  CHECK (!pattern_match ("frame-%06f.png", "heatsim-000042.png", &n));
  /* %4d is %04d: the same names, read back alike.  */
  CHECK (pattern_overlap ("x-%4d.png", "x-%04d.png"));
  CHECK (pattern_match ("x-%4d.png", "x-0042.png", &n) && n == 42);
  CHECK (!pattern_match ("x-%4d.png", "x-  42.png", &n));
  CHECK (!pattern_match ("x-%4d.png", "x-42.png", &n));
}

/* The name must fit with its terminating null, and nothing past the
   buffer may be written whatever its length.  */
static void
test_buffer_limits (void)
{
  const char *want = "dir/f-0042.png";       /* 14 characters */
  const size_t need = strlen (want) + 1;
  for (size_t len = 1; len <= need + 2; ++len)
    {
      char buf[64];
      memset (buf, '#', sizeof buf);
      const bool ok = pattern_name (buf, len, "dir", "f-%04d.png", 42);
      CHECK (ok == (len >= need));
      if (ok)
        CHECK (strcmp (buf, want) == 0);
      for (size_t k = len; k < sizeof buf; ++k)
        CHECK (buf[k] == '#');
    }
  char buf[64];
  CHECK (!pattern_name (buf, sizeof buf, "dir", "no-conversion", 1));
  CHECK (!pattern_name (buf, sizeof buf, "dir", "%d%d", 1));
}

int
main (void)
{
  test_valid_patterns ();
  test_invalid_patterns ();
  test_names ();
  test_kinds ();
  test_overlap_and_match ();
  test_buffer_limits ();
  return unit_exit ();
}
