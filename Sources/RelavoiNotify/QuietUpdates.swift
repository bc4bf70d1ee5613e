import CGLib
import RelavoiCore
import RelavoiGLib

/// An update of a banner's notification sent and not answered yet.
final class UpdateTicket: @unchecked Sendable {
    let key: String
    /// The presenter's record of the banner: compared, never read off its
    /// thread; weak, as the banner holds its update in flight.
    weak var banner: AnyObject?
    /// Which of that banner's notifications the update is for.
    let generation: UInt64
    let id: UInt32
    let content: NotificationContent
    /// The server's unique name the update went to.
    let server: String

    init(key: String, banner: AnyObject, generation: UInt64, id: UInt32, content: NotificationContent, server: String) {
        self.key = key
        self.banner = banner
        self.generation = generation
        self.id = id
        self.content = content
        self.server = server
    }
}

/// How the server answered an update.
enum UpdateAnswer: Sendable {
    /// The notification's id (a server may make a new notification for it).
    case id(UInt32)
    case failed(String)
    /// The presenter stopped before the answer came.
    case cancelled
}

/// Where a lane's updates go: a banner's notification on its server, with
/// what the `Notify` needs besides the content.
struct QuietTarget {
    let banner: AnyObject
    let generation: UInt64
    let id: UInt32
    let server: String
    /// The content's icon as it is sent (resolved by the presenter).
    let icon: String
    let owner: BannerOwner
    let rules: NotificationServerRules
}

/// The banners' quiet lanes (`QuietUpdateLane`) and their D-Bus side: a
/// settled banner's per-second update goes out as a `Notify` message sent on
/// GDBus's own thread (the `courier`; from the posting thread until a filter
/// call has shown where that is), and its answer is read by a filter there.
/// The presenter thread does not wake for a tick. Whatever the lane does not
/// take, and any answer other than "done, same id", goes to the presenter
/// (`handOver`, called on no lock).
final class QuietUpdates: @unchecked Sendable {
    /// What the presenter gets back when it takes a lane back.
    struct Reclaimed {
        let lane: QuietUpdateLane
        let target: QuietTarget
        /// The update still under way (its answer is handed over).
        let underWay: UpdateTicket?
    }

    private final class Entry {
        let key: String
        let target: QuietTarget
        var lane: QuietUpdateLane
        var ticket: UpdateTicket?
        var serial: UInt32 = 0
        /// `ticket` was made on the posting thread and waits for the courier.
        var unsent = false
        /// The server said it closed the notification (dismissed, expired).
        var closedByServer = false
        init(key: String, target: QuietTarget, lane: QuietUpdateLane) {
            self.key = key
            self.target = target
            self.lane = lane
        }
    }

    private let lock = Lock()
    private var lanes: [String: Entry] = [:]
    private var bySerial: [UInt32: Entry] = [:]
    private var bus: OpaquePointer?
    private var filterID: guint = 0
    private var handOver: (@Sendable (UpdateTicket, UpdateAnswer) -> Void)?
    /// Sends the posted updates on GDBus's own thread, known once a filter
    /// call ran there: a message sent from another thread wakes GDBus's thread
    /// inside GDBus's locks, which it then blocks on (two more context
    /// switches per update); from its own thread it is written at once.
    private var courier: WakeSource?
    private var outbox: [Entry] = []

    /// Starts reading answers on `bus` (the connection the updates go out
    /// on); what the lanes do not settle themselves goes to `handOver`.
    func attach(bus: OpaquePointer, handOver: @escaping @Sendable (UpdateTicket, UpdateAnswer) -> Void) {
        let filter: GDBusMessageFilterFunction = { _, message, incoming, data in
            guard incoming != 0, let message else { return message }
            let quiet = Unmanaged<QuietUpdates>.fromOpaque(data!).takeUnretainedValue()
            guard quiet.consumes(message) else { return message }
            g_object_unref(UnsafeMutableRawPointer(message))
            return nil
        }
        // GLib calls the release once no filter call can be running.
        let release: GDestroyNotify = { data in Unmanaged<QuietUpdates>.fromOpaque(data!).release() }
        lock.withLock {
            self.handOver = handOver
            self.bus = OpaquePointer(g_object_ref(UnsafeMutableRawPointer(bus)))
            filterID = g_dbus_connection_add_filter(bus, filter, Unmanaged.passRetained(self).toOpaque(), release)
        }
    }

    /// Sends nothing more and drops every lane; answers still to come are ignored.
    func detach() {
        let (bus, filterID) = lock.withLock {
            defer {
                self.bus = nil
                self.filterID = 0
                handOver = nil
                lanes.removeAll()
                bySerial.removeAll()
                outbox.removeAll()
                // The courier goes on its own thread (`deliver`), where its source runs.
                courier?.wake()
            }
            return (self.bus, self.filterID)
        }
        guard let bus else { return }
        if filterID != 0 { g_dbus_connection_remove_filter(bus, filterID) }
        g_object_unref(UnsafeMutableRawPointer(bus))
    }

