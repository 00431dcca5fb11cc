/* Whether text is well-formed UTF-8, for the strings heatsim writes
   where readers expect it (HDF5 attributes, the XDMF index).  */
#ifndef HEATSIM_UTF8_H
#define HEATSIM_UTF8_H

#include <stdbool.h>
#include <stdint.h>

/* Whether s is well-formed UTF-8: no stray continuation byte, no
   truncated, overlong or surrogate sequence, nothing past U+10FFFF.  */
static inline bool
utf8_valid (const char *s)
{
  static const unsigned char lead_bits[4] = { 0x7f, 0x1f, 0x0f, 0x07 };
  static const uint32_t least[4] = { 0, 0x80, 0x800, 0x10000 };
  const unsigned char *p = (const unsigned char *) s;
  while (*p != '\0')
    {
      const int n = *p < 0x80 ? 0 : *p < 0xc0 ? -1 : *p < 0xe0 ? 1
                    : *p < 0xf0 ? 2 : *p < 0xf8 ? 3 : -1;
      if (n < 0)
        return false;
      uint32_t c = *p++ & lead_bits[n];
      for (int k = 0; k < n; ++k, ++p)
        {
          if ((*p & 0xc0) != 0x80)      /* the NUL at the end included */
            return false;
          c = c << 6 | (*p & 0x3f);
        }
      if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return false;
    }
  return true;
}

#endif
