/// Something CellKit noticed and kept working through, such as a model with no registered cell.
///
/// Diagnostics are delivered to a ``DiagnosticHandler``; route them to your
/// own logger with ``DiagnosticHandler/init(_:)``.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem was noticed.
    public enum Kind: String, Hashable, Sendable {
        /// A model type has no cell registration (the default cell was used), or its
        /// registered cell gets set up by nothing: no configure closure, no dispatch configure
        /// handler, no ``UpdatableCell`` (a ``TextCell`` then shows the model's description).
        case missingRegistration
        /// A handler or a presenter expected another cell type than the one the row got, or an
        /// ``UpdatableCell`` got a model its `Model` does not take.
        case cellTypeMismatch
        /// A snapshot held the same identifier more than once.
        case duplicateIdentifier
        /// A batch update broke UIKit's rules; the list was reloaded instead.
        case invalidBatchUpdate
        /// A load or refresh failed.
        case loadFailed
        /// A row height was NaN, negative or above ``RowHeights/maximumHeight`` (it was
        /// clamped), an estimate was not a positive height (the list view's own was used),
        /// or a ``RowHeights/width`` was not a finite number above 0 (it was refused).
        case invalidHeight
        /// A paged source's next page said more follow but brought no row that the
        /// pages since the last new row had not brought; automatic paging stopped there.
        case pagingStalled
        /// Something else.
        case other
    }

    /// What kind of problem was noticed.
    public let kind: Kind
    /// A message naming the type, section, row or id involved.
    public let message: String

    /// Creates a diagnostic.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "CellKit [\(kind.rawValue)] \(message)" }

    /// `text` with its control characters (C0, DEL, C1) and bidi controls written as
    /// `\u{…}`: safe to write to a terminal as one line.
    static func escapingControls(_ text: String) -> String {
        func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}

/// Where diagnostics go. The default writes them to standard error.
///
/// CellKit calls it on the main actor: the controller, the registry, the data sources and
/// the list views that report diagnostics are main-actor types (the diff that runs off the
/// main actor reports nothing itself; the controller reports its duplicates once it shows
/// the result). The closure is `@Sendable`, so it may hand the diagnostic to any logger.
///
/// ```swift
/// let collected = DiagnosticHandler { diagnostic in
///     // forward to os_log, swift-log, a test's collector, ...
///     _ = diagnostic.message
/// }
/// _ = collected
/// ```
public struct DiagnosticHandler: Sendable {
    let handle: @Sendable (Diagnostic) -> Void

    /// Creates a handler that calls `handle` with each diagnostic.
    public init(_ handle: @escaping @Sendable (Diagnostic) -> Void) { self.handle = handle }

    /// Reports `diagnostic`.
    public func callAsFunction(_ diagnostic: Diagnostic) { handle(diagnostic) }

    /// Writes each diagnostic to standard error, one line each.
    ///
    /// A message can carry text from your data (an identifier, a model's description):
    /// control characters (C0, DEL, C1: escape sequences, line breaks) and the bidi
    /// controls in it are written escaped, as `\u{1B}`, so text from a server cannot
    /// drive the terminal or split the line. ``Diagnostic/message`` itself is unchanged.
    public static let standardError = DiagnosticHandler { Platform.writeToStandardError(Diagnostic.escapingControls($0.description)) }

    /// Drops every diagnostic.
    public static let ignore = DiagnosticHandler { _ in }
}

/// A data source that notices problems of its own (a paged source's stalled page): a
/// controller that binds it hands it its ``ListController/diagnostics``.
@MainActor
protocol DiagnosticReporting: AnyObject {
    /// Where the source reports; the binding controller's handler while bound.
    var diagnostics: DiagnosticHandler { get set }
}

extension PaginatedDataSource: DiagnosticReporting {}

extension MultiDataSource: DiagnosticReporting {
    var diagnostics: DiagnosticHandler {
        get { children.lazy.compactMap { ($0 as? any DiagnosticReporting)?.diagnostics }.first ?? .standardError }
        set { for case let child as any DiagnosticReporting in children { child.diagnostics = newValue } }
    }
}
