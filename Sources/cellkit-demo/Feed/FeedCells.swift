import CellKit
import CellKitTerminal

extension CellStyle {
    /// Users shown as a one-line byline with their bio (Coffee's byline style).
    static let byline: CellStyle = "byline"
}

/// A downloaded avatar: initials on a color.
struct Avatar: Equatable, Sendable {
    var initials: String
    var color: UInt8

    init(user: User) {
        let letters = user.name.split(separator: " ").compactMap(\.first)
        initials = String(letters.prefix(2)).uppercased()
        color = UInt8(truncatingIfNeeded: 17 + (user.id * 37) % 200)
    }

    /// Four columns: the initials padded on their color, or a dotted frame while downloading.
    static func line(_ avatar: Avatar?) -> StyledLine {
        guard let avatar else { return StyledLine("[··]", style: .dim) }
        var text = avatar.initials
        while DisplayWidth.of(text) > 4 { text.removeLast() }
        let pad = 4 - DisplayWidth.of(text)
        let left = String(repeating: " ", count: pad / 2)
        let right = String(repeating: " ", count: pad - pad / 2)
        return StyledLine(left + text + right, style: TextStyle(foreground: .brightWhite, background: .palette(avatar.color), bold: true))
    }
}

/// A tweet: avatar, author and time; the text; likes and retweets.
final class TweetCell: ListCell, TerminalRenderable {
    var tweet: Tweet?
    var avatar: Avatar?
    var now = 0

    init() {}

    func terminalLines(width: Int) -> [StyledLine] {
        guard let tweet else { return [StyledLine()] }
        var header = StyledLine(" ")
        header.append(Avatar.line(avatar))
        header.append(" ")
        header.append(tweet.author.name, style: .bold)
        header.append(" @" + tweet.author.handle + " · " + Self.age(now - tweet.postedAt), style: .dim)
        let textLine = StyledLine("      ").appending(StyledLine.wrap(tweet.text, width: max(1, width - 7), maxLines: 1).first ?? StyledLine())
        let stats = StyledLine("      ♡ \(tweet.likes)   ↻ \(tweet.retweets)", style: TextStyle(foreground: .brightBlack))
        return [header, textLine, stats]
    }

    static func age(_ minutes: Int) -> String {
        if minutes < 1 { return "now" }
        if minutes < 60 { return "\(minutes)m" }
        if minutes < 1440 { return "\(minutes / 60)h" }
        return "\(minutes / 1440)d"
    }
}

/// A user, presented in a style: the byline style shows name, handle and bio.
final class UserCell: ListCell, TerminalRenderable {
    var user: User?
    var avatar: Avatar?
    var style: CellStyle = .default

    init() {}

    func terminalLines(width: Int) -> [StyledLine] {
        guard let user else { return [StyledLine()] }
        var first = StyledLine(" ")
        first.append(Avatar.line(avatar))
        first.append(" Who to follow: ", style: TextStyle(foreground: .green))
        first.append(user.name, style: .bold)
        first.append(" @" + user.handle, style: .dim)
        guard style == .byline else { return [first] }
        let byline = StyledLine("      " + user.bio + " · \(user.followers) followers", style: TextStyle(foreground: .green, dim: true))
        return [first, byline]
    }
}

/// Presents users in a style (Coffee's presenter): configures the cell, takes the avatar when it arrives.
struct UserPresenter: Presenter {
    let avatars: @MainActor (Int) -> Avatar?
    let selectedUser: @MainActor (User) -> Void

    func present(_ user: User, in cell: UserCell, style: CellStyle, context: PresentationContext<Never>) {
        cell.user = user
        cell.style = style
        cell.avatar = avatars(user.id)
    }

    func update(_ cell: UserCell, showing user: User, style: CellStyle, resource: ResourceUpdate) {
        if resource.key == "avatar" { cell.avatar = resource.value as? Avatar }
    }

    func selected(_ user: User, style: CellStyle) -> Never? {
        selectedUser(user)
        return nil
    }

    func height(for user: User, style: CellStyle) -> Double? { style == .byline ? 2 : 1 }
}

extension StyledLine {
    func appending(_ other: StyledLine) -> StyledLine {
        var line = self
        line.append(other)
        return line
    }
}
