import CGtk
import CellKit

/// Builds and updates the GTK widget of rows showing a `Model`: the Carbon Five
/// factory idea, one builder shared by every window that shows a `Model`.
///
/// Register it with `ListController.register(_:for:)`. Rows without a
/// builder show their cell as text (`TextCell` and the placeholder
/// cells render out of the box).
///
/// ```swift
/// import CGtk
/// import CellKit
/// import CellKitGTK
///
/// struct Song: Identifiable, Sendable { let id: Int; var title: String }
///
/// let songRow = GtkCellBuilder<Song>(
///     make: { gtk_label_new(nil) },
///     update: { widget, song in gtk_label_set_text(ck_label(widget), song.title) }
/// )
///
/// @MainActor func showSongs(_ controller: ListController) {
///     controller.register(songRow, for: Song.self)
/// }
/// ```
public struct GtkCellBuilder<Model>: Sendable {
    /// The style of rows this builder serves (its own reuse pool).
    public let style: CellStyle
    let make: @MainActor @Sendable () -> GtkWidgetPointer
    let update: @MainActor @Sendable (GtkWidgetPointer, Model) -> Void
    let resource: (@MainActor @Sendable (GtkWidgetPointer, Model, ResourceUpdate) -> Void)?

    /// A builder: `make` creates an empty widget (GTK's `setup`), `update` shows a
    /// model in it (on bind and when the model's content changes), `resource` takes a
    /// resource (an avatar) that arrived for the model shown.
    public init(
        style: CellStyle = .default,
        make: @escaping @MainActor @Sendable () -> GtkWidgetPointer,
        update: @escaping @MainActor @Sendable (GtkWidgetPointer, Model) -> Void,
        resource: (@MainActor @Sendable (GtkWidgetPointer, Model, ResourceUpdate) -> Void)? = nil
    ) {
        self.style = style
        self.make = make
        self.update = update
        self.resource = resource
    }
}

/// The cell of rows registered with a ``GtkCellBuilder``: it holds the widget the
/// builder made (one type per model type, so each builder has its own reuse pool).
@MainActor
public final class GtkWidgetCell<Model>: GtkWidgetHosting {
    /// The widget made by the builder.
    public let widget: GtkWidgetPointer

    init(widget: GtkWidgetPointer) {
        self.widget = widget
        g_object_ref_sink(widget)
    }

    isolated deinit {
        g_object_unref(widget)
    }
}

/// A cell that brings its own GTK widget.
@MainActor
protocol GtkWidgetHosting: AnyObject {
    var widget: GtkWidgetPointer { get }
}

extension ListController {
    /// Shows rows of `Model` with the widgets `builder` makes and updates.
    public func register<Model>(_ builder: GtkCellBuilder<Model>, for model: Model.Type) {
        let source = CellSource.template(GtkWidgetCell<Model>.self, style: builder.style) {
            GtkWidgetCell<Model>(widget: builder.make())
        }
        registry.register(source, for: model) { (cell: GtkWidgetCell<Model>, model: Model) in
            builder.update(cell.widget, model)
        }
        if let resource = builder.resource {
            dispatch.onResource(model) { (cell: GtkWidgetCell<Model>, model: Model, update: ResourceUpdate) in
                resource(cell.widget, model, update)
            }
        }
    }
}

/// The widget of a `TextCell` (and of header rows): a title, a detail
/// line and an accessory.
@MainActor
final class GtkTextRow {
    let widget: GtkWidgetPointer
    private let title: GtkWidgetPointer
    private let detail: GtkWidgetPointer
    private let accessory: GtkWidgetPointer

    init(header: Bool = false) {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        g_object_ref_sink(widget)
        let lines = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_hexpand(lines, 1)
        title = gtk_label_new(nil)
        detail = gtk_label_new(nil)
        accessory = gtk_label_new(nil)
        for label in [title, detail] {
            gtk_label_set_xalign(ck_label(label), 0)
            gtk_label_set_ellipsize(ck_label(label), PANGO_ELLIPSIZE_END)
            gtk_box_append(ck_box(lines), label)
        }
        ck_widget_add_css_class(detail, "dim-label")
        gtk_box_append(ck_box(widget), lines)
        gtk_box_append(ck_box(widget), accessory)
        gtk_widget_set_margin_start(widget, 8)
        gtk_widget_set_margin_end(widget, 8)
        gtk_widget_set_margin_top(widget, header ? 10 : 4)
        gtk_widget_set_margin_bottom(widget, 4)
        if header {
            ck_widget_add_css_class(title, "heading")
            // GTK 4.8 gives the keyboard focus only to selectable rows or to a focusable
            // child: without this, the arrow keys stop for good at a header row.
            gtk_widget_set_focusable(widget, 1)
        }
    }

    isolated deinit {
        g_object_unref(widget)
    }

    /// Shows `text`, `detailText` and `accessory` (hiding what is `nil`).
    func show(_ text: String, detail detailText: String? = nil, accessory accessoryText: String? = nil) {
        gtk_label_set_text(ck_label(title), text)
        gtk_label_set_text(ck_label(detail), detailText ?? "")
        gtk_widget_set_visible(detail, detailText == nil ? 0 : 1)
        gtk_label_set_text(ck_label(accessory), accessoryText ?? "")
        gtk_widget_set_visible(accessory, accessoryText == nil ? 0 : 1)
    }

    /// A spinner before the lines, made for the first loading cell shown.
    private var spinner: GtkWidgetPointer?

    /// Shows what `cell` holds: a text cell's lines (with a spinner for a
    /// `LoadingCell` that animates) and its accessibility label (what a screen reader
    /// reads for the row), or the cell's description.
    func show(_ cell: AnyObject) {
        let loading = (cell as? LoadingCell)?.isAnimating ?? false
        if loading, spinner == nil {
            let made = gtk_spinner_new()!
            gtk_box_prepend(ck_box(widget), made)
            spinner = made
        }
        if let spinner {
            gtk_widget_set_visible(spinner, loading ? 1 : 0)
            gtk_spinner_set_spinning(OpaquePointer(spinner), loading ? 1 : 0)
        }
        if let cell = cell as? TextCell {
            show(cell.text, detail: cell.detailText, accessory: cell.accessory)
            ck_accessible_set_label(widget, cell.accessibilityLabel)
        } else {
            show(String(describing: cell))
        }
    }
}
