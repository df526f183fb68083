// CellKitTerminal
