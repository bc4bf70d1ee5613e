#ifndef RELAVOI_CGLIB_SHIM_H
#define RELAVOI_CGLIB_SHIM_H
#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <malloc.h>
#include <libintl.h>
#include <locale.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

// Whether the calling thread is the process's main thread (its thread id is
// the process id); Foundation's Thread.isMainThread without Foundation.
static inline int relavoi_is_main_thread(void) { return syscall(SYS_gettid) == getpid(); }

// libdispatch's main-queue hooks (what CoreFoundation uses to drive the main
// queue from its own run loop). Exported by libdispatch.so on Linux.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

// Swift concurrency's global executor (libswift_Concurrency). Every awaited
// continuation resumes through it before hopping to the task's actor; on Linux
// that runs a libdispatch worker, and the first one starts libdispatch's worker
// monitor, a 1 s timer for the life of the process. The agent runs all its
// tasks on the main thread anyway, so it sends these jobs to the main executor
// (libdispatch's main queue, drained by the GLib loop) instead. The same hook
// SwiftNIO installs for its event loops; both functions use the Swift calling
// convention. Delayed jobs (Task.sleep) have hooks of their own, not set here:
// they would still start a worker, and the agent has none.
typedef void (*relavoi_swift_enqueue_original)(void *job) __attribute__((swiftcall));
typedef void (*relavoi_swift_enqueue_global_hook)(void *job, relavoi_swift_enqueue_original original)
    __attribute__((swiftcall));
extern relavoi_swift_enqueue_global_hook swift_task_enqueueGlobal_hook;
extern void swift_task_enqueueMainExecutor(void *job) __attribute__((swiftcall));

static inline __attribute__((swiftcall)) void
relavoi_enqueue_global_on_main(void *job, relavoi_swift_enqueue_original original) {
    (void)original;
    swift_task_enqueueMainExecutor(job);
}

static inline void relavoi_run_global_jobs_on_main_executor(void) {
    swift_task_enqueueGlobal_hook = relavoi_enqueue_global_on_main;
}

// g_log_structured is a variadic macro; this takes the three fields we use.
static inline void relavoi_log(GLogLevelFlags level, const char *domain, const char *message) {
    g_log_structured(domain, level, "MESSAGE", "%s", message);
}
#endif
