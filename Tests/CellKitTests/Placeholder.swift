import Testing

@Test func placeholder_CellKitTests() {}
