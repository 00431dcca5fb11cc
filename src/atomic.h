/* Files that appear whole or not at all: data goes to a temporary file in
   the target's directory, is flushed to disk, and is renamed over the
   target.  A crash leaves at worst a hidden temporary file, never a
   truncated file under the final name, and the previous version of the
   file survives until the new one is complete.  */
#ifndef HEATSIM_ATOMIC_H
#define HEATSIM_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The temporary name of "NAME" is ".NAME.XXXXXX": this much longer.  */
enum { ATOMIC_TEMP_EXTRA = 8 };

/* The directory part of path ("." if none, "/" for the root) in buf (len
   bytes).  False, with errno ENAMETOOLONG, if it does not fit.  */
bool directory_of (const char *path, char *buf, size_t len);

/* Create an empty temporary file beside path ("DIR/.NAME.XXXXXX") and put
   its name in tmp (len bytes).  False, with errno set, on failure.  */
bool atomic_temp (const char *path, char *tmp, size_t len);

/* Flush tmp to disk and rename it to path, then flush the directory.
   False, with errno set, on failure (tmp is then removed).  */
bool atomic_commit (const char *tmp, const char *path);

/* atomic_temp, opened for writing with stdio.  NULL, with errno set, on
   failure (nothing is left behind then).  */
FILE *atomic_fopen (const char *path, char *tmp, size_t len);

/* Close fp, opened by atomic_fopen; if the writes went well (ok) and the
   close too, commit tmp to path, else remove tmp.  True when path holds
   the new file; otherwise errno says why (as it was on entry when !ok).  */
bool atomic_fclose (FILE *fp, bool ok, const char *tmp, const char *path);

/* Remove tmp after a failed write.  */
void atomic_abort (const char *tmp);

/* Create dir and its missing parents (mode 0777 less umask).  */
bool make_directories (const char *dir);

/* The length of dir's longest leading part (dir itself, or up to a '/')
   that exists now: 0 where none does.  */
size_t existing_prefix (const char *dir);

/* Remove the directories of dir beyond its first prefix bytes (those
   make_directories made after existing_prefix gave prefix), deepest
   first, while each is empty.  */
void unmake_directories (const char *dir, size_t prefix);

#endif
