/* Names of enumeration values, as the command line spells them: a table
   indexed by the value, searched by name.  */
#ifndef HEATSIM_NAMES_H
#define HEATSIM_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The index of name among the count entries of names; false if none.  */
static inline bool
name_index (const char *const *names, size_t count, const char *name,
            size_t *index)
{
  for (size_t k = 0; k < count; ++k)
    if (strcmp (name, names[k]) == 0)
      {
        *index = k;
        return true;
      }
  return false;
}

#endif
