/// How tall the rows of one model type are.
public enum RowHeight<Model>: Sendable {
    /// Always this height.
    case fixed(Double)
    /// This height until a self-sizing cell reports its real one with
    /// ``RowHeights/didMeasure(_:height:)``.
    ///
    /// Use a positive estimate. An estimate of 0 (or a negative or NaN one) is no
    /// estimate: `UITableView` turns estimation off for it, and self-sizing cells then
    /// get wrong heights. The controller gives the list view no height for such a row
    /// (it uses its own estimate: `estimatedRowHeight`, the headless view's
    /// `rowHeight`) and reports the model type once as a ``Diagnostic/Kind/invalidHeight``.
    case estimated(Double)
    /// Measured by `measure` at the list's width the first time the row's height
    /// is asked for, then cached until the row's content changes.
    case measured(@MainActor @Sendable (Model, _ width: Double) -> Double)
}

/// Row heights per model type (Instant Cocoa's `heightFor<ModelName>:`): fixed,
/// estimated, or measured, with a ``HeightCache`` keyed by row, content and width.
///
/// The controller asks it first for every row; model types it has no rule for
/// fall through to presenters and the dispatch table's height handlers. Rules
/// resolve like the dispatch table: exact type, then nearest superclass or protocol.
///
/// A height is a finite number in `0...`\``maximumHeight``: the controller clamps
/// every height a rule, presenter or height handler gives into that range (NaN and
/// negative heights count as 0, larger ones and +infinity as ``maximumHeight``) and
/// reports the first bad height of each model type as a
/// ``Diagnostic/Kind/invalidHeight`` diagnostic naming the type, section and row. So a
/// `.measured` rule fed with untrusted text cannot make a list view trap or lay out
/// NaN offsets. List views clamp further in their own units (the terminal list view
/// shows at least one line per row).
///
/// ```swift
/// struct Header: Identifiable, Equatable, Sendable { let id: Int }
/// struct Message: Identifiable, Equatable, Sendable { let id: Int; var text: String }
///
/// @MainActor func heights(_ controller: ListController) {
///     controller.rowHeights.width = 320
///     controller.rowHeights.set(Header.self, .fixed(28))
///     controller.rowHeights.set(Message.self, .measured { message, width in
///         20 + 18 * Double(message.text.count * 8 / Int(width) + 1)
///     })
/// }
/// ```
@MainActor
public final class RowHeights {
    /// The width rows are measured at; a change makes measured heights measure again.
    ///
    /// A width is a finite number above 0. One that is not (NaN, an infinity, 0 or a
    /// negative width) is refused: the width stays what it was, and a
    /// ``Diagnostic/Kind/invalidHeight`` diagnostic names the width refused (a
    /// ``ListController``'s ``ListController/diagnostics``). Heights are cached per width, and
    /// NaN equals no width, so a NaN width would measure every row again on every ask and
    /// keep one more cached height each time.
    public var width: Double {
        didSet {
            guard !(width > 0 && width.isFinite) else { return }
            let refused = width
            width = oldValue
            diagnostics(Diagnostic(.invalidHeight, "RowHeights.width \(refused) is not a width rows can be measured at (a finite number above 0); the width stays \(oldValue)"))
        }
    }
    /// Where a refused width and bad heights are reported; a ``ListController`` sets its own handler.
    var diagnostics: DiagnosticHandler = .standardError
    /// The heights measured so far.
    public private(set) var cache = HeightCache()
    /// How many times a `.measured` rule ran (cache misses).
    public private(set) var measurements = 0

    private enum Rule {
        case fixed(Double)
        case estimated(Double)
        case measured(@MainActor (Any, Double) -> Double)
    }
    private var rules = TypeTable<Rule>()

    /// The tallest row height: 1,000,000,000 (points on UIKit, lines on a terminal).
    nonisolated public static let maximumHeight: Double = 1_000_000_000

    /// Model types whose bad height was reported already.
    private var reportedBadHeights: Set<ObjectIdentifier> = []

    /// Creates an empty set of rules for rows `width` wide (320 for a width that is
    /// not a finite number above 0).
    public init(width: Double = 320) { self.width = width > 0 && width.isFinite ? width : 320 }

    /// Sets the height rule of rows showing a `Model`.
    public func set<Model>(_ model: Model.Type, _ height: RowHeight<Model>) {
        switch height {
        case .fixed(let h): rules.set(.fixed(h), for: model)
        case .estimated(let h): rules.set(.estimated(h), for: model)
        case .measured(let measure): rules.set(.measured { measure($0 as! Model, $1) }, for: model)
        }
    }

