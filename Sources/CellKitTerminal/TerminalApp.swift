#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import CellKit

/// Runs a ``TerminalListView`` on the real terminal: raw mode and the alternate
/// screen, keys, resize, a title bar and a status line with the filter prompt.
///
/// The event loop is built on Dispatch sources on the main queue and
/// `dispatchMain()`, so `@MainActor` work (loads, resource updates) runs
/// between key presses. Keys: arrows and j/k, PgUp/PgDn, Home/End, Enter
/// (select), `/` (filter; Enter keeps it, Esc clears it), `r` (refresh), `q`.
/// Every way out restores the terminal: `q` exits 0; Ctrl-C exits 130;
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT exit 128 + the signal.
///
/// ```swift
/// import CellKit
///
/// @MainActor func runList(controller: any ListViewDataSource & ListViewDelegate) throws {
///     let list = TerminalListView()
///     list.dataSource = controller
///     list.delegate = controller
///     let app = TerminalApp(listView: list, title: "Notes")
///     try app.run()  // returns only by exiting the process
/// }
/// ```
@MainActor
public final class TerminalApp {
    /// The list shown between the title bar and the status line.
    public let listView: TerminalListView
    /// The text of the title bar.
    public var title: String { didSet { scheduleRender() } }
    /// A message shown at the left of the status line (for example "Loading…").
    public var statusMessage: String? { didSet { scheduleRender() } }
    /// Called when the user presses `r`.
    public var onRefresh: (() -> Void)?
    /// Called with the filter text as the user types it, and with "" when it is cleared.
    public var onFilter: ((String) -> Void)?
    /// Called with each key the list view would get, before it gets it; return
    /// `true` when the key was handled (for example held until the next page has loaded).
    public var onListKey: ((Key) -> Bool)?
    /// Called just before the process exits, after the terminal was restored.
    public var onExit: ((Int32) -> Void)?

    /// The current filter text.
    public private(set) var filterText = ""
    /// Whether the filter prompt is taking keys.
    public private(set) var isEditingFilter = false

    private let terminal = Terminal()
    private var screen = ScreenBuffer()
    private var decoder = InputDecoder()
    private var renderScheduled = false
    private var escapeGeneration = 0
    private var sources: [any DispatchSourceProtocol] = []
    private var size = TerminalSize.fallback
    private var running = false

    /// Creates an app around `listView`.
    public init(listView: TerminalListView, title: String) {
        self.listView = listView
        self.title = title
    }

    /// Takes over the terminal and runs until the user quits; never returns.
    ///
    /// Call it from the main thread, after setting up the list and its data
    /// source; start loads in `Task`s before calling it, they run once the loop runs.
    ///
    /// - Throws: ``TerminalError`` when standard input or output is not a terminal.
    public func run() throws(TerminalError) -> Never {
        try start()
        dispatchMain()
    }

    /// Takes over the terminal and installs the event sources, without entering
    /// `dispatchMain()`: for callers that already run the main queue.
    public func start() throws(TerminalError) {
        guard !running else { return }
        try terminal.enterRawMode()
        running = true
        size = Terminal.currentSize()
        listView.resize(columns: size.columns, rows: max(1, size.rows - 2))
        listView.onNeedsDisplay = { [weak self] in self?.scheduleRender() }

        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            let code = errno
            terminal.restore()
            throw .systemCall("pipe", errno: code)
        }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        TerminalSignals.forward(to: fds[1])

