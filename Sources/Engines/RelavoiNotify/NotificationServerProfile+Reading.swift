import CGLib
import CNotify
import RelavoiCore
import RelavoiMachines

extension NotificationServerProfile {
    /// The running server's name, version and capabilities, asked through
    /// libnotify (synchronous: on the delivery thread only).
    static func read() -> NotificationServerProfile {
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        _ = notify_get_server_info(&name, &vendor, &version, nil)
        defer {
            g_free(name)
            g_free(vendor)
            g_free(version)
        }
        var capabilities: Set<String> = []
        let list = notify_get_server_caps()
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                capabilities.insert(String(cString: data.assumingMemoryBound(to: CChar.self)))
            }
            node = current.pointee.next
        }
        g_list_free_full(list, g_free)
        return NotificationServerProfile(
            name: name.map { String(cString: $0) } ?? "unknown",
            vendor: vendor.map { String(cString: $0) } ?? "", version: version.map { String(cString: $0) } ?? "",
            capabilities: capabilities)
    }
}