    /// The height of `item`'s row, or `nil` when no rule matches its model.
    public func height(for item: ListItem) -> Double? {
        guard let (rule, _) = rules.resolve(item.model) else { return nil }
        switch rule {
        case .fixed(let height):
            return height
        case .estimated(let estimate):
            return cache.height(for: item, width: width) ?? estimate
        case .measured(let measure):
            if let height = cache.height(for: item, width: width) { return height }
            measurements += 1
            let height = measure(item.model, width)
            cache.store(height, for: item, width: width)
            return height
        }
    }

    /// Whether `item`'s height is only an estimate so far: an `.estimated` rule
    /// with no measurement cached. Self-sizing list views measure such rows.
    public func isEstimate(for item: ListItem) -> Bool {
        guard let (rule, _) = rules.resolve(item.model), case .estimated = rule else { return false }
        return cache.height(for: item, width: width) == nil
    }

    /// Whether the row sizes itself (its rule is ``RowHeight/estimated(_:)``): a
    /// self-sizing list view always lets such a row measure itself, and uses the
    /// cached height only as its estimate, never as a fixed height.
    public func sizesItself(_ item: ListItem) -> Bool {
        guard let (rule, _) = rules.resolve(item.model), case .estimated = rule else { return false }
        return true
    }

    /// Records the height a self-sizing cell measured for `item` at the current width.
    public func didMeasure(_ item: ListItem, height: Double) {
        cache.store(height, for: item, width: width)
    }

    /// `height` as a list view can lay it out: clamped to 0 through ``maximumHeight`` (NaN and
    /// negative heights give 0, larger ones and +infinity ``maximumHeight``; UIKit raises
    /// "CALayer position contains NaN" for a NaN frame). What the UIKit adapters do with a
    /// height from a delegate that is not a ``ListController`` (which clamps its own).
    ///
    /// ```swift
    /// assert(RowHeights.clamped(44) == 44)
    /// assert(RowHeights.clamped(.nan) == 0 && RowHeights.clamped(-1) == 0)
    /// assert(RowHeights.clamped(.infinity) == RowHeights.maximumHeight)
    /// ```
    nonisolated public static func clamped(_ height: Double) -> Double {
        if height >= 0 && height <= maximumHeight { return height }
        return height > maximumHeight ? maximumHeight : 0
    }

    /// `height` clamped to `0...`\``maximumHeight`` (NaN: 0); the first bad height of
    /// each model type is reported to `diagnostics`, naming the type and the row.
    func checked(_ height: Double, of model: Any, at path: ItemPath, diagnostics: DiagnosticHandler) -> Double {
        if height >= 0 && height <= Self.maximumHeight { return height }
        let clamped = Self.clamped(height)
        let type = type(of: model)
        if reportedBadHeights.insert(ObjectIdentifier(type)).inserted {
            diagnostics(Diagnostic(.invalidHeight, "height \(height) of \(type) at section \(path.section), row \(path.item) is not a height in 0...\(Self.maximumHeight); using \(clamped) (reported once per model type)"))
        }
        return clamped
    }

    /// Model types whose unusable estimate was reported already.
    private var reportedEstimates: Set<ObjectIdentifier> = []

    /// Reports, once per model type, an `.estimated` rule whose estimate is not a positive height.
    func reportUnusableEstimate(_ estimate: Double, of model: Any, at path: ItemPath, diagnostics: DiagnosticHandler) {
        let type = type(of: model)
        guard reportedEstimates.insert(ObjectIdentifier(type)).inserted else { return }
        diagnostics(Diagnostic(.invalidHeight, "estimate \(estimate) of \(type) at section \(path.section), row \(path.item) is not a positive height: a self-sizing row needs one (UITableView turns estimation off for an estimate of 0); the list view's own estimate is used (reported once per model type)"))
    }

    /// Forgets the measured height of the row with identity `id`: the row's ``ItemID``,
    /// `ItemID(model)` or `ItemID(type: Model.self, id: model.id)` (not the model's bare `id`).
    ///
    /// `ItemID(model)` names every row showing the object: a duplicate's, and a row made
    /// with an explicit id (``ListItem/init(_:id:)``) that shows it; reconfigure them all
    /// with `reconfigureItems(at: controller.displayed.indexPaths(of: ItemID(model)))`
    /// (``TableModel/indexPaths(of:)``).
    public func invalidate(_ id: ItemID) { cache.invalidate(id) }

    /// Forgets every measured height.
    public func invalidateAll() { cache.removeAll() }
}
