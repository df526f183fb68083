/// What a UIKit adapter does with a row that still carries an estimate when it is about
/// to show. The decision is made here, in platform-neutral code tested on Linux; the
/// adapter only reads the cell's heights and replays the step.
///
/// A table (rows at `automaticDimension`) and a list or compositional layout size the
/// cell themselves: the height the cell was laid out at is its real height. A flow layout
/// with no `estimatedItemSize` gives the cell the size its delegate answered (the
/// estimate): the adapter fits the cell's content at its width (Auto Layout,
/// `systemLayoutSizeFitting`), records that height, and has the layout ask the row's
/// size again when it differs from the size laid out.
///
/// ```swift
/// // A table sized the cell itself: its laid-out height is recorded.
/// assert(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 88, fittedHeight: nil) == .record(88))
/// // A flow layout gave the estimate (50); the content needs 120: record it, size the row again.
/// assert(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 50, fittedHeight: 120) == .recordAndResize(120))
/// // A cell whose content has no height (no constraints) keeps the estimate.
/// assert(SelfSizingStep.forRow(needsMeasuring: true, laidOutHeight: 50, fittedHeight: 0) == .none)
/// ```
public enum SelfSizingStep: Equatable, Sendable {
    /// Nothing to record: the row has its height already, or the cell gave none.
    case none
    /// Record this height as the row's measured height.
    case record(Double)
    /// Record this height and have the list view ask the row's size again: the cell was
    /// laid out at another height (a flow layout gave it the estimate).
    case recordAndResize(Double)

    /// The step for a row about to show.
    ///
    /// - Parameters:
    ///   - needsMeasuring: whether the row still carries an estimate
    ///     (``ListViewDelegate/listView(_:needsMeasuringItemAt:)``).
    ///   - laidOutHeight: the height the list view laid the cell out at.
    ///   - fittedHeight: the height the cell's content needs at the cell's width, when the
    ///     list view did not size the cell itself (a flow layout without `estimatedItemSize`);
    ///     `nil` when it did (a table, a list or compositional layout).
    /// - Returns: ``none`` for a row that needs no measuring, or a height that is not a
    ///   positive finite number (a cell with no Auto Layout height keeps its estimate);
    ///   else the height to record, clamped to ``RowHeights/maximumHeight``, with a new size
    ///   asked when the fitted height differs from the laid-out one by half a point or more.
    public static func forRow(needsMeasuring: Bool, laidOutHeight: Double, fittedHeight: Double?) -> SelfSizingStep {
        guard needsMeasuring else { return .none }
        guard let fitted = fittedHeight else {
            return laidOutHeight > 0 && laidOutHeight.isFinite ? .record(RowHeights.clamped(laidOutHeight)) : .none
        }
        guard fitted > 0, !fitted.isNaN else { return .none }
        let height = RowHeights.clamped(fitted)
        return abs(height - laidOutHeight) < 0.5 ? .record(height) : .recordAndResize(height)
    }
}

/// Sizes a UIKit adapter gives a flow layout's headers and footers, and the reveal of a refresh started from
/// code: platform-neutral decisions of the UIKit adapters, tested on Linux.
public enum AdapterSizing {
    /// The height of a section's header or footer in a flow layout, when the app's
    /// forwarding delegate does not answer the size itself.
    ///
    /// A layout whose `headerReferenceSize` / `footerReferenceSize` has a height gives every
    /// section a view of that height (as a flow layout with no delegate does), so a
    /// `supplementaryViewProvider` gets asked for each section; otherwise only a section
    /// with a title gets one, 28 points tall, and the others none (a height of 0 adds no view).
    ///
    /// ```swift
    /// assert(AdapterSizing.supplementaryHeight(hasTitle: true, referenceHeight: 0) == 28)
    /// assert(AdapterSizing.supplementaryHeight(hasTitle: false, referenceHeight: 0) == 0)
    /// assert(AdapterSizing.supplementaryHeight(hasTitle: false, referenceHeight: 40) == 40)
    /// ```
    public static func supplementaryHeight(hasTitle: Bool, referenceHeight: Double) -> Double {
        if referenceHeight > 0, referenceHeight.isFinite { return RowHeights.clamped(referenceHeight) }
        return hasTitle ? defaultTitleHeight : 0
    }

    /// The height of a titled header or footer when the layout names none: 28 points.
    public static let defaultTitleHeight: Double = 28

