import CGtk

/// A pointer to a GTK widget, as GTK's C API takes it.
public typealias GtkWidgetPointer = UnsafeMutablePointer<GtkWidget>

/// GTK's side of a list: a `GtkListView` over a count-only row model, a single
/// selection, a signal list item factory, inside a scrolled window.
///
/// It knows positions only; what a position shows is the backend's business.
/// Rows reach GTK as `items-changed` ranges (``splice(at:removing:adding:)``).
@MainActor
final class GtkRowList {
    /// The scrolled window holding the list view; put this in a window.
    let scrolledWindow: GtkWidgetPointer
    /// The `GtkListView`.
    let listView: GtkWidgetPointer
    private let model: OpaquePointer
    private let selection: OpaquePointer

    /// A list item got an item to show (GTK's `bind`).
    var onBind: (OpaquePointer) -> Void = { _ in }
    /// A list item lost its item (GTK's `unbind`).
    var onUnbind: (OpaquePointer) -> Void = { _ in }
    /// A row was activated (Enter, double click), by position.
    var onActivate: (Int) -> Void = { _ in }
    /// The selected position changed.
    var onSelectionChange: () -> Void = {}

    /// The signal handlers to disconnect when the list goes away: (instance, handler id).
    private var handlers: [(gpointer, gulong)] = []

    /// How many list item widgets GTK asked for (`setup`), since creation.
    private(set) var setupCount = 0
    /// How many times GTK bound a list item to a row, since creation.
    private(set) var bindCount = 0

    /// GTK must be initialized (``GtkMainLoop/start()``).
    init() {
        model = ck_row_model_new()
        // Both take ownership of the reference they are given.
        selection = gtk_single_selection_new(ck_row_model_as_list_model(model))
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
        let factory = gtk_signal_list_item_factory_new()!
        listView = gtk_list_view_new(ck_selection_model(UnsafeMutableRawPointer(selection)), factory)
        scrolledWindow = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(ck_scrolled_window(scrolledWindow), listView)
        gtk_widget_set_vexpand(scrolledWindow, 1)
        g_object_ref_sink(scrolledWindow)
        // The signal handlers point at `self` unretained: the backend that owns this list
        // owns the widgets too, and they do not outlive it.
        let me = Unmanaged.passUnretained(self).toOpaque()
        let signalFactory = factory
        handlers.append((UnsafeMutableRawPointer(signalFactory), ck_connect_list_item(signalFactory, "setup", { _, _, data in
            MainActor.assumeIsolated { GtkRowList.from(data).setupCount += 1 }
        }, me)))
        handlers.append((UnsafeMutableRawPointer(signalFactory), ck_connect_list_item(signalFactory, "bind", { _, item, data in
            MainActor.assumeIsolated {
                let list = GtkRowList.from(data)
                list.bindCount += 1
                list.onBind(item!)
            }
        }, me)))
        handlers.append((UnsafeMutableRawPointer(signalFactory), ck_connect_list_item(signalFactory, "unbind", { _, item, data in
            MainActor.assumeIsolated { GtkRowList.from(data).onUnbind(item!) }
        }, me)))
        handlers.append((UnsafeMutableRawPointer(listView), ck_connect_activate(OpaquePointer(listView), { _, position, data in
            MainActor.assumeIsolated { GtkRowList.from(data).onActivate(Int(position)) }
        }, me)))
        handlers.append((UnsafeMutableRawPointer(selection), ck_connect_selection_changed(ck_selection_model(UnsafeMutableRawPointer(selection)), { _, _, _, data in
            MainActor.assumeIsolated { GtkRowList.from(data).onSelectionChange() }
        }, me)))
    }

    isolated deinit {
        for (instance, handler) in handlers { ck_disconnect(instance, handler) }
        g_object_unref(scrolledWindow)
    }

    private static func from(_ data: gpointer?) -> GtkRowList {
        Unmanaged<GtkRowList>.fromOpaque(data!).takeUnretainedValue()
    }

    /// The number of rows GTK believes it has.
    var count: Int { Int(ck_row_model_count(model)) }

    /// Replaces `removed` rows at `position` with `added` rows: one `items-changed`.
    func splice(at position: Int, removing removed: Int, adding added: Int) {
        ck_row_model_splice(model, guint(position), guint(removed), guint(added))
    }

    /// The position of the row `item` shows, or `nil` when it is not bound.
    func position(of item: OpaquePointer) -> Int? {
        let position = gtk_list_item_get_position(item)
        return position == GTK_INVALID_LIST_POSITION ? nil : Int(position)
    }

    /// Shows `widget` in `item` (or nothing); `selectable` rows take selection and activation.
    func setChild(_ widget: GtkWidgetPointer?, of item: OpaquePointer, selectable: Bool) {
        gtk_list_item_set_child(item, widget)
        gtk_list_item_set_selectable(item, selectable ? 1 : 0)
        gtk_list_item_set_activatable(item, selectable ? 1 : 0)
    }

    /// The selected position, if any.
    var selectedPosition: Int? {
        get {
            let position = gtk_single_selection_get_selected(selection)
            return position == GTK_INVALID_LIST_POSITION ? nil : Int(position)
        }
        set {
            gtk_single_selection_set_selected(selection, newValue.map { guint($0) } ?? GTK_INVALID_LIST_POSITION)
        }
    }

    /// Scrolls so that the row at `position` shows, and moves the keyboard focus to it.
    func scroll(to position: Int) {
        ck_list_view_scroll_to(OpaquePointer(listView), guint(position))
    }
}