    /// Opens a lane for banner `key`, settled on `content` (presenter thread).
    func open(key: String, settledOn content: NotificationContent, target: QuietTarget) {
        lock.withLock {
            guard bus != nil else { return }
            lanes[key]?.lane.shut()
            let lane = QuietUpdateLane(settledOn: content, popsWaitTheirTurn: target.rules.popSettleInterval > 0)
            lanes[key] = Entry(key: key, target: target, lane: lane)
        }
    }

    /// Takes `content` for banner `key` when its lane is open and it is a
    /// quiet update: sent now, or the latest once the update under way is
    /// answered. False: the presenter's (and the lane is shut).
    func offer(key: String, content: NotificationContent) -> Bool {
        var failure: (UpdateTicket, UpdateAnswer)?
        var courier: WakeSource?
        let taken = lock.withLock { () -> Bool in
            guard let entry = lanes[key] else { return false }
            switch entry.lane.offer(content, now: GLibTimer.now()) {
            case .declined: return false
            case .taken: return true
            case .send(let next):
                let ticket = makeTicket(next, for: entry)
                if let found = self.courier {
                    entry.unsent = true
                    outbox.append(entry)
                    courier = found
                } else {
                    failure = transmit(ticket, for: entry)
                }
                return true
            }
        }
        courier?.wake()
        if let failure { hand(failure) }
        return taken
    }

    /// An update left for the courier and not sent is not under way: the
    /// lane's latest content stays for the presenter to send if it still applies.
    private func withdrawUnsent(_ entry: Entry) {
        guard entry.unsent else { return }
        entry.unsent = false
        entry.ticket = nil
        _ = entry.lane.answered(applied: false, now: GLibTimer.now())
    }

    /// GDBus's thread: sends what the posting threads left for it.
    private func deliver() {
        var failures: [(UpdateTicket, UpdateAnswer)] = []
        let retired = lock.withLock { () -> WakeSource? in
            guard bus != nil else {
                defer { courier = nil }
                courier?.cancel()
                return courier
            }
            for entry in outbox {
                guard entry.unsent, let ticket = entry.ticket else { continue }
                // A lane shut meanwhile (a close, a dismissal, the presenter's
                // work) sends nothing more: its latest is the presenter's.
                guard entry.lane.isOpen else {
                    withdrawUnsent(entry)
                    continue
                }
                entry.unsent = false
                if let failure = transmit(ticket, for: entry) { failures.append(failure) }
            }
            outbox.removeAll()
            return nil
        }
        _ = retired  // released here, outside the lock
        for failure in failures { hand(failure) }
    }

    /// In a filter call, on GDBus's thread: its context is the thread-default one.
    private func meetGDBusThread() {
        guard courier == nil, bus != nil, let context = g_main_context_get_thread_default() else { return }
        courier = WakeSource(context: context) { [weak self] in self?.deliver() }
    }

    /// The banners whose lane takes updates now (diagnostics and tests).
    var openKeys: Set<String> {
        lock.withLock { Set(lanes.filter { $0.value.lane.isOpen }.keys) }
    }

    /// Shuts banner `key`'s lane: the presenter has work for it.
    func shut(key: String) {
        lock.withLock { lanes[key]?.lane.shut() }
    }

    /// Takes banner `key`'s lane back (presenter thread): what the server
    /// has, what was last taken in and the update under way.
    func reclaim(key: String) -> Reclaimed? {
        lock.withLock {
            guard let entry = lanes.removeValue(forKey: key) else { return nil }
            entry.lane.shut()
            withdrawUnsent(entry)
            return Reclaimed(
                lane: entry.lane, target: entry.target, underWay: entry.lane.underWay == nil ? nil : entry.ticket)
        }
    }

    /// Forgets `ticket`: its answer, if it ever comes, is ignored.
    func forget(_ ticket: UpdateTicket) {
        lock.withLock {
            guard let entry = bySerial.first(where: { $0.value.ticket === ticket }) else { return }
            bySerial[entry.key] = nil
        }
    }

    /// The ticket of `content`'s update, under the lock: from here on it is
    /// the one under way (and what the presenter takes back with the lane).
    private func makeTicket(_ content: NotificationContent, for entry: Entry) -> UpdateTicket {
        let target = entry.target
        let ticket = UpdateTicket(
            key: entry.key, banner: target.banner, generation: target.generation, id: target.id, content: content,
            server: target.server)
        entry.ticket = ticket
        return ticket
    }

