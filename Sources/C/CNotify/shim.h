#include <libnotify/notify.h>

/* The server's id of a notification: libnotify 0.8 keeps it only as the
   GObject property "id" (g_object_get/set are variadic, so not callable from Swift). */
static inline gint relavoi_notification_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return id;
}

static inline void relavoi_notification_set_id(NotifyNotification *notification, gint id) {
    g_object_set(notification, "id", id, NULL);
}
