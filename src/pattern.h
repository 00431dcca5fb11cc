/* File-name patterns of the output files: text with one printf-style step
   conversion (%d or %0Nd, N <= 20), '%%' for a percent sign, and no '/'.
   Options check them; output expands them for each step.  */
#ifndef HEATSIM_PATTERN_H
#define HEATSIM_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

/* Whether pattern is a valid file-name pattern.  */
bool pattern_ok (const char *pattern);

/* "DIR/NAME" with NAME the pattern expanded for step, into buf of len
   bytes; false if the pattern is invalid or the name does not fit.  */
bool pattern_name (char *buf, size_t len, const char *dir,
                   const char *pattern, size_t step);

/* Whether two valid patterns can give the same name (for some steps,
   whatever their zero padding); false if either is invalid.  */
bool pattern_overlap (const char *a, const char *b);

/* Whether name (no directory) is what pattern gives for some step, and
   which: *step.  */
bool pattern_match (const char *pattern, const char *name, size_t *step);

#endif
