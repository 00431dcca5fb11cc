/* Case files (--case): the long options of a run, one a line, as
   "name = value" or a bare "name" for a flag; blank lines, and lines
   whose first non-blank character is '#', are skipped.  The value is the
   text after the first '=', blanks (spaces, tabs) at its ends removed; no
   quoting.  "case = FILE" includes another case file there, FILE
   relative to the including file's directory, as the files its caller
   reads are (case_file_resolve).  This module reads the
   lines and follows the includes (no cycles, at most CASE_DEPTH_MAX
   deep); what a setting means is its caller's (options.c), which applies
   each one through a callback.  */
#ifndef HEATSIM_CASEFILE_H
#define HEATSIM_CASEFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Longest line, and deepest nesting of includes.  */
#define CASE_LINE_MAX 4096
#define CASE_DEPTH_MAX 16

/* Apply one setting (value NULL for a bare name; it lives only during
   the call) of the case file at path (a name relative to the current
   directory, or absolute); name NULL: the file at path is opened (each
   file read, includes too, before its settings).  False with a message
   in err (errlen bytes), which case_file_read prefixes with the file
   and line of a setting, or, name NULL, with the include or --case
   that read the file.  */
typedef bool case_setting_fn (void *context, const char *name,
                              const char *value, const char *path,
                              char *err, size_t errlen);

/* value, a setting of the case file at path, with its relative file
   names made relative to that file's directory (absolute ones stay):
   the whole value, or where schedules is true each @FILE that starts
   it or follows a ':', ',' or '=' (--bc's SPEC, H,TINF).  Allocated;
   NULL when memory is short.  */
char *case_file_resolve (const char *path, const char *value,
                         bool schedules);

/* Whether value holds a relative file name that case_file_resolve
   would make relative to a directory.  */
bool case_file_names_relative (const char *value, bool schedules);

/* Whether case_file_resolve (path, value, schedules) would put a ','
   of path's directory into an @FILE name that another value follows
   (--bc's convection:@H,TINF), where it would end the name early.  */
bool case_file_splits_name (const char *path, const char *value,
                            bool schedules);

/* Read the case file at path and apply its settings in order.  False
   with a message in err naming the file, and the line where there is
   one: "PATH:LINE: ..."; *unusable then says whether a case file could
   not be opened or read (status bad_file), rather than a setting in it
   refused.  */
bool case_file_read (const char *path, case_setting_fn *apply,
                     void *context, char *err, size_t errlen,
                     bool *unusable);

#endif
