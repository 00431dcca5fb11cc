/* The material and the heat sources of a run: per node, the conductivity
   k (W/(m K)), the volumetric heat capacity rho c_p (J/(m^3 K)) and the
   heat source q (W/m^3) of rho c_p dT/dt = div (k grad T) + q, on this
   rank's part of the grid with its halo ring, so that every face of the
   part has both of its nodes.  A run without material or source options
   is nondimensional: k = alpha, rho c_p = 1, q = 0 (the constant-
   coefficient kernels).  Where the inputs come from (options, maps,
   built-in materials) is material.c's business; what the solvers see is
   this.  */
#ifndef HEATSIM_MATERIAL_H
#define HEATSIM_MATERIAL_H

#include <stdbool.h>

#include "field.h"

struct config;
struct domain;
struct material_options;
struct parser;

struct material {
  /* Some coefficient varies from node to node, or a source is given:
     the variable-coefficient operator (operator.h) runs.  false: k and
     rho c_p are uniform and q = 0, and the constant-coefficient kernels
     run with alpha = k / (rho c_p) (fields below then have no data).  */
  bool variable;
  double conductivity_uniform;    /* k where uniform (alpha without SI) */
  double capacity_uniform;        /* rho c_p where uniform (1 without SI) */
  /* Padded like the part.  The halo holds the neighbouring node: of the
     neighbouring rank, of the opposite edge on a periodic axis, and at
     the grid's edge the edge node's own value.  */
  struct field conductivity;
  struct field capacity;
  struct field source;            /* data NULL where no source is given */
  double diffusivity_max;         /* largest k / (rho c_p) of the whole
                                     grid: the explicit stability limit */
};

/* The conductance of the face between nodes of conductivity a (west or
   south) and b: the harmonic mean 2 a b / (a + b), written so that it is
   exactly a where b = a, and always taken with the west or south node
   first, so that the two ranks (or the two periodic edges) that share a
   face compute it bitwise alike.  */
static inline double
heat_face_conductance (double a, double b)
{
  return a * (2.0 * b / (a + b));
}

/* The material of cfg on d's part of the grid.  Returns 0 or a
   heatsim_status after a message naming the option, file, key or cell.  */
int material_build (struct material *m, const struct config *cfg,
                    const struct domain *d);
void material_free (struct material *m);

/* Option parsing (options.c): --material KEY=SPEC, SPEC a built-in
   material's name or k=K,rho=RHO,cp=CP, added to m's definitions (a key
   defined again takes the later definition, as an edge given again by
   --bc does).  False with a message in p.  */
bool material_add_def (struct parser *p, struct material_options *m,
                       const char *text);

/* The rules among the material, source and initial-temperature options
   and with the others (--alpha, --init, --restart); an SI material
   makes the unit K unless --temperature-unit says otherwise.  */
bool material_check_options (struct parser *p, struct config *c);

/* The first option of an SI material given (conductivity, density,
   heat-capacity or material-map, without the dashes), or NULL where the
   options give none (nondimensional, or sources alone).  */
const char *material_si_option (const struct material_options *m);

/* Once the grid is known or is to be taken from a map (derive.h): read
   and check the maps, give the grid a map's size where nothing fixes it,
   and derive alpha (the largest k / (rho c_p), the uniform material's
   own), whether the material varies, and the largest diffusivity.
   False with a message naming the option, file, key or cell in err.  */
bool material_derive (struct config *c, char *err, size_t errlen);

/* --restart: the material of the checkpoint meta describes is the run's
   (its fields, or the alpha cfg has from it); material and source
   options given must describe the same material, or the run is refused
   (HEATSIM_USAGE, after a message naming the option and the first cell
   that differs).  Returns 0 or a heatsim_status.  */
struct checkpoint_meta;
int material_restart (struct config *cfg, const struct checkpoint_meta *meta);

/* --initial-temperature: fill the interior of u with it and return true;
   false (u untouched) without it.  */
bool material_initial_field (const struct config *cfg, struct field *u);

#endif
