import CGtk
import CellKit

/// A top-level window around a ``GtkListBackend``: a header bar with the title
/// and a refresh button, the list, and a status line.
///
/// ```swift
/// import CellKit
/// import CellKitGTK
///
/// @MainActor func runFeed(_ controller: ListController, refresh: @escaping @MainActor () -> Void) {
///     let window = GtkListWindow(title: "Feed")
///     window.onRefresh = refresh
///     controller.attach(to: window.list)
///     window.present()
///     GtkMainLoop.run(until: { window.isClosed })
/// }
/// ```
@MainActor
public final class GtkListWindow {
    /// The list shown; attach a `ListController` to it.
    public let list: GtkListBackend
    /// The `GtkWindow`.
    public let window: GtkWidgetPointer
    /// Called when the refresh button is clicked; the button is hidden while `nil`.
    public var onRefresh: (@MainActor () -> Void)? {
        didSet { gtk_widget_set_visible(refreshButton, onRefresh == nil ? 0 : 1) }
    }
    /// Whether the user closed the window (or ``close()`` was called).
    public private(set) var isClosed = false

    private let refreshButton: GtkWidgetPointer
    private let statusLabel: GtkWidgetPointer
    private var refreshHandler: gulong = 0
    private var closeHandler: gulong = 0

    /// A window titled `title`, `width` × `height` points, holding `list`; call ``present()`` to show it.
    public init(title: String, list: GtkListBackend = GtkListBackend(), width: Int = 480, height: Int = 640) {
        GtkMainLoop.start()
        self.list = list
        window = gtk_window_new()
        g_object_ref_sink(window)
        gtk_window_set_title(ck_window(window), title)
        gtk_window_set_default_size(ck_window(window), Int32(width), Int32(height))
        let header = gtk_header_bar_new()!
        refreshButton = gtk_button_new_from_icon_name("view-refresh-symbolic")
        gtk_widget_set_tooltip_text(refreshButton, "Refresh")
        gtk_widget_set_visible(refreshButton, 0)
        gtk_header_bar_pack_start(ck_header_bar(header), refreshButton)
        gtk_window_set_titlebar(ck_window(window), header)
        statusLabel = gtk_label_new(nil)
        gtk_label_set_xalign(ck_label(statusLabel), 0)
        gtk_label_set_ellipsize(ck_label(statusLabel), PANGO_ELLIPSIZE_END)
        gtk_widget_set_margin_start(statusLabel, 8)
        gtk_widget_set_margin_top(statusLabel, 4)
        gtk_widget_set_margin_bottom(statusLabel, 4)
        gtk_widget_set_visible(statusLabel, 0)
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(ck_box(column), list.widget)
        gtk_box_append(ck_box(column), statusLabel)
        gtk_window_set_child(ck_window(window), column)

        let me = Unmanaged.passUnretained(self).toOpaque()
        refreshHandler = ck_connect_clicked(ck_button(refreshButton), { _, data in
            MainActor.assumeIsolated { Unmanaged<GtkListWindow>.fromOpaque(data!).takeUnretainedValue().onRefresh?() }
        }, me)
        closeHandler = ck_connect_close_request(ck_window(window), { _, data in
            MainActor.assumeIsolated { Unmanaged<GtkListWindow>.fromOpaque(data!).takeUnretainedValue().isClosed = true }
            return 0 // let GTK close it
        }, me)
    }

    /// Closes the window if it is open: GTK's signals must not reach a freed window object.
    isolated deinit {
        ck_disconnect(refreshButton, refreshHandler)
        ck_disconnect(window, closeHandler)
        if !isClosed { gtk_window_destroy(ck_window(window)) }
        g_object_unref(window)
    }

    /// The status line's text; `nil` hides it.
    public var status: String? {
        didSet {
            gtk_label_set_text(ck_label(statusLabel), status ?? "")
            gtk_widget_set_visible(statusLabel, status == nil ? 0 : 1)
        }
    }

    /// Shows the window and gives the list the keyboard focus.
    public func present() {
        gtk_window_present(ck_window(window))
        _ = gtk_widget_grab_focus(list.listViewWidget)
    }

    /// Closes the window.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        gtk_window_destroy(ck_window(window))
    }
}
