/* Where a result came from: the command line and the build that produced
   it.  Recorded in every checkpoint, PNG text chunk and JSON report so a
   file can be traced back to the run that wrote it.  */
#ifndef HEATSIM_PROVENANCE_H
#define HEATSIM_PROVENANCE_H

struct provenance {
  char *command_line;        /* argv, shell-quoted and joined by spaces;
                                owned (provenance_free) */
  const char *version;       /* "heatsim 0.1.0" */
  const char *device_code;   /* offload targets compiled in */
  const char *mpi;           /* "yes (...)" or "no" */
  char *case_text;           /* the run's settings as a case file
                                (--print-case), or NULL: unknown (a
                                refused command line); owned */
};

/* Fill p from argv and the build strings (static, not copied), with no
   case_text yet.  Returns 0, or -1 when out of memory (p->command_line
   is then NULL).  */
int provenance_init (struct provenance *p, int argc, char *const argv[],
                     const char *version, const char *device_code,
                     const char *mpi);
void provenance_free (struct provenance *p);

#endif
