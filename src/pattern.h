/* File-name patterns of the output files: text with one printf-style
   number conversion, '%%' for a percent sign, and no '/'.  The conversion
   is %d or %0Nd (N <= 20) for the step, or %f or %0Nf for the frame index
   (0, 1, 2, ... over the files of one run, for tools such as ffmpeg that
   read numbered sequences without gaps); one pattern has one of them.
   N digits at least, padded with zeros; %Nd and %Nf pad with zeros too,
   as ffmpeg reads %Nd, since printf's spaces do not belong in file
   names.  Options check them; output expands them for each file.  */
#ifndef HEATSIM_PATTERN_H
#define HEATSIM_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

enum pattern_kind {
  PATTERN_INVALID,
  PATTERN_STEP,           /* %d: numbered by step */
  PATTERN_FRAME           /* %f: numbered by frame index */
};

/* What number a pattern holds, or PATTERN_INVALID.  */
enum pattern_kind pattern_kind (const char *pattern);

/* Whether pattern is a valid file-name pattern (of either kind).  */
bool pattern_ok (const char *pattern);

/* "DIR/NAME" with NAME the pattern expanded for number (the step or the
   frame index, as the pattern's kind says), into buf of len bytes; false
   if the pattern is invalid or the name does not fit.  */
bool pattern_name (char *buf, size_t len, const char *dir,
                   const char *pattern, size_t number);

/* Whether two valid patterns can give the same name (for some numbers,
   whatever their zero padding or kind); false if either is invalid.  */
bool pattern_overlap (const char *a, const char *b);

/* Whether name (no directory) is what pattern gives for some number, and
   which: *number.  */
bool pattern_match (const char *pattern, const char *name, size_t *number);

#endif
