import Testing

@Test func placeholder_CellKitTerminalTests() {}
