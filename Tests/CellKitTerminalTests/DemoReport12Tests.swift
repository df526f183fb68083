@testable import cellkit_demo
import CellKit
@testable import CellKitTerminal
import Foundation
import Testing

/// Demo report 12, defect 2: keys typed ahead in the same burst as a filter's Enter, while the
/// first page loaded, were dropped (the list had no rows yet, and with a filter the keys did
/// not wait for the page).
@Suite("cellkit-demo: report 12, keys typed ahead after a filter's Enter")
@MainActor
struct DemoReport12TypeAheadTests {
    @Test("git: `/Fix` Enter `j j` typed while the first page loads moves to the third match",
          .enabled(if: GitFixture.isAvailable))
    func gitFilterThenKeys() async throws {
        let repository = try await ScratchRepository.emptyCommits("typeahead-filter", 30)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 100)) { $0.type("/c 1\njj") }
        // c 1, c 10 … c 19: eleven matches; j j goes to the third.
        try await session.waitFor("the filtered rows, the third selected") { $0.hasSuffix(" 3/11") }
        #expect(session.statusLine.hasPrefix(" filter: c 1  (Esc clears)  11 commits match in all 30 commits"), "\(session.statusLine)")
    }

    @Test("git: End typed ahead after a filter's Enter goes to the last match", .enabled(if: GitFixture.isAvailable))
    func gitFilterThenEnd() async throws {
        let repository = try await ScratchRepository.emptyCommits("typeahead-end", 30)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 100)) {
            $0.type("/c 2\n")
            $0.app.handle(.end)
        }
        try await session.waitFor("the last match selected") { $0.hasSuffix(" 11/11") }
    }

    @Test("feed: `/knuth` Enter `j` typed while the first page loads moves to the second match")
    func feedFilterThenKeys() async throws {
        let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 50, page: 0), avatarDelay: 0)
        let session = await AppSession(feed) { $0.type("/knuth\nj") }
        try await session.waitFor("the second match selected") { $0.hasSuffix(" 2/3") }
    }
}

/// Demo report 12, defect 7: with a filter kept, a rewind's `r` showed the match count and
/// not how many commits went or came.
@Suite("cellkit-demo git: report 12, a rewind under a filter", .enabled(if: GitFixture.isAvailable))
@MainActor
struct DemoReport12RewindTests {
    @Test("a rewind (and a rewrite) with a filter kept says how many commits went and came")
    func rewindUnderAFilter() async throws {
        let repository = try await ScratchRepository.emptyCommits("rewind-filter", 30, then: """
            for i in $(seq 1 10); do git commit -q --allow-empty -m "live $i"; done
            """)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 10))
        // Every page read (the report's history was all loaded): the refresh reads them again.
        try await session.waitFor("every page") { status in
            _ = session.screen.loadNextPage()
            return status.hasPrefix(" 40 commits")
        }
        session.type("/live\n")
        try await session.waitFor("the filter") { $0.contains("10 commits match in all 40 commits") }
        try await repository.run("git reset -q --hard HEAD~3")
        session.type("r")
        try await session.waitFor("the rewind counted") {
            $0.hasPrefix(" filter: live  (Esc clears)  The history was rewritten: 3 commits gone") && $0.hasSuffix(" 1/7")
        }
        // It stays through the pages read after the refresh's first one (until a key).
        for _ in 0..<20 {
            await session.screen.controller.settle()
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(session.statusLine.contains("The history was rewritten: 3 commits gone"), "\(session.statusLine)")
        try await repository.run("git reset -q --hard HEAD~1; git commit -q --allow-empty -m 'live new'")
        session.type("r")
        try await session.waitFor("the rewrite counted") { $0.contains("The history was rewritten: 1 commit gone, 1 new commit") }
    }
}

/// Demo report 12, defect 8: control characters became spaces in the filter prompt (so a pasted
/// subject with a tab found nothing, while its row showed ␉) and in the error row.
@Suite("cellkit-demo: report 12, control characters in the filter and the error row")
@MainActor
struct DemoReport12ControlCharacterTests {
    @Test("a paste's control characters show in the prompt as the rows show them (␉ ␊ ␛)")
    func pastedControlCharactersShowAsSymbols() {
        let fixture = NotesFixture(columns: 60, rows: 6)
        defer { withExtendedLifetime(fixture) {} }
        fixture.controller.apply(NotesFixture.model(sections: 1, rows: 3))
        let app = TerminalApp(listView: fixture.list, title: "Notes")
        var told: [String] = []
        app.onFilter = { told.append($0) }
        app.handle([.character("/"), .paste("a\u{1B}[31mb\tc\u{07}d\ne")])
        #expect(app.composeFrame().last!.plainText.hasPrefix(" /a␛[31mb␉c␇d␊e▏"), "\(app.composeFrame().last!.plainText)")
        // The filter gets the text as pasted: what it matches is the screen's to say.
        #expect(told == ["a\u{1B}[31mb\tc\u{07}d\ne"])
        app.handle(.enter)
        #expect(app.composeFrame().last!.plainText.hasPrefix(" filter: a␛[31mb␉c␇d␊e  (Esc clears)"), "\(app.composeFrame().last!.plainText)")
    }

