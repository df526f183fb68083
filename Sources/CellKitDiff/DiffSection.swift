/// A section for a sectioned diff: an identified section holding differentiable elements.
///
/// The section's own content (for example its header and footer titles) is
/// compared with `==`; a section whose identity stays and
/// whose content changed is reported as a section update.
///
/// ```swift
/// let section = DiffSection(id: "today", content: "Today", elements: [1, 2, 3])
/// assert(section.elements.count == 3)
/// ```
public struct DiffSection<ID: Hashable, Content: Equatable, Element: Differentiable> {
    /// The section's identity.
    public var id: ID
    /// What the section shows besides its elements (titles); compared with `==`.
    public var content: Content
    /// The elements, in order.
    public var elements: [Element]

    /// Creates a section.
    @inlinable
    public init(id: ID, content: Content, elements: [Element]) {
        self.id = id
        self.content = content
        self.elements = elements
    }
}

extension DiffSection: Sendable where ID: Sendable, Content: Sendable, Element: Sendable {}
extension DiffSection: Equatable where Element: Equatable {}
