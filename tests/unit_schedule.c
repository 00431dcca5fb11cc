/* Schedules (schedule.h): values given as numbers or CSV files, exact
   interpolation between rows, held values outside them, and the
   refusals that name the option, the file and its line.  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "schedule.h"
#include "unit.h"

static char err[512];
static struct parser p = { err, sizeof err, false };

/* A file of the given text in the current directory.  */
static const char *
write_file (const char *name, const char *text)
{
  FILE *fp = fopen (name, "w");
  if (fp == NULL)
    {
      perror (name);
      exit (EXIT_FAILURE);
    }
  fputs (text, fp);
  fclose (fp);
  return name;
}

/* Load "@name" holding size bytes of text (NUL bytes included) with
   values >= least.  */
static bool
load_bytes (struct schedule *s, const char *name, const char *text,
            size_t size, double least)
{
  FILE *fp = fopen (name, "wb");
  if (fp == NULL || fwrite (text, 1, size, fp) != size || fclose (fp) != 0)
    {
      perror (name);
      exit (EXIT_FAILURE);
    }
  char arg[64];
  snprintf (arg, sizeof arg, "@%s", name);
  *s = (struct schedule) { .path = NULL };
  err[0] = '\0';
  const bool ok = schedule_parse (&p, "--bc", arg, s)
                  && schedule_load (&p, "--bc", least, s);
  unlink (name);
  return ok;
}

/* Load "@name" holding text with values >= least.  */
static bool
load (struct schedule *s, const char *name, const char *text, double least)
{
  static char arg[64];
  snprintf (arg, sizeof arg, "@%s", write_file (name, text));
  *s = (struct schedule) { .path = NULL };
  err[0] = '\0';
  const bool ok = schedule_parse (&p, "--bc", arg, s)
                  && schedule_load (&p, "--bc", least, s);
  unlink (name);
  return ok;
}

static void
test_constant (void)
{
  struct schedule s = { .path = NULL };
  CHECK (schedule_parse (&p, "--bc", "-2.5e1", &s));
  CHECK (s.path == NULL && s.value == -25.0);
  CHECK (schedule_load (&p, "--bc", -INFINITY, &s));
  CHECK (schedule_at (&s, -1e9) == -25.0 && schedule_at (&s, 7.0) == -25.0);
  CHECK (!schedule_varies (&s) && schedule_max (&s) == -25.0);
  CHECK (!schedule_load (&p, "--bc", 0.0, &s));
  CHECK (strstr (err, "--bc") != NULL);
  CHECK (!schedule_parse (&p, "--bc", "", &s));
  CHECK (strstr (err, "missing") != NULL);
  CHECK (!schedule_parse (&p, "--bc", "nan", &s));
  CHECK (!schedule_parse (&p, "--bc", "inf", &s));
  CHECK (!schedule_parse (&p, "--bc", "1e999", &s));
  CHECK (!schedule_parse (&p, "--bc", "3K", &s));
  CHECK (!schedule_parse (&p, "--bc", "@", &s));
  schedule_free (&s);
}

/* Rows at times 0, 2, 3 with values 10, 20, -10, a header and a CRLF
   line: the values at and between the rows are exact in binary.  */
static void
test_interpolation (void)
{
  struct schedule s;
  CHECK (load (&s, "sched-ok.csv", "time,value\n0,10\n\n 2 , 20\r\n3,-10\n",
               -INFINITY));
  CHECK (s.points == 3);
  CHECK (schedule_at (&s, -5.0) == 10.0);   /* held before */
  CHECK (schedule_at (&s, 0.0) == 10.0);
  CHECK (schedule_at (&s, 0.5) == 12.5);
  CHECK (schedule_at (&s, 1.0) == 15.0);
  CHECK (schedule_at (&s, 2.0) == 20.0);
  CHECK (schedule_at (&s, 2.25) == 12.5);
  CHECK (schedule_at (&s, 2.5) == 5.0);
  CHECK (schedule_at (&s, 3.0) == -10.0);
  CHECK (schedule_at (&s, 1e300) == -10.0);  /* held after */
  CHECK (schedule_varies (&s) && schedule_max (&s) == 20.0);
  schedule_free (&s);
  /* No header; one row: a constant.  */
  CHECK (load (&s, "sched-one.csv", "5,7\n", -INFINITY));
  CHECK (s.points == 1 && schedule_at (&s, 0.0) == 7.0
         && schedule_at (&s, 9.0) == 7.0 && !schedule_varies (&s));
  schedule_free (&s);
  /* Equal values in every row do not vary.  */
  CHECK (load (&s, "sched-flat.csv", "0,4\n1,4\n", -INFINITY));
  CHECK (!schedule_varies (&s) && schedule_at (&s, 0.5) == 4.0);
  schedule_free (&s);
}

