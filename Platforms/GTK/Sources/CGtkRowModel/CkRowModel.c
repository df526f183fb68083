// A GListModel that stores only its count. GtkListView asks for items only for the
// rows it shows (plus its margin), so a million rows cost nothing until bound.
#include "../CGtk/CGtk.h"

struct _CkRowModel {
    GObject parent_instance;
    guint count;
};

typedef struct { GObjectClass parent_class; } CkRowModelClass;

static void ck_row_model_list_model_init(GListModelInterface *iface);

G_DEFINE_TYPE_WITH_CODE(CkRowModel, ck_row_model, G_TYPE_OBJECT,
                        G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, ck_row_model_list_model_init))

static GType ck_row_model_get_item_type(GListModel *list) { return G_TYPE_OBJECT; }

static guint ck_row_model_get_n_items(GListModel *list) { return ((CkRowModel *)list)->count; }

static gpointer ck_row_model_get_item(GListModel *list, guint position) {
    if (position >= ((CkRowModel *)list)->count) return NULL;
    // A new object per request: GTK keeps the one it got for as long as it tracks the row.
    return g_object_new_with_properties(G_TYPE_OBJECT, 0, NULL, NULL);
}

static void ck_row_model_list_model_init(GListModelInterface *iface) {
    iface->get_item_type = ck_row_model_get_item_type;
    iface->get_n_items = ck_row_model_get_n_items;
    iface->get_item = ck_row_model_get_item;
}

static void ck_row_model_class_init(CkRowModelClass *klass) {}
static void ck_row_model_init(CkRowModel *self) { self->count = 0; }

CkRowModel *ck_row_model_new(void) {
    return (CkRowModel *)g_object_new_with_properties(ck_row_model_get_type(), 0, NULL, NULL);
}

guint ck_row_model_count(CkRowModel *model) { return model->count; }

void ck_row_model_splice(CkRowModel *model, guint position, guint removed, guint added) {
    g_return_if_fail(position <= model->count && removed <= model->count - position);
    if (removed == 0 && added == 0) return;
    model->count = model->count - removed + added;
    g_list_model_items_changed(G_LIST_MODEL(model), position, removed, added);
}
