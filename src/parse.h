/* Parsers of option values: whole numbers, reals, lists and pairs, each
   strict (no signs where none belong, no trailing text, no overflow).  On
   failure they leave a message naming the option and the text in the
   parser's buffer and return false (0 for counts), so that a caller can
   fail with one call.  No I/O, no global state: fuzzable on their own.  */
#ifndef HEATSIM_PARSE_H
#define HEATSIM_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* Where a message goes, and whether it is about a file.  */
struct parser {
  char *err;
  size_t errlen;
  bool file;   /* the failure is an input file that cannot be opened or
                  read (status bad_file), not the value given */
};

/* Write a printf-style message into p's buffer; returns false.  */
bool parse_fail (struct parser *p, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* As parse_fail, for an input file that cannot be opened or read: the
   run ends with status bad_file rather than usage_error.  */
bool parse_fail_file (struct parser *p, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* In each parser, opt names the option for the message, and the value is
   read from text up to end (NULL: the whole string).  */

/* A whole number in [min, max].  */
bool parse_whole (struct parser *p, const char *opt, const char *text,
                  const char *end, unsigned long long min,
                  unsigned long long max, unsigned long long *value);

/* A count of cells or steps: at least 1.  */
bool parse_count (struct parser *p, const char *opt, const char *text,
                  const char *end, size_t *value);

/* Whether text, up to stop, is a hexadecimal number (0x10, -0X1p3),
   which strtod reads but no one means by a physical value: the number
   readers below and schedule files refuse it.  */
bool is_hexadecimal (const char *text, const char *stop);

/* A finite real number (subnormal underflow is out of range too), and one
   greater than zero.  */
bool parse_real (struct parser *p, const char *opt, const char *text,
                 const char *end, double *value);
bool parse_positive (struct parser *p, const char *opt, const char *text,
                     const char *end, double *value);

/* Between min and max comma-separated reals into values; returns how
   many, or 0 after an error.  */
size_t parse_reals (struct parser *p, const char *opt, const char *text,
                    size_t min, size_t max, double *values);

/* "N" or "NxM" (also "NXM"): two counts, the second defaulting to the
   first; and the same for two positive lengths.  */
bool parse_count_pair (struct parser *p, const char *opt, const char *text,
                       size_t *a, size_t *b);
bool parse_length_pair (struct parser *p, const char *opt, const char *text,
                        double *a, double *b);

/* v in the fewest significant digits that read back as v, as %g
   writes them ("0.1", not "0.10000000000000001"; "1e+06"; "1.0000001",
   not %g's "1"): a message that quotes a value must show why it was
   refused.  */
void format_real (char *buf, size_t len, double v);

/* "LO,HI" with LO < HI.  */
bool parse_range (struct parser *p, const char *opt, const char *text,
                  double range[2]);

#endif
