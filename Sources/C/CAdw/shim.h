#include <adwaita.h>

/* GTK's accessible-property setters are variadic (not callable from Swift). */
static inline void relavoi_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void relavoi_accessible_set_description(GtkWidget *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/* G_OBJECT_TYPE_NAME is a macro. */
static inline const char *relavoi_type_name(GtkWidget *widget) {
    return G_OBJECT_TYPE_NAME(widget);
}
