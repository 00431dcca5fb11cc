#include <config.h>

#include "offload_images.h"

#if defined HEATSIM_OFFLOAD && !defined HEATSIM_OFFLOAD_GPU
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The plugin's name for an image: mkstemp's template, fixed in
   libomptarget.  */
static const char image_prefix[] = "/tmp/tmpfile_";
enum { IMAGE_SUFFIX = 6 };

/* The image file a line of /proc/self/maps names (its last field, after
   spaces), cut out of line, or NULL.  A removed one is listed as "NAME
   (deleted)", which does not match.  */
static const char *
mapped_image (char *line)
{
  char *name = strstr (line, image_prefix);
  if (name == NULL || name == line || name[-1] != ' ')
    return NULL;
  name[strcspn (name, "\n")] = '\0';
  return strlen (name) == sizeof image_prefix - 1 + IMAGE_SUFFIX ? name
         : NULL;
}

/* Whether the section sh of the ELF file f is named want, names being
   the section of the sections' names.  */
static bool
section_named (FILE *f, const Elf64_Shdr *names, const Elf64_Shdr *sh,
               const char *want)
{
  const size_t length = strlen (want) + 1;
  char name[32];
  if (sh->sh_name >= names->sh_size || length > sizeof name
      || fseek (f, (long) (names->sh_offset + sh->sh_name), SEEK_SET) != 0
      || fread (name, 1, length, f) != length)
    return false;
  return memcmp (name, want, length) == 0;
}

/* The size of this executable's section .llvm.offloading, which holds
   the device images the runtime writes out (one a device), or its whole
   size where that cannot be read; 1 MiB where neither can.  */
static unsigned long long
image_bound (void)
{
  struct stat st;
  unsigned long long bound = stat ("/proc/self/exe", &st) == 0
                             ? (unsigned long long) st.st_size : 1ull << 20;
  FILE *f = fopen ("/proc/self/exe", "rb");
  if (f == NULL)
    return bound;
  Elf64_Ehdr eh;
  if (fread (&eh, sizeof eh, 1, f) == 1
      && memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
      && eh.e_ident[EI_CLASS] == ELFCLASS64
      && eh.e_shentsize == sizeof (Elf64_Shdr)
      && eh.e_shstrndx < eh.e_shnum)
    {
      Elf64_Shdr names;
      bool ok = fseek (f, (long) (eh.e_shoff + eh.e_shstrndx
                                  * sizeof names), SEEK_SET) == 0
                && fread (&names, sizeof names, 1, f) == 1;
      for (Elf64_Half k = 0; ok && k < eh.e_shnum; ++k)
        {
          Elf64_Shdr sh;
          ok = fseek (f, (long) (eh.e_shoff + k * sizeof sh), SEEK_SET) == 0
               && fread (&sh, sizeof sh, 1, f) == 1;
          if (ok && section_named (f, &names, &sh, ".llvm.offloading"))
            {
              bound = sh.sh_size;
              break;
            }
        }
    }
  fclose (f);
  return bound;
}

bool
offload_images_writable (char *err, size_t errlen)
{
  const unsigned long long image = image_bound ();
  struct rlimit limit;
  if (getrlimit (RLIMIT_FSIZE, &limit) == 0
      && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < image)
    {
      snprintf (err, errlen, "the offload runtime (LLVM's host plugin) "
                "writes each device's code to /tmp, up to %llu bytes, "
                "beyond the file size limit (ulimit -f) of %llu bytes: "
                "raise it, or use --offload host", image,
                (unsigned long long) limit.rlim_cur);
      return false;
    }
  struct statvfs tmp;
  if (statvfs ("/tmp", &tmp) == 0
      && (unsigned long long) tmp.f_bavail * tmp.f_frsize < image)
    {
      snprintf (err, errlen, "the offload runtime (LLVM's host plugin) "
                "writes each device's code to /tmp, up to %llu bytes, and "
                "/tmp has %llu bytes free: free some, or use --offload "
                "host", image,
                (unsigned long long) tmp.f_bavail * tmp.f_frsize);
      return false;
    }
  return true;
}

void
offload_images_remove (void)
{
  FILE *maps = fopen ("/proc/self/maps", "r");
  if (maps == NULL)
    return;
  char *line = NULL;
  size_t size = 0;
  while (getline (&line, &size, maps) != -1)
    {
      const char *image = mapped_image (line);
      /* Each image is mapped in several segments: the second unlink
         finds no name, harmlessly.  */
      if (image != NULL)
        unlink (image);
    }
  free (line);
  fclose (maps);
}
#else
bool
offload_images_writable (char *err, size_t errlen)
{
  (void) err;
  (void) errlen;
  return true;
}

void
offload_images_remove (void)
{
}
#endif