    @Test("the filter finds a pasted tab or ESC where the row shows ␉ or ␛, as the symbol typed does")
    func filterMatchesPastedControlCharacters() {
        #expect(shownText(of: "tab\there", contains: "tab\there"))
        #expect(shownText(of: "tab\there", contains: "b␉h"))
        #expect(shownText(of: "red \u{1B}[31mRED\u{1B}[0m end", contains: "d \u{1B}[31mr"))
        #expect(shownText(of: "red \u{1B}[31mRED\u{1B}[0m end", contains: "␛[31"))
        #expect(!shownText(of: "tab here", contains: "tab\there"))
        // Beyond ASCII too.
        #expect(shownText(of: "café\tbar", contains: "é\tb"))
    }

    @Test("git: the subject pasted with its tab finds its commit", .enabled(if: GitFixture.isAvailable))
    func gitPastedSubject() async throws {
        let repository = try await ScratchRepository("paste-tab", script: """
            git config user.name T; git config user.email t@example.com
            git commit -q --allow-empty -m "$(printf 'tab\\there')"
            git commit -q --allow-empty -m "plain one"
            """)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 20))
        session.app.handle([.character("/"), .paste("tab\there")])
        try await session.waitFor("the commit found") { $0.hasPrefix(" /tab␉here▏") && $0.hasSuffix(" 1/1") }
        #expect(session.rows().contains { $0.hasSuffix("tab␉here") }, "\(session.rows())")
    }

    @Test("git: the error row shows a path's newline and tab as the title does (␊ ␉)", .enabled(if: GitFixture.isAvailable))
    func errorRowShowsControlCharacters() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cellkit-nl-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("nl\ndir\tx").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = await AppSession(GitScreen(path: path, pageSize: 20), columns: 240)
        try await session.waitFor("the error") { $0.contains("not a git repository") }
        #expect(session.statusLine.contains("nl␊dir␉x’"), "\(session.statusLine)")
        let rows = session.rows().joined(separator: "\n")
        #expect(rows.contains("nl␊dir␉x’ is not a git repository"), "\(rows)")
    }
}

/// Demo report 12, leftover of rounds 10–11: Enter's status line ("Selected …") stayed after the
/// selection moved to another row (both screens). It goes with the selection now, and the line
/// shown before it comes back.
@Suite("cellkit-demo: report 12, a selected row's status line goes when the selection moves")
@MainActor
struct DemoReport12SelectionLineTests {
    /// A few turns of the main actor (the tasks the keys started run), then the status line.
    private func settled(_ session: AppSession) async throws -> String {
        for _ in 0..<5 {
            await session.screen.controller.settle()
            try await Task.sleep(for: .milliseconds(5))
        }
        return session.statusLine
    }

    @Test("feed: Enter on a row, then j: the tweet count again; a key that does not move keeps the line")
    func feed() async throws {
        let feed = FeedScreen(seed: 1, failRate: 0, timing: FeedServer.Timing(firstPage: 0, page: 0), avatarDelay: 0)
        let session = await AppSession(feed)
        try await session.waitFor("the first page") { $0.hasPrefix(" 20 tweets") }
        session.app.handle(.enter)
        #expect(try await settled(session).hasPrefix(" Selected @"), "\(session.statusLine)")
        // ↑ on the first row does not move it: the line stays.
        session.app.handle(.up)
        #expect(try await settled(session).hasPrefix(" Selected @"), "\(session.statusLine)")
        session.type("j")
        try await session.waitFor("the count back") { $0.hasPrefix(" 20 tweets") && $0.hasSuffix(" 2/23") }
    }

    @Test("git: Enter on the fifth commit, then Home: the commit count again", .enabled(if: GitFixture.isAvailable))
    func git() async throws {
        let repository = try await ScratchRepository.emptyCommits("selection-line", 12)
        defer { repository.remove() }
        let session = await AppSession(GitScreen(path: repository.path, pageSize: 20))
        try await session.waitFor("the history") { $0.hasPrefix(" 12 commits") }
        session.type("jjjj")
        session.app.handle(.enter)
        try await session.waitFor("the selected commit's line") { $0.contains(" c 8 — T, ") }
        // Its diffstat, computed meanwhile, completes the line: still the selection's.
        try await session.waitFor("the diffstat") { $0.contains(" c 8 — T, ") && $0.contains("no changes") }
        session.app.handle(.home)
        try await session.waitFor("the count back") { $0.hasPrefix(" 12 commits") && $0.hasSuffix(" 1/12") }
    }
}
