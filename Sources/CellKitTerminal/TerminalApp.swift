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
/// (select), `/` (filter; Enter keeps it, Esc clears it; a paste goes into it
/// whole, control characters included: see ``onFilter``), `r` (refresh), `q`,
/// Ctrl-Z (suspend; `fg` redraws).
///
/// All input that has arrived is decoded and handled before the next frame, and
/// the filter is told once per batch (``onFilter`` with the text after the whole
/// batch), so a 10,000-character paste costs one filter pass; Ctrl-C anywhere in
/// a batch quits before the rest is handled. The app reads no further than a key
/// that quits (`q`, Ctrl-D, Ctrl-C): keys typed after it in the same burst stay
/// unread, and the shell gets them (`q` and a command typed together: the command
/// runs). Escape sequences that are not keys (mouse reports, unknown sequences) are ignored. Esc typed quickly before
/// another key arrives as one Alt combination (``Key/alt(_:)``), which the app
/// binds to nothing: it handles it as Esc, then that key (Esc then `q` clears
/// the filter and quits). So Alt+letter reads as Esc, then the letter (Alt+q in the
/// filter clears it and quits). A sequence or UTF-8 character split across reads is
/// completed by the next read; a lone Esc counts after 40 ms without more input, and
/// a sequence still unfinished 1 s later is given up on a timer, with no key needed
/// (a lone `ESC [` as Esc, then `[`); after the 40 ms, a lowercase letter ends a lone
/// `ESC [` (Esc, `[`, then the letter; see ``InputDecoder``).
///
/// Every way out restores the terminal: `q` (or Ctrl-D, outside the filter) exits 0; Ctrl-C exits 130;
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT exit 128 + the signal; every other
/// signal whose default action ends the process restores the terminal and then
/// ends it. Ctrl-Z and SIGTSTP restore the terminal and stop the process group (see
/// ``Terminal/suspend()``); SIGTTOU sent to it in the foreground (`kill -TTOU`) restores the
/// terminal and stops it too. SIGCONT in the foreground (`fg`) takes the terminal again
/// and redraws. Continued in the background (`bg`), it leaves the terminal to the
/// shell and stops again (SIGTTOU: the shell lists it as stopped, as it does `less`
/// or `vim`), drawing nothing; `fg` continues it, and it takes the terminal and redraws.
/// Stopped and then asked to end (`kill %1`: the shell sends SIGTERM or SIGHUP, then
/// SIGCONT), it ends with 128 + the signal instead of stopping again. The loading row's spinner runs a timer
/// only while it is on screen: an idle app does not wake up. ``onExit`` hears only of the
/// ends the app handles itself (`q`, Ctrl-D, Ctrl-C, SIGINT, SIGTERM, SIGHUP, SIGQUIT).
///
/// On a small terminal the bars give way to the list: with 2 rows there is no status line
/// (the title bar and one row of the list), with 1 row only the title bar. While the filter
/// is typed on a line too narrow for the prompt, the filter's end and the caret beside the
/// position, the position gives way; from 6 columns on, the filter's last character and the
/// caret stay in view.
///
/// The list view loads its data at its first frame (see ``TerminalListView``), so a list
/// whose data source is set by hand, as here, shows its rows without a `reloadData()`.
///
/// ```swift
/// import CellKit
/// import CellKitTerminal
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
    /// The text of the title bar. A title too wide for the terminal is cut in the middle ("…"),
    /// so that its end (a file or repository name after a long path) stays in view.
    public var title: String { didSet { scheduleRender() } }
    /// A message shown at the left of the status line (for example "Loading…").
    public var statusMessage: String? { didSet { scheduleRender() } }
    /// Called when the user presses `r`.
    public var onRefresh: (() -> Void)?
    /// Called with the filter text as the user types it, and with "" when it is cleared
    /// (not when the batch of keys that clears it also quits, as Alt+q in the filter does:
    /// the app exits first).
    ///
    /// A paste goes in as pasted, control characters included (a tab, a newline, ESC); the
    /// prompt and the status line show them as the rows do (`␉`, `␊`, `␛`). A filter that
    /// matches rows as they are shown compares the text in that form too (`StyledLine`
    /// draws a control character as its symbol), so that a pasted tab finds the row showing `␉`.
    public var onFilter: ((String) -> Void)?
    /// Called with each key the list view would get, before it gets it; return
    /// `true` when the key was handled (for example held until the next page has loaded).
    public var onListKey: ((Key) -> Bool)?
    /// Whether the frames use colors; without, they keep bold, dim, underline and
    /// reverse video (the selection, the title bar and the position stay in reverse video).
    /// Defaults to ``TerminalCapabilities/usesColor`` of the environment: `NO_COLOR`, a
    /// monochrome `TERM`, or a `TERM` whose terminfo entry has no colors (`xterm-r6`, `sun`)
    /// turn colors off.
    public var usesColor = TerminalCapabilities.current.usesColor {
        didSet {
            screen.invalidate()
            scheduleRender()
        }
    }
    /// How many colors the terminal shows: frames use only those (``StyledLine/limitingColors(to:)``:
    /// a 256-color index becomes one of the 16 ANSI colors, or of the 8 basic ones). Defaults to
    /// ``TerminalCapabilities/colors`` of the environment (8 for `TERM=xterm`, `screen`, `linux`),
    /// or 256 when the environment turns colors off (``usesColor`` set to `true` then shows them all).
    /// Only consulted while ``usesColor`` is `true`.
    public var colors = TerminalCapabilities.current.usesColor ? TerminalCapabilities.current.colors : 256 {
        didSet {
            screen.invalidate()
            scheduleRender()
        }
    }
    /// Called just before the process exits, after the terminal was restored, with the exit
    /// status: for `q` and Ctrl-D (0), Ctrl-C (130), SIGINT, SIGTERM, SIGHUP and SIGQUIT
    /// (128 + the signal), the terminal going away (0) and ``quit(status:)``.
    ///
    /// Not for the other ways the process ends, which restore the terminal but run no more of
    /// the app's code: a crash (a trap, SIGSEGV, SIGBUS, SIGILL, SIGFPE), `abort()`, the other
    /// signals whose default action ends the process (SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, …), and
    /// `exit()` called anywhere but ``quit(status:)``. Work that must happen on those too (saving
    /// state) cannot wait for this call.
    public var onExit: ((Int32) -> Void)?

    /// How many times the spinner's timer woke the app while no spinner was on screen:
    /// 0 (or 1, as the last spinner leaves) when idle costs nothing, as it should.
    public private(set) var idleTimerWakeCount = 0

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
    /// Whether the terminal is the app's: false while suspended, and while continued in the background.
    private var ownsTerminal = true
    private var inputSource: (any DispatchSourceRead)?
    /// The read end of the pipe the signal handlers write to.
    private var signalRead: Int32 = -1
    /// Signals read from it and not handled yet.
    private var heldSignals: [Int32] = []
    /// Set while a SIGCONT read from it is handled.
    private var handlingContinue = false
    private var animation: (any DispatchSourceTimer)?
    private var animationRunning = false
    /// Inside ``handle(_:)-(Key)`` for a batch: the filter is told once, at the end or before a key that needs it.
    private var filterDirty = false

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
        signalRead = fds[0]
        signalSource.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.heldSignals += self.readSignals()
                self.handleHeldSignals()
            }
        }
        signalSource.resume()
        terminal.endAskedWhileSuspended = { [unowned self] in endAskedWhileSuspended() }

        let inputSource = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        inputSource.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.readInput() }
        }
        inputSource.resume()
        self.inputSource = inputSource
        // The loading row's spinner: a frame every 100 ms, only while one is on screen (see render()).
        let animation = DispatchSource.makeTimerSource(queue: .main)
        animation.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        animation.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                if !self.listView.advanceAnimation() { self.idleTimerWakeCount += 1 }
            }
        }
        self.animation = animation
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

    /// The signals forwarded since the last read (nonblocking; none when nothing came).
    private func readSignals() -> [Int32] {
        var signals: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while case let count = read(signalRead, &buffer, buffer.count), count > 0 {
            signals += buffer.prefix(count).map { Int32($0) }
        }
        return signals
    }

    /// Handles the signals read and not handled yet, an end (SIGTERM, SIGINT, SIGHUP,
    /// SIGQUIT) first.
    private func handleHeldSignals() {
        while !heldSignals.isEmpty {
            let signal = heldSignals.first(where: Self.endSignals.contains) ?? heldSignals[0]
            heldSignals.remove(at: heldSignals.firstIndex(of: signal)!)
            handleSignal(signal)
        }
    }

    private static let endSignals: Set<Int32> = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]

    /// Continued in the background after a suspend: whether an end was asked (`kill %1`
    /// sends SIGTERM or SIGHUP, then SIGCONT). Reads the forwarded signals until 30 ms
    /// after the continue's own came (100 ms at most): the kernel hands a signal sent
    /// while the process was stopped to whichever thread takes it first once it runs
    /// again, so the end's handler may run a little after the continue's. What it reads
    /// is handled once the terminal call returns, an end first. Costs `bg` those 30 ms
    /// before the program stops again.
    private func endAskedWhileSuspended() -> Bool {
        func milliseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds / 1_000_000 }
        let start = milliseconds()
        var continued: UInt64? = handlingContinue ? start : nil
        while true {
            heldSignals += readSignals()
            if heldSignals.contains(where: Self.endSignals.contains) { return true }
            let now = milliseconds()
            if continued == nil, heldSignals.contains(SIGCONT) { continued = now }
            let deadline = min(start + 100, (continued ?? start + 100) + 30)
            guard now < deadline else { return false }
            var ready = pollfd(fd: signalRead, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, Int32(deadline - now))
        }
    }

    private func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGWINCH:
            resized()
        case SIGTSTP:
            suspend()
        case SIGTTOU:
            // Sent to the app in the foreground (`kill -TTOU`): give the terminal back and stop, as for SIGTSTP.
            if Terminal.isForeground { suspend(stoppingWith: SIGTTOU) }
        case SIGCONT:
            // A stop by SIGTTOU in the background left its default action: the handler is back.
            TerminalSignals.reinstallStopHandler()
            // Continued (after a stop by anyone): in the foreground, take the terminal again,
            // the shell may have changed it; in the background, leave it alone.
            handlingContinue = true
            let owned = terminal.resume()
            handlingContinue = false
            takeTerminalIfForeground(owned)
        default:
            quit(status: 128 + signal)
        }
    }

    private func resized() {
        let newSize = Terminal.currentSize()
        guard newSize != size else { return }
        size = newSize
        listView.resize(columns: size.columns, rows: max(1, size.rows - 2))
        screen.invalidate()
        render()
    }

    /// Gives the terminal back and stops (Ctrl-Z, SIGTSTP); after `fg`, takes it again and
    /// redraws; after `bg`, stays off the terminal until the SIGCONT of a later `fg`.
    private func suspend(stoppingWith stopSignal: Int32 = SIGTSTP) {
        terminal.suspend(stoppingWith: stopSignal)
        takeTerminalIfForeground(terminal.isRaw)
        handleHeldSignals()
    }

    /// Redraws and reads keys when `owned` (the terminal is the app's again); otherwise
    /// draws nothing and reads nothing (a background read would stop the process, SIGTTIN).
    private func takeTerminalIfForeground(_ owned: Bool) {
        if owned != ownsTerminal, let inputSource {
            if owned { inputSource.resume() } else { inputSource.suspend() }
        }
        ownsTerminal = owned
        if owned { redrawAll() }
    }

    private func redrawAll() {
        size = Terminal.currentSize()
        listView.resize(columns: size.columns, rows: max(1, size.rows - 2))
        screen.invalidate()
        render()
    }

    private func readInput() {
        // Everything that has arrived, up to a bound: one batch, one filter pass, one frame.
        // Only what is there: another reader of the terminal (a program the app started) may
        // have taken the keys that woke this source, and a read that waits would hold the
        // main queue, and with it the signals' handling (SIGTERM would do nothing).
        var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 0) > 0, ready.revents != 0 else { return }
        // A byte at a time, and the keys read so far handled at each byte that may quit (q,
        // Ctrl-D, Ctrl-C): the app then exits with the keys typed after it still unread, and
        // the terminal, restored without a flush, gives them to the shell (`q` and a command
        // typed in one burst: the command runs).
        var unhandled: [UInt8] = []
        var total = 0
        var handledAny = false
        var byte: UInt8 = 0
        var available = 0
        while total < 1 << 20 {
            if available == 0 {
                var more = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                guard total == 0 || poll(&more, 1, 0) > 0 && more.revents & Int16(POLLIN) != 0 else { break }
                var count: Int32 = 0
                available = ioctl(STDIN_FILENO, UInt(FIONREAD), &count) == 0 ? max(1, Int(count)) : 1
            }
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 0 && total == 0 {
                quit(status: 0)  // the terminal went away
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += 1
            available -= 1
            unhandled.append(byte)
            if byte == UInt8(ascii: "q") || byte == 0x04 || byte == 0x03 {
                handledAny = handleInBatch(decoder.decode(unhandled)) || handledAny
                unhandled.removeAll(keepingCapacity: true)
            }
        }
        guard total > 0 else { return }
        if !unhandled.isEmpty { handledAny = handleInBatch(decoder.decode(unhandled)) || handledAny }
        if handledAny {
            applyFilterIfChanged()
            scheduleRender()
        }
        escapeGeneration += 1
        guard decoder.hasPending else { return }
        // A lone ESC is Escape after a short pause; half a sequence or a cut UTF-8 character
        // waits for the next read, and is given up only after a long pause.
        let generation = escapeGeneration
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(40)) { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.escapeGeneration == generation else { return }
                self.handle(self.decoder.flush())
                guard self.decoder.hasPending else { return }
                DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(1)) { [weak self] in
                    MainActor.assumeIsolated {
                        guard let self, self.escapeGeneration == generation else { return }
                        self.handle(self.decoder.flush(includingUnfinished: true))
                    }
                }
            }
        }
    }

    /// Handles one key as if it had been typed.
    public func handle(_ key: Key) {
        handle([key])
    }

    /// Handles keys that arrived together, in order, then tells ``onFilter`` once
    /// about the filter text they left (or earlier, before a key that acts on the
    /// list, so that key sees the filtered rows). Ctrl-C anywhere quits at once.
    public func handle(_ keys: [Key]) {
        guard handleInBatch(keys) else { return }
        applyFilterIfChanged()
        scheduleRender()
    }

    /// Handles `keys`, a part of a batch (Ctrl-C among them quits first); returns whether there were any.
    private func handleInBatch(_ keys: [Key]) -> Bool {
        if keys.contains(.control("c")) { quit(status: 130) }
        for key in keys { handleInBatch(key) }
        return !keys.isEmpty
    }

    private func applyFilterIfChanged() {
        guard filterDirty else { return }
        filterDirty = false
        onFilter?(filterText)
    }

    private func setFilter(_ text: String) {
        guard text != filterText else { return }
        filterText = text
        filterDirty = true
    }

    private func handleInBatch(_ key: Key) {
        if case .alt(let character) = key {
            // No Alt bindings: ESC and a character are Esc typed just before it.
            handleInBatch(.escape)
            handleInBatch(.character(character))
            return
        }
        if isEditingFilter {
            switch key {
            case .character(let c):
                setFilter(filterText + String(c))
            case .paste(let text):
                // As pasted: its control characters (a tab, a newline, ESC) stay in the filter
                // text, and the prompt shows them as the rows do (␉ ␊ ␛).
                setFilter(filterText + text)
            case .backspace:
                if !filterText.isEmpty { setFilter(String(filterText.dropLast())) }
            case .enter:
                isEditingFilter = false
            case .escape:
                isEditingFilter = false
                setFilter("")
            case .control("z"):
                applyFilterIfChanged()
                suspend()
            default:
                applyFilterIfChanged()
                if onListKey?(key) != true { listView.handle(key) }
            }
            return
        }
        switch key {
        case .character("q"), .control("d"):
            quit(status: 0)
        case .character("/"):
            isEditingFilter = true
        case .character("r"), .control("r"):
            applyFilterIfChanged()
            onRefresh?()
        case .escape:
            setFilter("")
        case .control("l"):
            screen.invalidate()
        case .control("z"):
            applyFilterIfChanged()
            suspend()
        default:
            applyFilterIfChanged()
            if onListKey?(key) != true { listView.handle(key) }
        }
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

    /// `text` as it fits `width` columns: cut in the middle ("…"), so that its end (a file or
    /// repository name after a long path) stays in view; unchanged when it fits.
    static func middleCut(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width, width >= 3 else { return text }
        let characters = Array(text)
        let room = width - 1
        var head = "", headWidth = 0, start = 0
        while start < characters.count, headWidth + DisplayWidth.of(characters[start]) <= room / 2 {
            headWidth += DisplayWidth.of(characters[start])
            head.append(characters[start])
            start += 1
        }
        var tail: [Character] = [], tailWidth = 0, end = characters.count
        while end > start, tailWidth + DisplayWidth.of(characters[end - 1]) <= room - headWidth {
            tailWidth += DisplayWidth.of(characters[end - 1])
            tail.append(characters[end - 1])
            end -= 1
        }
        return head + "…" + String(tail.reversed())
    }

    /// The whole screen as styled lines: title bar, list, status line.
    public func composeFrame() -> [StyledLine] {
        let columns = listView.columns
        // The bar: black on cyan, or reverse video without colors.
        let bar = usesColor ? TextStyle(foreground: .black, background: .cyan) : .inverse
        var titleStyle = bar
        titleStyle.isBold = true
        var titleLine = StyledLine(" " + Self.middleCut(StyledLine.visible(title), to: columns - 2) + " ", style: titleStyle)
        let hints = " ↑↓ move  ⏎ select  / filter  r refresh  q quit "
        let room = columns - titleLine.displayWidth - DisplayWidth.of(hints)
        if room >= 0 {
            titleLine.append(String(repeating: " ", count: room), style: bar)
            titleLine.append(hints, style: bar)
        }
        var frame = [titleLine.fitted(to: columns, padStyle: bar)]
        frame += listView.renderFrame()
        frame.append(statusLine(columns: columns))
        frame = Array(frame.prefix(max(1, size.rows)))
        guard usesColor else { return frame.map(\.withoutColors) }
        return colors >= 256 ? frame : frame.map { $0.limitingColors(to: colors) }
    }

    private func statusLine(columns: Int) -> StyledLine {
        var position = " " + listView.positionDescription + " "
        var left: StyledLine
        var width = max(0, columns - DisplayWidth.of(position))
        if isEditingFilter, !filterText.isEmpty, width - 3 < 3 {
            // Too narrow for the prompt, "…" and the filter's last character (2 columns if
            // wide) and the caret beside the position: the position gives way while typing.
            position = ""
            width = columns
        }
        if isEditingFilter {
            // The end of what is being typed and the caret stay in view: a filter too long
            // for the line shows its tail after "…".
            left = StyledLine(" /", style: .bold)
            left.append(Self.tail(of: filterText, fitting: width - 3, marker: "…"), style: .bold)
            left.append("▏", style: .plain)
        } else if !filterText.isEmpty {
            left = StyledLine(" filter: " + filterText, style: TextStyle(foreground: .yellow))
            left.append("  (Esc clears)", style: .dim)
            // What the app says (a selection, what the filter searched) shows too.
            if let statusMessage, !statusMessage.isEmpty {
                left.append("  " + statusMessage, style: .dim)
            }
        } else {
            left = StyledLine(" " + (statusMessage ?? ""), style: .dim)
        }
        var line = left.fitted(to: width, padStyle: .plain)
        if !position.isEmpty { line.append(position, style: .inverse) }
        return line.fitted(to: columns)
    }

    /// `text` whole when it fits in `width` columns (as drawn: control characters take one),
    /// else `marker` and as much of its end as fits after it. Looks at the end only, so a
    /// 100,000-character filter costs what fits on the line.
    static func tail(of text: String, fitting width: Int, marker: String) -> String {
        let width = max(0, width)
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let before = text.index(before: start)
            let w = DisplayWidth.of(StyledLine.visible(String(text[before])))
            if used + w > width { break }
            used += w
            start = before
        }
        if start == text.startIndex { return text }
        // Room for the marker: drop characters from the front of the tail until it fits.
        let room = width - DisplayWidth.of(marker)
        while used > room, start < text.endIndex {
            used -= DisplayWidth.of(StyledLine.visible(String(text[start])))
            start = text.index(after: start)
        }
        return marker + text[start...]
    }

    private func render() {
        renderScheduled = false
        guard running, ownsTerminal else { return }
        let frame = composeFrame()
        let bytes = screen.update(frame, columns: listView.columns)
        if !bytes.isEmpty { terminal.write(bytes) }
        // The spinner's timer runs only while a spinner is on screen.
        let animate = listView.isAnimating
        if animate != animationRunning, let animation {
            animationRunning = animate
            if animate { animation.resume() } else { animation.suspend() }
        }
    }
}