/* Rows whose values are finite but whose difference is not: the values
   between them are finite, exact where the weights are (1e308 and
   -1e308 meet at 0 halfway), and within the rows' range.  */
static void
test_huge_rows (void)
{
  struct schedule s;
  CHECK (load (&s, "sched-huge.csv", "0,1e308\n1,-1e308\n", -INFINITY));
  CHECK (schedule_at (&s, 0.5) == 0.0);
  CHECK (schedule_at (&s, 0.25) == 5e307);
  CHECK (schedule_at (&s, 0.75) == -5e307);
  for (double t = 0.0; t <= 1.0; t += 1.0 / 64.0)
    {
      const double v = schedule_at (&s, t);
      CHECK (isfinite (v) && v <= 1e308 && v >= -1e308);
    }
  schedule_free (&s);
  CHECK (load (&s, "sched-max.csv", "0,-1.7976931348623157e308\n"
               "2,1.7976931348623157e308\n", -INFINITY));
  CHECK (schedule_at (&s, 1.0) == 0.0);
  CHECK (isfinite (schedule_at (&s, 1.5)) && schedule_at (&s, 1.5) > 0.0);
  schedule_free (&s);
}

/* A refusal whose message holds every one of the words.  */
static void
refused (const char *name, const char *text, double least, const char *w1,
         const char *w2)
{
  struct schedule s;
  CHECK (!load (&s, name, text, least));
  CHECK (strstr (err, "--bc: ") == err);
  CHECK (strstr (err, name) != NULL);
  if (strstr (err, w1) == NULL || strstr (err, w2) == NULL)
    fprintf (stderr, "message lacks '%s' or '%s': %s\n", w1, w2, err);
  CHECK (strstr (err, w1) != NULL && strstr (err, w2) != NULL);
  CHECK (s.points == 0 && s.time == NULL);
  schedule_free (&s);
}

static void
test_refusals (void)
{
  refused ("sched-dec.csv", "t,v\n0,1\n2,1\n1,1\n", -INFINITY, ":4:",
           "increase");
  refused ("sched-same.csv", "0,1\n0,2\n", -INFINITY, ":2:", "increase");
  refused ("sched-word.csv", "0,1\n1,hot\n", -INFINITY, ":2:", "'1,hot'");
  refused ("sched-first.csv", "0,hot\n1,1\n", -INFINITY, ":1:", "numbers");
  refused ("sched-three.csv", "0,1,2\n", -INFINITY, ":1:", "numbers");
  refused ("sched-nan.csv", "0,1\n1,nan\n", -INFINITY, ":2:", "numbers");
  /* Hexadecimal, as the options refuse it (parse_real).  */
  refused ("sched-hex.csv", "0,1\n1,0x10\n", -INFINITY, ":2:", "numbers");
  refused ("sched-hext.csv", "0,1\n0X1p1,1\n", -INFINITY, ":2:", "numbers");
  /* Two numbers, one beyond double: said so (it read "not a row
     'time,value' of two numbers").  */
  refused ("sched-tiny.csv", "0,1\n1e-320,2\n", -INFINITY, ":2:",
           "its time is out of range");
  refused ("sched-huge.csv", "0,1\n1,1e999\n", -INFINITY, ":2:",
           "its value is out of range");
  refused ("sched-neg.csv", "0,1\n1,-0.5\n", 0.0, ":2:", "below 0");
  refused ("sched-empty.csv", "time,value\n", -INFINITY, "no", "rows");
  struct schedule s = { .path = NULL };
  unlink ("sched-missing.csv");
  CHECK (schedule_parse (&p, "--bc", "@sched-missing.csv", &s));
  CHECK (!schedule_load (&p, "--bc", -INFINITY, &s));
  CHECK (strstr (err, "sched-missing.csv") && strstr (err, "cannot open"));
  CHECK (schedule_parse (&p, "--bc", "@.", &s));
  CHECK (!schedule_load (&p, "--bc", -INFINITY, &s));
  CHECK (strstr (err, "not a regular file") != NULL);
  schedule_free (&s);
}

