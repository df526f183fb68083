// CellKit
