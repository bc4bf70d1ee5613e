#include <adwaita.h>
#include <string.h>

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

/* A secret typed into a hidden editable kept off the accessibility bus. GTK 4.8 sends an
 * editable's inserted and deleted characters in AT-SPI text-changed events and answers the
 * Text interface's GetText with them, hidden or not (libadwaita 1.2's password row is role
 * "text"), so a screen reader read a typed secret aloud. While the text is hidden, its
 * GtkText holds one "•" per character, as it draws it, and the characters themselves are
 * kept here (zeroed when freed); shown (the row's show button), the GtkText holds them, as
 * any visible text. relavoi_secret_text reads them. */
typedef struct {
    GString *secret;
    gboolean passing;
} RelavoiSecretText;

static inline GtkText *relavoi_text_of(GtkWidget *editable) {
    GtkEditable *delegate = GTK_EDITABLE(editable);
    for (int hops = 0; delegate != NULL && hops < 6; hops++) {
        if (GTK_IS_TEXT(delegate))
            return GTK_TEXT(delegate);
        delegate = gtk_editable_get_delegate(delegate);
    }
    return NULL;
}

static inline void relavoi_secret_free(gpointer data) {
    RelavoiSecretText *kept = data;
    memset(kept->secret->str, 0, kept->secret->allocated_len);
    g_string_free(kept->secret, TRUE);
    g_free(kept);
}

static inline char *relavoi_secret_dots(glong count) {
    GString *dots = g_string_sized_new(count * 3);
    for (glong i = 0; i < count; i++)
        g_string_append(dots, "\u2022");
    return g_string_free(dots, FALSE);
}

static inline void relavoi_secret_inserted(GtkEditable *text, const char *chars, int length, int *position, gpointer data) {
    RelavoiSecretText *kept = data;
    if (kept->passing)
        return;
    if (length < 0)
        length = (int)strlen(chars);
    glong count = g_utf8_strlen(chars, length);
    if (count == 0)
        return;
    glong held = g_utf8_strlen(kept->secret->str, -1);
    glong at = (*position < 0 || *position > held) ? held : *position;
    g_string_insert_len(kept->secret, g_utf8_offset_to_pointer(kept->secret->str, at) - kept->secret->str, chars, length);
    if (gtk_text_get_visibility(GTK_TEXT(text)))
        return;
    /* Hidden: the dots go in instead (and in GTK's text-changed event). */
    g_signal_stop_emission_by_name(text, "insert-text");
    char *dots = relavoi_secret_dots(count);
    kept->passing = TRUE;
    gtk_editable_insert_text(text, dots, -1, position);
    kept->passing = FALSE;
    g_free(dots);
}

static inline void relavoi_secret_deleted(GtkEditable *text, int start, int end, gpointer data) {
    RelavoiSecretText *kept = data;
    if (kept->passing)
        return;
    glong held = g_utf8_strlen(kept->secret->str, -1);
    if (end < 0 || end > held)
        end = (int)held;
    if (start < 0)
        start = 0;
    if (start >= end)
        return;
    char *from = g_utf8_offset_to_pointer(kept->secret->str, start);
    char *to = g_utf8_offset_to_pointer(kept->secret->str, end);
    g_string_erase(kept->secret, from - kept->secret->str, to - from);
    /* The bytes the erase moved down leave a copy past the end: zeroed. */
    memset(kept->secret->str + kept->secret->len, 0, to - from);
}

static inline void relavoi_secret_visibility(GObject *object, GParamSpec *pspec, gpointer data) {
    RelavoiSecretText *kept = data;
    GtkEditable *text = GTK_EDITABLE(object);
    int position = gtk_editable_get_position(text);
    kept->passing = TRUE;
    if (gtk_text_get_visibility(GTK_TEXT(object))) {
        gtk_editable_set_text(text, kept->secret->str);
    } else {
        char *dots = relavoi_secret_dots(g_utf8_strlen(kept->secret->str, -1));
        gtk_editable_set_text(text, dots);
        g_free(dots);
    }
    kept->passing = FALSE;
    gtk_editable_set_position(text, position);
}

/* Keeps what is typed into EDITABLE (a password row or entry) off the accessibility bus
 * while hidden; false when it has no GtkText. */
static inline gboolean relavoi_secret_keep(GtkWidget *editable) {
    GtkText *text = relavoi_text_of(editable);
    if (text == NULL)
        return FALSE;
    RelavoiSecretText *kept = g_new0(RelavoiSecretText, 1);
    kept->secret = g_string_new(gtk_editable_get_text(GTK_EDITABLE(text)));
    g_object_set_data_full(G_OBJECT(text), "relavoi-secret-text", kept, relavoi_secret_free);
    g_signal_connect(text, "insert-text", G_CALLBACK(relavoi_secret_inserted), kept);
    g_signal_connect(text, "delete-text", G_CALLBACK(relavoi_secret_deleted), kept);
    g_signal_connect(text, "notify::visibility", G_CALLBACK(relavoi_secret_visibility), kept);
    relavoi_secret_visibility(G_OBJECT(text), NULL, kept);
    return TRUE;
}

/* What was typed into an editable given to relavoi_secret_keep ("" when none). */
static inline const char *relavoi_secret_text(GtkWidget *editable) {
    GtkText *text = relavoi_text_of(editable);
    RelavoiSecretText *kept = text ? g_object_get_data(G_OBJECT(text), "relavoi-secret-text") : NULL;
    return kept ? kept->secret->str : "";
}