    /// The content offset that reveals a refresh control started from code
    /// (`beginRefreshing()` does not move the view: its spinner stays above the visible
    /// area), or `nil` to leave the offset alone: when the view has no window, or when the
    /// user has scrolled away from the top (the content is not pulled back).
    ///
    /// The control's frame is read before `beginRefreshing()`, and it is stale then: about
    /// 60 points before the first refresh, but once a refresh has ended and the control has
    /// hidden it shrinks towards 0 (0.5 point, as react-native found, PR 14259), so the
    /// view would move by half a point and the spinner stay hidden. A height below
    /// ``refreshControlMinimumHeight`` therefore counts as that height. A taller control
    /// (one with a title) moves the view by its own height only before its first refresh:
    /// after one its stale frame has shrunk too, so it gets the 60 points and its title may
    /// stay partly hidden (a known limit). Not seen on a device: the 60 points are UIKit's
    /// usual control height, not a documented value.
    ///
    /// - Parameters:
    ///   - hasWindow: whether the scroll view is in a window.
    ///   - contentOffsetY: the scroll view's `contentOffset.y`.
    ///   - topInset: its `adjustedContentInset.top` before the control starts.
    ///   - controlHeight: the refresh control's height (its frame), before it starts.
    ///
    /// ```swift
    /// assert(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: -100, topInset: 100, controlHeight: 60) == -160)
    /// assert(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: -100, topInset: 100, controlHeight: 0.5) == -160)
    /// assert(AdapterSizing.refreshRevealOffset(hasWindow: true, contentOffsetY: 300, topInset: 100, controlHeight: 60) == nil)
    /// assert(AdapterSizing.refreshRevealOffset(hasWindow: false, contentOffsetY: -100, topInset: 100, controlHeight: 60) == nil)
    /// ```
    public static func refreshRevealOffset(hasWindow: Bool, contentOffsetY: Double, topInset: Double, controlHeight: Double) -> Double? {
        guard hasWindow, controlHeight.isFinite, topInset.isFinite, contentOffsetY <= -topInset + 0.5 else { return nil }
        return contentOffsetY - max(controlHeight, refreshControlMinimumHeight)
    }

    /// How far to move the content offset when a row is sized again after it showed, so
    /// the rows on screen stay put: the row's growth (`newHeight - oldHeight`, negative when
    /// it shrinks) when its old top lies above the top of the viewport, else 0 (the row is
    /// on screen or below it, and what is above does not move). A flow layout keeps its
    /// content offset when a row above the viewport grows (a table corrects for it), so the
    /// rows on screen would jump down by the growth. A value that is not finite gives 0.
    ///
    /// ```swift
    /// assert(AdapterSizing.contentOffsetAdjustment(oldMinY: 0, oldHeight: 44, newHeight: 100, viewportTop: 500) == 56)
    /// assert(AdapterSizing.contentOffsetAdjustment(oldMinY: 600, oldHeight: 44, newHeight: 100, viewportTop: 500) == 0)
    /// ```
    public static func contentOffsetAdjustment(oldMinY: Double, oldHeight: Double, newHeight: Double, viewportTop: Double) -> Double {
        guard oldMinY.isFinite, oldHeight.isFinite, newHeight.isFinite, viewportTop.isFinite, oldMinY < viewportTop else { return 0 }
        return newHeight - oldHeight
    }

    /// The summed ``contentOffsetAdjustment(oldMinY:oldHeight:newHeight:viewportTop:)`` of the
    /// rows sized again, clamped so the moved offset stays between the top of the content
    /// (`-topInset`, the view's `-adjustedContentInset.top`) and its end (`maxOffsetY`: the
    /// content's new height plus the bottom inset minus the view's height). A programmatic
    /// offset outside those bounds is not bounced back until the user touches the view, so a
    /// shrink larger than the distance to the top would leave a gap above the first row. The
    /// result never moves the offset against `adjustment`, nor further than it (an offset
    /// already pulled past an end stays where it is). A value that is not finite gives 0.
    ///
    /// ```swift
    /// // 30 points from the top, a row above shrinks by 76: move up only 30.
    /// assert(AdapterSizing.contentOffsetAdjustment(-76, contentOffsetY: -70, topInset: 100, maxOffsetY: 2000) == -30)
    /// ```
    public static func contentOffsetAdjustment(_ adjustment: Double, contentOffsetY: Double, topInset: Double, maxOffsetY: Double) -> Double {
        guard adjustment.isFinite, contentOffsetY.isFinite, topInset.isFinite, maxOffsetY.isFinite else { return 0 }
        if adjustment < 0 { return max(adjustment, min(0, -topInset - contentOffsetY)) }
        if adjustment > 0 { return min(adjustment, max(0, max(maxOffsetY, -topInset) - contentOffsetY)) }
        return 0
    }

    /// The height ``refreshRevealOffset(hasWindow:contentOffsetY:topInset:controlHeight:)``
    /// reveals at least: 60 points, a `UIRefreshControl`'s usual height while it spins.
    public static let refreshControlMinimumHeight: Double = 60
}
