// Standard-library values that are their own identity: the identifier is the
// value, and content equality is `==`, so such an element is never "updated",
// only inserted, deleted or moved.

extension Int: Differentiable {}
extension Int8: Differentiable {}
extension Int16: Differentiable {}
extension Int32: Differentiable {}
extension Int64: Differentiable {}
extension UInt: Differentiable {}
extension UInt8: Differentiable {}
extension UInt16: Differentiable {}
extension UInt32: Differentiable {}
extension UInt64: Differentiable {}
extension Double: Differentiable {}
extension Float: Differentiable {}
extension Bool: Differentiable {}
extension String: Differentiable {}
extension Substring: Differentiable {}
extension Character: Differentiable {}
