import Testing

@Test func placeholder_CellKitDiffTests() {}