    /// Sends `ticket`'s update under the lock; a message that could not be
    /// sent is answered as failed at once (the caller hands it over).
    private func transmit(_ ticket: UpdateTicket, for entry: Entry) -> (UpdateTicket, UpdateAnswer)? {
        let target = entry.target
        let content = ticket.content
        guard let bus else { return fail(entry, ticket, "the presenter has stopped") }
        let message = g_dbus_message_new_method_call(
            target.server, NotificationsBus.path, NotificationsBus.interface, "Notify")!
        g_dbus_message_set_body(
            message,
            NotifyArguments.update(
                id: target.id, content: content, owner: target.owner, icon: target.icon, rules: target.rules))
        g_dbus_message_set_flags(message, G_DBUS_MESSAGE_FLAGS_NO_AUTO_START)
        var serial: guint32 = 0
        var error: UnsafeMutablePointer<GError>?
        let sent = g_dbus_connection_send_message(bus, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, &serial, &error)
        g_object_unref(UnsafeMutableRawPointer(message))
        guard sent != 0 else { return fail(entry, ticket, GErrorText.take(error)) }
        entry.serial = serial
        bySerial[serial] = entry
        return nil
    }

    /// Outside the lock: the presenter takes its own lock to hear of it.
    private func hand(_ update: (UpdateTicket, UpdateAnswer)) {
        lock.withLock { handOver }?(update.0, update.1)
    }

    private func fail(_ entry: Entry, _ ticket: UpdateTicket, _ text: String) -> (UpdateTicket, UpdateAnswer) {
        _ = entry.lane.answered(applied: false, now: GLibTimer.now())
        return (ticket, .failed(text))
    }

    // MARK: - GDBus's thread

    /// Whether `message` is the answer to a lane's update (taken here); a
    /// server's `NotificationClosed` for a lane's notification shuts it, so
    /// that an update answered after it goes to the presenter, and what that
    /// update made is closed here (`answered`).
    private func consumes(_ message: OpaquePointer) -> Bool {
        switch g_dbus_message_get_message_type(message) {
        case G_DBUS_MESSAGE_TYPE_METHOD_RETURN, G_DBUS_MESSAGE_TYPE_ERROR:
            return answered(message)
        case G_DBUS_MESSAGE_TYPE_SIGNAL:
            shutOnClosed(message)
            return false
        default:
            return false
        }
    }

    private func answered(_ message: OpaquePointer) -> Bool {
        let serial = g_dbus_message_get_reply_serial(message)
        var handOff: (UpdateTicket, UpdateAnswer)?
        let ours = lock.withLock { () -> Bool in
            meetGDBusThread()
            // The bus itself answers for a server that is gone or never answered.
            guard let entry = bySerial[serial], let ticket = entry.ticket, entry.serial == serial,
                Self.sender(of: message, is: ticket.server)
                    || (g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_ERROR
                        && Self.sender(of: message, is: "org.freedesktop.DBus"))
            else { return false }
            bySerial[serial] = nil
            let answer = Self.answer(in: message)
            let applied: Bool
            if case .id(let id) = answer { applied = id == ticket.id } else { applied = false }
            if entry.closedByServer, case .id(let id) = answer {
                // Whatever the server made of an update that came after its
                // closing (dunst makes it again under the old id) must not
                // stay; closed here, whatever the presenter hears first.
                if let bus { NotificationsBus.close(id: id, on: ticket.server, bus: bus) }
            }
            switch entry.lane.answered(applied: applied, now: GLibTimer.now()) {
            case .settled: break
            case .send(let next): handOff = transmit(makeTicket(next, for: entry), for: entry)
            case .handOver: handOff = (ticket, answer)
            }
            return true
        }
        if let handOff { hand(handOff) }
        return ours
    }

    private func shutOnClosed(_ message: OpaquePointer) {
        guard let member = g_dbus_message_get_member(message), strcmp(member, "NotificationClosed") == 0,
            let interface = g_dbus_message_get_interface(message), strcmp(interface, NotificationsBus.interface) == 0,
            let body = g_dbus_message_get_body(message), g_variant_is_of_type(body, VariantType.notificationClosed) != 0
        else { return }
        let idValue = g_variant_get_child_value(body, 0)!
        let id = g_variant_get_uint32(idValue)
        g_variant_unref(idValue)
        lock.withLock {
            for entry in lanes.values
            where entry.target.id == id && Self.sender(of: message, is: entry.target.server) {
                entry.lane.shut()
                entry.closedByServer = true
            }
        }
    }

    private static func answer(in message: OpaquePointer) -> UpdateAnswer {
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_message_to_gerror(message, &error) != 0 { return .failed(GErrorText.take(error)) }
        guard let body = g_dbus_message_get_body(message), g_variant_is_of_type(body, VariantType.notifyReply) != 0
        else { return .failed("the server's answer to Notify is not (u)") }
        let idValue = g_variant_get_child_value(body, 0)!
        defer { g_variant_unref(idValue) }
        return .id(g_variant_get_uint32(idValue))
    }

    private static func sender(of message: OpaquePointer, is name: String) -> Bool {
        guard let sender = g_dbus_message_get_sender(message) else { return false }
        return name.withCString { strcmp(sender, $0) == 0 }
    }
}
