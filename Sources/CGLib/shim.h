#ifndef RELAVOI_CGLIB_SHIM_H
#define RELAVOI_CGLIB_SHIM_H
#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <malloc.h>

// libdispatch's main-queue hooks (what CoreFoundation uses to drive the main
// queue from its own run loop). Exported by libdispatch.so on Linux.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

// g_log_structured is a variadic macro; this takes the three fields we use.
static inline void relavoi_log(GLogLevelFlags level, const char *domain, const char *message) {
    g_log_structured(domain, level, "MESSAGE", "%s", message);
}
#endif
