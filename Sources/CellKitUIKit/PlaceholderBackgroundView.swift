#if canImport(UIKit)
import UIKit
import CellKit

/// The default background of an empty list when placeholders are not rows
/// (Coffee's loading and error views): a spinner or a message, and a retry button
/// for errors that allow one. Its texts come from ``/CellKit/ListController/placeholders``
/// (localized); the message is the label VoiceOver reads.
@MainActor
public final class PlaceholderBackgroundView: UIView {
    /// The placeholder shown.
    public let placeholder: BackgroundPlaceholder
    private let retry: (@MainActor () -> Void)?

    /// Creates the view for `placeholder`; `retry` runs when the retry button is tapped.
    public init(placeholder: BackgroundPlaceholder, retry: (@MainActor () -> Void)?) {
        self.placeholder = placeholder
        self.retry = retry
        super.init(frame: .zero)
        let stack = UIStackView()
        stack.axis = .vertical
        stack.alignment = .center
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        let label = UILabel()
        label.numberOfLines = 0
        label.textAlignment = .center
        label.textColor = .secondaryLabel
        label.font = .preferredFont(forTextStyle: .body)
        label.adjustsFontForContentSizeCategory = true
        switch placeholder {
        case .loading(let message):
            let spinner = UIActivityIndicatorView(style: .medium)
            spinner.startAnimating()
            stack.addArrangedSubview(spinner)
            label.text = message
            stack.addArrangedSubview(label)
        case .noResults(let message):
            label.text = message
            stack.addArrangedSubview(label)
        case .error(let message, let retryTitle):
            label.text = message
            stack.addArrangedSubview(label)
            if let retryTitle, retry != nil {
                let button = UIButton(type: .system)
                button.setTitle(retryTitle, for: .normal)
                button.addTarget(self, action: #selector(retryTapped), for: .touchUpInside)
                stack.addArrangedSubview(button)
            }
        }
        label.accessibilityLabel = placeholder.accessibilityLabel
        addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerXAnchor.constraint(equalTo: centerXAnchor),
            stack.centerYAnchor.constraint(equalTo: centerYAnchor),
            stack.leadingAnchor.constraint(greaterThanOrEqualTo: layoutMarginsGuide.leadingAnchor),
            stack.trailingAnchor.constraint(lessThanOrEqualTo: layoutMarginsGuide.trailingAnchor),
        ])
    }

    @available(*, unavailable)
    public required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

    @objc private func retryTapped() { retry?() }
}
#endif
