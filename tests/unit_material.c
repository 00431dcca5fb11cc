/* Unit tests of material_build (src/material.c): the part's ring holds
   the edge node's own value beyond a Dirichlet edge, the mirror image of
   zero-flux edge nodes, and the opposite edge's node on a periodic
   axis; a run without material options is k = alpha,
   rho c_p = 1 and not variable; a uniform SI material is not variable;
   --source-rect marks the nodes inside its rectangle.  */
#include <config.h>

#include <stdarg.h>
#include <string.h>

#include "domain.h"
#include "material.h"
#include "options.h"
#include "run_config.h"
#include "unit.h"

/* Parse a NULL-terminated list of arguments into c; false when
   refused.  */
static bool
parse (struct config *c, ...)
{
  char *argv[32] = { (char *) "heatsim" };
  int argc = 1;
  va_list ap;
  va_start (ap, c);
  for (char *a; (a = va_arg (ap, char *)) != NULL && argc < 31;)
    argv[argc++] = a;
  va_end (ap);
  argv[argc] = NULL;
  char err[512];
  const bool ok = options_parse (argc, argv, c, err, sizeof err)
                  == OPTIONS_RUN;
  if (!ok)
    fprintf (stderr, "refused: %s\n", err);
  return ok;
}

static double
at (const struct field *f, size_t i, size_t j)
{
  return f->data[field_index (f, i, j)];
}

/* A 5 x 4 grid of unit spacing: node i at x = i with Dirichlet edges,
   i - 1 with periodic or zero-flux ones (issue 24: their nodes lie on
   the edge, and a period holds 5 nodes).  The rectangle holds node
   (1, 1) alone, with zero-flux edges (2, 1) too.  */
static void
test_ring (const char *boundary)
{
  const bool periodic = strcmp (boundary, "periodic") == 0;
  const bool mirror = strcmp (boundary, "neumann") == 0;
  struct config c;
  CHECK (parse (&c, "-g", "5x4", "-L", periodic ? "5x4" : mirror ? "4x3"
                : "6x5", "-n", "1", "--source-rect",
                mirror ? "0,1.5,0,0.5,7" : periodic ? "0,0.5,0,0.5,7"
                : "0,1.5,0,1.5,7", "-b", boundary, (char *) NULL));
  struct domain d;
  char err[256];
  CHECK (domain_split (&d, c.nx, c.ny, periodic, err, sizeof err));
  struct material m;
  CHECK (material_build (&m, &c, &d) == 0);
  CHECK (m.variable);
  CHECK (m.source.data != NULL && m.source.nx == 5 && m.source.ny == 4);
  CHECK (at (&m.source, 1, 1) == 7.0);
  CHECK (at (&m.source, 2, 1) == (mirror ? 7.0 : 0.0));
  CHECK (at (&m.source, 3, 1) == 0.0 && at (&m.source, 1, 2) == 0.0);
  /* The ring: beyond a Dirichlet edge the edge node itself, beyond a
     zero-flux edge's nodes their mirror image (the node beyond them),
     across a periodic axis the opposite edge's (node 5 of the row, node
     4 of the column).  */
  CHECK (at (&m.source, 0, 1) == (periodic ? 0.0 : 7.0));
  CHECK (at (&m.source, 1, 0) == (periodic || mirror ? 0.0 : 7.0));
  CHECK (at (&m.source, 0, 0) == (periodic || mirror ? 0.0 : 7.0));
  CHECK (at (&m.source, 6, 1) == (periodic ? 7.0 : 0.0));
  CHECK (at (&m.source, 1, 5) == (periodic ? 7.0 : 0.0));
  CHECK (at (&m.source, 6, 5) == (periodic ? 7.0 : 0.0));
  /* Nondimensional: k = alpha, rho c_p = 1 on every node, ring too.  */
  CHECK (at (&m.conductivity, 0, 0) == c.alpha
         && at (&m.conductivity, 3, 2) == c.alpha);
  CHECK (at (&m.capacity, 6, 5) == 1.0);
  CHECK (m.diffusivity_max == c.alpha);
  material_free (&m);
  CHECK (m.source.data == NULL);
  options_free (&c);
}

static void
test_uniform (void)
{
  struct config c;
  struct domain d;
  struct material m;
  char err[256];
  CHECK (parse (&c, "-g", "8", "-a", "0.25", "-n", "1", (char *) NULL));
  CHECK (domain_split (&d, c.nx, c.ny, false, err, sizeof err));
  CHECK (material_build (&m, &c, &d) == 0);
  CHECK (!m.variable && m.conductivity.data == NULL);
  CHECK (m.conductivity_uniform == 0.25 && m.capacity_uniform == 1.0);
  CHECK (m.diffusivity_max == 0.25);
  material_free (&m);
  options_free (&c);
  CHECK (parse (&c, "-g", "8", "-n", "1", "--dt", "1e-9", "--conductivity",
                "3", "--density", "2", "--heat-capacity", "5",
                (char *) NULL));
  CHECK (material_build (&m, &c, &d) == 0);
  CHECK (!m.variable && m.source.data == NULL);
  CHECK (m.conductivity_uniform == 3.0 && m.capacity_uniform == 10.0);
  CHECK (m.diffusivity_max == 0.3 && c.alpha == 0.3);
  material_free (&m);
  options_free (&c);
}

int
main (int argc, char **argv)
{
  domain_start (&argc, &argv);
  test_ring ("dirichlet");
  test_ring ("periodic");
  test_ring ("neumann");
  test_uniform ();
  const int status = unit_exit ();
  domain_stop ();
  return status;
}
