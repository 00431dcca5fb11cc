/* How much memory the host can give this process now.  */
#ifndef HEATSIM_SYSMEM_H
#define HEATSIM_SYSMEM_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes available (Linux: MemAvailable; elsewhere free pages).  False when
   the system does not say, in which case no limit is assumed.  */
bool host_memory_available (size_t *bytes);

#endif
