/// Builds an array of exactly `count` elements that `initialize` writes into the
/// buffer it is handed, returning how many it wrote.
///
/// With a count of 0, `initialize` still runs (on an empty buffer) but no array
/// storage is touched: `Array(unsafeUninitializedCapacity: 0)` writes the count
/// of the standard library's shared empty-array storage, which every thread
/// shares, and Thread Sanitizer reports that write as a data race with any other
/// thread doing the same (issue 10, item 10).
@inlinable @inline(__always)
internal func _exactArray<T>(
    count: Int, _ initialize: (UnsafeMutableBufferPointer<T>) -> Int
) -> [T] {
    if count == 0 {
        let written = initialize(UnsafeMutableBufferPointer(start: nil, count: 0))
        precondition(written == 0, "wrote \(written) elements into an array of 0")
        return []
    }
    return [T](unsafeUninitializedCapacity: count) { buffer, written in
        written = initialize(buffer)
    }
}
