#ifndef RELAVOI_LOADED_OBJECTS_H
#define RELAVOI_LOADED_OBJECTS_H
#include <stdint.h>

// Pins every ELF object the dynamic loader has loaded (the executable, ld.so,
// the shared libraries, what was dlopen'ed) so that none can be unloaded from
// now on, then calls `segment` with the page-aligned address range of each
// read-only load segment (PF_R without PF_W) of the pinned objects. Those
// ranges stay mapped to the same file for the life of the process. Objects
// with text relocations are left out (their read-only segments were written
// at load). Returns the number of segments reported.
int relavoi_pinned_readonly_segments(void (*segment)(void *context, uintptr_t start, uintptr_t end), void *context);

// How many objects the loader has loaded and unloaded so far (dlpi_adds +
// dlpi_subs): unchanged, so is the set of loaded objects, and the segments
// reported before still hold (pinned objects never go). Cheap: one callback.
unsigned long long relavoi_loaded_objects_generation(void);

#endif