/* A NUL byte cut its line short unseen (a row's value read as the
   digits before it, the rest dropped): the file is refused, naming its
   line, as a case file is.  */
static void
test_nul (void)
{
  struct schedule s;
  static const char row[] = "0,1\n1,2\0junk\n";
  CHECK (!load_bytes (&s, "sched-nul.csv", row, sizeof row - 1, -INFINITY));
  CHECK (strstr (err, "--bc: sched-nul.csv:2:") == err);
  CHECK (strstr (err, "NUL") != NULL);
  CHECK (s.points == 0);
  static const char header[] = "time\0,value\n0,1\n";
  CHECK (!load_bytes (&s, "sched-nul1.csv", header, sizeof header - 1,
                      -INFINITY));
  CHECK (strstr (err, "sched-nul1.csv:1:") != NULL && strstr (err, "NUL"));
  static const char last[] = "0,1\n1,2\n\0";
  CHECK (!load_bytes (&s, "sched-nul3.csv", last, sizeof last - 1,
                      -INFINITY));
  CHECK (strstr (err, "sched-nul3.csv:3:") != NULL && strstr (err, "NUL"));
  schedule_free (&s);
}

/* A first line whose first field is a word is a header, also where the
   word begins as strtod reads a number (inf, nan); a field that is
   wholly such a number is a row, refused for its value.  */
static void
test_header_words (void)
{
  struct schedule s;
  CHECK (load (&s, "sched-inf.csv", "infusion_time,rate\n0,1\n1,2\n",
               -INFINITY));
  CHECK (s.points == 2 && schedule_at (&s, 0.5) == 1.5);
  schedule_free (&s);
  CHECK (load (&s, "sched-nan.csv", "nancy,x\n0,3\n", -INFINITY));
  CHECK (s.points == 1 && schedule_at (&s, 0.0) == 3.0);
  schedule_free (&s);
  CHECK (load (&s, "sched-Inf.csv", " Information , value\n0,3\n",
               -INFINITY));
  CHECK (s.points == 1);
  schedule_free (&s);
  refused ("sched-infrow.csv", "inf,1\n2,1\n", -INFINITY, ":1:", "numbers");
  refused ("sched-minf.csv", "-inf,1\n2,1\n", -INFINITY, ":1:", "numbers");
  refused ("sched-infty.csv", "Infinity,1\n", -INFINITY, ":1:", "numbers");
  refused ("sched-nanrow.csv", " nan ,1\n", -INFINITY, ":1:", "numbers");
  refused ("sched-nanp.csv", "nan(1),1\n", -INFINITY, ":1:", "numbers");
  refused ("sched-digit.csv", "1abc,1\n", -INFINITY, ":1:", "numbers");
}

int
main (void)
{
  /* The files go to a directory of their own.  */
  char dir[] = "/tmp/unit_schedule.XXXXXX";
  if (mkdtemp (dir) == NULL || chdir (dir) != 0)
    {
      perror (dir);
      return EXIT_FAILURE;
    }
  test_constant ();
  test_interpolation ();
  test_huge_rows ();
  test_nul ();
  test_header_words ();
  test_refusals ();
  CHECK (chdir ("/") == 0 && rmdir (dir) == 0);
  return unit_exit ();
}
