#if canImport(UIKit)
import UIKit
import SwiftUI
import CellKitSwiftUI

/// The example app: the seeds' Twitter feed (Nimbus) on a table view with one
/// SwiftUI row, Coffee's users list on a collection view with a list layout, and the
/// same users list on CellKit's SwiftUI list view.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        let feed = UINavigationController(rootViewController: FeedViewController(service: FeedService()))
        feed.tabBarItem = UITabBarItem(title: "Feed", image: UIImage(systemName: "text.bubble"), tag: 0)
        let users = UINavigationController(rootViewController: UsersViewController(service: UserService()))
        users.tabBarItem = UITabBarItem(title: "Users", image: UIImage(systemName: "person.2"), tag: 1)
        // The same users list on the SwiftUI list view, with the same registrations (UsersList).
        let swiftUIUsers = UIHostingController(rootView: UsersScreen(service: UserService()))
        swiftUIUsers.tabBarItem = UITabBarItem(title: "SwiftUI", image: UIImage(systemName: "swift"), tag: 2)
        let tabs = UITabBarController()
        tabs.viewControllers = [feed, users, swiftUIUsers]

        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        self.window = window
        return true
    }
}
#endif