        let signalSource = DispatchSource.makeReadSource(fileDescriptor: fds[0], queue: .main)
        let signalRead = fds[0]
        signalSource.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = read(signalRead, &buffer, buffer.count)
                guard count > 0 else { return }
                for byte in buffer.prefix(count) { self?.handleSignal(Int32(byte)) }
            }
        }
        signalSource.resume()

        let inputSource = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        inputSource.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readInput() }
        }
        inputSource.resume()
        // The loading row's spinner: a frame every 100 ms while one is on screen.
        let animation = DispatchSource.makeTimerSource(queue: .main)
        animation.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        animation.setEventHandler { [weak self] in
            MainActor.assumeIsolated { _ = self?.listView.advanceAnimation() }
        }
        animation.resume()
        sources = [signalSource, inputSource, animation]
        render()
    }

    /// Restores the terminal and exits the process with `status`.
    public func quit(status: Int32 = 0) -> Never {
        terminal.restore()
        onExit?(status)
        exit(status)
    }

    // MARK: Events

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGWINCH:
            let newSize = Terminal.currentSize()
            guard newSize != size else { return }
            size = newSize
            listView.resize(columns: size.columns, rows: max(1, size.rows - 2))
            screen.invalidate()
            render()
        default:
            quit(status: 128 + signal)
        }
    }

    private func readInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count == 0 {
            quit(status: 0)  // the terminal went away
        }
        guard count > 0 else { return }
        for key in decoder.decode(buffer.prefix(count)) { handle(key) }
        if decoder.hasPending {
            // A lone ESC, or half a sequence: wait briefly for the rest.
            escapeGeneration += 1
            let generation = escapeGeneration
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(40)) { [weak self] in
                MainActor.assumeIsolated {
                    guard let self, self.escapeGeneration == generation else { return }
                    for key in self.decoder.flush() { self.handle(key) }
                }
            }
        }
    }

    /// Handles one key as if it had been typed.
    public func handle(_ key: Key) {
        if case .control("c") = key { quit(status: 130) }
        if isEditingFilter {
            switch key {
            case .character(let c):
                filterText.append(c)
                onFilter?(filterText)
            case .backspace:
                if !filterText.isEmpty {
                    filterText.removeLast()
                    onFilter?(filterText)
                }
            case .enter:
                isEditingFilter = false
            case .escape:
                isEditingFilter = false
                if !filterText.isEmpty {
                    filterText = ""
                    onFilter?("")
                }
            default:
                if onListKey?(key) != true { listView.handle(key) }
            }
            scheduleRender()
            return
        }
        switch key {
        case .character("q"), .control("d"):
            quit(status: 0)
        case .character("/"):
            isEditingFilter = true
        case .character("r"), .control("r"):
            onRefresh?()
        case .escape:
            if !filterText.isEmpty {
                filterText = ""
                onFilter?("")
            }
        case .control("l"):
            screen.invalidate()
        default:
            if onListKey?(key) != true { listView.handle(key) }
        }
        scheduleRender()
    }

    // MARK: Drawing

    /// Draws on the next turn of the main queue (several changes, one frame).
    public func scheduleRender() {
        guard running, !renderScheduled else { return }
        renderScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated { self?.render() }
        }
    }

    /// The whole screen as styled lines: title bar, list, status line.
    public func composeFrame() -> [StyledLine] {
        let columns = listView.columns
        var titleLine = StyledLine(" " + title + " ", style: TextStyle(foreground: .black, background: .cyan, bold: true))
        let hints = " ↑↓ move  ⏎ select  / filter  r refresh  q quit "
        let room = columns - titleLine.displayWidth - DisplayWidth.of(hints)
        if room >= 0 {
            titleLine.append(String(repeating: " ", count: room), style: TextStyle(background: .cyan))
            titleLine.append(hints, style: TextStyle(foreground: .black, background: .cyan))
        }
        var frame = [titleLine.fitted(to: columns, padStyle: TextStyle(background: .cyan))]
        frame += listView.renderFrame()
        frame.append(statusLine(columns: columns))
        return Array(frame.prefix(max(1, size.rows)))
    }

    private func statusLine(columns: Int) -> StyledLine {
        let position = " " + listView.positionDescription + " "
        var left: StyledLine
        if isEditingFilter {
            left = StyledLine(" /" + filterText, style: .bold)
            left.append("▏", style: .plain)
        } else if !filterText.isEmpty {
            left = StyledLine(" filter: " + filterText, style: TextStyle(foreground: .yellow))
            left.append("  (Esc clears)", style: .dim)
        } else {
            left = StyledLine(" " + (statusMessage ?? ""), style: .dim)
        }
        let width = max(0, columns - DisplayWidth.of(position))
        var line = left.fitted(to: width, padStyle: .plain)
        line.append(position, style: .inverse)
        return line.fitted(to: columns)
    }

    private func render() {
        renderScheduled = false
        guard running else { return }
        let frame = composeFrame()
        let bytes = screen.update(frame, columns: listView.columns)
        if !bytes.isEmpty { terminal.write(bytes) }
    }
}
