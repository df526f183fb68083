import CGtk

/// A row as GTK shows it: where it is and the texts of its labels.
public struct GtkShownRow: Hashable, Sendable, CustomStringConvertible {
    /// The top of the row, in points from the top of the list's viewport.
    public var y: Double
    /// The row's height, in points.
    public var height: Double
    /// The texts of its visible labels, in widget order.
    public var texts: [String]

    public var description: String { "\(Int(y)): \(texts.joined(separator: " | "))" }
}

extension GtkListBackend {
    /// The rows GTK draws inside the viewport now, top to bottom, read from GTK's
    /// widget tree (not from CellKit's state): what a person sees.
    public func shownRows() -> [GtkShownRow] {
        let viewHeight = Double(gtk_widget_get_height(listViewWidget))
        var result: [GtkShownRow] = []
        var child = gtk_widget_get_first_child(listViewWidget)
        while let row = child {
            child = gtk_widget_get_next_sibling(row)
            guard gtk_widget_get_mapped(row) != 0, gtk_widget_get_child_visible(row) != 0 else { continue }
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(row, listViewWidget, &bounds) != 0 else { continue }
            let y = Double(bounds.origin.y), height = Double(bounds.size.height)
            guard height > 0, y + height > 0, y < viewHeight else { continue }
            let texts = Self.labelTexts(in: row)
            guard !texts.isEmpty else { continue }
            result.append(GtkShownRow(y: y, height: height, texts: texts))
        }
        return result.sorted { $0.y < $1.y }
    }

    /// The texts of the selected row as GTK draws it (the row with the `:selected` state).
    public func shownSelectedRow() -> GtkShownRow? {
        var child = gtk_widget_get_first_child(listViewWidget)
        while let row = child {
            child = gtk_widget_get_next_sibling(row)
            let selected = gtk_widget_get_state_flags(row).rawValue & GTK_STATE_FLAG_SELECTED.rawValue != 0
            guard selected, gtk_widget_get_mapped(row) != 0 else { continue }
            var bounds = graphene_rect_t()
            _ = gtk_widget_compute_bounds(row, listViewWidget, &bounds)
            return GtkShownRow(y: Double(bounds.origin.y), height: Double(bounds.size.height), texts: Self.labelTexts(in: row))
        }
        return nil
    }

    static func labelTexts(in widget: GtkWidgetPointer) -> [String] {
        guard gtk_widget_get_visible(widget) != 0 else { return [] }
        if ck_is_label(widget) != 0 {
            let text = String(cString: gtk_label_get_text(ck_label(widget)))
            return text.isEmpty ? [] : [text]
        }
        var texts: [String] = []
        var child = gtk_widget_get_first_child(widget)
        while let next = child {
            texts += labelTexts(in: next)
            child = gtk_widget_get_next_sibling(next)
        }
        return texts
    }
}
