// GTK 4 for Swift: the headers, plus inline C for what Swift cannot import
// (casting macros, g_signal_connect and its untyped callbacks, variadic calls).
#ifndef CGTK_H
#define CGTK_H

#include <gtk/gtk.h>

// MARK: The row model (implemented in CGtkRowModel)

/// A GListModel of `count` rows that stores nothing but the count; its items are
/// fresh empty GObjects, so GTK tracks rows by position.
typedef struct _CkRowModel CkRowModel;
CkRowModel *ck_row_model_new(void);
guint ck_row_model_count(CkRowModel *model);
/// Replaces `removed` rows at `position` by `added` rows and emits `items-changed` once.
void ck_row_model_splice(CkRowModel *model, guint position, guint removed, guint added);
static inline GListModel *ck_row_model_as_list_model(CkRowModel *model) { return G_LIST_MODEL(model); }

// MARK: Casts (the GTK_WIDGET()-style macros)

static inline GtkWidget *ck_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkWindow *ck_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkBox *ck_box(gpointer p) { return GTK_BOX(p); }
static inline GtkLabel *ck_label(gpointer p) { return GTK_LABEL(p); }
static inline GtkButton *ck_button(gpointer p) { return GTK_BUTTON(p); }
static inline GtkListView *ck_list_view(gpointer p) { return GTK_LIST_VIEW(p); }
static inline GtkListItem *ck_list_item(gpointer p) { return GTK_LIST_ITEM(p); }
static inline GtkScrolledWindow *ck_scrolled_window(gpointer p) { return GTK_SCROLLED_WINDOW(p); }
static inline GtkSelectionModel *ck_selection_model(gpointer p) { return GTK_SELECTION_MODEL(p); }
static inline GtkListItemFactory *ck_list_item_factory(gpointer p) { return GTK_LIST_ITEM_FACTORY(p); }
static inline GtkHeaderBar *ck_header_bar(gpointer p) { return GTK_HEADER_BAR(p); }
static inline gboolean ck_is_label(gpointer p) { return GTK_IS_LABEL(p); }
static inline gboolean ck_is_list_view(gpointer p) { return GTK_IS_LIST_VIEW(p); }
static inline GObject *ck_object(gpointer p) { return G_OBJECT(p); }

// MARK: Signals with typed callbacks (G_CALLBACK hides the signature from the compiler)

typedef void (*CkListItemCallback)(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data);
typedef void (*CkActivateCallback)(GtkListView *view, guint position, gpointer data);
typedef void (*CkSelectionChangedCallback)(GtkSelectionModel *model, guint position, guint count, gpointer data);
typedef gboolean (*CkCloseRequestCallback)(GtkWindow *window, gpointer data);
typedef void (*CkClickedCallback)(GtkButton *button, gpointer data);
typedef gboolean (*CkSourceCallback)(gpointer data);

/// `setup`, `bind`, `unbind` or `teardown` of a signal list item factory.
static inline gulong ck_connect_list_item(GtkSignalListItemFactory *factory, const char *signal, CkListItemCallback callback, gpointer data) {
    return g_signal_connect(factory, signal, G_CALLBACK(callback), data);
}
static inline gulong ck_connect_activate(GtkListView *view, CkActivateCallback callback, gpointer data) {
    return g_signal_connect(view, "activate", G_CALLBACK(callback), data);
}
static inline gulong ck_connect_selection_changed(GtkSelectionModel *model, CkSelectionChangedCallback callback, gpointer data) {
    return g_signal_connect(model, "selection-changed", G_CALLBACK(callback), data);
}
static inline gulong ck_connect_close_request(GtkWindow *window, CkCloseRequestCallback callback, gpointer data) {
    return g_signal_connect(window, "close-request", G_CALLBACK(callback), data);
}
static inline gulong ck_connect_clicked(GtkButton *button, CkClickedCallback callback, gpointer data) {
    return g_signal_connect(button, "clicked", G_CALLBACK(callback), data);
}
static inline void ck_disconnect(gpointer instance, gulong handler) {
    g_signal_handler_disconnect(instance, handler);
}
static inline guint ck_timeout_add(guint milliseconds, CkSourceCallback callback, gpointer data) {
    return g_timeout_add(milliseconds, callback, data);
}

// MARK: Calls that are variadic or macros

/// Scrolls `view` so that the row at `position` shows (GTK 4.8 has no gtk_list_view_scroll_to).
static inline void ck_list_view_scroll_to(GtkListView *view, guint position) {
    gtk_widget_activate_action(GTK_WIDGET(view), "list.scroll-to-item", "u", position);
}
static inline void ck_widget_add_css_class(GtkWidget *widget, const char *name) { gtk_widget_add_css_class(widget, name); }
/* gtk_accessible_update_property is variadic: the accessible label of a widget (what screen readers read). */
static inline void ck_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline GtkAdjustment *ck_list_view_vadjustment(GtkListView *view) {
    return gtk_scrollable_get_vadjustment(GTK_SCROLLABLE(view));
}

#endif
