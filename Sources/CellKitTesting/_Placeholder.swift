// CellKitTesting
